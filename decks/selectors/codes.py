"""Deck codes: a deck's code, and the deck behind a code."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from cards.models import Card
from cod_site.errors import DomainError
from decks import deck_code
from decks.models import Deck, Format
from decks.selectors.access import Viewer, deck_cards, deck_champion_uid, deck_removed_cards
from decks.selectors.formats import format_get, formats_queryset
from decks.selectors.lookup import cards_by_slug


def deck_code_for(
    *, format: Format, cards: Sequence[Card], removed: Sequence[Card] = (), champion: str | None
) -> str:
    return deck_code.encode(
        deck_code.DeckCodeContent(
            deck_code.format_identity(format.slug),
            tuple(deck_code.card_identity(card.slug) for card in cards),
            tuple(deck_code.card_identity(card.slug) for card in removed),
            champion or None,
        )
    )


def preconstructed_deck_codes() -> list[tuple[int, str]]:
    """Each preconstructed deck of the Initiation Pack as (number, deck code), in number order."""
    fmt = format_get(slug="preconstructed")
    cards_of: dict[int, list[Card]] = {}
    for card in Card.objects.filter(precon_deck__isnull=False).order_by("collector_number"):
        if card.precon_deck is not None:  # always (the filter): narrows the nullable column
            cards_of.setdefault(card.precon_deck, []).append(card)
    return [
        (number, deck_code_for(format=fmt, cards=cards, champion=None))
        for number, cards in sorted(cards_of.items())
    ]


CODE_ERRORS = {
    "empty": gettext_lazy("The deck code is empty."),
    "too_long": gettext_lazy("This is too long to be a deck code."),
    "bad_character": gettext_lazy("A deck code holds only letters, digits, “-” and “_”."),
    "bad_length": gettext_lazy("This deck code has a character too many or too few."),
    "truncated": gettext_lazy("This deck code is cut short."),
    "checksum": gettext_lazy("This deck code is mistyped: its checksum does not match."),
    "unsupported_version": gettext_lazy("This deck code comes from a version we do not know."),
    "not_canonical": gettext_lazy("This deck code is garbled."),
    "unknown_format": gettext_lazy("This deck code names a format we do not have."),
    "unknown_card": gettext_lazy("This deck code names a card we do not have."),
}


def _invalid_code(reason: str) -> DomainError:
    return DomainError("invalid_deck_code", str(CODE_ERRORS[reason]), {"reason": reason})


@dataclass(frozen=True)
class DecodedDeck:
    code: str
    format: Format
    cards: list[Card]
    removed: list[Card]
    champion: str | None


def _by_identity(slugs: Sequence[str]) -> dict[int, str]:
    table: dict[int, str] = {}
    for slug in slugs:
        table.setdefault(deck_code.card_identity(slug), slug)
    return table


def deck_decode(code: str) -> DecodedDeck:
    """The deck behind a code; DomainError `invalid_deck_code` (400) for any bad code."""
    code = code.strip()
    try:
        content = deck_code.decode(code)
    except deck_code.DeckCodeError as error:
        raise _invalid_code(error.reason) from error
    fmt = next(
        (
            one
            for one in formats_queryset()
            if deck_code.format_identity(one.slug) == content.format_id
        ),
        None,
    )
    if fmt is None:
        raise _invalid_code("unknown_format")
    table = _by_identity(list(Card.objects.values_list("slug", flat=True)))
    wanted = [*content.card_ids, *content.removed_ids]
    if any(one not in table for one in wanted):
        raise _invalid_code("unknown_card")
    details = cards_by_slug([table[one] for one in wanted])
    cards = sorted((details[table[one]] for one in content.card_ids), key=_display_order)
    removed = sorted((details[table[one]] for one in content.removed_ids), key=_display_order)
    return DecodedDeck(code, fmt, cards, removed, content.champion)


def _display_order(card: Card) -> tuple[int, str]:
    return (card.mana if card.mana is not None else 99, card.slug)


def deck_code_of(deck: Deck, *, viewer: Viewer) -> str:
    return deck_code_for(
        format=deck.format,
        cards=deck_cards(deck),
        removed=deck_removed_cards(deck),
        champion=deck_champion_uid(deck, viewer),
    )
