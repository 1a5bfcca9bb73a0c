"""Agents: legal choices, determinism, and the expected order of strength.

Strength is asserted as a property over enough games (a win-rate bound), not as an exact count:
a change of the heuristics or of the engine's speed-ups that keeps the agents' strength must not
fail here, and one that breaks it must.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.rules.actions import PLAY, Action, apply
from engine.rules.agents import (
    Agent,
    GreedyAgent,
    LookaheadAgent,
    RandomAgent,
    StrongAgent,
    assess,
    evaluate,
    play_game,
)
from engine.rules.kingdom import hand_of
from engine.rules.play import wilson
from engine.rules.state import Options
from engine.rules.turn import new_game

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


def _strong_wins(opponent: Callable[[int], Agent], nodes: int, games: int) -> int:
    return _wins([lambda seed: StrongAgent(seed, nodes=nodes), opponent], games)


def test_strong_beats_greedy() -> None:
    games = 32
    wins = _strong_wins(lambda seed: GreedyAgent(), 400, games)
    low, _ = wilson(wins, games)
    assert low > 0.5


def test_strong_replays_exactly_from_its_seed_at_a_node_budget() -> None:
    def game(seed: int, nodes: int) -> tuple[Action, ...]:
        agents = [StrongAgent(seed, nodes=nodes), GreedyAgent()]
        return play_game(precon_decks(2, 3), 4, agents).actions

    assert game(9, 300) == game(9, 300)
    assert game(9, 700) == game(9, 700)
    # The seed drives the search: some seeds play this game differently (at so small a budget
    # two seeds can agree on every choice of a short game).
    assert len({game(seed, 300) for seed in range(9, 13)}) > 1


def test_strong_does_not_read_the_enemy_hand_order() -> None:
    """The same choice whatever order the enemy holds their cards in (the Stronghold, which
    everyone sees, stays where it is)."""
    state = new_game(precon_decks(1, 3), 2, Options(first_player=0))
    apply(state, (PLAY, hand_of(state, 0).hand[0], 0))
    choices = set()
    for order in range(4):
        trial = state.copy()
        random.Random(order).shuffle(hand_of(trial, 1).hand)
        choices.add(StrongAgent(3, nodes=500).choose(trial))
    assert len(choices) == 1


def test_strong_with_a_tiny_budget_plays_greedy() -> None:
    state = new_game(precon_decks(1, 2), 6)
    assert StrongAgent(1, nodes=1).choose(state) == GreedyAgent().choose(state)


def test_assess() -> None:
    state = new_game(precon_decks(2, 2), 1)
    # A mirror before anything is played: the same standing on both sides.
    assert assess(state, 0) == 0.0
    apply(state, (PLAY, hand_of(state, state.active).hand[0], 0))
    mover = state.active
    assert assess(state, mover) == -assess(state, 1 - mover)
    result = play_game(precon_decks(3, 3), 1, [GreedyAgent(), GreedyAgent()])
    winner = result.returns.index(1)
    assert assess(result.state, winner) == 1.0
    assert assess(result.state, 1 - winner) == -1.0
