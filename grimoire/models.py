"""Grimoire puzzles: a position in the scenario format, a goal, and the solver's proof.

`Puzzle.scenario` holds the scenario document without `actions` and `expect` (`cards`, `state`,
and optionally `description`/`source`); `Puzzle.goal` the goal as data
(`engine.rules.solver.goal_from_json`). `report` is the solver's last complete report; a puzzle
leaves the private visibility only while that report proves it (`grimoire.services`).

`PuzzleRecord` is one person's record on a puzzle (whether they solved it or gave up, which shows
them the solution), and `attempts`/`solved` count those records, one per person. `SolverJob` is
one run of the solver outside a request (a proof, or the judgement of a long attempt), with a
status any process can read.
"""

import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.models import LANGUAGE_CHOICES
from champions.models import Visibility, new_uid

DIFFICULTY_MIN = 1
DIFFICULTY_MAX = 5


class ProofStatus(models.TextChoices):
    NONE = "none", _("Not proved yet")
    PENDING = "pending", _("Proof running")
    PROVED = "proved", _("Proved")
    REFUSED = "refused", _("No proof (unsolvable, trivial or too large)")


class Puzzle(models.Model):
    uid = models.CharField(_("public id"), max_length=60, unique=True, default=new_uid)
    # Null for the starter book's puzzles, which the project publishes.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="puzzles",
    )
    scenario = models.JSONField(_("position"))
    goal = models.JSONField(_("goal"))
    # Ability codes of the position's cards for the gallery's search, as ",aerial,splash,": a
    # substring search on every database (SQLite has no JSON containment lookup).
    abilities = models.CharField(_("abilities"), max_length=400, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        _("difficulty"),
        validators=[MinValueValidator(DIFFICULTY_MIN), MaxValueValidator(DIFFICULTY_MAX)],
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    proof_status = models.CharField(
        _("proof"), max_length=10, choices=ProofStatus.choices, default=ProofStatus.NONE
    )
    report = models.JSONField(_("solver report"), null=True, blank=True)
    # People who tried it (a turn judged, or a give-up), and those who met the goal before any
    # give-up: one per account, one per session for anonymous visitors (`PuzzleRecord.counted`).
    attempts = models.PositiveIntegerField(_("people who tried it"), default=0)
    solved = models.PositiveIntegerField(_("people who solved it"), default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["difficulty", "uid"]
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")

    def __str__(self) -> str:
        return self.uid

    def ability_codes(self) -> list[str]:
        return [code for code in self.abilities.split(",") if code]


class PuzzleTranslation(models.Model):
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    title = models.CharField(_("title"), max_length=120)
    hint = models.TextField(_("hint"), blank=True)
    explanation = models.TextField(_("explanation"), blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["puzzle", "language_code"], name="puzzle_translation_unique"
            )
        ]
        verbose_name = _("puzzle translation")
        verbose_name_plural = _("puzzle translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.title}"


class PuzzleRecord(models.Model):
    """One person's record on a puzzle: a signed-in user, or an anonymous visitor's session (kept
    as a digest: the session key is a credential). ``counted``: this person counts in the
    puzzle's figures (not its author nor staff, who see the solution from the start, nor a
    visitor without a session from an earlier answer, whom a script would be each time)."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="records")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="puzzle_records",
    )
    session = models.CharField(_("session digest"), max_length=64, blank=True)
    counted = models.BooleanField(_("counted in the figures"), default=False)
    solved_at = models.DateTimeField(_("solved"), null=True, blank=True)
    gave_up_at = models.DateTimeField(_("gave up"), null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["puzzle", "user"],
                condition=models.Q(user__isnull=False),
                name="puzzle_record_one_per_user",
            ),
            models.UniqueConstraint(
                fields=["puzzle", "session"],
                condition=models.Q(user__isnull=True),
                name="puzzle_record_one_per_session",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, session="")
                | models.Q(user__isnull=True) & ~models.Q(session=""),
                name="puzzle_record_a_user_or_a_session",
            ),
        ]
        verbose_name = _("solver's record")
        verbose_name_plural = _("solvers' records")

    def __str__(self) -> str:
        return f"{self.puzzle_id}: {self.user_id or self.session[:8]}"


class JobKind(models.TextChoices):
    PROOF = "proof", _("Proof")
    ATTEMPT = "attempt", _("Attempt")


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


ACTIVE_JOB_STATUSES = (JobStatus.QUEUED, JobStatus.RUNNING)


class SolverJob(models.Model):
    """A run of the solver outside the request: a proof of the puzzle, or the judgement of an
    attempt (``actions``, for ``record``). ``position``: a digest of the scenario and goal it
    started from (a proof of a position since changed is not written to the puzzle); ``nodes``:
    its progress, written as it goes (``updated`` is then its last sign of life)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(_("kind"), max_length=10, choices=JobKind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="puzzle_jobs",
    )
    record = models.ForeignKey(
        PuzzleRecord, on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    position = models.CharField(_("position digest"), max_length=64)
    actions = models.JSONField(_("actions"), null=True, blank=True)
    nodes = models.PositiveIntegerField(_("positions searched"), default=0)
    max_nodes = models.PositiveIntegerField(_("limit of positions"))
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "kind"], name="grimoire_job_active")]
        verbose_name = _("solver job")
        verbose_name_plural = _("solver jobs")

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status})"
