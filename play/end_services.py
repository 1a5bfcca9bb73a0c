"""Writes of a finished table's result screen (issue 29, "An end"): the rematch and playing
again against the computer. Both open a new table copying the finished one's mode, format,
options and decks (the decks as played: a Draft table drafts again from its pool); the finished
game stays as it was.

A rematch keeps every seat: its computer players, and its people, each at their seat with their
deck. The player who asks for it sits at once; the seat of every other person is kept for them
(an account's as an invitation by username, which shows in their header; a guest's stays open
to no one else's rematch button) until they take it from the result screen
(`game_rematch` again, which returns the same rematch). The game starts once every seat is
taken: at once against computers only. The first turn goes to the seat after the finished
game's first player (Solo and Co-op: the rulebook always gives it to the player, rule
solo-setup).
"""

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.rules import AUTOMATON, MODES, RULES_VERSION, engine_digest
from play.models import Agent, Format, Game, Seat, SeatKind, Status
from play.position_selectors import game_state
from play.seeds import new_seed
from play.selectors import rematch_get
from play.services import game_start_when_seated

# Who replaces a person when a player plays again against the computer at a table with no
# computer player: the new table form's default.
DEFAULT_AGENT = Agent.GREEDY


@dataclass(frozen=True)
class NextTable:
    """The table a result screen's button leads to (the rematch, the game played again), and
    whether this call made it (else an earlier call did)."""

    game: Game
    created: bool


def _check_finished(game: Game) -> None:
    """Only a game played to its end has a rematch or a game again: 409 `not_finished`."""
    if game.status != Status.FINISHED or game.replay is None:
        raise DomainError(
            "not_finished",
            _("This game is not over: its result screen comes at the end."),
            {"game": game.uid},
            status_code=409,
        )


def _next_first_player(game: Game) -> int | None:
    """The rematch's first player: the seat after the finished game's (None in Solo and Co-op,
    where the rules decide it)."""
    if MODES[game.mode].seats[-1].controller == AUTOMATON:
        return None
    state = game_state(game)
    return int(state.setup.next_seat[state.first_player])


def _new_table(game: Game, creator: User, first_player: int | None, rematch: bool) -> Game:
    """A table like `game` (its mode, format, options and Draft pool), unlisted, with a new seed
    drawn by the server (a chosen seed is not kept: the new table's seats may differ)."""
    return Game.objects.create(
        created_by=creator,
        mode=game.mode,
        format=game.format,
        exhaustion=game.exhaustion,
        seed=new_seed(),
        ai=game.ai,
        ai_level=game.ai_level,
        rules_version=RULES_VERSION,
        engine_digest=engine_digest(),
        turn_seconds=game.turn_seconds,
        draft_expansion=game.draft_expansion,
        draft_pool=game.draft_pool,
        draft_slugs=game.draft_slugs,
        first_player=first_player,
        rematch_of=game if rematch else None,
    )


def _deck_copy(old: Seat, game: Game) -> dict[str, object]:
    """The deck fields of `old` for the new table (none at a Draft table: it drafts again; the
    AI's seats of Co-op get theirs when the game starts)."""
    if game.format == Format.DRAFT or (game.mode == "coop" and old.kind == SeatKind.AUTOMATON):
        return {"deck_name": "", "cards": None, "champion": None, "slugs": []}
    return {
        "deck_name": old.deck_name,
        "cards": old.cards,
        "champion": old.champion,
        "slugs": old.slugs,
    }


def _creator(game: Game, seat: Seat) -> User:
    # A guest has no account: the table is recorded as made by the finished game's creator.
    return seat.user if seat.user is not None else game.created_by


def game_rematch(*, game: Game, seat: Seat) -> NextTable:
    """The rematch of finished `game` for its player at `seat`: made now if none was (`seat`
    seated with its deck, the others' seats kept for them), else the one made before, in which
    `seat`'s player now takes the seat kept for them. 409 `not_finished`, `rematch_seat_taken`
    (someone else took the seat kept for this player through the share link)."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        _check_finished(locked)
        existing = rematch_get(game=locked)
        if existing is not None:
            _rematch_join(existing, seat)
            return NextTable(game=existing, created=False)
        new = _new_table(locked, _creator(locked, seat), _next_first_player(locked), True)
        for old in game.seats.all():
            person = old.kind == SeatKind.PLAYER
            mine = old.pk == seat.pk
            Seat.objects.create(
                game=new,
                index=old.index,
                kind=old.kind,
                agent=old.agent,
                user=old.user if mine else None,
                guest_name=old.guest_name if mine else "",
                # A guest keeps their seat token: the same token plays the rematch.
                token_hash=old.token_hash if mine else "",
                invited=old.user if person and not mine else None,
                **_deck_copy(old, new),
            )
        new = Game.objects.prefetch_related("seats").get(pk=new.pk)
        game_start_when_seated(game=new)
    return NextTable(game=new, created=True)


def _rematch_join(rematch: Game, seat: Seat) -> None:
    """`seat`'s player takes their seat of `rematch` (the same index), kept for them, unless they
    sit there already."""
    rematch = Game.objects.select_for_update().get(pk=rematch.pk)
    seats = list(rematch.seats.select_for_update())
    kept = next(other for other in seats if other.index == seat.index)
    if _holds(kept, seat):
        return
    if kept.taken or rematch.status != Status.WAITING:
        raise DomainError(
            "rematch_seat_taken",
            _("Your seat at the rematch was taken by someone else."),
            {"game": rematch.uid},
            status_code=409,
        )
    kept.user = seat.user
    kept.invited = None
    kept.guest_name = seat.guest_name
    kept.token_hash = seat.token_hash
    kept.save(update_fields=["user", "invited", "guest_name", "token_hash"])
    rematch = Game.objects.prefetch_related("seats").get(pk=rematch.pk)
    game_start_when_seated(game=rematch)


def _holds(kept: Seat, seat: Seat) -> bool:
    if seat.user_id is not None:
        return kept.user_id == seat.user_id
    return bool(seat.token_hash) and kept.token_hash == seat.token_hash


def game_play_again(*, game: Game, seat: Seat) -> NextTable:
    """A new table like finished `game` for its player at `seat`, every other person's seat
    played by a computer: the table's computer player if it had one, else `DEFAULT_AGENT`,
    each seat with the deck it played. It starts at once (a Draft table: its draft). The first
    player is the engine's coin toss. Asked again by the same seat: the same table. 409
    `not_finished`."""
    _check_finished(game)
    seats = list(game.seats.all())
    agents = [other.agent for other in seats if other.kind == SeatKind.AGENT]
    agent = agents[0] if agents else DEFAULT_AGENT
    with transaction.atomic():
        asking = Seat.objects.select_for_update().get(pk=seat.pk)
        if asking.played_again is not None:
            return NextTable(game=asking.played_again, created=False)
        new = _new_table(game, _creator(game, seat), None, False)
        for old in seats:
            mine = old.pk == seat.pk
            person = old.kind == SeatKind.PLAYER and not mine
            Seat.objects.create(
                game=new,
                index=old.index,
                kind=SeatKind.AGENT if person else old.kind,
                agent=agent if person else old.agent,
                user=old.user if mine else None,
                guest_name=old.guest_name if mine else "",
                token_hash=old.token_hash if mine else "",
                **_deck_copy(old, new),
            )
        asking.played_again = new
        asking.save(update_fields=["played_again"])
        new = Game.objects.prefetch_related("seats").get(pk=new.pk)
        game_start_when_seated(game=new)
    return NextTable(game=new, created=True)
