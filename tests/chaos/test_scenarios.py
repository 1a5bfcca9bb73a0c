"""Every Duel of Chaos scenario passes, every rule has two, and the runner follows its format."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from engine.chaos.rule_ids import KEYWORD_RULES, RULES
from engine.chaos.scenario import main, run_file, scenario_files

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "chaos" / "scenarios"
FILES = list(scenario_files([str(SCENARIOS)]))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario(path: Path) -> None:
    assert run_file(path) == []


def test_every_rule_and_keyword_has_two_scenarios() -> None:
    counts: Counter[str] = Counter()
    for path in FILES:
        counts.update(yaml.safe_load(path.read_text(encoding="utf-8"))["rules"])
    assert set(KEYWORD_RULES) <= set(RULES)
    assert {rule: counts[rule] for rule in RULES if counts[rule] < 2} == {}
    assert len(FILES) >= 60


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


VALID = """
rules: [verification]
cards:
  Courier: {type: emissary, clan: chaos, deck: "1", play: "draw 1"}
state:
  players:
    A: {hand: [Courier], deck: [Courier]}
    B: {hand: [Courier], deck: [Courier]}
actions:
  - {play: Courier}
  - {play: Courier}
expect:
  winner: A
"""


def test_runner_output_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, "good.yaml", VALID)
    wrong = _write(tmp_path, "wrong.yaml", VALID.replace("winner: A", "winner: B"))
    assert main([str(good)]) == 0
    assert main([str(good), str(wrong)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == [
        f"PASS {good}",
        f"FAIL {wrong}: winner is A, expected B",
        "1 passed, 1 failed",
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("rules: [verification]", "rules: [nope]"), "rules[0]: unknown rule id 'nope'"),
        (
            ("clan: chaos", "clan: void"),
            "cards.Courier.clan: 'void' must be one of chaos, drakon, evine, none",
        ),
        (
            ('"draw 1"', '"drow 1"'),
            "cards.Courier.play: unknown step 'drow'; did you mean 'draw'? "
            "(column 1 of the effect)",
        ),
        (
            ("hand: [Courier], deck", "hand: [Nobody], deck"),
            "state.players.A.hand[0]: unknown card 'Nobody' (not under 'cards')",
        ),
        (("winner: A", "victor: A"), "expect: unknown key 'victor'"),
        (
            ("  - {play: Courier}\n  - {play: Courier}", "  - {dance: Courier}"),
            "actions[0]: unknown action key 'dance'",
        ),
        (
            ("state:", "setup: {}\nstate:"),
            "give either 'setup' (a set-up from given orders) or 'state'",
        ),
    ],
)
def test_an_invalid_file_names_its_key(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = _write(tmp_path, "bad.yaml", VALID.replace(*change))
    assert run_file(path) == [message]


def test_an_illegal_action_must_be_refused(tmp_path: Path) -> None:
    text = VALID.replace(
        "  - {play: Courier}\n  - {play: Courier}", "  - {play: Courier, illegal: true}"
    )
    assert run_file(_write(tmp_path, "x.yaml", text)) == [
        "actions[0] should have been refused but was accepted"
    ]


def test_the_command_line_runner() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.chaos.scenario", str(SCENARIOS / "reactions")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "9 passed, 0 failed"
