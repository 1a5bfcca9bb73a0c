"""Simulated test games: a batch of games between two decks, played in chunks in the background.

A batch freezes what it plays at creation (the engine card definitions of its decks, agents,
options, seed), so a later edit of a saved deck changes neither its results nor its replays.
Each chunk writes one row, once (unique per batch and index); the batch's counters move in the
same transaction, and the last chunk adds up the totals. Writes go through `engine.services`.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine import simulation

MAX_GAMES = 100_000


class Agent(models.TextChoices):
    """The computer players of `engine.rules.agents`, weakest to strongest."""

    RANDOM = "random", _("Random (weakest)")
    GREEDY = "greedy", _("Greedy (fast)")
    LOOKAHEAD = "lookahead", _("Lookahead (strongest, slow)")


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


class SimulationBatch(models.Model):
    """Games between the decks entered in the batch (its `seats`, one per seat of its mode's
    table), played with the rules engine whose digest it records."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_batches"
    )
    mode = models.CharField(_("game mode"), max_length=20, default="duel")
    exhaustion = models.BooleanField(_("Exhaustion module"), default=False)
    champions = models.BooleanField(_("Champion module"), default=False)
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
