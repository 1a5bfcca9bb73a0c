"""Batches through the real Redis broker to real Celery worker processes started by the test:
2,000 games counted exactly once, whatever the chunking, even when a worker is killed mid-way or
the broker loses a chunk's message."""

import json
import os
import signal
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.db.models import Sum
from django.test import Client

from cod_site.celery import app
from engine import selectors, simulation
from engine.models import SimulationBatch, SimulationChunk, Status
from tests.decks.conftest import PRECON
from tests.simulations.conftest import create_batch, make_deck
from tests.support.processes import running

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]

GAMES = 2000
# A worker that dies unannounced leaves its tasks unacknowledged: a new worker takes them back
# once this many seconds have passed (the production default is an hour).
VISIBILITY_TIMEOUT = 3
# How often the worker's beat looks for batches that stalled on a lost chunk (default a minute).
SWEEP_SECONDS = 1


@pytest.fixture
def queue(monkeypatch: pytest.MonkeyPatch) -> str:
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: a worker process cannot see SQLite's test DB")
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    name = f"test-simulations-{uuid.uuid4().hex[:8]}"
    monkeypatch.setitem(app.conf, "task_default_queue", name)
    return name


def _database_url() -> str:
    conf = connection.settings_dict
    password = f":{conf['PASSWORD']}" if conf["PASSWORD"] else ""
    return (
        f"postgres://{conf['USER']}{password}@{conf['HOST'] or '127.0.0.1'}:"
        f"{conf['PORT'] or 5432}/{conf['NAME']}"
    )


@contextmanager
def worker(queue: str, log: Path, concurrency: int = 2) -> Iterator[Any]:
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "SIMULATION_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "CELERY_QUEUE": queue,
    }
    command = [
        sys.executable, "-m", "celery", "-A", "cod_site", "worker", "--pool=prefork",
        "--beat",
        f"--concurrency={concurrency}", "--prefetch-multiplier=1",
        "--loglevel=INFO", "--without-heartbeat", "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    with running(command, env, log) as process:
        yield process


def _wait(batch_id: int, log: Path, until: Any, timeout: float = 120) -> SimulationBatch:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        batch = SimulationBatch.objects.get(pk=batch_id)
        if until(batch):
            return batch
        time.sleep(0.05)
    pytest.fail(f"batch {batch_id} stuck at {batch.games_done} games\n{log.read_text()[-3000:]}")


def _over(batch: SimulationBatch) -> bool:
    return batch.status not in (Status.QUEUED, Status.RUNNING)


def _check_exact(batch: SimulationBatch, games: int = GAMES) -> None:
    assert batch.status == Status.DONE, batch.error
    assert (batch.games_done, batch.chunks_done) == (games, batch.chunks_total)
    assert batch.chunks.aggregate(total=Sum("games"))["total"] == games
    assert sorted(batch.chunks.values_list("index", flat=True)) == list(range(batch.chunks_total))
    assert batch.totals["games"] == games
    assert sum(batch.totals["wins"]) + batch.totals["draws"] == games
    assert sum(batch.totals["turns"].values()) == games


def test_2000_games_are_counted_exactly_once_whatever_the_chunking(
    queue: str, tmp_path: Path, django_user_model: Any
) -> None:
    owner = django_user_model.objects.create_user("wanda", password="pw-wanda-123456")
    deck = make_deck(owner, PRECON[1], name="Wanda's deck")
    client = Client()
    client.force_login(owner)
    log = tmp_path / "worker.log"
    with worker(queue, log):
        response = client.post(
            "/api/v1/simulations/",
            {"deck_a": {"deck": deck.share_id}, "deck_b": {"preconstructed": 2},
             "agent_a": "greedy", "agent_b": "greedy", "games": GAMES, "seed": 2024},
            content_type="application/json",
        )  # fmt: skip
        assert response.status_code == 202
        url = response.json()["url"]
        first = _wait(response.json()["id"], log, _over)
        other = create_batch(owner, deck, GAMES, seed=2024, chunk_size=250)
        second = _wait(other.pk, log, _over)
    _check_exact(first)
    _check_exact(second)
    assert (first.chunk_size, first.chunks_total) == (100, 22)  # 18 of 100, then 4 of 50
    assert (second.chunk_size, second.chunks_total) == (250, 10)  # 6 of 250, then 4 of 125
    assert first.totals == second.totals
    # Both worker processes took part.
    assert len(set(first.chunks.values_list("worker", flat=True))) == 2
    assert "engine.run_simulation_chunk" in log.read_text()
    detail = client.get(url).json()
    assert detail["progress"]["games_done"] == GAMES
    assert detail["results"]["games"] == GAMES


def test_killing_the_worker_mid_way_loses_and_doubles_nothing(
    queue: str, tmp_path: Path, django_user_model: Any
) -> None:
    owner = django_user_model.objects.create_user("kim", password="pw-kim-123456")
    deck = make_deck(owner, PRECON[1], name="Kim's deck")
    batch = create_batch(owner, deck, GAMES, seed=2024, chunk_size=20)
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    with worker(queue, first_log, concurrency=1) as process:
        _wait(batch.pk, first_log, lambda one: one.games_done >= 300)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    killed_at = SimulationBatch.objects.get(pk=batch.pk)
    assert killed_at.status == Status.RUNNING
    assert 300 <= killed_at.games_done < GAMES, "the batch ended before the worker was killed"
    # The tasks the dead worker held come back once the visibility timeout has passed.
    time.sleep(VISIBILITY_TIMEOUT + 1)
    with worker(queue, second_log, concurrency=2):
        done = _wait(batch.pk, second_log, _over)
    _check_exact(done)
    assert done.chunks_total == 102  # 98 chunks of 20, then 4 of 10
    reference = simulation.play_games(selectors.batch_spec(done), 0, GAMES)
    assert done.totals == reference.to_json()


def test_a_chunk_the_broker_lost_is_sent_again(
    queue: str, tmp_path: Path, django_user_model: Any
) -> None:
    """A worker killed between taking a message from Redis (BRPOP) and recording it as
    unacknowledged loses that message for good: no visibility timeout brings it back. Here the
    message is taken away before any worker runs; the beat's sweep sends its chunk again once the
    batch has been idle for the visibility timeout."""
    owner = django_user_model.objects.create_user("lou", password="pw-lou-123456")
    deck = make_deck(owner, PRECON[1], name="Lou's deck")
    batch = create_batch(owner, deck, 200, seed=11, chunk_size=20)
    assert batch.chunks_total == 12  # 8 of 20, then 4 of 10
    broker = redis.Redis.from_url(settings.REDIS_URL)
    assert broker.llen(queue) == settings.SIMULATION_WAVE == 4  # each chunk written sends one
    lost = json.loads(broker.rpop(queue))  # the oldest message: chunk 0
    assert lost["headers"]["argsrepr"] == f"({batch.pk}, 0)"
    log = tmp_path / "worker.log"
    with worker(queue, log):
        done = _wait(batch.pk, log, _over, timeout=60)
    _check_exact(done, games=200)
    assert done.chunks.get(index=0).first_game == 0
    assert "resent 1 chunk" in log.read_text()


def test_a_small_batch_queued_behind_a_large_one_runs_after_a_wave_of_it(
    queue: str, tmp_path: Path, django_user_model: Any
) -> None:
    """Issue 30: the large batch keeps a wave of its chunks in the queue, so the small batch's
    one chunk, queued after, is written among the first chunks, not after the large batch's 102."""
    owner = django_user_model.objects.create_user("ulla", password="pw-ulla-123456")
    deck = make_deck(owner, PRECON[1], name="Ulla's deck")
    large = create_batch(owner, deck, GAMES, seed=2024, chunk_size=20)
    small = create_batch(owner, deck, 10, seed=5)
    log = tmp_path / "worker.log"
    with worker(queue, log):
        done = _wait(large.pk, log, _over)
    _check_exact(done)
    small.refresh_from_db()
    _check_exact(small, games=10)
    written = list(
        SimulationChunk.objects.filter(batch__in=[large, small])
        .order_by("pk")
        .values_list("batch_id", flat=True)
    )
    assert len(written) == 103
    # Queued: the large batch's first 4, then the small one's; 2 processes, each chunk written
    # sending the next behind it.
    assert written.index(small.pk) <= 2 * settings.SIMULATION_WAVE


def test_a_search_for_suggestions_plays_its_rounds_on_the_workers(
    queue: str, tmp_path: Path, django_user_model: Any
) -> None:
    """Improve this deck through the broker: each round's units go to the queue, the worker that
    completes a round sends the next one's, and a unit whose message the broker lost is sent
    again by the beat's sweep; the search ends with a proved swap, as it does in one thread."""
    from engine.models import SuggestionSearch, SuggestionUnit
    from engine.suggestions import services as suggestions

    owner = django_user_model.objects.create_user("sune", password="pw-sune-123456")
    deck = make_deck(owner, PRECON[2], name="Sune's deck")
    client = Client()
    client.force_login(owner)
    response = client.post(
        f"/api/v1/decks/{deck.share_id}/suggestions/",
        {"field": "preconstructed", "seed": 5},
        content_type="application/json",
    )
    assert response.status_code == 202
    search_id = response.json()["id"]
    broker = redis.Redis.from_url(settings.REDIS_URL)
    assert broker.llen(queue) == SuggestionUnit.objects.filter(search_id=search_id).count() > 1
    lost = json.loads(broker.rpop(queue))
    assert lost["headers"]["task"] == suggestions.RUN_UNIT_TASK
    log = tmp_path / "worker.log"
    deadline = time.monotonic() + 180
    with worker(queue, log):
        while time.monotonic() < deadline:
            item = SuggestionSearch.objects.get(pk=search_id)
            if item.status not in (Status.QUEUED, Status.RUNNING):
                break
            time.sleep(0.2)
    assert item.status == Status.DONE, (item.status, item.error, log.read_text()[-3000:])
    assert item.round >= 3 and item.first_proved_at is not None
    assert f"suggestion search {search_id}: idle for 3 s, resent 1 unit(s)" in log.read_text()
    shown = client.get(response.json()["url"]).json()
    assert shown["results"]["suggestions"][0]["status"] == "proved"
