"""Formats and game modes, and their names in the reader's language."""

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import pick_translation
from cod_site.errors import DomainError
from decks.models import Format, GameMode


def formats_queryset() -> QuerySet[Format]:
    return Format.objects.prefetch_related(
        "translations", "modes__translations", Prefetch("banned_cards", Card.objects.only("id"))
    )


def format_list() -> list[Format]:
    return list(formats_queryset())


def format_get(*, slug: str, from_path: bool = False) -> Format:
    """The format named `slug`. A missing one is bad input (400 `unknown_format`) when a request
    names it in its body or query, and a missing resource (404 `not_found`) when its URL does."""
    fmt = formats_queryset().filter(slug=slug).first()
    if fmt is None:
        raise DomainError(
            "not_found" if from_path else "unknown_format",
            _("There is no format “%(format)s”.") % {"format": slug},
            {"format": slug, "choices": list(Format.objects.values_list("slug", flat=True))},
            status_code=404 if from_path else 400,
        )
    return fmt


def game_mode_list() -> list[GameMode]:
    return list(GameMode.objects.prefetch_related("translations"))


def game_mode_get(*, slug: str) -> GameMode:
    mode = GameMode.objects.prefetch_related("translations").filter(slug=slug).first()
    if mode is None:
        raise DomainError(
            "unknown_mode",
            _("There is no game mode “%(mode)s”.") % {"mode": slug},
            {"mode": slug, "choices": list(GameMode.objects.values_list("slug", flat=True))},
        )
    return mode


def formats_of_mode(*, slug: str) -> list[Format]:
    """The formats a game mode can be played in (Solo: not Constructed, rule solo-formats)."""
    return list(formats_queryset().filter(modes__slug=slug))


def format_name(fmt: Format, language: str | None = None) -> str:
    row, _fallback = pick_translation(fmt.translations.all(), language)
    return row.name if row else fmt.slug


def format_description(fmt: Format, language: str | None = None) -> str:
    row, _fallback = pick_translation(fmt.translations.all(), language)
    return row.description if row else ""


def mode_name(mode: GameMode, language: str | None = None) -> str:
    row, _fallback = pick_translation(mode.translations.all(), language)
    return row.name if row else mode.slug
