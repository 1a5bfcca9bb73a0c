"""Seeded corpora of Duel games for measuring the computer players (the no-stall check, the
strength ladder): the same games for every agent, whatever machine runs them.

- The preconstructed corpus: every ordered pair of the 4 preconstructed decks (mirrors included),
  each with a few seeds.
- The Constructed corpus: random legal Constructed decks (8 different creatures or Incantations
  of the whole catalogue, the only rule the format has), deck ``i`` playing deck ``i + 1``
  so that each deck plays once as A and once as B.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.rules.cards import CardDef, Catalogue

PRECONSTRUCTED: tuple[int, ...] = (1, 2, 3, 4)


@dataclass(frozen=True, slots=True)
class Match:
    """One game of a corpus: the two decks (A's first), the game's seed and a readable name."""

    decks: tuple[tuple[CardDef, ...], tuple[CardDef, ...]]
    seed: int
    label: str


def preconstructed_matches(catalogue: Catalogue, seeds: int, seed: int = 0) -> list[Match]:
    """Every ordered pair of preconstructed decks, ``seeds`` games each."""
    decks = {number: tuple(catalogue.precon(number)) for number in PRECONSTRUCTED}
    return [
        Match((decks[a], decks[b]), seed * 1_000_003 + 16 * game + 4 * (a - 1) + b - 1, f"{a}-{b}")
        for game in range(seeds)
        for a in PRECONSTRUCTED
        for b in PRECONSTRUCTED
    ]


def constructed_decks(catalogue: Catalogue, count: int, seed: int = 0) -> list[tuple[CardDef, ...]]:
    """``count`` random legal Constructed decks drawn with ``seed``."""
    pool = [
        entry.card for entry in catalogue.cards if entry.card.type in ("creature", "incantation")
    ]
    rng = random.Random(f"constructed-{seed}")
    return [tuple(rng.sample(pool, 8)) for _ in range(count)]


def constructed_matches(catalogue: Catalogue, count: int, seed: int = 0) -> list[Match]:
    """``count`` games of random Constructed decks, deck ``i`` against deck ``i + 1``."""
    decks = constructed_decks(catalogue, count, seed)
    return [
        Match((decks[i], decks[(i + 1) % count]), seed * 1_000_003 + 100_000 + i, f"random-{i}")
        for i in range(count)
    ]


def stall_corpus(catalogue: Catalogue, seed: int = 0) -> list[Match]:
    """The no-stall corpus: the 16 preconstructed pairs 4 times each, and 200 random
    Constructed decks (200 games)."""
    return preconstructed_matches(catalogue, 4, seed) + constructed_matches(catalogue, 200, seed)


def sample(matches: list[Match], count: int) -> list[Match]:
    """``count`` matches spread evenly over ``matches`` (the corpus a quick test plays)."""
    step = len(matches) / count
    return [matches[int(i * step)] for i in range(count)]
