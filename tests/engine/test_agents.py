"""Agents: legal choices, determinism, and the expected order of strength."""

from __future__ import annotations

from engine.rules.agents import GreedyAgent, LookaheadAgent, RandomAgent, evaluate, play_game
from engine.rules.state import Options

from .support import precon_decks


def test_agents_are_deterministic() -> None:
    first = play_game(precon_decks(1, 2), 3, [RandomAgent(1), GreedyAgent()])
    again = play_game(precon_decks(1, 2), 3, [RandomAgent(1), GreedyAgent()])
    assert first.actions == again.actions
    assert first.state == again.state


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(40):
        seat = seed % 2
        agents = (
            [GreedyAgent(), RandomAgent(seed)] if seat == 0 else [RandomAgent(seed), GreedyAgent()]
        )
        result = play_game(precon_decks(1 + seed % 4, 1 + (seed // 4) % 4), seed, agents)
        wins += result.winner == seat
    assert wins == 37


def test_lookahead_beats_greedy() -> None:
    wins = 0
    for seed in range(12):
        seat = seed % 2
        look = LookaheadAgent(seed, nodes=1500)
        agents = [look, GreedyAgent()] if seat == 0 else [GreedyAgent(), look]
        result = play_game(precon_decks(1 + seed % 4, 1 + (seed // 4) % 4), seed, agents)
        wins += result.winner == seat
    assert wins == 12


def test_evaluate() -> None:
    result = play_game(
        precon_decks(3, 3), 1, [GreedyAgent(), GreedyAgent()], Options(exhaustion=True)
    )
    winner = result.winner
    assert evaluate(result.state, winner) == 1.0
    assert evaluate(result.state, 1 - winner) == -1.0
