"""Games played at a table: the seed, the decks as the engine plays them, the options, the seats
and the ordered actions. Nothing else is stored: the position is the engine replaying the actions
(`play.position_selectors.game_state`), so a reload, a lost connection or a server restart
resumes exactly. Writes go through `play.table_services` and `play.services`.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def new_game_id() -> str:
    # Public ids in URLs: a guessable number would list everyone's tables.
    return secrets.token_urlsafe(8)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Status(models.TextChoices):
    WAITING = "waiting", _("waiting for players")
    # Draft tables: every seat is taken, the players pick their decks (`DraftPick`).
    DRAFTING = "drafting", _("drafting")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")


class Format(models.TextChoices):
    PRECONSTRUCTED = "preconstructed", _("Preconstructed")
    CONSTRUCTED = "constructed", _("Constructed")
    # The decks are drafted at the table from `Game.draft_pool` with the mode's procedure.
    DRAFT = "draft", _("Draft")
    # Each player plays the deck they chose in a Mutation session they hold a seat in.
    MUTATION = "mutation", _("Mutation decks")


class Mode(models.TextChoices):
    """The engine's modes (`engine.rules.modes.MODES`) a table may play."""

    DUEL = "duel", _("Duel")
    SOLO = "solo", _("Solo")
    FREE_FOR_ALL = "free_for_all", _("Free-For-All")
    TEAMS = "teams", _("Team Play")
    COOP = "coop", _("Co-op")


class Agent(models.TextChoices):
    """The computer players of `engine.rules.agents` a table may seat; which is the strongest
    is the strength ladder's say (`play.selectors.agent_label`), not their names'."""

    RANDOM = "random", _("Random")
    GREEDY = "greedy", _("Greedy")
    LOOKAHEAD = "lookahead", _("Lookahead")
    STRONG = "strong", _("Strong search")


class TurnTime(models.IntegerChoices):
    """A table's time per turn, in seconds: from a sitting to correspondence play, where a game
    waits days between turns."""

    FIVE_MINUTES = 300, _("5 minutes")
    ONE_HOUR = 3600, _("1 hour")
    ONE_DAY = 86400, _("1 day")
    THREE_DAYS = 259200, _("3 days")
    ONE_WEEK = 604800, _("7 days")


class SeatKind(models.TextChoices):
    PLAYER = "player", _("a player")
    AGENT = "agent", _("a computer player")
    # Solo's and Co-op's AI: the engine plays its turns inside the previous seat's end of turn.
    AUTOMATON = "automaton", _("the Solo AI")


class Game(models.Model):
    """One game at a table, of the rules engine whose digest it records."""

    uid = models.CharField(_("id"), max_length=16, unique=True, default=new_game_id)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_games"
    )
    mode = models.CharField(_("game mode"), max_length=20, choices=Mode.choices, default=Mode.DUEL)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    exhaustion = models.BooleanField(_("Exhaustion module"), default=False)
    # Drawn by the server (`secrets`) and shown by nothing before the game ends (the replay has
    # it): it decides every hidden card. `seed_chosen`: the creator chose it, which only a table
    # where no other person sits allows (practice against computer players); the table says so.
    seed = models.BigIntegerField(_("seed"))
    seed_chosen = models.BooleanField(_("seed chosen by its creator"), default=False)
    # Solo and Co-op: the AI's parameters (`AiOptions` JSON) and their level in the difficulty
    # table (`engine.models.DifficultyLevel`); null in the other modes.
    ai = models.JSONField(_("AI parameters"), null=True, blank=True)
    ai_level = models.PositiveSmallIntegerField(_("AI level"), null=True, blank=True)
    rules_version = models.CharField(_("rules version"), max_length=40)
    # `engine.rules.native.engine_digest()`: only the same rules replay these actions.
    engine_digest = models.CharField(_("engine digest"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    # Listed in the lobby's open tables; else only the share link's invite code seats a player.
    listed = models.BooleanField(_("open to anyone"), default=False)
    invite_code = models.CharField(_("invite code"), max_length=24, default=new_invite_code)
    # Who has the spectate link sees the public view: no hand, as a player sees the others'.
    spectate_code = models.CharField(_("spectate code"), max_length=24, default=new_invite_code)
    # The time per turn (None: no limit) and when the turn of the seat to play began: a player's
    # seat whose time runs out loses the game (`play.services.game_timeouts_apply`).
    turn_seconds = models.PositiveIntegerField(
        _("time per turn"), choices=TurnTime.choices, null=True, blank=True
    )
    turn_started_at = models.DateTimeField(_("turn started"), null=True, blank=True)
    # Facts of the replayed position kept for the lobby, written with each action.
    action_count = models.PositiveIntegerField(_("actions"), default=0)
    active_seat = models.PositiveSmallIntegerField(_("seat to play"), null=True, blank=True)
    turn = models.PositiveIntegerField(_("turn"), default=0)
    # Draft tables: the pool's expansions (slugs), its cards as engine JSON and their slugs;
    # the draft is the engine's procedure replayed from the seed and the stored picks.
    draft_expansion = models.CharField(_("draft pool"), max_length=200, blank=True)
    draft_pool = models.JSONField(_("draft pool cards"), null=True, blank=True)
    draft_slugs = models.JSONField(_("draft pool slugs"), default=list, blank=True)
    pick_count = models.PositiveIntegerField(_("picks"), default=0)
    # The winning seats (empty: a draw) once finished, and the game as an engine replay.
    winners = models.JSONField(_("winners"), default=list, blank=True)
    replay = models.JSONField(_("replay"), null=True, blank=True)
    # The seat that plays first (None: the engine's coin toss from the seed); a rematch gives
    # the first turn to the seat after the finished game's first player (`play.end_services`).
    first_player = models.PositiveSmallIntegerField(_("first player"), null=True, blank=True)
    # The finished game this table is the rematch of: one rematch a game, which both its
    # players reach from its result screen.
    rematch_of = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch",
        verbose_name=_("rematch of"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last action"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["status", "listed"])]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"{self.uid} ({self.status})"


class Seat(models.Model):
    """A seat of a game: a player (an account, or a guest with a secret seat token) or a computer
    agent; its deck as the engine plays it once chosen."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=10, choices=SeatKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="play_seats",
    )
    # A seat invited by username: only this account may take it (the share link too), and the
    # invitation shows in its header until the seat is taken or the table ends. Their account
    # deleted, the seat stays open to the share link.
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="play_invitations",
        verbose_name=_("invited player"),
    )
    guest_name = models.CharField(_("guest name"), max_length=40, blank=True)
    # sha256 of a guest's seat token: the token itself is shown once, to the guest.
    token_hash = models.CharField(_("seat token hash"), max_length=64, blank=True)
    agent = models.CharField(_("computer player"), max_length=20, choices=Agent.choices, blank=True)
    deck_name = models.CharField(_("deck"), max_length=120, blank=True)
    # Engine card JSON of the deck played and the Champion's (null: not chosen yet / none).
    cards = models.JSONField(_("cards as played"), null=True, blank=True)
    champion = models.JSONField(_("Champion as played"), null=True, blank=True)
    # The catalogue slugs of the cards played: Co-op's AI takes cards neither player holds.
    slugs = models.JSONField(_("card slugs"), default=list, blank=True)
    conceded = models.BooleanField(_("conceded"), default=False)
    timed_out = models.BooleanField(_("lost on time"), default=False)
    # The table this seat's player opened from the finished game's "Play again": one a seat, so
    # that the button pressed twice leads to the same table.
    played_again = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="played_again_from",
        verbose_name=_("played again at"),
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="play_seat_unique_index")
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.index}"

    @property
    def taken(self) -> bool:
        return self.kind != SeatKind.PLAYER or self.user_id is not None or bool(self.token_hash)


class GameAction(models.Model):
    """One engine action of a game, in order, with the client id its seat sent it with
    (idempotence: one action per seat and client id)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    index = models.PositiveIntegerField(_("index"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    client_id = models.CharField(_("client id"), max_length=64)
    kind = models.PositiveSmallIntegerField(_("kind"))
    card = models.IntegerField(_("card"))
    arg = models.IntegerField(_("argument"))
    created_at = models.DateTimeField(_("played"), auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="play_action_unique_index"),
            # Per seat: two players' clients may count their ids alike.
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"], name="play_action_unique_client"
            ),
            models.CheckConstraint(condition=Q(kind__lte=4), name="play_action_kind"),
        ]
        verbose_name = _("action")
        verbose_name_plural = _("actions")

    def __str__(self) -> str:
        return f"{self.game_id} #{self.index}"


class DraftPick(models.Model):
    """One pick of a Draft table, in order: the seat and the pool indices it took, with the
    client id it was sent with (idempotence, as `GameAction`)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="picks")
    index = models.PositiveIntegerField(_("index"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    client_id = models.CharField(_("client id"), max_length=64)
    cards = models.JSONField(_("cards"))
    created_at = models.DateTimeField(_("picked"), auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="play_pick_unique_index"),
            models.UniqueConstraint(
                fields=["game", "seat", "client_id"], name="play_pick_unique_client"
            ),
        ]
        verbose_name = _("draft pick")
        verbose_name_plural = _("draft picks")

    def __str__(self) -> str:
        return f"{self.game_id} pick {self.index}"


class ChaosAgent(models.TextChoices):
    """The computer players of `engine.chaos.agents` a Duel of Chaos table may seat, weakest to
    strongest (the default is the strongest)."""

    RANDOM = "random", _("Random (weakest)")
    GREEDY = "greedy", _("Greedy (fast)")
    SEARCH = "search", _("Search (strongest)")


class ChaosTable(models.Model):
    """A Duel of Chaos game at a table (`engine.chaos`): the catalogue set's cards as the engine
    plays them, the seed and the ordered actions. As for `Game`, the position is the engine
    replaying them (`play.chaos_selectors.chaos_state`). Writes go through `play.chaos_services`.
    """

    uid = models.CharField(_("id"), max_length=16, unique=True, default=new_game_id)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chaos_tables"
    )
    set_code = models.CharField(_("set"), max_length=20)
    # The set's cards as engine fields when the table opened (a later edit of the catalogue
    # does not change a game in play).
    cards = models.JSONField(_("cards as played"))
    # Drawn by the server (`secrets`), shown by nothing before the game ends.
    seed = models.BigIntegerField(_("seed"))
    rules_version = models.CharField(_("rules version"), max_length=40)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    invite_code = models.CharField(_("invite code"), max_length=24, default=new_invite_code)
    spectate_code = models.CharField(_("spectate code"), max_length=24, default=new_invite_code)
    # The engine actions in order, each {"seat", "kind", "value", "client"}: the client id its
    # seat sent it with (one action per seat and client id).
    actions = models.JSONField(_("actions"), default=list, blank=True)
    action_count = models.PositiveIntegerField(_("actions"), default=0)
    turn = models.PositiveIntegerField(_("turn"), default=0)
    # The seat deciding now (None: waiting or over), kept for the lobby.
    to_move = models.PositiveSmallIntegerField(_("seat to play"), null=True, blank=True)
    # "A", "B" or empty (no winner: the turn limit) once finished, and the engine replay.
    winner = models.CharField(_("winner"), max_length=1, blank=True)
    replay = models.JSONField(_("replay"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last action"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        verbose_name = _("Duel of Chaos table")
        verbose_name_plural = _("Duel of Chaos tables")

    def __str__(self) -> str:
        return f"{self.uid} ({self.status})"


class ChaosSeat(models.Model):
    """A seat of a Duel of Chaos table: a player (an account, or a guest with a secret seat
    token) or a computer player."""

    table = models.ForeignKey(ChaosTable, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=10, choices=SeatKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chaos_seats",
    )
    guest_name = models.CharField(_("guest name"), max_length=40, blank=True)
    token_hash = models.CharField(_("seat token hash"), max_length=64, blank=True)
    agent = models.CharField(
        _("computer player"), max_length=20, choices=ChaosAgent.choices, blank=True
    )

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="play_chaos_seat_unique_index")
        ]
        verbose_name = _("Duel of Chaos seat")
        verbose_name_plural = _("Duel of Chaos seats")

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.index}"

    @property
    def taken(self) -> bool:
        return self.kind != SeatKind.PLAYER or self.user_id is not None or bool(self.token_hash)
