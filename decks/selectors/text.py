"""Decks as plain text: importing card lines, exporting a re-importable list."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import card_name, card_suggestions
from decks import text_io
from decks.models import Format
from decks.selectors.formats import format_name
from decks.selectors.lookup import card_in_set, cards_resolve


@dataclass(frozen=True)
class ImportedLine:
    number: int
    text: str
    card: Card | None
    # Why the line matched no card: "unknown", or "not_in_set" when the set code disagrees.
    problem: str | None
    set_code: str | None
    suggestions: tuple[Card, ...] = ()


def deck_import_text(text: str) -> list[ImportedLine]:
    """One answer per card line (a line "2x Grrr" answers twice): nothing is silently dropped."""
    parsed = text_io.parse(text)
    resolved = cards_resolve([line.name for line in parsed])
    answers = []
    for line, card in zip(parsed, resolved, strict=True):
        problem = None
        if card is not None and line.set_code and card.expansion.code != line.set_code:
            card = card_in_set(line.name, line.set_code)
            problem = None if card else "not_in_set"
        elif card is None:
            problem = "unknown"
        suggestions = tuple(card_suggestions(line.name)) if problem else ()
        answers += [
            ImportedLine(line.number, line.text, card, problem, line.set_code, suggestions)
        ] * line.copies
    return answers


def deck_text(
    *,
    name: str,
    format: Format,
    cards: Sequence[Card],
    removed: Sequence[Card],
    code: str,
    language: str | None = None,
) -> str:
    """The deck as text: re-importable (names in `language`, set codes), details as comments."""
    footer = []
    if removed:
        footer.append(
            _("Removed by the opponent: %(cards)s")
            % {"cards": ", ".join(card_name(card, language) for card in removed)}
        )
    return text_io.export(
        title=name,
        header=[
            _("Format: %(format)s") % {"format": format_name(format, language)},
            _("Deck code: %(code)s") % {"code": code},
        ],
        lines=[(card_name(card, language), card.expansion.code) for card in cards],
        footer=footer,
    )
