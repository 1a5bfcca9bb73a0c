"""Small display helpers of the Mutation pages."""

from collections.abc import Mapping
from decimal import Decimal

from django import template
from django.utils.safestring import SafeString

from cards.models import Card, Expansion
from cards.selectors import card_name, translated
from mutation import rules, selectors
from mutation.qr import qr_svg

register = template.Library()


@register.filter
def ability_name(code: str, names: Mapping[str, str]) -> str:
    return rules.ability_label(names, code)


@register.filter
def expansion_label(expansion: Expansion) -> str:
    """The expansion's name in the page language ("Félonie"), not its slug."""
    return translated(expansion, "name").text


@register.filter
def points(value: Decimal) -> str:
    return rules.format_points(Decimal(value))


@register.filter
def values(card: Card) -> rules.CardValues:
    return selectors.card_values(card)


@register.filter
def box(position: int) -> str:
    return rules.ability_element(position)


@register.filter
def get(mapping: Mapping, key: object) -> object:
    return mapping.get(key)


@register.filter
def cardname(card: Card) -> str:
    return card_name(card) or card.slug


@register.filter
def qr_code(url: str, label: str) -> SafeString:
    return qr_svg(url, label=label)
