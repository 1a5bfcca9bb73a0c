"""Decks whose outcome is known (issue 14, "Checks"): a verdict that contradicts them would come
from the computer players, not from the decks, so every agent must agree with them.

- A deck that cannot attack (8 creatures of 0 attack, no ability) never wins.
- A deck beats its weaker copy (the same cards and costs as plain creatures of 1 attack and 1 HP)
  at least 90% of the time: the 95% interval of its win rate lies above 0.9.

Bounds over many games with seat swap, never exact counts (CONTRIBUTING.md, agents).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.rules.agents import (
    Agent,
    GreedyAgent,
    LookaheadAgent,
    RandomAgent,
    StrongAgent,
    play_game,
)
from engine.rules.cards import CREATURE, CardDef
from engine.rules.play import wilson

from .support import precon_decks

AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": lambda seed: GreedyAgent(),
    "lookahead": LookaheadAgent,
    "strong": StrongAgent,
}

PACIFISTS = [
    CardDef(name=f"Pacifist {i}", type=CREATURE, cost=1 + i % 3, attack=0, hp=1 + i % 2)
    for i in range(8)
]


def weaker_copy(deck: list[CardDef]) -> list[CardDef]:
    return [
        CardDef(name=card.name, type=CREATURE, cost=card.cost, attack=min(card.attack, 1), hp=1)
        for card in deck
    ]


def _results(
    agent: str, games: int, opponent_deck: Callable[[list[CardDef]], list[CardDef]]
) -> tuple[int, int]:
    """(wins, losses) of ``agent`` playing each preconstructed deck in turn, seated A and B in
    turn, against ``opponent_deck`` of it played by greedy."""
    wins = losses = 0
    for seed in range(games):
        deck = precon_decks(1 + seed % 4)[0]
        seat = seed % 2
        hero, other = AGENTS[agent](seed), GreedyAgent()
        decks = [deck, opponent_deck(deck)] if seat == 0 else [opponent_deck(deck), deck]
        agents = [hero, other] if seat == 0 else [other, hero]
        result = play_game(decks, seed, agents)
        wins += result.returns[seat] == 1
        losses += result.returns[seat] == -1
    return wins, losses


@pytest.mark.parametrize(
    ("agent", "games"), [("random", 40), ("greedy", 40), ("lookahead", 40), ("strong", 8)]
)
def test_a_deck_that_cannot_attack_never_wins(agent: str, games: int) -> None:
    wins, losses = _results(agent, games, lambda deck: PACIFISTS)
    assert losses == 0
    if agent != "strong":  # its few games (time) say it never loses, not its rate
        low, _ = wilson(wins, games)
        assert low > 0.85


@pytest.mark.parametrize(
    ("agent", "games"), [("random", 200), ("greedy", 200), ("lookahead", 40), ("strong", 40)]
)
def test_a_deck_beats_its_weaker_copy_at_least_nine_times_in_ten(agent: str, games: int) -> None:
    wins, _ = _results(agent, games, weaker_copy)
    low, _ = wilson(wins, games)
    assert low > 0.9
