"""The puzzles API: create, prove, publish, attempts, import/export, and bad input."""

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from grimoire import services
from grimoire.models import Puzzle

pytestmark = pytest.mark.django_db

# Bolt on Pawn, then the Assault: Hammer's 3 damage destroy B's Fort (see tests/engine/test_solver).
POSITION: dict[str, Any] = {
    "description": "Clear the way",
    "cards": {
        "Hammer": {"type": "creature", "cost": 4, "attack": 3, "hp": 4, "abilities": ["splash"]},
        "Bolt": {"type": "incantation", "cost": 2, "attack": 2},
        "Pawn": {"type": "creature", "cost": 1, "attack": 1, "hp": 2},
        "F1": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
        "F9": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
    },
    "state": {
        "active": "A",
        "players": {
            "A": {
                "hand": ["Bolt", "STRONGHOLD", "F9"],
                "mana": 2,
                "lines": {"top": ["Hammer"], "bottom": []},
            },
            "B": {
                "hand": ["STRONGHOLD", "F1"],
                "stronghold": "fort",
                "lines": {"top": ["Pawn"], "bottom": []},
            },
        },
    },
}
BOLT_ON_PAWN = {"play": "Bolt", "target": {"player": "B", "card": "Pawn"}}
TEXTS = {
    "en": {"title": "Clear the way", "hint": "Open the line.", "explanation": "Bolt the Pawn."},
    "fr": {"title": "Place nette", "hint": "Ouvrez la ligne.", "explanation": "Foudroyez le Pion."},
}
BODY = {"scenario": POSITION, "goal": {"kind": "win"}, "difficulty": 2, "translations": TEXTS}


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, body, content_type="application/json")


def create(client: Client, **changes: Any) -> dict[str, Any]:
    response = post(client, "/api/v1/puzzles/", {**BODY, **changes})
    assert response.status_code == 201, response.json()
    return response.json()


def test_create_prove_publish_and_list(ana: Client) -> None:
    puzzle = create(ana)
    assert (puzzle["visibility"], puzzle["proof_status"], puzzle["abilities"]) == (
        "private",
        "none",
        ["splash"],
    )
    assert Client().get("/api/v1/puzzles/").json()["count"] == 0
    refused = post(ana, f"/api/v1/puzzles/{puzzle['uid']}/publish/", {"visibility": "public"})
    assert refused.status_code == 400
    assert refused.json()["code"] == "not_proved"
    report = post(ana, f"/api/v1/puzzles/{puzzle['uid']}/solve/", {}).json()
    assert (report["solutions"], report["proved"], report["shortest"]) == (
        1,
        True,
        [BOLT_ON_PAWN, "assault"],
    )
    shared = post(ana, f"/api/v1/puzzles/{puzzle['uid']}/publish/", {"visibility": "public"})
    assert shared.json()["visibility"] == "public"
    listed = Client().get("/api/v1/puzzles/?ability=splash&difficulty=2").json()
    assert [p["uid"] for p in listed["results"]] == [puzzle["uid"]]
    assert Client().get("/api/v1/puzzles/?ability=rage").json()["count"] == 0
    # Anyone else reads the report without its solution.
    hidden = {key: value for key, value in report.items() if key != "shortest"}
    assert Client().get(f"/api/v1/puzzles/{puzzle['uid']}/solve/").json() == hidden


def test_texts_fall_back_to_english(ana: Client) -> None:
    uid = create(ana)["uid"]
    assert ana.get(f"/api/v1/puzzles/{uid}/?lang=fr").json()["title"] == "Place nette"
    assert ana.get(f"/api/v1/puzzles/{uid}/?lang=sv").json()["title"] == "Clear the way"


def test_an_unsolvable_puzzle_stays_private(ana: Client) -> None:
    position = copy.deepcopy(POSITION)
    position["state"]["players"]["A"]["mana"] = 1
    uid = create(ana, scenario=position)["uid"]
    report = post(ana, f"/api/v1/puzzles/{uid}/solve/", {}).json()
    assert (report["unsolvable"], report["proved"]) == (True, False)
    assert ana.get(f"/api/v1/puzzles/{uid}/").json()["proof_status"] == "refused"
    refused = post(ana, f"/api/v1/puzzles/{uid}/publish/", {"visibility": "unlisted"})
    assert refused.json()["code"] == "not_proved"


def test_a_new_position_drops_the_proof(ana: Client) -> None:
    uid = create(ana)["uid"]
    post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    post(ana, f"/api/v1/puzzles/{uid}/publish/", {"visibility": "public"})
    position = copy.deepcopy(POSITION)
    position["state"]["players"]["A"]["mana"] = 3
    changed = ana.patch(
        f"/api/v1/puzzles/{uid}/", {"scenario": position}, content_type="application/json"
    ).json()
    assert (changed["visibility"], changed["proof_status"], changed["report"]) == (
        "private",
        "none",
        None,
    )


def test_attempts_are_checked_and_counted(ana: Client) -> None:
    uid = create(ana)["uid"]
    url = f"/api/v1/puzzles/{uid}/attempts/"
    assert post(ana, url, {"actions": [BOLT_ON_PAWN, "assault"]}).json() == {
        "met": True,
        "refused": None,
        "message": "",
        "complete": True,
    }
    wrong = post(ana, url, {"actions": [{"play": "F9", "line": "top"}, BOLT_ON_PAWN]}).json()
    assert (wrong["met"], wrong["refused"]) == (False, 1)
    assert "Bolt" in wrong["message"]
    # The author is not counted (tests/grimoire/test_hidden_solutions.py counts the others).
    puzzle = Puzzle.objects.get(uid=uid)
    assert (puzzle.attempts, puzzle.solved) == (0, 0)
    too_many = post(ana, url, {"actions": ["assault"] * 41}).json()
    assert too_many["code"] == "too_many"


def test_export_then_import_is_identical(ana: Client) -> None:
    uid = create(ana)["uid"]
    post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    exported = ana.get(f"/api/v1/puzzles/{uid}/export/").json()
    assert exported["scenario"]["actions"] == [BOLT_ON_PAWN, "assault"]
    assert exported["scenario"]["expect"] == {"winner": "A"}
    again = post(ana, "/api/v1/puzzles/import/", exported)
    assert again.status_code == 201, again.json()
    new_uid = again.json()["uid"]
    post(ana, f"/api/v1/puzzles/{new_uid}/solve/", {})
    assert ana.get(f"/api/v1/puzzles/{new_uid}/export/").json() == exported
    first, second = Puzzle.objects.get(uid=uid), Puzzle.objects.get(uid=new_uid)
    assert (first.scenario, first.goal) == (second.scenario, second.goal)
    assert first.report is not None and second.report is not None
    # The same search, but not the same duration.
    assert {**first.report, "seconds": 0} == {**second.report, "seconds": 0}


def test_a_scenario_file_imports_with_its_winner_as_goal(ana: Client) -> None:
    scenario = {**POSITION, "actions": [BOLT_ON_PAWN, "assault"], "expect": {"winner": "A"}}
    imported = post(ana, "/api/v1/puzzles/import/", {"scenario": scenario}).json()
    assert (imported["goal"], imported["title"], imported["difficulty"]) == (
        {"kind": "win"},
        "Clear the way",
        1,
    )
    no_goal = post(ana, "/api/v1/puzzles/import/", {"scenario": {**POSITION, "expect": {}}})
    assert no_goal.json()["details"] == {"field": "goal"}


def _refusal(client: Client, **changes: Any) -> tuple[str, str, str]:
    response = post(client, "/api/v1/puzzles/", {**BODY, **changes})
    assert response.status_code == 400
    body = response.json()
    return body["code"], body["details"].get("field"), body["message"]


def test_bad_positions_and_goals_are_refused_naming_the_field(ana: Client) -> None:
    broken = copy.deepcopy(POSITION)
    broken["state"]["players"]["A"]["hand"] = ["Bolt", "F9"]
    assert _refusal(ana, scenario=broken) == (
        "invalid_position",
        "scenario.state.players.A.hand",
        "scenario.state.players.A.hand: the token STRONGHOLD must appear exactly once",
    )
    unknown = copy.deepcopy(POSITION)
    unknown["state"]["players"]["B"]["lines"]["top"] = ["Ghost"]
    assert _refusal(ana, scenario=unknown)[1] == "scenario.state.players.B.lines.top[0]"
    dead = copy.deepcopy(POSITION)
    dead["state"]["players"]["B"]["lines"]["top"] = [{"card": "Pawn", "damage": 2}]
    assert _refusal(ana, scenario=dead) == (
        "invalid_position",
        "scenario.state.players.B.lines.top[0].damage",
        "scenario.state.players.B.lines.top[0].damage: 2 damage destroy a creature of 2 HP",
    )
    lost = copy.deepcopy(POSITION)
    lost["state"]["players"]["A"]["hand"] = ["Bolt", "F9", "STRONGHOLD"]
    assert _refusal(ana, scenario=lost)[1] == "scenario.state.players.A.hand"
    assert _refusal(ana, goal={"kind": "destroy_creatures", "count": 3}) == (
        "unmeetable_goal",
        "goal.count",
        "goal.count: the enemy has only 1 creature(s) in play, not 3",
    )
    assert _refusal(ana, goal={"kind": "win", "turns": 2})[:2] == ("invalid_goal", "goal")
    huge = copy.deepcopy(POSITION)
    for i in range(40):
        huge["cards"][f"X{i}"] = {"type": "creature", "cost": 1, "hp": 1}
    assert _refusal(ana, scenario=huge)[:2] == ("position_too_large", "scenario.cards")
    assert Puzzle.objects.count() == 0


def test_a_proof_beyond_the_request_budget_is_a_job(
    ana: Client, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from cod_site import background
    from cod_site.celery import app

    # No broker, and the background pool stood in for by one that runs the job at once (this
    # test's transaction is not committed: a thread of the real pool would not see the puzzle).
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(background, "tasks", InlinePool())
    monkeypatch.setattr(services, "INLINE_SECONDS", 0)
    uid = create(ana)["uid"]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        pending = post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    assert pending.status_code == 202
    job = pending.json()
    assert (job["kind"], job["status"], job["nodes"], job["progress"], job["result"]) == (
        "proof",
        "queued",
        0,
        0.0,
        None,
    )
    assert Puzzle.objects.get(uid=uid).proof_status == "pending"
    for callback in callbacks:
        callback()
    done = ana.get(job["status_url"]).json()
    assert (done["status"], done["progress"], done["result"]["shortest"]) == (
        "done",
        1.0,
        [BOLT_ON_PAWN, "assault"],
    )
    puzzle = Puzzle.objects.get(uid=uid)
    assert (puzzle.proof_status, puzzle.report) == ("proved", done["result"])


class InlinePool:
    """Stands in for the background pool: runs each job at once, in the caller's thread."""

    def submit(self, function: Any, /, **kwargs: Any) -> None:
        function(**kwargs)


def test_only_the_author_edits(ana: Client, django_user_model: type[User]) -> None:
    uid = create(ana)["uid"]
    bo = Client()
    bo.force_login(django_user_model.objects.create_user("bo", password="x"))
    assert post(bo, f"/api/v1/puzzles/{uid}/solve/", {}).status_code == 404
    assert bo.delete(f"/api/v1/puzzles/{uid}/").status_code == 404
    assert bo.get(f"/api/v1/puzzles/{uid}/").status_code == 404
    assert ana.delete(f"/api/v1/puzzles/{uid}/").status_code == 204


def test_the_list_reads_every_author_in_one_query(
    django_user_model: type[User], django_assert_num_queries: Any
) -> None:
    for name in ("bo", "cy", "di"):
        services.puzzle_create(
            author=django_user_model.objects.create_user(name, password="x"),
            scenario=POSITION,
            goal={"kind": "win"},
            difficulty=2,
            translations=TEXTS,
        )
    Puzzle.objects.update(visibility="public")
    # The count, the page with its authors, the page's translations: not a query per author.
    with django_assert_num_queries(3):
        listed = Client().get("/api/v1/puzzles/").json()
    assert sorted(puzzle["author"] for puzzle in listed["results"]) == ["bo", "cy", "di"]
