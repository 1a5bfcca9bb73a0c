"""Co-op mode: two players against two of Solo's automata (rulebook, "Co-op").

Co-op follows Solo's rules (rule coop): the automata are the very same
:class:`~engine.rules.kingdom.AutomatonKingdom` with Solo's Phase 1, Phase 2 and exceptions, and
play their turns inside ``apply`` (engine.rules.turn.start_turn); the table is the 4-player table
of :data:`engine.rules.modes.COOP_MODE`. What this module adds is the set-up of the rulebook's
only Co-op procedure: the Co-op Draft leaves the AI 48 cards, shuffled and divided into two deck
piles of 24. The readings of the rulebook are CO1-CO8 of docs/rulings.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.rules.cards import CardDef
from engine.rules.drafts import DraftResult
from engine.rules.errors import InputError

# The seats of COOP_MODE: the players A and C, the automata B and D (ruling CO1).
PLAYERS: Final = (0, 2)
AIS: Final = (1, 3)
# "Shuffle the AI's 48 cards, divide them into 2 deck piles of 24 cards".
AI_CARDS: Final = 48


def split_ai_cards(
    cards: Sequence[CardDef], rng: random.Random
) -> tuple[list[CardDef], list[CardDef]]:
    """The AI's cards shuffled by ``rng`` and divided into two deck piles of equal size."""
    if len(cards) % 2:
        raise InputError(f"the AI's cards: {len(cards)} do not divide into two equal deck piles")
    shuffled = list(cards)
    rng.shuffle(shuffled)
    half = len(shuffled) // 2
    return shuffled[:half], shuffled[half:]


def coop_decks(
    deck_a: Sequence[CardDef], deck_b: Sequence[CardDef], ai_cards: Sequence[CardDef], seed: int
) -> list[list[CardDef]]:
    """``new_game``'s decks of a Co-op game in seat order: the first player's deck, the first AI's
    pile, the second player's deck, the second AI's pile (the AI's cards split by ``seed``)."""
    first, second = split_ai_cards(ai_cards, random.Random(seed))
    return [list(deck_a), first, list(deck_b), second]


def drafted_decks(drafted: DraftResult, seed: int) -> list[list[CardDef]]:
    """The decks of a Co-op game from a finished Co-op Draft (its 2 decks, its 48 AI cards)."""
    if len(drafted.decks) != 2 or len(drafted.ai_pile) != AI_CARDS:
        raise InputError(
            f"a Co-op game needs the Co-op Draft: 2 decks and {AI_CARDS} AI cards, not "
            f"{len(drafted.decks)} decks and {len(drafted.ai_pile)} AI cards"
        )
    return coop_decks(drafted.decks[0], drafted.decks[1], drafted.ai_pile, seed)


__all__ = ["AIS", "AI_CARDS", "PLAYERS", "coop_decks", "drafted_decks", "split_ai_cards"]
