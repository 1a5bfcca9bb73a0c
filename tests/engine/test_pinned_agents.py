"""The search agents' games, pinned to their exact actions (issue 30: make them cheaper without
changing a choice).

The pinned batches (tests/engine/test_pinned_batches.py) are played by greedy and random; the
agents that copy positions to search them (learned_deep, learned, strong, lookahead) are pinned
here, each game played as a batch plays it (``BatchSpec.game`` with the per-game statistics on,
its agents from ``BatchSpec.agents_for``): its turns, its result and a digest of its actions. A
change meant to make them cheaper (how a position is copied, what a search keeps) must leave
these as they are; a change meant to alter their play re-derives them:

    COD_ENGINE=native .venv/bin/python -m tests.engine.test_pinned_agents

prints a new ``EXPECTED`` to paste over the one below. Say in the commit why the games changed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import pytest

from engine.rules.actions import Action, to_json
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.solo import preconstructed
from engine.rules.state import GameState
from engine.simulation import AUTOMATON, BatchSpec

# Expected values (generated: see the docstring) ---------------------------------------------
# Per case: per game [turns, returns, sha256 of its actions as JSON, first 16 hex digits].
EXPECTED: dict[str, list[list[Any]]] = {
    "learned_deep duel": [
        [10, [-1, 1], "b6f48c9fa9328abb"],
        [12, [-1, 1], "ffc1ba828d9b49a1"],
        [23, [1, -1], "4632a09ef38ae301"],
        [14, [-1, 1], "8dd61830902f95e2"],
    ],
    "learned_deep solo": [[16, [1, -1], "68fb42ff6c9175aa"], [10, [1, -1], "a7d673e375b8893d"]],
    "learned_deep free_for_all": [[17, [1, -1, -1, -1], "1eeac73be4729de0"]],
    "learned duel": [[8, [-1, 1], "4876f519f4312590"], [6, [-1, 1], "851cfaacd3ce7a41"]],
    "strong duel": [[5, [1, -1], "ec37cb804068680e"]],
    "strong solo": [[14, [1, -1], "fae4d83ed76cf3dd"]],
}
# --------------------------------------------------------------------------------------------


def _precon(number: int) -> tuple[CardDef, ...]:
    return tuple(load_catalogue().precon(number))


def _solo(agent: str) -> BatchSpec:
    player, pile = preconstructed(load_catalogue(), 3)
    return BatchSpec(
        seed=30,
        decks=(tuple(player), tuple(pile)),
        agents=(agent, AUTOMATON),
        mode="solo",
        ai=AiOptions(),
    )


# Name: (the batch, its games). The Solo cases shuffle the automaton's pile in the agents'
# simulations: the one place a position's random stream is drawn from after the set-up.
CASES: dict[str, tuple[BatchSpec, int]] = {
    "learned_deep duel": (
        BatchSpec(seed=30, decks=(_precon(1), _precon(2)), agents=("learned_deep", "learned_deep")),
        4,
    ),
    "learned_deep solo": (_solo("learned_deep"), 2),
    "learned_deep free_for_all": (
        BatchSpec(
            seed=30,
            decks=tuple(_precon(number) for number in range(1, 5)),
            agents=("learned_deep", "learned", "greedy", "learned_deep"),
            mode="free_for_all",
        ),
        1,
    ),
    "learned duel": (
        BatchSpec(seed=30, decks=(_precon(3), _precon(4)), agents=("learned", "lookahead")),
        2,
    ),
    "strong duel": (
        BatchSpec(seed=30, decks=(_precon(2), _precon(3)), agents=("strong", "greedy")),
        1,
    ),
    "strong solo": (_solo("strong"), 1),
}


def _game(spec: BatchSpec, index: int) -> list[Any]:
    """Game ``index`` of ``spec``: [turns, returns, digest of its actions]."""
    actions: list[Any] = []

    def recorded(state: GameState, seat: int, action: Action) -> None:
        actions.append(to_json(state, action))

    game = spec.game(index, stats=True)
    game.advance(spec.agents_for(index), before=recorded)
    digest = hashlib.sha256(json.dumps(actions, sort_keys=True).encode()).hexdigest()[:16]
    return [game.state.turn, list(game.state.returns()), digest]


def results(name: str) -> list[list[Any]]:
    spec, games = CASES[name]
    return [_game(spec, index) for index in range(games)]


@pytest.mark.parametrize("name", CASES)
def test_a_seeded_agent_game_plays_exactly_the_pinned_actions(name: str) -> None:
    assert results(name) == EXPECTED[name]


if __name__ == "__main__":
    print("EXPECTED: dict[str, list[list[Any]]] = {")
    for name in CASES:
        print(f"    {name!r}: {results(name)!r},")
    print("}")
    sys.exit(0)
