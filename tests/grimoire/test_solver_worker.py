"""A proof through the real broker: the API answers at once with a job, a Celery worker process
started by the test runs the solver, and the job's status gives its report."""

import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from cod_site.celery import app
from grimoire import services
from grimoire.models import Puzzle
from tests.grimoire.test_api import BODY, create, post
from tests.support.processes import child_environ, database_url, running

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _position() -> dict[str, Any]:
    """Surviving B's reply: a complete search of 15,030 positions (about 2 s, far beyond the
    request's budget; the 16-card position of test_solver_jobs would take a minute here, where
    the solver's bound cannot be lowered from the test)."""
    cards = {}
    for i in range(4):
        cards[f"A{i}"] = {"type": "creature", "cost": 1, "attack": 1 + i % 3, "hp": 1 + i % 4}
    for i in range(4):
        cards[f"B{i}"] = {"type": "creature", "cost": 1, "attack": 1 + i % 2, "hp": 1 + i % 3}
    return {
        "cards": cards,
        "state": {
            "active": "A",
            "players": {
                "A": {"hand": ["A0", "A1", "STRONGHOLD", "A2", "A3"], "mana": 2},
                "B": {"hand": ["B0", "B1", "STRONGHOLD", "B2", "B3"]},
            },
        },
    }


def test_a_proof_job_is_run_by_a_worker(
    ana: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: a worker process cannot see SQLite's test DB")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    uid = create(ana, **{**BODY, "scenario": _position(), "goal": {"kind": "survive"}})["uid"]

    queue = f"test-grimoire-{uuid.uuid4().hex[:8]}"
    monkeypatch.setitem(app.conf, "task_default_queue", queue)
    monkeypatch.setattr(services, "INLINE_SECONDS", 0)  # the proof goes to the worker
    env = {**child_environ(), "DATABASE_URL": database_url(connection.settings_dict)}
    command = [
        sys.executable, "-m", "celery", "-A", "cod_site", "worker", "--pool=solo",
        "--queues", queue, "--loglevel=INFO", "--without-heartbeat", "--without-mingle",
        "--without-gossip",
    ]  # fmt: skip
    log = tmp_path / "worker.log"
    with running(command, env, log):
        answer = post(ana, f"/api/v1/puzzles/{uid}/solve/", {})
        assert answer.status_code == 202, answer.json()
        job = answer.json()
        deadline = time.monotonic() + 120
        while job["status"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.3)
            job = ana.get(job["status_url"]).json()
        if job["status"] != "done":
            pytest.fail(f"job {job}\n{log.read_text()[-3000:]}")
    report = job["result"]
    assert (report["complete"], report["solutions"], report["nodes"]) == (True, 45, 15030)
    assert "grimoire.solver_job" in log.read_text()
    # Ending the turn at once survives: a trivial puzzle, not proved.
    puzzle = Puzzle.objects.get(uid=uid)
    assert (puzzle.proof_status, puzzle.report) == ("refused", report)
