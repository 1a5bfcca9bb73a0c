"""Replays: record, save, load, validate, and reproduce the final state."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules.agents import GreedyAgent, RandomAgent, play_game
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.errors import ReplayError
from engine.rules.replay import Replay, dumps, load, parse, play, record, save
from engine.rules.state import RULES_VERSION, Options

from .support import REPLAYS, check_invariants, english_log, precon_decks


def _game() -> tuple[list, Replay, object]:
    decks = precon_decks(2, 3)
    result = play_game(decks, 11, [GreedyAgent(), RandomAgent(4)], Options(exhaustion=True))
    return decks, record(decks, 11, Options(exhaustion=True), result.actions), result


def test_record_save_load_play(tmp_path: Path) -> None:
    _, replay, result = _game()
    assert replay.result == {"winner": "A", "turns": result.turns}
    path = tmp_path / "game.json"
    save(path, replay)
    loaded = load(path)
    assert loaded == replay
    assert play(loaded) == result.state


def test_a_mutated_card_replays_as_played(tmp_path: Path) -> None:
    catalogue = load_catalogue()
    deck = catalogue.precon(1)
    mutated = CardDef("Baron", "creature", 3, 5, 6, ("rage",))
    decks = [[mutated, *deck[1:]], catalogue.precon(4)]
    result = play_game(decks, 5, [GreedyAgent(), GreedyAgent()])
    replay = record(decks, 5, None, result.actions)
    assert replay.to_json()["decks"][0][0] == {
        "name": "Baron",
        "type": "creature",
        "cost": 3,
        "attack": 5,
        "hp": 6,
        "abilities": ["rage"],
    }
    assert play(parse(json.loads(dumps(replay)))) == result.state


def _data() -> dict:
    return json.loads(dumps(_game()[1]))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("seed"), "replay: missing key 'seed'"),
        (lambda d: d.update(turns=3), "replay: unknown key 'turns'"),
        (
            lambda d: d.update(rules_version="cod-2020"),
            f"replay.rules_version: 'cod-2020' is not this engine's '{RULES_VERSION}'",
        ),
        (lambda d: d.update(seed="11"), "replay.seed: expected a whole number"),
        (lambda d: d["decks"].pop(), "replay.decks: expected a list of 2 or 4 decks"),
        (lambda d: d["decks"][1][2].update(atk=3), "replay.decks[1][2]: unknown key 'atk'"),
        (
            lambda d: d["decks"][0][0].update(abilities=["ragee"]),
            "replay.decks[0][0]: unknown ability code 'ragee' on card 'Microctopus'",
        ),
        (lambda d: d["options"].update(speed=2), "replay.options: unknown key 'speed'"),
        (lambda d: d.update(actions={}), "replay.actions: expected a list"),
        (
            lambda d: d.update(result={"winner": "C"}),
            "replay.result: expected {winner: a player letter or null, turns: n}",
        ),
    ],
)
def test_malformed_replays_name_the_problem(change, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(ReplayError) as raised:
        parse(data)
    assert str(raised.value).startswith(message)


def test_replays_that_do_not_replay() -> None:
    data = _data()
    turns = data["result"]["turns"]
    data["result"]["turns"] += 1
    with pytest.raises(ReplayError) as raised:
        play(parse(data))
    assert str(raised.value) == (
        f"replay.result: the game ends with winner A after {turns} turns, "
        f"the replay says winner A after {turns + 1} turns"
    )
    data = _data()
    data["actions"][0] = {"play": "Titan", "line": "top"}
    with pytest.raises(ReplayError) as raised:
        play(parse(data))
    assert str(raised.value) == "replay.actions[0]: illegal action: Titan is not in your hand."
    data = _data()
    data["actions"][0] = {"play": "Ogre", "lane": "top"}
    with pytest.raises(ReplayError) as raised:
        play(parse(data))
    assert str(raised.value) == "replay.actions[0]: unknown key 'lane' in action"
    data = _data()
    data["decks"][0].pop()
    with pytest.raises(ReplayError) as raised:
        play(parse(data))
    assert str(raised.value) == (
        "replay.decks: deck A: 7 cards; a deck holds exactly 8 different cards"
    )


def test_a_replay_of_a_mode_not_supported_names_its_options() -> None:
    data = _data()
    data["options"] = {"mode": "quad"}
    with pytest.raises(ReplayError) as raised:
        play(parse(data))
    assert str(raised.value) == (
        "replay.options: mode 'quad' is not supported yet "
        "(only 'duel', 'solo', 'free_for_all', 'teams', 'coop')"
    )


def test_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ReplayError) as raised:
        load(bad)
    assert (
        str(raised.value)
        == f"{bad}: not valid JSON (Expecting property name enclosed in double quotes, line 1)"
    )
    with pytest.raises(ReplayError) as raised:
        load(tmp_path / "none.json")
    assert (
        str(raised.value)
        == f"{tmp_path / 'none.json'}: cannot read the file (No such file or directory)"
    )


def test_the_log_can_be_turned_on_for_a_replay() -> None:
    _, replay, result = _game()
    state = play(replay, log=True)
    assert state == result.state
    assert state.log is not None
    assert english_log(state)[0] == "Set-up: B plays first."


REGRESSIONS = sorted(REPLAYS.glob("*.json"))
CHAMPION_GOLDEN = "golden-champions-lookahead-vs-greedy-3-4.json"


def test_the_champion_golden_replay_summons_exhausts_and_readies() -> None:
    state = play(load(REPLAYS / CHAMPION_GOLDEN), log=True)
    assert state.log is not None
    assert sum("Champion, is exhausted" in line for line in english_log(state)) == 1
    assert sum("Champion, is readied" in line for line in english_log(state)) == 1
    assert (state.returns(), state.turn) == ((1, -1), 8)


@pytest.mark.parametrize("path", REGRESSIONS, ids=[p.name for p in REGRESSIONS])
def test_regression_replays(path: Path) -> None:
    """Every saved replay (fuzzing failures, golden games) still replays, invariants holding."""
    from engine.rules.actions import apply, from_json
    from engine.rules.turn import new_game

    replay = load(path)
    state = new_game(replay.decks, replay.seed, replay.options, replay.champions)
    for data in replay.actions:
        apply(state, from_json(state, data))
        check_invariants(state)
    assert play(replay) == state


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_traceback_whatever_the_replay_holds(data: st.DataObject) -> None:
    """Any value anywhere in a replay (with or without Champions) is refused with ReplayError or
    replays; never a crash."""
    if data.draw(st.booleans()):
        replay = json.loads((REPLAYS / CHAMPION_GOLDEN).read_text(encoding="utf-8"))
    else:
        replay = _data()
    node = replay
    path = []
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    value = data.draw(
        st.none()
        | st.booleans()
        | st.integers(-2, 20)
        | st.text(max_size=4)
        | st.lists(st.integers(0, 3), max_size=2)
        | st.sampled_from(["assault", "end_turn"])
    )
    if not path:
        replay = value
    else:
        parent = replay
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = value
    with contextlib.suppress(ReplayError):
        play(parse(replay))
