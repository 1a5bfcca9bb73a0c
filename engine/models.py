"""Simulated test games: a batch of games between two decks, played in chunks in the background.

A batch freezes what it plays at creation (the engine card definitions of both decks, agents,
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
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="simulation_batches"
    )
    # Each side: where the deck came from (a saved deck stays linked while it exists), its code,
    # a name to show, and in `decks` the frozen engine definitions both sides are played with.
    deck_a_source = models.CharField(_("deck A from"), max_length=20, choices=DeckSource.choices)
    deck_a = models.ForeignKey(
        "decks.Deck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deck A"),
    )
    deck_a_code = models.CharField(_("deck A code"), max_length=600, blank=True)
    deck_a_name = models.CharField(_("deck A name"), max_length=120)
    deck_b_source = models.CharField(_("deck B from"), max_length=20, choices=DeckSource.choices)
    deck_b = models.ForeignKey(
        "decks.Deck",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("deck B"),
    )
    deck_b_code = models.CharField(_("deck B code"), max_length=600, blank=True)
    deck_b_name = models.CharField(_("deck B name"), max_length=120)
    # [{"cards": [engine card JSON], "slugs": [catalogue slug per card], "champion": JSON|null}]
    # for deck A then deck B.
    decks = models.JSONField(_("decks as played"))
    mode = models.CharField(_("game mode"), max_length=20, default="duel")
    exhaustion = models.BooleanField(_("Exhaustion module"), default=False)
    champions = models.BooleanField(_("Champion module"), default=False)
    agent_a = models.CharField(_("deck A's AI"), max_length=20, choices=Agent.choices)
    agent_b = models.CharField(_("deck B's AI"), max_length=20, choices=Agent.choices)
    games = models.PositiveIntegerField(
        _("games"), validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES)]
    )
    chunk_size = models.PositiveIntegerField(_("games per chunk"))
    seed = models.BigIntegerField(_("seed"))
    rules_version = models.CharField(_("rules version"), max_length=40)
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
        return f"#{self.pk} {self.deck_a_name} vs {self.deck_b_name} ({self.games})"

    @property
    def chunks_total(self) -> int:
        return simulation.chunk_count(self.games, self.chunk_size)


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
