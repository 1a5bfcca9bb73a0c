"""The solver off the request path: a search that does not end within the request's small budget
runs as a background task (here the web process's own threads, as without a broker), with a
status the API and the pages poll; signed-in users have a rate of proofs."""

import time
from typing import Any

import pytest
from django.test import Client

from cod_site.celery import app
from grimoire import selectors, services, views
from grimoire.models import Puzzle
from tests.grimoire.test_api import BODY, create, post

HEAVY_CARDS = 8  # per side: 16 card definitions


def heavy_position() -> dict[str, Any]:
    """16 cheap creatures, most of them in the hands: surviving B's reply is a search of
    48,884+ positions (55 s on this machine with the default bound)."""
    cards = {}
    for i in range(HEAVY_CARDS):
        cards[f"A{i}"] = {"type": "creature", "cost": 1, "attack": 1 + i % 3, "hp": 1 + i % 4}
        cards[f"B{i}"] = {"type": "creature", "cost": 1, "attack": 1 + i % 2, "hp": 1 + i % 3}
    a_cards = list(cards)[0::2]
    b_cards = list(cards)[1::2]
    return {
        "cards": cards,
        "state": {
            "active": "A",
            "players": {
                "A": {"hand": [*a_cards[:-2], "STRONGHOLD", *a_cards[-2:]], "mana": 4},
                "B": {"hand": [*b_cards[:-2], "STRONGHOLD", *b_cards[-2:]]},
            },
        },
    }


HEAVY = {**BODY, "scenario": heavy_position(), "goal": {"kind": "survive"}}


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """No broker: background tasks go to the web process's threads (with REDIS_URL set, as in CI,
    they would wait for a worker that this test does not start)."""
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    # A bound on the search that keeps the test short (a couple of seconds), far beyond the budget
    # of the request.
    monkeypatch.setattr(services, "SOLVER_MAX_NODES", 3000)
    monkeypatch.setattr(services, "ATTEMPT_MAX_NODES", 3000)
    # The request's budget spent at once: these searches go to the background on any machine (a
    # fast one proves the heavy position's first 3,000 nodes within the 50 ms of production).
    monkeypatch.setattr(services, "INLINE_SECONDS", 0)


def _poll(client: Client, url: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(url).json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.1)
    pytest.fail(f"the job at {url} did not end")


@pytest.mark.django_db(transaction=True)
def test_a_heavy_proof_answers_at_once_with_a_job_to_poll(ana: Client, in_process: None) -> None:
    uid = create(ana, **HEAVY)["uid"]
    answer = post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    assert answer.status_code == 202
    job = answer.json()
    assert (job["kind"], job["max_nodes"]) == ("proof", 3000)
    assert job["status"] in ("queued", "running")
    assert job["status_url"] == f"http://testserver/api/v1/puzzles/{uid}/jobs/{job['id']}/"
    assert answer["Location"] == job["status_url"]
    assert Puzzle.objects.get(uid=uid).proof_status == "pending"
    # Asking again while it runs is the same job, not a second search.
    again = post(ana, f"/api/v1/puzzles/{uid}/solve/", {}).json()
    assert again["id"] == job["id"]

    done = _poll(ana, job["status_url"])
    assert done["status"] == "done", done
    assert (done["nodes"], done["progress"]) == (3000, 1.0)
    report = done["result"]
    assert (report["complete"], report["cut"], report["nodes"]) == (False, "nodes", 3000)
    puzzle = Puzzle.objects.get(uid=uid)
    assert (puzzle.proof_status, puzzle.report) == ("refused", report)
    # Another user cannot read the job.
    assert Client().get(job["status_url"]).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_long_attempt_is_judged_in_the_background(ana: Client, in_process: None) -> None:
    uid = create(ana, **HEAVY)["uid"]
    answer = post(ana, f"/api/v1/puzzles/{uid}/attempts/", {"actions": ["assault"]})
    assert answer.status_code == 202
    job = answer.json()
    assert job["kind"] == "attempt"
    done = _poll(ana, job["status_url"])
    assert done["status"] == "done", done
    # B's replies are more than the bound: the verdict says the turn could not be checked.
    assert done["result"] == {"met": False, "refused": None, "message": "", "complete": False}
    assert done["max_nodes"] == 3000


@pytest.mark.django_db(transaction=True)
def test_the_board_polls_the_verdict_of_a_long_attempt(ana: Client, in_process: None) -> None:
    uid = create(ana, **HEAVY)["uid"]
    clicked = ana.post(
        f"/grimoire/{uid}/solve/", {"actions": '["assault"]'}, headers={"HX-Request": "true"}
    ).content.decode()
    assert 'data-judging="yes" hx-get="/grimoire/' in clicked
    assert "Judging your turn against every reply of the enemy" in clicked
    url = clicked.split('hx-get="', 1)[1].split('"', 1)[0]
    deadline = time.monotonic() + 60
    while "data-judging" in clicked and time.monotonic() < deadline:
        time.sleep(0.1)
        clicked = ana.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'data-actions="1" data-met="no"' in clicked
    assert "Your turn could not be checked in time" in clicked
    # Nobody else reads it.
    assert Client().get(url).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_editor_shows_the_proof_running_and_polls_it(ana: Client, in_process: None) -> None:
    uid = create(ana, **HEAVY)["uid"]
    page = ana.post(f"/grimoire/{uid}/prove/", follow=True).content.decode()
    assert f'hx-get="/grimoire/{uid}/proof/"' in page
    assert 'hx-trigger="every 1s"' in page
    assert "The solver is searching" in page
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        panel = ana.get(f"/grimoire/{uid}/proof/", headers={"HX-Request": "true"})
        html = panel.content.decode()
        if "hx-trigger" not in html:
            break
        time.sleep(0.1)
    assert html.lstrip().startswith('<section id="editor-proof"')
    assert "No proof: the position is too large for the solver&#x27;s search." in html


@pytest.mark.django_db
def test_a_small_proof_still_answers_at_once(ana: Client) -> None:
    uid = create(ana)["uid"]
    answer = post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
    assert answer.status_code == 200
    assert answer.json()["proved"] is True


@pytest.mark.django_db
def test_a_signed_in_client_hammering_solve_is_throttled(ana: Client) -> None:
    uid = create(ana)["uid"]
    answers = [post(ana, f"/api/v1/puzzles/{uid}/solve/", {}) for _ in range(31)]
    assert [answer.status_code for answer in answers[:30]] == [200] * 30
    refused = answers[30]
    assert refused.status_code == 429
    body = refused.json()
    assert (body["code"], set(body["details"])) == ("throttled", {"wait"})
    assert body["message"].startswith("Request was throttled.")
    # The editor's button spends the same budget.
    page = ana.post(f"/grimoire/{uid}/prove/", follow=True).content.decode()
    assert "Too many proofs" in page
    # Reading the report is not a proof.
    assert ana.get(f"/api/v1/puzzles/{uid}/solve/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_proof_that_ends_between_the_panels_reads_shows_its_outcome(
    ana: Client, in_process: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The panel read the puzzle (proof pending), then found no job running because the job
    committed its end in between: it showed "Proof running" without polling, for good (a CI
    run met it)."""
    uid = create(ana, **HEAVY)["uid"]
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(services, "task_send", lambda name, **kwargs: sent.append(kwargs))
    ana.post(f"/grimoire/{uid}/prove/")
    [job] = sent

    def job_ends_first(puzzle: Puzzle) -> Any:
        services.solver_job_run(job_id=job["job_id"])
        return selectors.proof_running(puzzle)

    monkeypatch.setattr(views, "proof_running", job_ends_first)
    html = ana.get(f"/grimoire/{uid}/proof/", headers={"HX-Request": "true"}).content.decode()
    assert "hx-trigger" not in html
    assert "No proof: the position is too large for the solver&#x27;s search." in html
