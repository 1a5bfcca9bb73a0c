"""Simulated test games: a batch of games between two decks, played in chunks in the background.

A batch freezes what it plays at creation (the engine card definitions of its decks, agents,
options, seed), so a later edit of a saved deck changes neither its results nor its replays.
Each chunk writes one row, once (unique per batch and index); the batch's counters move in the
same transaction, and the last chunk adds up the totals. Writes go through `engine.services`.

About 640 lines, one module: the engine app's tables (test batches, their seats and chunks, the
difficulty table and curves, Duel of Chaos batches, the suggestions' searches, the metagame),
mostly field declarations with their help texts, which Django finds in the app's `models`.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine import simulation

MAX_GAMES = 100_000


class Agent(models.TextChoices):
    """The computer players of `engine.rules.agents` (their strength per mode: the ladder file,
    `engine.agent_ladder`)."""

    RANDOM = "random", _("Random (weakest)")
    GREEDY = "greedy", _("Greedy (fastest)")
    LOOKAHEAD = "lookahead", _("Lookahead (slow)")
    STRONG = "strong", _("Strong (search, slowest)")
    LEARNED = "learned", _("Learned (learned evaluation, fast)")
    LEARNED_DEEP = "learned_deep", _("Learned, deeper (learned evaluation, one turn further)")


class Status(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")
    CANCELLED = "cancelled", _("cancelled")


ACTIVE_STATUSES = (Status.QUEUED, Status.RUNNING)


class DeckSource(models.TextChoices):
    DECK = "deck", _("a saved deck")
    CODE = "code", _("a deck code")
    PRECONSTRUCTED = "preconstructed", _("a preconstructed deck")
    # Solo: the AI's deck pile, made from the player's deck (engine.adapters.decks).
    SOLO_AI = "solo_ai", _("the Solo AI's deck")
    # Co-op: the AI's cards, which each game divides into its two deck piles.
    COOP_AI = "coop_ai", _("the Co-op AI's cards")
    DRAFT = "draft", _("drafted for each game")


class Drafter(models.TextChoices):
    """The computer drafters of `engine.rules.drafters` (a Draft batch)."""

    PRICE = "price", _("card worth")
    SIMULATED = "simulated", _("simulated games")


class SimulationBatch(models.Model):
    """Games between the decks entered in the batch (its `seats`, one per seat of its mode's
    table), played with the rules engine whose digest it records."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_batches"
    )
    mode = models.CharField(_("game mode"), max_length=20, default="duel")
    exhaustion = models.BooleanField(_("Exhaustion module"), default=False)
    champions = models.BooleanField(_("Champion module"), default=False)
    # A Draft batch (the Draft format): the expansion whose cards each game drafts its decks
    # from, and those cards as the engine plays them (null: the batch plays the decks entered).
    draft_expansion = models.CharField(_("Draft pool"), max_length=60, blank=True)
    draft_pool = models.JSONField(_("Draft pool cards"), null=True, blank=True)
    draft_slugs = models.JSONField(_("Draft pool slugs"), null=True, blank=True)
    games = models.PositiveIntegerField(
        _("games"), validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES)]
    )
    chunk_size = models.PositiveIntegerField(_("games per chunk"))
    seed = models.BigIntegerField(_("seed"))
    rules_version = models.CharField(_("rules version"), max_length=40)
    # `engine.rules.native.engine_digest()` of the engine that played the games: a game is
    # replayed only by the same rules and agents (blank: a batch from before it was recorded).
    engine_digest = models.CharField(_("engine digest"), max_length=64, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    games_done = models.PositiveIntegerField(_("games done"), default=0)
    chunks_done = models.PositiveIntegerField(_("chunks done"), default=0)
    # Chunks 0 to chunks_sent - 1 have been handed to the queue (`services._dispatch`, then one
    # more each time a chunk is written): the rest wait their turn, so batches take turns.
    chunks_sent = models.PositiveIntegerField(_("chunks sent"), default=0)
    # CPU seconds the chunks spent playing games (the rest of the wall time is overhead).
    engine_seconds = models.FloatField(_("engine time (s)"), default=0.0)
    error = models.TextField(_("error"), blank=True)
    # The totals of every game (`engine.simulation.Totals` JSON) once done or cancelled.
    totals = models.JSONField(_("totals"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The last sign of life of an active batch: a chunk written, or its missing chunks sent again
    # (`services.batch_resend_lost_chunks` looks for batches where it is too old).
    active_at = models.DateTimeField(_("last activity"), null=True, blank=True)
    # Solo: the AI's parameters (`engine.rules.ai_options.AiOptions` JSON) and the Custom Play
    # level they are worth in the difficulty table (0: Quick Play); null in the other modes.
    ai = models.JSONField(_("Solo AI"), null=True, blank=True)
    ai_level = models.SmallIntegerField(_("difficulty level"), null=True, blank=True)
    # The difficulty curve the batch is one level of (null: a batch asked for on its own).
    curve = models.ForeignKey(
        "DifficultyCurve",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="batches",
        verbose_name=_("difficulty curve"),
    )
    # A small batch of the same decks and seed played by another agent alongside this one, whose
    # win rates say whether the agents agree on the decks (its `controlled` side is this batch;
    # a control is not listed, and does not count towards its requester's limits).
    control = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="controlled",
        verbose_name=_("control batch"),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["requested_by", "status"]),
            models.Index(fields=["requested_by", "-created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(games__gte=1, games__lte=MAX_GAMES), name="simulation_games_range"
            ),
            models.CheckConstraint(
                condition=Q(games_done__lte=models.F("games")), name="simulation_games_done_range"
            ),
            models.CheckConstraint(condition=Q(chunk_size__gte=1), name="simulation_chunk_size"),
        ]
        verbose_name = _("simulation batch")
        verbose_name_plural = _("simulation batches")

    def __str__(self) -> str:
        return f"#{self.pk} ({self.games} games)"

    @property
    def chunks_total(self) -> int:
        return simulation.chunk_count(self.games, self.chunk_size)

    @property
    def draft_expansions(self) -> list[str]:
        """The slugs of the expansions a Draft batch drafts from (none: it plays its decks)."""
        return self.draft_expansion.split(",") if self.draft_expansion else []


class SimulationSeat(models.Model):
    """One deck entered in a batch: deck A (index 0), B... in the order asked for. The decks
    rotate through the table's seats from game to game (`engine.simulation.deck_in_seat`); this
    row is the deck and the AI that plays it, frozen at creation (a later edit of a saved deck
    changes neither the results nor the replays)."""

    batch = models.ForeignKey(SimulationBatch, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("index"))
    # Where the deck came from (a saved deck stays linked while it exists), its code, a name.
    source = models.CharField(_("from"), max_length=20, choices=DeckSource.choices)
    deck = models.ForeignKey(
        "decks.Deck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("saved deck"),
    )
    code = models.CharField(_("deck code"), max_length=600, blank=True)
    name = models.CharField(_("name"), max_length=120)
    preconstructed = models.PositiveSmallIntegerField(
        _("preconstructed deck"), null=True, blank=True
    )
    agent = models.CharField(_("AI"), max_length=20, choices=Agent.choices)
    # A Draft batch's entrant drafts its deck for each game (its `cards` are then empty).
    drafter = models.CharField(_("drafter"), max_length=20, choices=Drafter.choices, blank=True)
    # The engine card JSON of the cards played, the catalogue slug of each, and the Champion's
    # definition (null: none, or the module off).
    cards = models.JSONField(_("cards as played"))
    slugs = models.JSONField(_("catalogue slugs"))
    champion = models.JSONField(_("Champion as played"), null=True, blank=True)

    class Meta:
        ordering = ["batch", "index"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "index"], name="simulation_seat_unique_index")
        ]
        verbose_name = _("deck of a batch")
        verbose_name_plural = _("decks of a batch")

    def __str__(self) -> str:
        return f"batch {self.batch_id} deck {self.index}: {self.name}"


class SimulationChunk(models.Model):
    """The totals of games `first_game` … `first_game + games - 1` of a batch, written once."""

    batch = models.ForeignKey(SimulationBatch, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField(_("index"))
    first_game = models.PositiveIntegerField(_("first game"))
    games = models.PositiveIntegerField(_("games"))
    totals = models.JSONField(_("totals"))
    engine_seconds = models.FloatField(_("engine time (s)"))
    worker = models.CharField(_("worker"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("written"), auto_now_add=True)

    class Meta:
        ordering = ["batch", "index"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "index"], name="simulation_chunk_unique_index")
        ]
        verbose_name = _("simulation chunk")
        verbose_name_plural = _("simulation chunks")

    def __str__(self) -> str:
        return f"batch {self.batch_id} chunk {self.index}"


# Solo Custom Play's difficulty table (issue 15; the reconstruction is in docs/rulings.md) ------


class DifficultyOption(models.TextChoices):
    """What a difficulty parameter sets, as the key of the AI options' JSON
    (`engine.rules.ai_options.AiOptions`); `ability` adds one to the abilities all the AI's
    creatures bear, and `champion` says the player plays a Champion."""

    FIXED_MANA = "fixed_mana", _("fixed Mana")
    MANA_PER_CREATURE = "mana_per_creature", _("Mana per creature of the player")
    AI_FIRST = "ai_first", _("the AI plays first")
    RESISTANCE = "resistance", _("resistance")
    BASTION = "bastion", _("the AI's Bastion")
    ABILITY = "ability", _("a special ability of all the AI's creatures")
    CHAMPION = "champion", _("the player's Champion")


class DifficultyParameter(models.Model):
    """One choice of Custom Play with its difficulty points (negative: it makes the AI weaker)."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    option = models.CharField(_("option"), max_length=20, choices=DifficultyOption.choices)
    # The option's value: a number of Mana, true/false, or an ability code.
    value = models.JSONField(_("value"))
    points = models.SmallIntegerField(_("difficulty points"))
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = _("difficulty parameter")
        verbose_name_plural = _("difficulty parameters")

    def __str__(self) -> str:
        return f"{self.code} ({self.points:+d})"


class DifficultyParameterTranslation(models.Model):
    parameter = models.ForeignKey(
        DifficultyParameter, on_delete=models.CASCADE, related_name="translations"
    )
    language_code = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["parameter", "language_code"],
                name="difficulty_parameter_translation_unique",
            )
        ]
        verbose_name = _("difficulty parameter translation")
        verbose_name_plural = _("difficulty parameter translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


MIN_LEVEL = 1
MAX_LEVEL = 10


class DifficultyLevel(models.Model):
    """A Custom Play level: its budget of difficulty points and the parameters a test game at
    this level plays (they must spend the budget exactly, `selectors.difficulty_problems`)."""

    level = models.PositiveSmallIntegerField(
        _("level"),
        unique=True,
        validators=[MinValueValidator(MIN_LEVEL), MaxValueValidator(MAX_LEVEL)],
    )
    budget = models.PositiveSmallIntegerField(_("difficulty points"))
    parameters = models.ManyToManyField(
        DifficultyParameter,
        blank=True,
        related_name="levels",
        verbose_name=_("default parameters"),
    )

    class Meta:
        ordering = ["level"]
        constraints = [
            models.CheckConstraint(
                condition=Q(level__gte=MIN_LEVEL, level__lte=MAX_LEVEL),
                name="difficulty_level_range",
            )
        ]
        verbose_name = _("difficulty level")
        verbose_name_plural = _("difficulty levels")

    def __str__(self) -> str:
        return f"{self.level} ({self.budget})"


class DifficultyCurve(models.Model):
    """One deck played in Solo against every level of the difficulty table: one batch per level
    (`batches`, each with its `ai_level`), run like any batch."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="difficulty_curves"
    )
    # The saved deck it was asked for (its page shows the curve), kept while the deck exists.
    deck = models.ForeignKey(
        "decks.Deck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("saved deck"),
    )
    games_per_level = models.PositiveIntegerField(
        _("games per level"), validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES)]
    )
    seed = models.BigIntegerField(_("seed"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["requested_by", "deck", "-created_at"])]
        verbose_name = _("difficulty curve")
        verbose_name_plural = _("difficulty curves")

    def __str__(self) -> str:
        return f"curve #{self.pk} ({self.games_per_level} games per level)"


# ---- Duel of Chaos test batches ---------------------------------------------------------------


class ChaosAgent(models.TextChoices):
    """The computer players of `engine.chaos.agents`, weakest to strongest."""

    RANDOM = "random", _("Random (weakest)")
    GREEDY = "greedy", _("Greedy (fast)")
    SEARCH = "search", _("Search (strongest, slowest)")


# The games a Duel of Chaos batch may ask, by its slower agent: about 20 seconds of one core
# (greedy ~1,000 games/s, random ~300, search ~6; bench/chaos_bench.py).
CHAOS_MAX_GAMES = {ChaosAgent.RANDOM: 5000, ChaosAgent.GREEDY: 20_000, ChaosAgent.SEARCH: 120}


class ChaosBatch(models.Model):
    """Seeded games of Duel of Chaos between two computer players on one set of the catalogue
    (engine.chaos.batch): game `i` can be played again from the seed alone."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chaos_batches"
    )
    # The catalogue set whose cards are played (cards.ChaosSet.code), and its cards as played
    # (engine.chaos.cards fields), so a later edit of the set changes no result.
    set_code = models.CharField(_("set"), max_length=10)
    cards = models.JSONField(_("cards as played"))
    agent_a = models.CharField(_("AI of seat A"), max_length=10, choices=ChaosAgent.choices)
    agent_b = models.CharField(_("AI of seat B"), max_length=10, choices=ChaosAgent.choices)
    games = models.PositiveIntegerField(_("games"), validators=[MinValueValidator(1)])
    seed = models.BigIntegerField(_("seed"))
    rules_version = models.CharField(_("rules version"), max_length=40)
    # `engine.chaos.digest.engine_digest()`: only the same rules and agents replay its games
    # (empty: played before the digest was recorded, so not replayable).
    engine_digest = models.CharField(_("engine digest"), max_length=64, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # `engine.chaos.batch.BatchTotals` JSON once done.
    totals = models.JSONField(_("totals"), null=True, blank=True)
    engine_seconds = models.FloatField(_("engine time (s)"), default=0.0)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["requested_by", "-created_at"])]
        verbose_name = _("Duel of Chaos test batch")
        verbose_name_plural = _("Duel of Chaos test batches")

    def __str__(self) -> str:
        return f"Duel of Chaos #{self.pk} ({self.games} games)"


# ---- "Improve this deck": searches of card swaps proved by simulated games --------------------


class SuggestionField(models.TextChoices):
    """What a suggestion search plays the deck against."""

    PRECONSTRUCTED = "preconstructed", _("the preconstructed decks")
    DECKS = "decks", _("decks of my choice")
    MOST_PLAYED = "most_played", _("the public decks most played")


class CandidateStatus(models.TextChoices):
    """Where a candidate deck (the deck with its swaps) stands in the race
    (`engine.suggestions.search`)."""

    BASELINE = "baseline", _("the deck as it is")
    RACING = "racing", _("being tested")
    # Stopped: its interval lies wholly below the deck's win rate, or below the leader's.
    WORSE = "worse", _("worse than the deck")
    BEHIND = "behind", _("worse than the best swap")
    # Stopped by successive halving: among the weaker half, not proved worse.
    CUT = "cut", _("dropped for weaker ones")
    CONFIRMING = "confirming", _("being confirmed")
    PROVED = "proved", _("proved better")
    UNPROVED = "unproved", _("not confirmed")
    # The search ended (budget spent, or the screening's last round) before a verdict.
    UNDECIDED = "undecided", _("undecided")


class SuggestionSearch(models.Model):
    """A search of the card swaps that raise a saved deck's win rate against a field of decks,
    raced by simulated games in rounds on the workers (`engine.suggestions`). It freezes what it
    plays at creation: the deck's cards, the field's decks, the cards it may bring in."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suggestion_searches"
    )
    deck = models.ForeignKey(
        "decks.Deck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deck"),
    )
    deck_version = models.PositiveIntegerField(_("deck version"))
    deck_name = models.CharField(_("deck name"), max_length=120)
    field = models.CharField(_("opponents"), max_length=20, choices=SuggestionField.choices)
    # The deck as played (engine card JSON) with the catalogue slug of each card, the field's
    # decks ([{"name", "code", "share_id", "cards", "slugs"}]), and the cards candidates bring in
    # ({slug: engine card JSON}).
    cards = models.JSONField(_("cards as played"))
    slugs = models.JSONField(_("catalogue slugs"))
    opponents = models.JSONField(_("opponent decks"))
    incoming = models.JSONField(_("cards to bring in"))
    # What checking a swap needs of the deck as searched (`candidates.frozen_deck`): its format,
    # its cards, those the opponent removed and its pool, by slug.
    frozen = models.JSONField(_("deck as searched"))
    # How the candidates were chosen (`engine.suggestions.candidates.Pruning` JSON).
    pruning = models.JSONField(_("candidate choice"))
    agent = models.CharField(_("AI"), max_length=20)
    seed = models.BigIntegerField(_("seed"))
    max_games = models.PositiveIntegerField(_("game budget"), validators=[MinValueValidator(1)])
    games_done = models.PositiveIntegerField(_("games done"), default=0)
    engine_seconds = models.FloatField(_("engine time (s)"), default=0.0)
    rules_version = models.CharField(_("rules version"), max_length=40)
    engine_digest = models.CharField(_("engine digest"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # The round being played, its target of games per opponent, its units and how many are
    # written; whether the pairs of swaps have joined the race.
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    target = models.PositiveIntegerField(_("games per opponent"), default=0)
    units_total = models.PositiveIntegerField(_("units of the round"), default=0)
    units_done = models.PositiveIntegerField(_("units written"), default=0)
    pairs_added = models.BooleanField(_("pairs of swaps added"), default=False)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    first_proved_at = models.DateTimeField(_("first suggestion proved"), null=True, blank=True)
    first_proved_games = models.PositiveIntegerField(
        _("games played by the first proof"), null=True, blank=True
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The last sign of life while active (a unit written, lost units sent again).
    active_at = models.DateTimeField(_("last activity"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["requested_by", "status"]),
            models.Index(fields=["requested_by", "deck", "-created_at"]),
        ]
        verbose_name = _("suggestion search")
        verbose_name_plural = _("suggestion searches")

    def __str__(self) -> str:
        return f"suggestions #{self.pk} for {self.deck_name}"


class SuggestionCandidate(models.Model):
    """The deck with one or two swaps (index 0: the deck as it is, which every game of the
    others is paired with), and the results of its games so far."""

    search = models.ForeignKey(
        SuggestionSearch, on_delete=models.CASCADE, related_name="candidates"
    )
    index = models.PositiveSmallIntegerField(_("index"))
    # [[slug out, slug in], ...]: empty for the deck as it is.
    swaps = models.JSONField(_("swaps"))
    status = models.CharField(_("status"), max_length=12, choices=CandidateStatus.choices)
    # Results by stream then by opponent: {"0": ["wlld…", …]} (`engine.suggestions.search`).
    results = models.JSONField(_("results"), default=dict)
    # The confirmation's stream (null: not confirmed), and the round that settled it.
    confirm_stream = models.PositiveSmallIntegerField(_("confirmation"), null=True, blank=True)
    settled_round = models.PositiveSmallIntegerField(_("settled in round"), null=True, blank=True)

    class Meta:
        ordering = ["search", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["search", "index"], name="suggestion_candidate_unique_index"
            )
        ]
        verbose_name = _("suggestion candidate")
        verbose_name_plural = _("suggestion candidates")

    def __str__(self) -> str:
        return f"search {self.search_id} candidate {self.index}"


class SuggestionUnit(models.Model):
    """One task's games of a round: `work` lists [candidate, stream, first game, games], the
    games played against every opponent; `results` the outcome strings, written once."""

    search = models.ForeignKey(SuggestionSearch, on_delete=models.CASCADE, related_name="units")
    round = models.PositiveSmallIntegerField(_("round"))
    index = models.PositiveIntegerField(_("index"))
    work = models.JSONField(_("work"))
    results = models.JSONField(_("results"), null=True, blank=True)
    games = models.PositiveIntegerField(_("games"))
    engine_seconds = models.FloatField(_("engine time (s)"), default=0.0)
    written_at = models.DateTimeField(_("written"), null=True, blank=True)

    class Meta:
        ordering = ["search", "round", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["search", "round", "index"], name="suggestion_unit_unique_index"
            )
        ]
        verbose_name = _("suggestion unit")
        verbose_name_plural = _("suggestion units")

    def __str__(self) -> str:
        return f"search {self.search_id} round {self.round} unit {self.index}"


# ---- The metagame: a round robin of the most popular public decks -----------------------------


class MetagamePairing(models.Model):
    """Games between two versions of two public decks, played once and kept: a refresh of the
    metagame plays again only the pairs where a deck changed (or the engine did)."""

    deck_a = models.ForeignKey(
        "decks.Deck", on_delete=models.CASCADE, related_name="+", verbose_name=_("deck A")
    )
    version_a = models.PositiveIntegerField(_("version of deck A"))
    deck_b = models.ForeignKey(
        "decks.Deck", on_delete=models.CASCADE, related_name="+", verbose_name=_("deck B")
    )
    version_b = models.PositiveIntegerField(_("version of deck B"))
    # The engine card JSON of both decks as played.
    cards_a = models.JSONField(_("cards of deck A"))
    cards_b = models.JSONField(_("cards of deck B"))
    agent = models.CharField(_("AI"), max_length=20)
    games = models.PositiveIntegerField(_("games"), validators=[MinValueValidator(1)])
    seed = models.BigIntegerField(_("seed"))
    engine_digest = models.CharField(_("engine digest"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    wins_a = models.PositiveIntegerField(_("wins of deck A"), default=0)
    wins_b = models.PositiveIntegerField(_("wins of deck B"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    engine_seconds = models.FloatField(_("engine time (s)"), default=0.0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["deck_a", "deck_b", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=[
                    "deck_a", "version_a", "deck_b", "version_b", "agent", "games",
                    "engine_digest",
                ],
                name="metagame_pairing_unique_key",
            ),
            models.CheckConstraint(
                condition=Q(deck_a__lt=models.F("deck_b")), name="metagame_pairing_ordered"
            ),
        ]  # fmt: skip
        verbose_name = _("metagame pairing")
        verbose_name_plural = _("metagame pairings")

    def __str__(self) -> str:
        return f"{self.deck_a_id} v{self.version_a} vs {self.deck_b_id} v{self.version_b}"


class MetagameRefresh(models.Model):
    """One round robin of the metagame: the decks it ranks (frozen as they were), the pairings
    they need, and once all are played each deck's Elo with its interval and its best and worst
    matchups (`standings`)."""

    # [{"deck": id, "share_id", "name", "owner", "version", "forks", "players"}], by popularity.
    entries = models.JSONField(_("decks"))
    pairings = models.ManyToManyField(
        MetagamePairing, related_name="refreshes", verbose_name=_("pairings")
    )
    agent = models.CharField(_("AI"), max_length=20)
    games_per_pair = models.PositiveIntegerField(_("games per pair"))
    engine_digest = models.CharField(_("engine digest"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # `engine.metagame.selectors.Standing` JSON, strongest first, once done.
    standings = models.JSONField(_("standings"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("metagame refresh")
        verbose_name_plural = _("metagame refreshes")

    def __str__(self) -> str:
        return f"metagame #{self.pk} ({len(self.entries)} decks)"
