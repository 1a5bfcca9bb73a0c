"""Cards by slug or by name in any language, as the deck forms and codes name them."""

from collections.abc import Sequence
from typing import TypeAlias

from django.db.models import Q

from cards.models import Card
from cards.selectors import card_lookup_by_name, card_suggestions, cards_with_details
from cards.text import fold
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from decks import legality

CardRequest: TypeAlias = Card | str


def cards_resolve(requests: Sequence[CardRequest]) -> list[Card | None]:
    """Each request (a Card, a slug, or a name in any language) as a card with its details."""
    texts = [one.slug if isinstance(one, Card) else str(one).strip() for one in requests]
    wanted = {text.lower() for text in texts}
    by_slug = {card.slug: card for card in cards_with_details(Card.objects.filter(slug__in=wanted))}
    by_name: dict[str, Card | None] = {
        **_cards_named([text for text in texts if text and text.lower() not in by_slug])
    }
    resolved: list[Card | None] = []
    for text in texts:
        card = by_slug.get(text.lower())
        if card is None and text:
            if text not in by_name:
                by_name[text] = card_lookup_by_name(text)
            card = by_name[text]
        resolved.append(card)
    return resolved


def _cards_named(texts: Sequence[str]) -> dict[str, Card | None]:
    """Cards by exact name (any language, accents and case ignored), in one query for all names.

    The same choice as `cards.selectors.card_lookup_by_name` (deckable cards first, then the
    catalogue's order); names it does not settle fall back to that selector.
    """
    folded = {text: fold(text) for text in texts if fold(text)}
    if not folded:
        return {}
    query = Q()
    for name in set(folded.values()):
        query |= Q(search_text__contains=f"| {name} |")
    candidates = sorted(
        cards_with_details(Card.objects.filter(query)).order_by("expansion__position", "slug"),
        key=lambda card: not card.is_deckable,
    )
    found: dict[str, Card | None] = {}
    for text, name in folded.items():
        for card in candidates:
            if any(fold(row.name) == name for row in card.translations.all()):
                found[text] = card
                break
    return found


def cards_require(requests: Sequence[CardRequest], field_name: str) -> list[Card]:
    """The cards asked for, all of them known, or DomainError `unknown_card` naming each miss."""
    found, missing = resolve_field(requests, field_name)
    if missing:
        language = current_language()
        errors = [legality.check_unknown(entry, language) for entry in missing]
        raise DomainError(
            "unknown_card",
            " ".join(error.message for error in errors),
            {"field": field_name, "errors": [error.as_dict() for error in errors]},
        )
    return found


def cards_by_slug(slugs: Sequence[str]) -> dict[str, Card]:
    return {card.slug: card for card in cards_with_details(Card.objects.filter(slug__in=slugs))}


def card_in_set(name: str, set_code: str) -> Card | None:
    folded = fold(name)
    candidates = cards_with_details(
        Card.objects.filter(
            Q(search_text__contains=f"| {folded} |") | Q(slug=name.strip().lower()),
            expansion__code=set_code,
        )
    )
    return next(iter(candidates), None)


def resolve_field(
    requests: Sequence[CardRequest], field_name: str
) -> tuple[list[Card], list[legality.Unresolved]]:
    found: list[Card] = []
    missing: list[legality.Unresolved] = []
    for request, card in zip(requests, cards_resolve(requests), strict=True):
        if card is None:
            text = str(request).strip()
            missing.append(
                legality.Unresolved(text, field_name, tuple(card_suggestions(text)) if text else ())
            )
        else:
            found.append(card)
    return found, missing
