"""Agents: legal choices, determinism, and the expected order of strength.

Strength is asserted as a property over enough games (a win-rate bound), not as an exact count:
a change of the heuristics or of the engine's speed-ups that keeps the agents' strength must not
fail here, and one that breaks it must.
"""

from __future__ import annotations

from engine.rules.agents import GreedyAgent, LookaheadAgent, RandomAgent, evaluate, play_game
from engine.rules.play import wilson
from engine.rules.state import Options

from .support import precon_decks


def test_agents_are_deterministic() -> None:
    first = play_game(precon_decks(1, 2), 3, [RandomAgent(1), GreedyAgent()])
    again = play_game(precon_decks(1, 2), 3, [RandomAgent(1), GreedyAgent()])
    assert first.actions == again.actions
    assert first.returns == again.returns
    assert first.state == again.state
    other = play_game(precon_decks(1, 2), 3, [RandomAgent(2), GreedyAgent()])
    assert other.actions != first.actions


def _wins(seat_agents: list, games: int) -> int:
    """Games won by the agent made by ``seat_agents[0]``, seated A and B in turn, over every
    pairing of the preconstructed decks."""
    wins = 0
    for seed in range(games):
        seat = seed % 2
        hero, other = seat_agents[0](seed), seat_agents[1](seed)
        agents = [hero, other] if seat == 0 else [other, hero]
        result = play_game(precon_decks(1 + seed % 4, 1 + (seed // 4) % 4), seed, agents)
        wins += result.returns[seat] == 1
    return wins


def test_greedy_beats_random() -> None:
    games = 200
    wins = _wins([lambda seed: GreedyAgent(), RandomAgent], games)
    # The 95% interval of its win rate lies well above a coin toss.
    low, _ = wilson(wins, games)
    assert low > 0.75


def test_lookahead_beats_greedy() -> None:
    games = 24
    wins = _wins([lambda seed: LookaheadAgent(seed, nodes=1500), lambda seed: GreedyAgent()], games)
    low, _ = wilson(wins, games)
    assert low > 0.5


def test_evaluate() -> None:
    result = play_game(
        precon_decks(3, 3), 1, [GreedyAgent(), GreedyAgent()], Options(exhaustion=True)
    )
    winner = result.returns.index(1)
    assert evaluate(result.state, winner) == 1.0
    assert evaluate(result.state, 1 - winner) == -1.0
