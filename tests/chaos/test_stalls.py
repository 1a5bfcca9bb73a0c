"""No stalls: 1,000 seeded games of each pairing of the fast agents end, every greedy one with a
winner before the site's turn limit (rule site-turn-limit, docs/chaos/rulings.md C12)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.chaos.agents import AGENTS, play_game
from engine.chaos.cards import example_box
from engine.chaos.modes import DUEL
from engine.chaos.state import Options

GAMES = 1000


def _play(names: tuple[str, str]) -> tuple[Counter[int | None], int]:
    box = example_box()
    winners: Counter[int | None] = Counter()
    longest = 0
    for seed in range(GAMES):
        agents = [AGENTS[names[0]](seed * 2), AGENTS[names[1]](seed * 2 + 1)]
        result = play_game(box, seed, agents, Options(first_player=seed % 2))
        winners[result.winner] += 1
        longest = max(longest, result.turns)
    return winners, longest


@pytest.mark.parametrize("names", [("greedy", "greedy"), ("greedy", "random")])
def test_greedy_games_all_have_a_winner(names: tuple[str, str]) -> None:
    winners, longest = _play(names)
    assert winners[None] == 0
    assert sum(winners.values()) == GAMES
    assert longest < DUEL.turn_limit // 2


def test_random_games_all_end() -> None:
    winners, longest = _play(("random", "random"))
    assert sum(winners.values()) == GAMES
    assert longest <= DUEL.turn_limit
    # Random recruiting bloats both decks: some games reach the limit, most do not.
    assert winners[None] < GAMES // 4
