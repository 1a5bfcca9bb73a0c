"""The Grimoire solver on positions whose solutions are known by hand."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from engine.rules.actions import apply, from_json
from engine.rules.errors import InputError
from engine.rules.scenario import build_state, parse
from engine.rules.solver import (
    Goal,
    attempt,
    goal_from_json,
    goal_problems,
    position_key,
    solve,
)
from engine.rules.state import GameState

# Bolt (2 damage) on Pawn empties the top line, so Hammer's 3 damage reach the Fort, which has
# 2 hit points once Pawn is back in B's hand. Without Bolt, Hammer only destroys Pawn.
LETHAL = """
cards:
  Hammer: {type: creature, cost: 4, attack: 3, hp: 4}
  Bolt: {type: incantation, cost: 2, attack: 2}
  Pawn: {type: creature, cost: 1, attack: 1, hp: 2}
  F1: {type: creature, cost: 1, attack: 1, hp: 1}
  F9: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  players:
    A:
      hand: [Bolt, STRONGHOLD, F9]
      mana: MANA
      lines: {top: [Hammer], bottom: []}
    B:
      hand: [STRONGHOLD, F1]
      stronghold: fort
      lines: {top: [Pawn], bottom: []}
expect: {}
"""

BOLT_ON_PAWN = {"play": "Bolt", "target": {"player": "B", "card": "Pawn"}}

# Ogre (2 attack) will hit A's Fort (1 hit point) next turn unless Wall (3 hit points) stands in
# its line: only Wall on the top line survives.
BLOCK = """
cards:
  Wall: {type: creature, cost: 1, attack: 0, hp: 3}
  F1: {type: creature, cost: 1, attack: 1, hp: 1}
  Ogre: {type: creature, cost: 3, attack: 2, hp: 5}
  F2: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  players:
    A:
      hand: [Wall, STRONGHOLD, F1]
      stronghold: fort
      mana: 1
    B:
      hand: [STRONGHOLD, F2]
      lines: {top: [Ogre], bottom: []}
expect: {}
"""

# Nothing threatens A; two 1-Mana creatures give 1 + 4 + 6 distinct positions (each mixed
# placement is reached by two orders of play, a transposition counted once).
QUIET = """
cards:
  Ant: {type: creature, cost: 1, attack: 0, hp: 1}
  Yak: {type: creature, cost: 1, attack: 0, hp: 1}
  F1: {type: creature, cost: 3, attack: 0, hp: 1}
  F2: {type: creature, cost: 1, attack: 0, hp: 1}
state:
  active: A
  players:
    A:
      hand: [Ant, Yak, STRONGHOLD, F1]
      mana: 2
    B:
      hand: [STRONGHOLD, F2]
expect: {}
"""


def _state(text: str, **subs: Any) -> GameState:
    for name, value in subs.items():
        text = text.replace(name.upper(), str(value))
    return build_state(parse(yaml.safe_load(text)))


def test_the_one_solution_is_found_and_is_the_shortest() -> None:
    report = solve(_state(LETHAL, mana=2), Goal("win"))
    assert report.solvable and report.complete and report.proved
    assert report.solutions == 1
    assert not report.trivial
    assert report.shortest == [
        {"play": "Bolt", "target": {"player": "B", "card": "Pawn"}},
        "assault",
    ]
    # Root, Bolt on Pawn or on Hammer, F9 on either line (then Bolt is too dear).
    assert report.nodes == 5


def test_without_the_mana_the_puzzle_is_unsolvable() -> None:
    report = solve(_state(LETHAL, mana=1), Goal("win"))
    assert report.to_json() | {"seconds": 0} == {
        "goal": {"kind": "win"},
        "solvable": False,
        "unsolvable": True,
        "solutions": 0,
        "shortest": [],
        "trivial": False,
        "complete": True,
        "cut": "",
        "proved": False,
        "nodes": 3,
        "seconds": 0,
    }


def test_destroying_the_fort_is_winning() -> None:
    report = solve(_state(LETHAL, mana=2), Goal("destroy_stronghold", side="fort"))
    assert (report.solutions, report.proved) == (1, True)


def test_a_goal_met_by_ending_the_turn_is_flagged_trivial() -> None:
    report = solve(_state(LETHAL, mana=2), Goal("destroy_creatures", count=1))
    # Hammer destroys Pawn whatever A plays before: every distinct position meets it.
    assert report.trivial and not report.proved
    assert report.solutions == 5
    assert report.shortest == ["assault"]


def test_transpositions_count_once() -> None:
    report = solve(_state(QUIET), Goal("hp_at_least", count=1))
    assert report.solutions == 11
    assert report.nodes == 11
    assert report.trivial


def test_survive_searches_the_enemy_turn() -> None:
    report = solve(_state(BLOCK), Goal("survive"))
    assert report.solutions == 1
    assert report.shortest == [{"play": "Wall", "line": "top"}, "assault"]
    assert report.proved


def test_all_of_needs_every_part() -> None:
    both = Goal("all", goals=(Goal("survive"), Goal("hp_at_least", count=2)))
    # A's Fort has 1 hit point: no play brings it to 2.
    assert solve(_state(BLOCK), both).unsolvable


def test_the_node_bound_is_deterministic() -> None:
    first = solve(_state(QUIET), Goal("hp_at_least", count=1), max_nodes=4)
    second = solve(_state(QUIET), Goal("hp_at_least", count=1), max_nodes=4)
    assert (first.complete, first.cut, first.nodes, first.solutions) == (False, "nodes", 4, 4)
    assert (second.nodes, second.solutions) == (4, 4)
    assert not first.unsolvable and not first.proved


# Six 1-Mana creatures a side: surviving B's reply searches thousands of positions.
CROWD = """
cards:
  A1: {type: creature, cost: 1, attack: 1, hp: 2}
  A2: {type: creature, cost: 1, attack: 2, hp: 3}
  A3: {type: creature, cost: 1, attack: 3, hp: 4}
  A4: {type: creature, cost: 1, attack: 1, hp: 1}
  B1: {type: creature, cost: 1, attack: 1, hp: 1}
  B2: {type: creature, cost: 1, attack: 2, hp: 2}
  B3: {type: creature, cost: 1, attack: 1, hp: 3}
  B4: {type: creature, cost: 1, attack: 2, hp: 1}
state:
  active: A
  players:
    A:
      hand: [A1, A2, STRONGHOLD, A3, A4]
      mana: 2
    B:
      hand: [B1, B2, STRONGHOLD, B3, B4]
expect: {}
"""


def test_a_search_tells_its_progress() -> None:
    heard: list[int] = []
    report = solve(_state(CROWD), Goal("survive"), max_nodes=3000, progress=heard.append)
    assert (report.cut, report.nodes) == ("nodes", 3000)
    assert heard == [1024, 2048]


def test_transposed_states_have_one_key() -> None:

    one, two = _state(QUIET), _state(QUIET)
    for state, order in ((one, ("Ant", "Yak")), (two, ("Yak", "Ant"))):
        for name in order:
            line = "top" if name == "Ant" else "bottom"
            apply(state, from_json(state, {"play": name, "line": line}))
    assert one == two
    assert position_key(one) == position_key(two)
    assert position_key(one) != position_key(_state(QUIET))


def test_attempts() -> None:
    root = _state(LETHAL, mana=2)
    good = attempt(root, Goal("win"), [BOLT_ON_PAWN])
    assert (good.met, good.refused) == (True, None)
    assert attempt(root, Goal("win"), ["assault"]).met is False
    refused = attempt(root, Goal("win"), [{"play": "F9", "line": "top"}, BOLT_ON_PAWN])
    assert (refused.met, refused.refused) == (False, 1)
    assert "Bolt" in refused.message
    late = attempt(
        root, Goal("win"), ["assault", {"play": "Bolt", "target": {"player": "B", "card": "Pawn"}}]
    )
    assert (late.met, late.refused) == (False, 1)


def test_goals_round_trip_and_errors_name_the_key() -> None:
    data = {
        "kind": "all",
        "goals": [
            {"kind": "destroy_creatures", "count": 2},
            {"kind": "hp_at_least", "hp": 3},
            {"kind": "destroy_stronghold", "side": "bastion"},
        ],
    }
    assert goal_from_json(data).to_json() == data
    with pytest.raises(InputError, match=r"^goal.goals\[0\].count: expected a whole number >= 1$"):
        goal_from_json(
            {"kind": "all", "goals": [{"kind": "destroy_creatures", "count": 0}, {"kind": "win"}]}
        )
    with pytest.raises(InputError, match=r"^goal.kind: expected one of"):
        goal_from_json({"kind": "checkmate"})
    with pytest.raises(InputError, match=r"^goal: unknown key 'hp' for a 'win' goal$"):
        goal_from_json({"kind": "win", "hp": 2})


def test_goal_problems_name_the_key() -> None:
    state = _state(LETHAL, mana=2)
    assert goal_problems(Goal("destroy_creatures", count=2), state) == [
        "goal.count: the enemy has only 1 creature(s) in play, not 2"
    ]
    assert goal_problems(Goal("destroy_stronghold", side="bastion"), state) == [
        "goal.side: the enemy Bastion is already destroyed (its Fort is up)"
    ]
    assert goal_problems(Goal("win"), state) == []
