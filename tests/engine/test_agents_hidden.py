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
from engine.rules.actions import apply, legal_actions
from engine.rules.agents import (
    Agent,
    GreedyAgent,
    RandomAgent,
    RepetitionGuard,
    StrongAgent,
    position_key,
)
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
    _reorder_hidden(other, rng)
    other.rng.seed(rng.getrandbits(32))
    return other


def _reorder_hidden(state: GameState, rng: random.Random) -> None:
    """Every hand but the active seat's in another order, the automata's deck piles reordered."""
    for seat, kingdom in enumerate(state.players):
        if seat == state.active:
            continue
        if isinstance(kingdom, HandKingdom):
            rng.shuffle(kingdom.hand)
        elif isinstance(kingdom, AutomatonKingdom):
            rng.shuffle(kingdom.pile)


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


def _again_later(state: GameState, seed: int | None) -> None:
    """The same game (the same object) two turns on, back in the same position, with the other
    hands and the automata's piles in another order when ``seed`` is given."""
    state.turn += 2
    if seed is not None:
        _reorder_hidden(state, random.Random(seed))


# Solo has no other hand (the key holds only the size of the AI's hidden pile, as it did).
@pytest.mark.parametrize("mode", [mode for mode in MODES if mode != "solo"])
def test_the_repetition_guard_remembers_what_the_seat_sees(mode: str) -> None:
    """Ruling A1's memory of a game keys a position on the seat's observation: back in a position
    that differs only in the hidden order of the other hands, the greedy agent knows it for a
    repetition and begins its turn with its second-best action, as it does back in the very same
    position; the search agents' guard does not offer the action already tried there."""
    reordered = departed = 0
    for number, position in enumerate(_positions(mode)):
        seat = position.active
        other = _hidden_elsewhere(position, number)
        assert position_key(other, seat) == position_key(position, seat)
        same, hidden = position.copy(), position.copy()
        same_agent, hidden_agent = GreedyAgent(), GreedyAgent()
        first = same_agent.choose(same)
        assert hidden_agent.choose(hidden) == first
        _again_later(same, None)
        _again_later(hidden, number)
        reordered += any(
            theirs.hand != kingdom.hand
            for kingdom, theirs in zip(position.players, hidden.players, strict=True)
            if isinstance(kingdom, HandKingdom) and isinstance(theirs, HandKingdom)
        )
        again = same_agent.choose(same)
        assert hidden_agent.choose(hidden) == again, number
        departed += again != first

        guard = RepetitionGuard()
        actions = legal_actions(position)
        fresh, tried = guard.untried(position, actions)
        assert fresh == actions
        assert tried is not None
        tried.append(actions[0])
        _again_later(position, number)
        fresh, _tried = guard.untried(position, actions)
        assert actions[0] not in fresh or len(actions) == 1, number
    # Most positions had a hidden order to change, and the repeated turns began otherwise.
    assert reordered >= 3
    assert departed >= 3
