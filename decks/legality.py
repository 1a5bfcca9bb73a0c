"""Deck legality: every violation of a format's rules, each with a stable code and a message.

The rules are the format's row (deck size, card types, pool, bans, modes, removals) plus the one
rule the rulebook states for every format: "Duplicates are forbidden in all Formats". This module
computes; `decks.selectors.checks.deck_check` gathers what it needs (cards with their
translations, the format with its modes and bans, the preconstructed decks) so it runs no query
of its own.

Error codes, in the order they are listed:
    unknown_card, deck_size, duplicate_card, card_type_not_allowed, banned_card, card_not_in_pool,
    pool_required, not_a_preconstructed_deck, removal_count, removed_card_not_in_deck,
    format_not_allowed_in_mode
Within a code, cards come in the order they first appear in the deck.
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models import Card, CardType
from cards.selectors import card_name, translated
from decks.models import Format, PoolKind

TYPE_NAMES = {
    CardType.CREATURE: gettext_lazy("Creature"),
    CardType.INCANTATION: gettext_lazy("Incantation"),
    CardType.STRONGHOLD: gettext_lazy("Stronghold"),
    CardType.BRIDGE: gettext_lazy("Bridge"),
}
TYPE_PLURALS = {
    CardType.CREATURE: gettext_lazy("Creatures"),
    CardType.INCANTATION: gettext_lazy("Incantations"),
    CardType.STRONGHOLD: gettext_lazy("Strongholds"),
    CardType.BRIDGE: gettext_lazy("Bridges"),
}


# Problems of the deck as a whole, even when they name the cards that cause them: the pages tell
# them once, above the list, rather than under each card.
DECK_WIDE = frozenset({"not_a_preconstructed_deck", "removal_count"})


@dataclass(frozen=True)
class Violation:
    code: str
    message: str
    cards: tuple[str, ...] = ()
    # Extra keys of the error object: `field`, `input` and `suggestions` of an unknown card.
    extra: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "cards": list(self.cards), **self.extra}


@dataclass(frozen=True)
class Unresolved:
    """A name that matched no card, with the closest cards."""

    text: str
    field: str  # "cards", "pool" or "removed": where the request listed it
    suggestions: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Rules:
    """A format and what checking a deck against it needs, loaded once by the selector."""

    format: Format
    format_name: str
    mode_slugs: frozenset[str]
    banned_ids: frozenset[int]
    # Names of the pool's expansions, for the message; empty when the pool is every expansion.
    expansion_names: tuple[str, ...]
    preconstructed: Mapping[int, frozenset[int]]


def _names(cards: Sequence[Card], language: str | None) -> str:
    return ", ".join(card_name(card, language) for card in cards)


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list({card.pk: card for card in cards}.values())


def check_unknown(entry: Unresolved, language: str | None) -> Violation:
    suggestions = _names(entry.suggestions, language)
    if entry.field == "pool":
        message = _("The pool lists “%(input)s”, but no card has that name.")
    elif entry.field == "removed":
        message = _("The removed cards list “%(input)s”, but no card has that name.")
    else:
        message = _("No card is named “%(input)s”.")
    message %= {"input": entry.text}
    if suggestions:
        message += " " + _("Did you mean: %(names)s?") % {"names": suggestions}
    return Violation(
        "unknown_card",
        message,
        (),
        {
            "field": entry.field,
            "input": entry.text,
            "suggestions": [card.slug for card in entry.suggestions],
        },
    )


def _preconstructed(rules: Rules, cards: Sequence[Card]) -> Violation | None:
    ids = frozenset(card.pk for card in cards)
    if any(ids == deck for deck in rules.preconstructed.values()):
        return None
    if not rules.preconstructed:
        return Violation(
            "not_a_preconstructed_deck",
            _("The catalogue has no preconstructed decks to compare this deck with."),
        )
    number, closest = max(
        sorted(rules.preconstructed.items()), key=lambda item: (len(item[1] & ids), -item[0])
    )
    outside = [card.slug for card in _distinct(cards) if card.pk not in closest]
    message = _(
        "A %(format)s deck is exactly one of the four preconstructed decks of the Initiation "
        "Pack. The closest is deck %(number)d, which shares %(shared)d of its %(size)d cards "
        "with this one."
    ) % {
        "format": rules.format_name,
        "number": number,
        "shared": len(closest & ids),
        "size": len(closest),
    }
    return Violation("not_a_preconstructed_deck", message, tuple(outside))


def check(
    *,
    rules: Rules,
    cards: Sequence[Card],
    unresolved: Sequence[Unresolved] = (),
    mode: str | None = None,
    mode_name: str = "",
    pool: Sequence[Card] | None = None,
    removed: Sequence[Card] = (),
    language: str | None = None,
) -> list[Violation]:
    """Every violation of `rules` by a deck of `cards` (plus the names that matched nothing)."""
    fmt = rules.format
    errors = [check_unknown(entry, language) for entry in unresolved]
    unknown_in_deck = sum(1 for entry in unresolved if entry.field == "cards")

    count = len(cards) + unknown_in_deck
    if count != fmt.deck_size:
        errors.append(
            Violation(
                "deck_size",
                _("A %(format)s deck holds exactly %(size)d cards; this one holds %(count)d.")
                % {"format": rules.format_name, "size": fmt.deck_size, "count": count},
            )
        )

    copies = Counter(card.pk for card in cards)
    for card in _distinct(cards):
        if copies[card.pk] > 1:
            errors.append(
                Violation(
                    "duplicate_card",
                    _("%(card)s is in the deck %(count)d times: a deck holds different cards.")
                    % {"card": card_name(card, language), "count": copies[card.pk]},
                    (card.slug,),
                )
            )

    allowed = ", ".join(str(TYPE_PLURALS[CardType(kind)]) for kind in fmt.allowed_card_types)
    for card in _distinct(cards):
        if card.card_type not in fmt.allowed_card_types:
            errors.append(
                Violation(
                    "card_type_not_allowed",
                    _("%(card)s is a %(type)s card; a %(format)s deck allows only: %(allowed)s.")
                    % {
                        "card": card_name(card, language),
                        "type": TYPE_NAMES[CardType(card.card_type)],
                        "format": rules.format_name,
                        "allowed": allowed,
                    },
                    (card.slug,),
                )
            )

    for card in _distinct(cards):
        if card.pk in rules.banned_ids:
            errors.append(
                Violation(
                    "banned_card",
                    _("%(card)s is banned in the %(format)s format.")
                    % {"card": card_name(card, language), "format": rules.format_name},
                    (card.slug,),
                )
            )

    if fmt.pool_kind == PoolKind.SUPPLIED and pool is not None:
        pool_ids = {card.pk for card in pool}
        for card in _distinct(cards):
            if card.pk not in pool_ids:
                errors.append(
                    Violation(
                        "card_not_in_pool",
                        _("%(card)s is not in your pool.") % {"card": card_name(card, language)},
                        (card.slug,),
                    )
                )
    elif fmt.pool_kind == PoolKind.CATALOGUE and fmt.expansion_codes:
        for card in _distinct(cards):
            if card.expansion.code not in fmt.expansion_codes:
                errors.append(
                    Violation(
                        "card_not_in_pool",
                        _("%(card)s (%(expansion)s) is not in the %(format)s card pool: %(pool)s.")
                        % {
                            "card": card_name(card, language),
                            "expansion": translated(card.expansion, "name", language).text,
                            "format": rules.format_name,
                            "pool": ", ".join(rules.expansion_names),
                        },
                        (card.slug,),
                    )
                )

    if fmt.pool_kind == PoolKind.SUPPLIED and pool is None:
        errors.append(
            Violation(
                "pool_required",
                _(
                    "The %(format)s format checks the deck against the cards you drafted: "
                    "give your pool."
                )
                % {"format": rules.format_name},
            )
        )

    if fmt.pool_kind == PoolKind.PRECONSTRUCTED:
        violation = _preconstructed(rules, cards)
        if violation is not None:
            errors.append(violation)

    unknown_removed = sum(1 for entry in unresolved if entry.field == "removed")
    if removed or unknown_removed:
        if len(removed) + unknown_removed != fmt.removals:
            if fmt.removals:
                message = _(
                    "In the %(format)s format the opponent removes exactly %(count)d cards; "
                    "%(given)d are marked as removed."
                ) % {
                    "format": rules.format_name,
                    "count": fmt.removals,
                    "given": len(removed) + unknown_removed,
                }
            else:
                message = _(
                    "In the %(format)s format the opponent removes no card from the deck."
                ) % {"format": rules.format_name}
            errors.append(Violation("removal_count", message, tuple(card.slug for card in removed)))
        left = Counter(copies)
        for card in removed:
            if left[card.pk] > 0:
                left[card.pk] -= 1
            else:
                errors.append(
                    Violation(
                        "removed_card_not_in_deck",
                        _("%(card)s is marked as removed but is not in the deck.")
                        % {"card": card_name(card, language)},
                        (card.slug,),
                    )
                )

    if mode is not None and mode not in rules.mode_slugs:
        errors.append(
            Violation(
                "format_not_allowed_in_mode",
                _("The %(format)s format cannot be played in %(mode)s mode.")
                % {"format": rules.format_name, "mode": mode_name or mode},
            )
        )
    return errors
