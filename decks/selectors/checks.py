"""Checking a deck against its format's rules (other apps call `deck_check` too)."""

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import translation

from cards.models import Card, Expansion
from cards.selectors import translated
from cod_site.i18n import current_language
from decks import legality
from decks.models import Deck, Format, GameMode, PoolKind
from decks.selectors.access import (
    Viewer,
    deck_cards,
    deck_champion_uid,
    deck_pool,
    deck_removed_cards,
)
from decks.selectors.codes import deck_code_for
from decks.selectors.formats import format_get, format_name, game_mode_get, mode_name
from decks.selectors.lookup import CardRequest, resolve_field


def preconstructed_decks() -> dict[int, frozenset[int]]:
    decks: dict[int, set[int]] = {}
    for card_id, number in Card.objects.filter(precon_deck__isnull=False).values_list(
        "id", "precon_deck"
    ):
        if number is not None:  # always (the filter): the check narrows the nullable column
            decks.setdefault(number, set()).add(card_id)
    return {number: frozenset(ids) for number, ids in sorted(decks.items())}


def format_rules(fmt: Format, language: str | None = None) -> legality.Rules:
    expansion_names: tuple[str, ...] = ()
    if fmt.expansion_codes:
        expansions = Expansion.objects.filter(code__in=fmt.expansion_codes).prefetch_related(
            "translations"
        )
        expansion_names = tuple(translated(one, "name", language).text for one in expansions)
    return legality.Rules(
        format=fmt,
        format_name=format_name(fmt, language),
        mode_slugs=frozenset(mode.slug for mode in fmt.modes.all()),
        banned_ids=frozenset(card.pk for card in fmt.banned_cards.all()),
        expansion_names=expansion_names,
        preconstructed=preconstructed_decks() if fmt.pool_kind == PoolKind.PRECONSTRUCTED else {},
    )


@dataclass(frozen=True)
class DeckCheck:
    format: Format
    mode: GameMode | None
    cards: list[Card]
    removed: list[Card]
    pool: list[Card] | None
    champion: str | None
    unresolved: list[legality.Unresolved]
    errors: list[legality.Violation]
    # None while a requested card is unknown, or when the deck is too big for a code.
    code: str | None

    @property
    def legal(self) -> bool:
        return not self.errors


def deck_check(
    *,
    format: Format | str,
    cards: Sequence[CardRequest],
    mode: GameMode | str | None = None,
    pool: Sequence[CardRequest] | None = None,
    removed: Sequence[CardRequest] = (),
    champion: str | None = None,
    language: str | None = None,
) -> DeckCheck:
    """Every violation of the format's rules, in the request language; the deck code if known.

    Other apps call it too: the Mutation session passes the player's 16 drafted cards as `pool`.
    """
    language = language or current_language()
    fmt = format_get(slug=format) if isinstance(format, str) else format
    game_mode = game_mode_get(slug=mode) if isinstance(mode, str) else mode
    deck_cards, unresolved = resolve_field(cards, "cards")
    removed_cards, unresolved_removed = resolve_field(removed, "removed")
    pool_cards = None
    unresolved_pool: list[legality.Unresolved] = []
    if pool is not None:
        pool_cards, unresolved_pool = resolve_field(pool, "pool")
    all_unresolved = unresolved + unresolved_pool + unresolved_removed
    with translation.override(language):
        errors = legality.check(
            rules=format_rules(fmt, language),
            cards=deck_cards,
            unresolved=all_unresolved,
            mode=game_mode.slug if game_mode else None,
            mode_name=mode_name(game_mode, language) if game_mode else "",
            pool=pool_cards,
            removed=removed_cards,
            language=language,
        )
    code = None
    if not unresolved and not unresolved_removed:
        # A deck too big for a code, or removals outside the deck, has no code (its errors say why).
        with contextlib.suppress(ValueError):
            code = deck_code_for(
                format=fmt, cards=deck_cards, removed=removed_cards, champion=champion
            )
    return DeckCheck(
        fmt,
        game_mode,
        deck_cards,
        removed_cards,
        pool_cards,
        champion,
        all_unresolved,
        errors,
        code,
    )


def deck_validate(deck: Deck, *, viewer: Viewer, mode: GameMode | str | None = None) -> DeckCheck:
    """The deck's check and code as `viewer` sees the deck (its Champion only if visible)."""
    return deck_check(
        format=deck.format,
        cards=deck_cards(deck),
        removed=deck_removed_cards(deck),
        pool=deck_pool(deck),
        mode=mode,
        champion=deck_champion_uid(deck, viewer),
    )
