"""Every draft scenario under tests/draft_scenarios/ passes, and the runner reports what differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.cards import load_catalogue
from engine.rules.draft_scenario import main, run, run_file
from engine.rules.drafts import PROCEDURES
from engine.rules.errors import ScenarioError
from engine.rules.scenario import load_file, scenario_files
from engine.rules.scenario import main as board_main

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
    assert run_file(path, CATALOGUE) == [
        "procedure must be one of duel, solo, four_players, coop, mutation"
    ]
    path.write_text("rule: coop\nprocedure: duel\npile: {rest: '00'}\nextra: 1\n", encoding="utf-8")
    assert run_file(path, CATALOGUE) == ["scenario: unknown key 'extra'"]


def test_main_prints_one_line_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(FOLDER / "solo-first-pick.yaml")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"PASS {FOLDER / 'solo-first-pick.yaml'}",
        "1 passed, 0 failed",
    ]


def test_a_draft_file_takes_a_description_and_a_source() -> None:
    scenario = load_file(FOLDER / "solo-first-pick.yaml")
    assert scenario["description"].startswith("Solo Draft: the player keeps 1")
    assert scenario["source"].startswith("rule solo-setup")
    assert run(scenario, CATALOGUE) == []
    scenario["sources"] = "a misspelt key is still refused"
    with pytest.raises(ScenarioError, match=r"^scenario: unknown key 'sources'$"):
        run(scenario, CATALOGUE)


def test_the_board_runner_skips_the_draft_files_of_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ROOT / "tests" / "scenarios" / "solo" / "mana-quick-play.yaml"
    (tmp_path / "board.yaml").write_text(board.read_text(encoding="utf-8"), encoding="utf-8")
    draft = FOLDER / "solo-first-pick.yaml"
    (tmp_path / "draft.yaml").write_text(draft.read_text(encoding="utf-8"), encoding="utf-8")
    assert board_main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"PASS {tmp_path / 'board.yaml'}",
        f"SKIP {tmp_path / 'draft.yaml'}: a draft scenario (python -m engine.rules.draft_scenario)",
        "1 passed, 0 failed",
    ]
