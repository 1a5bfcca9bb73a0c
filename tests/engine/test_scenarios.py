"""Every scenario file under tests/scenarios/ passes, and the runner follows the format."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rules.errors import InputError
from engine.rules.scenario import main, run_file, scenario_files

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
FILES = list(scenario_files([str(SCENARIOS)]))


def test_the_corpus_is_there() -> None:
    assert len(FILES) >= 150


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario(path: Path) -> None:
    assert run_file(path) == []


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


VALID = """
cards:
  Hammer: {type: creature, cost: 4, attack: 3, hp: 4, abilities: [splash]}
  Pawn: {type: creature, cost: 1, attack: 1, hp: 2}
  Rock: {type: creature, cost: 2, attack: 0, hp: 5}
  Filler: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  players:
    A: {hand: [STRONGHOLD, Filler], mana: 0, lines: {top: [Hammer], bottom: []}}
    B: {hand: [STRONGHOLD, Filler], lines: {top: [Pawn], bottom: [Rock]}}
actions: [assault]
expect:
  winner: null
  players:
    B:
      hand: [STRONGHOLD, Filler, Pawn]
      lines: {top: [], bottom: [{card: Rock, damage: 3}]}
"""


VALID_CHAMPIONS = """
cards:
  Hero: {type: champion, cost: 2, attack: 3, hp: 3, abilities: [splash]}
  Pawn: {type: creature, cost: 2, attack: 1, hp: 2}
  Filler: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  options: {champions: true}
  players:
    A: {hand: [STRONGHOLD, Filler], mana: 1, champion: {card: Hero, exhausted: false}}
    B: {hand: [STRONGHOLD, Filler], champion: {card: Hero}, lines: {top: [Pawn], bottom: [Hero]}}
actions:
  - {play: Hero, line: top}
expect:
  winner: null
  players:
    A: {champion: {card: Hero, exhausted: false}, lines: {top: [Hero], bottom: []}, mana: 1}
    B: {champion: {card: Hero, exhausted: false}}
"""


def test_runner_output_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, "good.yaml", VALID)
    wrong = _write(tmp_path, "wrong.yaml", VALID.replace("damage: 3", "damage: 2"))
    assert main([str(good)]) == 0
    assert capsys.readouterr().out == f"PASS {good}\n1 passed, 0 failed\n"
    assert main([str(tmp_path)]) == 1
    assert capsys.readouterr().out == (
        f"PASS {good}\n"
        f"FAIL {wrong}: players.B.lines.bottom is [{{'card': 'Rock', 'damage': 3}}], expected "
        "[{'card': 'Rock', 'damage': 2}] (damage of entry 0)\n"
        "1 passed, 1 failed\n"
    )


def test_json_scenarios_run_too(tmp_path: Path) -> None:
    import json

    import yaml

    path = _write(tmp_path, "good.json", json.dumps(yaml.safe_load(VALID)))
    assert run_file(path) == []
    path = _write(tmp_path, "champions.json", json.dumps(yaml.safe_load(VALID_CHAMPIONS)))
    assert run_file(path) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("state: [", "not valid YAML: while parsing a flow node"),
        (VALID.replace("expect:", "expected:"), "scenario: unknown key 'expected'"),
        (
            VALID.replace("[splash]", "[splsh]"),
            "cards.Hammer: unknown ability code 'splsh' on card",
        ),
        (
            VALID.replace("hand: [STRONGHOLD, Filler], mana", "hand: [Filler], mana"),
            "state.players.A.hand: the token STRONGHOLD must appear exactly once",
        ),
        (
            VALID.replace("top: [Pawn]", "top: [Knight]"),
            "state.players.B.lines.top[0]: unknown card 'Knight' (not defined under 'cards')",
        ),
        (
            VALID.replace("actions: [assault]", "actions: [attack]"),
            "actions[0]: unknown action 'attack'",
        ),
        (VALID.replace("active: A", "active: C"), "state.active: expected 'A' or 'B'"),
        (
            VALID.replace("top: [Hammer]", "top: [{card: Hammer, dmg: 1}]"),
            "state.players.A.lines.top[0]: unknown key 'dmg'",
        ),
        (
            VALID.replace(
                "{type: creature, cost: 1, attack: 1, hp: 2}", "{type: creature, cost: 1}"
            ),
            "cards.Pawn: missing key 'hp' (required for creatures)",
        ),
    ],
)
def test_invalid_files_fail_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    diffs = run_file(_write(tmp_path, "bad.yaml", text))
    assert len(diffs) == 1
    assert diffs[0].startswith(message)


def test_duplicate_card_of_one_player(tmp_path: Path) -> None:
    text = VALID.replace("hand: [STRONGHOLD, Filler], mana", "hand: [STRONGHOLD, Hammer], mana")
    assert run_file(_write(tmp_path, "dup.yaml", text)) == [
        "state.players.A.lines.top: 'Hammer' appears twice among player A's cards"
    ]


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (
            ("active: A", "active: A\n  options: {mode: chess}"),
            "not supported yet: state.options.mode 'chess' is not supported yet",
        ),
    ],
)
def test_extensions_are_not_supported_yet(
    tmp_path: Path, replace: tuple[str, str], message: str
) -> None:
    assert run_file(_write(tmp_path, "ext.yaml", VALID.replace(*replace))) == [message]


def test_a_duel_has_players_a_and_b_only(tmp_path: Path) -> None:
    text = VALID.replace("    B: {", "    C: {")
    assert run_file(_write(tmp_path, "c.yaml", text)) == [
        "state.players.C: mode 'duel' has the players A, B"
    ]


def test_illegal_flag(tmp_path: Path) -> None:
    refused = VALID.replace(
        "actions: [assault]",
        "actions:\n  - {play: Filler, line: top, illegal: true}\n  - assault",
    )
    assert run_file(_write(tmp_path, "refused.yaml", refused)) == []
    accepted = VALID.replace("mana: 0", "mana: 1").replace(
        "actions: [assault]", "actions:\n  - {play: Filler, line: top, illegal: true}"
    )
    assert run_file(_write(tmp_path, "accepted.yaml", accepted)) == [
        "actions[0] should have been refused but was accepted"
    ]
    unexpected = VALID.replace("actions: [assault]", "actions:\n  - {play: Filler, line: top}")
    assert run_file(_write(tmp_path, "unexpected.yaml", unexpected)) == [
        "actions[0] was refused: Filler costs 1 Mana and you have 0 left. (rule phase-2-mana-cost)"
    ]


def test_missing_path_is_a_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.yaml"
    assert main([str(missing)]) == 1
    assert capsys.readouterr().out == (
        f"FAIL {missing}: no such file or directory\n0 passed, 1 failed\n"
    )


def test_command_line(tmp_path: Path) -> None:
    good = _write(tmp_path, "good.yaml", VALID)
    done = subprocess.run(
        [sys.executable, "-m", "engine.rules.scenario", str(good)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"PASS {good}\n1 passed, 0 failed\n",
        "",
    )


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.sampled_from(
        ["A", "B", "C", "top", "bottom", "STRONGHOLD", "Pawn", "Rock", "assault", "creature", "x"]
    ),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["card", "play", "line", "hand", "top", "x"]), children, max_size=3
        )
    ),
    max_leaves=6,
)


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, (*prefix, i)))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_traceback_whatever_the_file_holds(data: st.DataObject) -> None:
    """Any value anywhere in a scenario gives PASS or a FAIL message, never an exception."""
    import yaml

    from engine.rules.scenario import parse, run

    scenario = yaml.safe_load(data.draw(st.sampled_from([VALID, VALID_CHAMPIONS])))
    path = data.draw(st.sampled_from(_paths(scenario)[1:]))
    replacement = data.draw(_JSON)
    node = scenario
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = replacement
    with contextlib.suppress(InputError):
        run(parse(scenario))
