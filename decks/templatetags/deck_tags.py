"""Template helpers of the deck pages: names in the page language, odds as percentages."""

from datetime import datetime, timedelta
from fractions import Fraction

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import translated
from champions.models import Champion
from champions.selectors import champion_name
from decks.models import Format
from decks.selectors.formats import format_name

register = template.Library()


@register.filter
def card_label(card: Card | None) -> str:
    """The card's name in the page language (English when not translated yet)."""
    return translated(card, "name").text if card is not None else ""


@register.filter
def expansion_label(card: Card | None) -> str:
    """The name of the card's expansion in the page language: its code alone ("03") told a
    player nothing (issue 29)."""
    return translated(card.expansion, "name").text if card is not None else ""


@register.filter
def updated_ago(when: datetime) -> str:
    """ "updated 3 hours ago", or "updated just now" under a minute ("0 minutes" reads badly,
    in French most: "il y a 0 minute")."""
    if timezone.now() - when < timedelta(minutes=1):
        return _("updated just now")
    return _("updated %(when)s ago") % {"when": timesince(when)}


@register.filter
def percent(value: Fraction) -> int:
    return round(100 * value)


@register.filter
def decimal(value: Fraction) -> float:
    return float(value)


@register.filter
def errors_for(errors: list[dict], slug: str) -> list[dict]:
    return [error for error in errors if slug in error["cards"]]


@register.filter
def get_card(cards: dict[str, Card], slug: str) -> Card | None:
    return cards.get(slug)


@register.filter
def format_label(fmt: Format) -> str:
    return format_name(fmt)


@register.filter
def champion_label(champion: Champion) -> str:
    return champion_name(champion)
