"""Every draft scenario under tests/draft_scenarios/ passes, and the runner reports what differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.cards import load_catalogue
from engine.rules.draft_scenario import main, run, run_file
from engine.rules.drafts import PROCEDURES
from engine.rules.scenario import load_file, scenario_files

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "draft_scenarios"
FILES = list(scenario_files([str(FOLDER)]))
CATALOGUE = load_catalogue()


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_draft_scenario(path: Path) -> None:
    assert run_file(path, CATALOGUE) == []


def test_every_procedure_has_two_files_citing_its_rule() -> None:
    rules = [load_file(path)["rule"] for path in FILES]
    for procedure in PROCEDURES.values():
        assert rules.count(procedure.rule_id) >= 2, procedure.code


def test_the_runner_reports_what_differs() -> None:
    scenario = load_file(FOLDER / "duel-first-round.yaml")
    scenario["expect"]["decks"]["A"] = ["Troll"]
    scenario["picks"][1]["refused"] = "draft_wrong_count"
    scenario["expect"]["pending"]["seat"] = "A"
    assert run(scenario, CATALOGUE) == [
        "picks[1]: accepted, expected the refusal draft_wrong_count",
        "pending.seat: 'B', expected 'A'",
        "decks.A: ['Troll', 'Ogre'], expected ['Troll']",
    ]


def test_a_refusal_under_another_rule_or_code_fails() -> None:
    scenario = load_file(FOLDER / "duel-refusals.yaml")
    scenario["rule"] = "coop"
    scenario["picks"][1]["refused"] = "draft_same_card"
    failures = run(scenario, CATALOGUE)
    assert failures[:2] == [
        "picks[0]: refused under rule format-draft",
        "picks[1]: refused (draft_wrong_count: Choose 1 card(s) here, not 2.)",
    ]


def test_a_malformed_file_is_one_failure_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("rule: format-draft\nprocedure: sealed\n", encoding="utf-8")
    assert run_file(path, CATALOGUE) == ["procedure must be one of duel, solo, four_players, coop"]
    path.write_text("rule: coop\nprocedure: duel\npile: {rest: '00'}\nextra: 1\n", encoding="utf-8")
    assert run_file(path, CATALOGUE) == ["scenario: unknown key 'extra'"]


def test_main_prints_one_line_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(FOLDER / "solo-first-pick.yaml")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"PASS {FOLDER / 'solo-first-pick.yaml'}",
        "1 passed, 0 failed",
    ]
