"""The starter book: every puzzle proved by the solver, every ability covered, three languages."""

import csv
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from engine.rules.scenario import build_state, parse
from engine.rules.solver import goal_from_json, solve
from grimoire.book import book_entries
from grimoire.models import Puzzle

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = book_entries()
# Every special ability of the game's data (data/abilities.csv), Auras aside.
ABILITIES = {
    row["code"] for row in csv.DictReader((ROOT / "data" / "abilities.csv").open(encoding="utf-8"))
}


def test_the_book_covers_every_ability_with_30_puzzles() -> None:
    assert len(ENTRIES) == 30
    used = {
        code.removeprefix("aura:")
        for entry in ENTRIES
        for card in entry["scenario"]["cards"].values()
        for code in card.get("abilities", [])
    }
    assert len(ABILITIES) == 27
    assert used >= ABILITIES
    assert any(
        code.startswith("aura:")
        for entry in ENTRIES
        for card in entry["scenario"]["cards"].values()
        for code in card.get("abilities", [])
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["key"] for entry in ENTRIES])
def test_each_puzzle_is_proved(entry: dict[str, Any]) -> None:
    state = build_state(parse({**entry["scenario"], "expect": {}}))
    report = solve(state, goal_from_json(entry["goal"]))
    assert (report.solvable, report.complete, report.trivial) == (True, True, False)
    # Small books of hand-made puzzles: at most two distinct winning positions, except where
    # the order of two plays changes the hand (Catalyst).
    assert 1 <= report.solutions <= (4 if entry["key"] == "catalyst-two-bolts" else 2)
    for language in ("en", "fr", "sv"):
        texts = entry["translations"][language]
        assert texts["title"] and texts["hint"] and texts["explanation"]


@pytest.mark.django_db
def test_the_command_loads_proves_and_publishes_idempotently() -> None:
    call_command("load_starter_book")
    call_command("load_starter_book")
    book = Puzzle.objects.filter(uid__startswith="book-")
    assert book.count() == 30
    assert set(book.values_list("visibility", "proof_status")) == {("public", "proved")}
    # With the lessons of Learn to play, unlisted (tests/grimoire/test_lessons.py).
    assert Puzzle.objects.count() == 35
    listed = Client().get("/api/v1/puzzles/?ability=vanish&lang=sv").json()
    assert [p["uid"] for p in listed["results"]] == ["book-vanish-make-it-step-back"]
    assert listed["results"][0]["title"] == "Få den att backa"
    # The solution is the project's: not shown to a visitor who has not solved it.
    assert listed["results"][0]["report"]["proved"] is True
    assert "shortest" not in listed["results"][0]["report"]
