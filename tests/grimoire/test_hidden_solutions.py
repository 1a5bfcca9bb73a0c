"""A puzzle's solution (the shortest line, the explanation, the exported actions, the solver's
report) is its author's and staff's, and a visitor's once they solved it or gave up; the counts
are one per person (one per session for anonymous visitors), so a script cannot inflate them."""

from typing import Any

import pytest
from django.test import Client

from grimoire.models import Puzzle
from tests.grimoire.conftest import signed_in
from tests.grimoire.test_api import BOLT_ON_PAWN, TEXTS, create, post

pytestmark = pytest.mark.django_db

SOLUTION = [BOLT_ON_PAWN, "assault"]
# The solution's first step, as the page's solution lists it.
STEP = "<li>Cast Bolt on Pawn (player B).</li>"
WRONG = ["assault"]


@pytest.fixture
def uid(ana: Client) -> str:
    """Ana's puzzle, proved and public."""
    uid: str = create(ana)["uid"]
    post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    assert post(ana, f"/api/v1/puzzles/{uid}/publish/", {"visibility": "public"}).status_code == 200
    return uid


def _hidden(client: Client, uid: str) -> None:
    """Every answer `client` can get about the puzzle, without its solution."""
    detail = client.get(f"/api/v1/puzzles/{uid}/").json()
    assert detail["solution_shown"] is False
    assert detail["explanation"] is None
    assert {lang: texts["explanation"] for lang, texts in detail["translations"].items()} == {
        "en": None,
        "fr": None,
    }
    assert "shortest" not in detail["report"]
    assert detail["report"]["solutions"] == 1
    listed = client.get("/api/v1/puzzles/").json()["results"]
    assert [(p["uid"], p["explanation"], "shortest" in p["report"]) for p in listed] == [
        (uid, None, False)
    ]
    exported = client.get(f"/api/v1/puzzles/{uid}/export/").json()
    assert "actions" not in exported["scenario"]
    assert exported["scenario"]["expect"] == {"winner": "A"}
    assert exported["translations"]["en"] == {"title": "Clear the way", "hint": "Open the line."}
    report = client.get(f"/api/v1/puzzles/{uid}/solve/").json()
    assert "shortest" not in report
    assert (report["proved"], report["solutions"]) == (True, 1)


def _shown(client: Client, uid: str) -> None:
    detail = client.get(f"/api/v1/puzzles/{uid}/").json()
    assert detail["solution_shown"] is True
    assert detail["explanation"] == "Bolt the Pawn."
    assert detail["translations"]["fr"]["explanation"] == "Foudroyez le Pion."
    assert detail["report"]["shortest"] == SOLUTION
    exported = client.get(f"/api/v1/puzzles/{uid}/export/").json()
    assert exported["scenario"]["actions"] == SOLUTION
    assert exported["translations"]["en"] == TEXTS["en"]
    assert client.get(f"/api/v1/puzzles/{uid}/solve/").json()["shortest"] == SOLUTION


def _counts(uid: str) -> tuple[int, int]:
    puzzle = Puzzle.objects.get(uid=uid)
    return puzzle.attempts, puzzle.solved


def test_an_anonymous_visitor_sees_no_solution(uid: str) -> None:
    _hidden(Client(), uid)


def test_a_signed_in_visitor_sees_it_once_solved(uid: str, django_user_model: Any) -> None:
    bo = signed_in(django_user_model, "bo")
    _hidden(bo, uid)
    assert post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": WRONG}).json()["met"] is False
    _hidden(bo, uid)
    assert post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION}).json()["met"]
    _shown(bo, uid)
    # Others still see nothing.
    _hidden(Client(), uid)


def test_the_author_and_staff_see_it_and_are_not_counted(
    ana: Client, uid: str, django_user_model: Any
) -> None:
    _shown(ana, uid)
    staff = signed_in(django_user_model, "sam", is_staff=True)
    _shown(staff, uid)
    for client in (ana, staff):
        post(client, f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION})
    assert _counts(uid) == (0, 0)


def test_attempts_count_once_per_person(uid: str, django_user_model: Any) -> None:
    bo = signed_in(django_user_model, "bo")
    for actions in (WRONG, SOLUTION, SOLUTION, WRONG):
        post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": actions})
    assert _counts(uid) == (1, 1)
    # An anonymous visitor is one person per session: the session their first visit gave them.
    visitor = Client()
    assert visitor.get(f"/api/v1/puzzles/{uid}/").status_code == 200
    for _ in range(20):
        post(visitor, f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION})
    assert _counts(uid) == (2, 2)
    _shown(visitor, uid)
    # A script that keeps no session is judged, and never counted.
    for _ in range(20):
        answer = post(Client(), f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION})
        assert answer.json()["met"] is True
    assert _counts(uid) == (2, 2)


def test_giving_up_shows_the_solution_and_is_not_a_solve(uid: str, django_user_model: Any) -> None:
    bo = signed_in(django_user_model, "bo")
    post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": WRONG})
    given_up = post(bo, f"/api/v1/puzzles/{uid}/give-up/", {})
    assert given_up.status_code == 200
    assert given_up.json()["report"]["shortest"] == SOLUTION
    _shown(bo, uid)
    # Solved after giving up: judged, not counted as solved.
    assert post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION}).json()["met"]
    assert _counts(uid) == (1, 0)
    # An anonymous visitor may give up too (their session remembers it).
    visitor = Client()
    visitor.get(f"/api/v1/puzzles/{uid}/")
    assert post(visitor, f"/api/v1/puzzles/{uid}/give-up/", {}).json()["solution_shown"] is True
    _shown(visitor, uid)
    assert _counts(uid) == (2, 0)


def test_giving_up_after_solving_changes_nothing(uid: str, django_user_model: Any) -> None:
    bo = signed_in(django_user_model, "bo")
    post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION})
    post(bo, f"/api/v1/puzzles/{uid}/give-up/", {})
    assert _counts(uid) == (1, 1)


def test_the_page_shows_the_solution_only_on_request(uid: str) -> None:
    visitor = Client()
    page = visitor.get(f"/grimoire/{uid}/").content.decode()
    # (The board offers that action among the others, as a button.)
    assert STEP not in page
    assert "Bolt the Pawn." not in page
    assert "Show the solution" in page
    assert page.count('id="puzzle-solution"') == 1
    assert f'action="/grimoire/{uid}/give-up/"' in page
    # The give-up is a form to confirm, then the solution.
    answer = visitor.post(f"/grimoire/{uid}/give-up/")
    assert (answer.status_code, answer["Location"]) == (302, f"/grimoire/{uid}/#puzzle-solution")
    page = visitor.get(f"/grimoire/{uid}/").content.decode()
    assert STEP in page
    assert "Bolt the Pawn." in page
    assert "Show the solution" not in page
    # Asked for: shown open.
    assert '<details class="puzzle-solution-shown" open><summary>' in page
    assert _counts(uid) == (1, 0)


def test_solving_on_the_board_shows_the_solution(uid: str) -> None:
    visitor = Client()
    visitor.get(f"/grimoire/{uid}/")
    board = visitor.post(
        f"/grimoire/{uid}/solve/",
        {"actions": '[{"play": "Bolt", "target": {"player": "B", "card": "Pawn"}}, "assault"]'},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "Solved: your turn meets the goal." in board
    # Solved reads as a success, not as the failure's message (issue 29).
    assert '<div class="puzzle-solved" role="status">' in board
    assert 'class="error' not in board
    # The solution's section is swapped in beside the board, folded: only on request.
    assert 'id="puzzle-solution" hx-swap-oob="true"' in board
    assert "Bolt the Pawn." in board
    assert (
        '<details class="puzzle-solution-shown"><summary>See the proved solution</summary>' in board
    )
    page = visitor.get(f"/grimoire/{uid}/").content.decode()
    assert "Bolt the Pawn." in page
    assert '<details class="puzzle-solution-shown"><summary>' in page
    assert _counts(uid) == (1, 1)


def test_a_new_position_is_a_new_puzzle_to_its_solvers(
    ana: Client, uid: str, django_user_model: Any
) -> None:
    bo = signed_in(django_user_model, "bo")
    post(bo, f"/api/v1/puzzles/{uid}/attempts/", {"actions": SOLUTION})
    _shown(bo, uid)
    scenario = Puzzle.objects.get(uid=uid).scenario
    scenario["state"]["players"]["A"]["mana"] = 3
    ana.patch(f"/api/v1/puzzles/{uid}/", {"scenario": scenario}, content_type="application/json")
    post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    post(ana, f"/api/v1/puzzles/{uid}/publish/", {"visibility": "public"})
    # What bo solved was another position: this one's solution is not bo's to see.
    assert bo.get(f"/api/v1/puzzles/{uid}/").json()["solution_shown"] is False
    assert _counts(uid) == (0, 0)
