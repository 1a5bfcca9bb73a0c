"""The agents that claim not to peek choose from what their seat sees (engine.rules.observe): in
positions reached by seeded games of every mode, the same observation with other hidden
information (the other seats' hands in another order, the AI's deck piles reordered, the game's
random stream drawn anew) gives the same choice.

The lookahead agent is not among them: its rollouts play on the position itself, both hands
known (a baseline that sees everything, engine.rules.agents' docstring).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.rules import observe
from engine.rules.actions import apply
from engine.rules.agents import Agent, GreedyAgent, RandomAgent, StrongAgent
from engine.rules.evaluation_model import evaluator
from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.learned import LearnedAgent
from engine.rules.modes import HAND
from engine.rules.state import SUMMONING, GameState, Options
from engine.rules.turn import new_game

from .support import mode_decks

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": lambda: RandomAgent(7),
    "greedy": GreedyAgent,
    "strong": lambda: StrongAgent(7, nodes=400),
    "learned": lambda: LearnedAgent(evaluator(), 7),
    "learned_deep": lambda: LearnedAgent(evaluator(), 7, replies=1),
}
MODES = ("duel", "solo", "free_for_all", "teams", "coop")


def _positions(mode: str) -> list[GameState]:
    """Positions of seeded games of ``mode`` where a hand seat chooses: in Phase 2 and at the
    end of its turn, every fifth choice of greedy players with noise."""
    found = []
    for seed in range(3):
        state = new_game(mode_decks(mode)[seed], seed, Options(mode=mode))
        player = GreedyAgent(random.Random(seed), noise=2.0, guard=False)
        step = 0
        while state.outcome is None and state.turn <= 40:
            hand_seat = state.setup.controllers[state.active] == HAND
            if hand_seat and step % 5 == 0 and state.phase == SUMMONING:
                found.append(state.copy())
            apply(state, player.choose(state))
            step += 1
    return found


def _hidden_elsewhere(state: GameState, seed: int) -> GameState:
    """``state`` with what its active seat cannot see changed: every other hand in another order
    (its Stronghold where it was), the automata's deck piles reordered, another random stream."""
    other = state.copy()
    rng = random.Random(seed)
    for seat, kingdom in enumerate(other.players):
        if seat == other.active:
            continue
        if isinstance(kingdom, HandKingdom):
            rng.shuffle(kingdom.hand)
        elif isinstance(kingdom, AutomatonKingdom):
            rng.shuffle(kingdom.pile)
    other.rng.seed(rng.getrandbits(32))
    return other


def _hidden(kingdom: object) -> list[int]:
    if isinstance(kingdom, HandKingdom):
        return kingdom.hand
    assert isinstance(kingdom, AutomatonKingdom)
    return kingdom.pile


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(AGENTS))
def test_an_agent_that_does_not_peek_chooses_the_same_on_the_same_observation(
    name: str, mode: str
) -> None:
    changed = 0
    positions = _positions(mode)
    assert len(positions) >= 5
    for number, state in enumerate(positions):
        other = _hidden_elsewhere(state, number)
        seat = state.active
        assert observe(other, seat) == observe(state, seat)
        changed += any(
            _hidden(kingdom) != _hidden(theirs)
            for kingdom, theirs in zip(state.players, other.players, strict=True)
            if kingdom.seat != seat
        )
        assert AGENTS[name]().choose(other) == AGENTS[name]().choose(state), number
    # The hidden information did change in most positions.
    assert changed >= len(positions) // 2
