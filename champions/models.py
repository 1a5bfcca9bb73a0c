"""Champions: custom creature cards designed by players, and the print jobs of their sheets.

Writes go through `champions.services`, reads through `champions.selectors`.
"""

import secrets
import uuid

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from champions.pricing import ATTACK_MAX, ATTACK_MIN, HP_MAX, HP_MIN, MANA_MAX, MANA_MIN

NAME_MAX_LENGTH = 40
FLAVOUR_MAX_LENGTH = 200
ZOOM_MIN, ZOOM_MAX = 1.0, 4.0
UID_LENGTH = 11


def new_uid() -> str:
    """An unguessable public id (64 bits): unlisted Champions are reachable only by their link."""
    return secrets.token_urlsafe(8)


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private")
    UNLISTED = "unlisted", _("Unlisted (anyone with the link)")
    PUBLIC = "public", _("Public (in the gallery)")


class Champion(models.Model):
    uid = models.CharField(_("public id"), max_length=16, unique=True, default=new_uid)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="champions"
    )
    mana = models.PositiveSmallIntegerField(
        _("Mana cost"), validators=[MinValueValidator(MANA_MIN), MaxValueValidator(MANA_MAX)]
    )
    attack = models.PositiveSmallIntegerField(
        _("attack"), validators=[MinValueValidator(ATTACK_MIN), MaxValueValidator(ATTACK_MAX)]
    )
    hp = models.PositiveSmallIntegerField(
        _("HP"), validators=[MinValueValidator(HP_MIN), MaxValueValidator(HP_MAX)]
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    parent = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="forks",
        verbose_name=_("forked from"),
    )
    # The normalised copy of the upload (never the upload itself), and how it is framed.
    illustration = models.FileField(_("illustration"), blank=True, max_length=200)
    illustration_sha256 = models.CharField(max_length=64, blank=True, editable=False)
    illustration_width = models.PositiveIntegerField(null=True, blank=True, editable=False)
    illustration_height = models.PositiveIntegerField(null=True, blank=True, editable=False)
    illustration_x = models.FloatField(
        _("illustration focus x"),
        default=0.5,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
    )
    illustration_y = models.FloatField(
        _("illustration focus y"),
        default=0.5,
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
    )
    illustration_zoom = models.FloatField(
        _("illustration zoom"),
        default=1.0,
        validators=[MinValueValidator(ZOOM_MIN), MaxValueValidator(ZOOM_MAX)],
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "-updated_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(attack__gte=ATTACK_MIN, attack__lte=ATTACK_MAX),
                name="champion_attack_range",
            ),
            models.CheckConstraint(
                condition=Q(hp__gte=HP_MIN, hp__lte=HP_MAX), name="champion_hp_range"
            ),
            models.CheckConstraint(
                condition=Q(mana__gte=MANA_MIN, mana__lte=MANA_MAX), name="champion_mana_range"
            ),
            models.CheckConstraint(
                condition=Q(illustration_zoom__gte=ZOOM_MIN, illustration_zoom__lte=ZOOM_MAX),
                name="champion_zoom_range",
            ),
        ]
        verbose_name = _("Champion")
        verbose_name_plural = _("Champions")

    def __str__(self) -> str:
        return self.uid


class ChampionTranslation(models.Model):
    champion = models.ForeignKey(Champion, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    flavour = models.CharField(_("flavour text"), max_length=FLAVOUR_MAX_LENGTH, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["champion", "language_code"], name="champion_translation_unique"
            )
        ]
        verbose_name = _("Champion translation")
        verbose_name_plural = _("Champion translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class ChampionAbility(models.Model):
    champion = models.ForeignKey(Champion, on_delete=models.CASCADE, related_name="abilities")
    ability = models.ForeignKey(
        "cards.Ability", on_delete=models.PROTECT, related_name="champion_abilities"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    is_aura = models.BooleanField(_("Aura"), default=False)

    class Meta:
        ordering = ["champion", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["champion", "position"], name="champion_ability_unique_position"
            ),
            models.UniqueConstraint(
                fields=["champion", "ability", "is_aura"], name="champion_ability_no_duplicate"
            ),
            models.UniqueConstraint(
                fields=["champion"], condition=Q(is_aura=True), name="champion_one_aura"
            ),
        ]
        verbose_name = _("Champion ability")
        verbose_name_plural = _("Champion abilities")

    def __str__(self) -> str:
        return f"{'aura:' if self.is_aura else ''}{self.ability.code}"


class PrintJobStatus(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Generating")
    DONE = "done", _("Ready")
    FAILED = "failed", _("Failed")


class PrintJob(models.Model):
    """A large sheet set generated in the background; its PDF is downloaded from its link."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="champion_print_jobs"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=PrintJobStatus.choices, default=PrintJobStatus.PENDING
    )
    # What to print: {"items": [{"champion": uid, "copies": n}], "paper": …, "language": …}.
    spec = models.JSONField(_("specification"))
    card_count = models.PositiveIntegerField(_("cards"))
    page_count = models.PositiveIntegerField(_("pages"), null=True, blank=True)
    file = models.FileField(_("PDF"), blank=True, max_length=200)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")

    def __str__(self) -> str:
        return f"{self.id} ({self.status})"
