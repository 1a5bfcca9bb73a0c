"""Learn to play (issue 29): a first game's steps built from Grimoire positions, each proved by
the solver, played on the puzzle's board and judged by its attempts, the next step once met."""

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from engine.rules.scenario import build_state, parse
from engine.rules.solver import goal_from_json, solve
from grimoire.book import lesson_entries
from grimoire.models import Puzzle

ENTRIES = lesson_entries()
TITLES = ["Place a creature", "Two lines", "The Assault order", "The Stronghold", "An ability"]
# The shortest line the solver proves for each step, in the scenario format.
SHORTEST = [
    [{"play": "Guard", "line": "top"}, "assault"],
    [{"play": "Guard", "line": "top"}, {"play": "Sentry", "line": "bottom"}, "assault"],
    [{"play": "Spark", "target": {"player": "B", "card": "Tank"}}, "assault"],
    [{"play": "Bolt", "target": {"player": "B", "card": "Pawn"}}, "assault"],
    [{"play": "Berserker", "line": "bottom"}, "assault"],
]


def test_the_five_steps_teach_in_order_in_three_languages() -> None:
    assert [entry["translations"]["en"]["title"] for entry in ENTRIES] == TITLES
    assert [entry["key"][0] for entry in ENTRIES] == ["1", "2", "3", "4", "5"]
    for entry in ENTRIES:
        for language in ("en", "fr", "sv"):
            texts = entry["translations"][language]
            assert texts["title"] and texts["hint"] and texts["explanation"]
    # The last step's ability.
    assert ENTRIES[4]["scenario"]["cards"]["Berserker"]["abilities"] == ["rage"]


@pytest.mark.parametrize(
    ("entry", "shortest"),
    list(zip(ENTRIES, SHORTEST, strict=True)),
    ids=[e["key"] for e in ENTRIES],
)
def test_each_step_is_proved(entry: dict[str, Any], shortest: list[Any]) -> None:
    state = build_state(parse({**entry["scenario"], "expect": {}}))
    report = solve(state, goal_from_json(entry["goal"]))
    assert (report.solvable, report.complete, report.trivial) == (True, True, False)
    assert report.shortest == shortest


@pytest.fixture
def lessons(db: None, catalogue: None) -> None:
    call_command("load_starter_book")


def _solve(client: Client, number: int, actions: list[Any]) -> str:
    uid = Puzzle.objects.get(uid=f"learn-{ENTRIES[number - 1]['key']}").uid
    response = client.post(
        f"/grimoire/{uid}/solve/", {"actions": json.dumps(actions)}, headers={"HX-Request": "true"}
    )
    return response.content.decode()


def test_the_lessons_are_unlisted_and_the_learn_page_lists_them(lessons: None) -> None:
    assert set(
        Puzzle.objects.filter(uid__startswith="learn-").values_list("visibility", "proof_status")
    ) == {("unlisted", "proved")}
    assert 'href="/grimoire/learn-' not in Client().get("/grimoire/").content.decode()
    page = Client().get("/grimoire/learn/").content.decode()
    for number, title in enumerate(TITLES, 1):
        assert f'<li><a href="/grimoire/learn/{number}/">{title}</a></li>' in page
    french = Client().get("/fr/grimoire/learn/").content.decode()
    assert '<li><a href="/fr/grimoire/learn/1/">Poser une créature</a></li>' in french


def test_a_step_shows_its_lesson_and_board_and_leads_to_the_next(lessons: None) -> None:
    visitor = Client()
    page = visitor.get("/grimoire/learn/1/").content.decode()
    assert "<title>Place a creature · Learn to play · cod_site</title>" in page
    assert "Step 1 of 5" in page
    assert "Each turn you gain Mana and spend it to play cards from your hand." in page
    assert "<strong>Goal:</strong> Survive the enemy&#x27;s next turn." in page
    assert 'aria-label="The puzzle\'s board"' in page
    # A wrong line: the Fort falls next turn.
    failed = _solve(visitor, 1, [{"play": "Guard", "line": "bottom"}, "assault"])
    assert 'data-met="no"' in failed
    solved = _solve(visitor, 1, SHORTEST[0])
    assert 'data-met="yes"' in solved
    assert '<a class="puzzle-next" href="/grimoire/learn/2/">Next step: Two lines</a>' in solved
    # The last step leads to a first game.
    last = _solve(visitor, 5, SHORTEST[4])
    assert '<a class="puzzle-next" href="/play/new/">Play a first game</a>' in last
    assert visitor.get("/grimoire/learn/6/").status_code == 404


def test_the_home_page_and_the_menu_lead_to_learn_to_play(db: None) -> None:
    page = Client().get("/").content.decode()
    assert '<li><a href="/grimoire/learn/"><h2>Learn to play</h2>' in page
    assert '<a href="/grimoire/learn/">Learn to play</a>' in page
