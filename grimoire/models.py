"""Grimoire puzzles: a position in the scenario format, a goal, and the solver's proof.

`Puzzle.scenario` holds the scenario document without `actions` and `expect` (`cards`, `state`,
and optionally `description`/`source`); `Puzzle.goal` the goal as data
(`engine.rules.solver.goal_from_json`). `report` is the solver's last complete report; a puzzle
leaves the private visibility only while that report proves it (`grimoire.services`).
"""

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
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    solved = models.PositiveIntegerField(_("attempts that met the goal"), default=0)
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
