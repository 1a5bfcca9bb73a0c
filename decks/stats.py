"""Figures about a deck for the deckbuilder: mana curve, card types, abilities, opening hand.

Pure functions over cards whose abilities and translations are prefetched (no query).
"""

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from cards.models import Card, CardType
from cards.selectors import translated

# Only the 4 leftmost cards of the hand (Stronghold aside) can be played (rulebook, Phase 2).
PLAYABLE_POSITIONS = 4
# The first player gains 6 Mana on their first turn instead of one per card in hand (Phase 1).
FIRST_TURN_MANA = 6


@dataclass(frozen=True)
class Bar:
    key: str
    label: str
    count: int
    # Share of the tallest bar, 0-100, for the chart's geometry.
    percent: int


def _bars(items: list[tuple[str, str, int]]) -> list[Bar]:
    tallest = max((count for _, _, count in items), default=0) or 1
    return [Bar(key, label, count, round(100 * count / tallest)) for key, label, count in items]


def mana_curve(cards: Sequence[Card]) -> list[Bar]:
    """Cards per Mana cost, from 0 to the highest cost (at least 0-6: curves stay comparable)."""
    counts = Counter(card.mana for card in cards if card.mana is not None)
    top = max([6, *counts])
    return _bars([(str(mana), str(mana), counts[mana]) for mana in range(top + 1)])


def type_split(cards: Sequence[Card], labels: dict[str, str]) -> list[Bar]:
    counts = Counter(card.card_type for card in cards)
    kinds = [CardType.CREATURE, CardType.INCANTATION] + [
        kind for kind in counts if kind not in (CardType.CREATURE, CardType.INCANTATION)
    ]
    return _bars([(str(kind), labels[kind], counts[kind]) for kind in kinds])


def ability_counts(cards: Sequence[Card], aura_label: str) -> list[Bar]:
    """How many cards carry each ability (an Aura counts apart: it helps the neighbours)."""
    counts: Counter[tuple[str, bool]] = Counter()
    names: dict[str, str] = {}
    for card in cards:
        for link in card.card_abilities.all():
            counts[(link.ability.code, link.is_aura)] += 1
            names[link.ability.code] = translated(link.ability, "name").text or link.ability.code
    ordered = sorted(counts.items(), key=lambda item: (-item[1], names[item[0][0]], item[0][1]))
    return _bars(
        [
            (
                f"aura:{code}" if aura else code,
                aura_label % {"ability": names[code]} if aura else names[code],
                count,
            )
            for (code, aura), count in ordered
        ]
    )


@dataclass(frozen=True)
class HandOdds:
    """Exact figures over every shuffle: the leftmost cards are a uniformly random subset."""

    hand_size: int
    average_mana: Fraction
    # Chance that at least one of the leftmost cards costs at most FIRST_TURN_MANA.
    first_turn_play: Fraction


def hand_odds(cards: Sequence[Card]) -> HandOdds | None:
    costs = [card.mana for card in cards if card.mana is not None]
    if not costs:
        return None
    size = min(PLAYABLE_POSITIONS, len(costs))
    hands = list(combinations(costs, size))
    average = sum((Fraction(sum(hand), size) for hand in hands), Fraction(0)) / len(hands)
    playable = sum(1 for hand in hands if min(hand) <= FIRST_TURN_MANA)
    return HandOdds(size, average, Fraction(playable, len(hands)))


@dataclass(frozen=True)
class HandCard:
    card: Card
    playable: bool  # among the 4 leftmost
    affordable: bool  # playable and within the first player's first-turn Mana


def opening_hand(cards: Sequence[Card], seed: int) -> list[HandCard]:
    """One shuffle of the deck (reproducible from `seed`), left to right as it is held."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return [
        HandCard(
            card,
            index < PLAYABLE_POSITIONS,
            index < PLAYABLE_POSITIONS and (card.mana or 0) <= FIRST_TURN_MANA,
        )
        for index, card in enumerate(order)
    ]
