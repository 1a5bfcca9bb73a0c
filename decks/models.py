"""Decks, their versions, and the formats and game modes that decide what a legal deck is.

Formats and game modes are rows (admin-editable), shipped by the `0002_formats` data migration.
Writes go through `decks.services`, reads through `decks.selectors.*`; the legality rules live in
`decks.legality`, the deck code in `decks.deck_code`.
"""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.models import Card, CardType

LANGUAGE_CHOICES = settings.LANGUAGES
SHARE_ID_LENGTH = 11
NAME_MAX_LENGTH = 100
DESCRIPTION_MAX_LENGTH = 10_000


def new_share_id() -> str:
    """An unguessable public id (64 bits): unlisted decks are reachable only through their link."""
    return secrets.token_urlsafe(8)


def validate_card_types(value: object) -> None:
    allowed = set(CardType.values)
    if not isinstance(value, list) or not value or not set(value) <= allowed:
        raise ValidationError(
            _("Give a non-empty list of card types among: %(types)s."),
            params={"types": ", ".join(CardType.values)},
        )


def validate_expansion_codes(value: object) -> None:
    if not isinstance(value, list) or not all(isinstance(code, str) and code for code in value):
        raise ValidationError(_('Give a list of expansion codes, e.g. ["00", "01"].'))


class GameMode(models.Model):
    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    players = models.PositiveSmallIntegerField(_("players"))
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "slug"]
        verbose_name = _("game mode")
        verbose_name_plural = _("game modes")

    def __str__(self) -> str:
        return self.slug


class GameModeTranslation(models.Model):
    mode = models.ForeignKey(GameMode, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=80)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["mode", "language_code"], name="game_mode_translation_unique"
            )
        ]
        verbose_name = _("game mode translation")
        verbose_name_plural = _("game mode translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class PoolKind(models.TextChoices):
    # Cards of the format's expansions (all of them when the list is empty).
    CATALOGUE = "catalogue", _("the catalogue (all expansions, or the listed ones)")
    # The player's own pool, given with the deck: the cards of a draft, of a Mutation draft.
    SUPPLIED = "supplied", _("a pool given with the deck (draft)")
    # Exactly one of the preconstructed decks (cards numbered 1-4 in the catalogue).
    PRECONSTRUCTED = "preconstructed", _("one of the preconstructed decks")


class Format(models.Model):
    """How a legal deck looks. Duplicates are forbidden in every format (rulebook), so no field."""

    slug = models.SlugField(_("slug"), max_length=40, unique=True)
    deck_size = models.PositiveSmallIntegerField(_("deck size"), default=8)
    removals = models.PositiveSmallIntegerField(
        _("cards the opponent removes"),
        default=0,
        help_text=_("Constructed 2021: the opponent removes 2 of the 10 cards before the game."),
    )
    allowed_card_types = models.JSONField(
        _("allowed card types"),
        default=list,
        validators=[validate_card_types],
        help_text=_('A list of card types, e.g. ["creature", "incantation"].'),
    )
    pool_kind = models.CharField(
        _("card pool"), max_length=20, choices=PoolKind.choices, default=PoolKind.CATALOGUE
    )
    # Codes rather than foreign keys: the formats ship in a migration, before the catalogue is
    # imported, and expansion codes are stable.
    expansion_codes = models.JSONField(
        _("expansions"),
        default=list,
        blank=True,
        validators=[validate_expansion_codes],
        help_text=_("Expansion codes of the card pool; empty = all expansions."),
    )
    banned_cards = models.ManyToManyField(
        Card, blank=True, related_name="banned_in_formats", verbose_name=_("banned cards")
    )
    modes = models.ManyToManyField(
        GameMode, blank=True, related_name="formats", verbose_name=_("game modes")
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "slug"]
        verbose_name = _("format")
        verbose_name_plural = _("formats")

    def __str__(self) -> str:
        return self.slug


class FormatTranslation(models.Model):
    format = models.ForeignKey(Format, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["format", "language_code"], name="format_translation_unique"
            )
        ]
        verbose_name = _("format translation")
        verbose_name_plural = _("format translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class Visibility(models.TextChoices):
    PRIVATE = "private", _("Private")
    UNLISTED = "unlisted", _("Unlisted (anyone with the link)")
    PUBLIC = "public", _("Public (listed)")


class Deck(models.Model):
    share_id = models.CharField(
        _("share id"), max_length=16, unique=True, default=new_share_id, editable=False
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    description = models.TextField(
        _("description"), blank=True, max_length=DESCRIPTION_MAX_LENGTH, help_text=_("Markdown")
    )
    format = models.ForeignKey(
        Format, on_delete=models.PROTECT, related_name="decks", verbose_name=_("format")
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
    # The Champion module: one custom Creature beside the deck, not one of its cards.
    champion = models.ForeignKey(
        "champions.Champion",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="decks",
        verbose_name=_("Champion"),
    )
    # Draft and Mutation decks are checked against the pool the player drafted.
    pool = models.ManyToManyField(Card, blank=True, related_name="+", verbose_name=_("pool"))
    # The number of the latest DeckVersion; saves bump it under a row lock.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["visibility", "-updated_at"])]
        verbose_name = _("deck")
        verbose_name_plural = _("decks")

    def __str__(self) -> str:
        return f"{self.share_id} {self.name}"


class DeckCard(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="deck_cards")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    position = models.PositiveSmallIntegerField(_("position"))
    # Constructed 2021: one of the cards the opponent removed before the game.
    removed = models.BooleanField(_("removed by the opponent"), default=False)

    class Meta:
        ordering = ["deck", "position"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "position"], name="deck_card_unique_position")
        ]
        verbose_name = _("deck card")
        verbose_name_plural = _("deck cards")

    def __str__(self) -> str:
        return f"{self.deck_id} #{self.position}: {self.card_id}"


class VersionKind(models.TextChoices):
    CREATED = "created", _("created")
    EDITED = "edited", _("edited")
    RESTORED = "restored", _("restored")
    FORKED = "forked", _("forked")


class DeckVersion(models.Model):
    """One save of a deck, never changed afterwards: cards by slug (stable) and the metadata."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=10, choices=VersionKind.choices)
    # The version a restore brought back, or the parent's version a fork copied.
    source_number = models.PositiveIntegerField(_("from version"), null=True, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("author"),
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    description = models.TextField(_("description"), blank=True)
    format = models.ForeignKey(
        Format, on_delete=models.PROTECT, related_name="+", verbose_name=_("format")
    )
    cards = models.JSONField(_("cards"), default=list)
    removed = models.JSONField(_("removed cards"), default=list)
    pool = models.JSONField(_("pool"), default=list)
    # The Champion's share id at the time: kept even if the Champion is deleted later.
    champion = models.CharField(_("Champion"), max_length=16, blank=True)
    code = models.CharField(_("deck code"), max_length=600)
    created_at = models.DateTimeField(_("saved"), auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deck_version_unique_number")
        ]
        verbose_name = _("deck version")
        verbose_name_plural = _("deck versions")

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"
