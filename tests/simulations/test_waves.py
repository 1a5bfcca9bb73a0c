"""Batches take turns in the queue (issue 30): each keeps a wave of its chunks queued
(SIMULATION_WAVE, 4), and a chunk written sends its batch's next one, so a small batch queued
behind large ones runs within a wave of each, with Celery and in the in-process pool alike; the
sweeps send again what was sent and lost; two chunks written at once send two different chunks."""

from collections import deque
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from decks.models import Deck
from engine import selectors, services, simulation
from engine.models import SimulationBatch, SimulationChunk, Status
from tests.simulations.conftest import QueuedExecutor, create_batch

WAVE = 4


def _ran() -> list[tuple[int, int]]:
    """(batch, chunk) in the order the chunks were written."""
    return list(SimulationChunk.objects.order_by("pk").values_list("batch_id", "index"))


def chunks_of(batch: SimulationBatch, indexes: range) -> list[tuple[int, int]]:
    return [(batch.pk, index) for index in indexes]


def _turns(large: SimulationBatch, other: SimulationBatch, small: SimulationBatch) -> list[Any]:
    """Two batches of 20 chunks queued before a batch of one: each large one's first wave, the
    small batch's chunk, then a wave of each in turn."""
    order = chunks_of(large, range(WAVE)) + chunks_of(other, range(WAVE)) + [(small.pk, 0)]
    for first in range(WAVE, 20, WAVE):
        order += chunks_of(large, range(first, first + WAVE))
        order += chunks_of(other, range(first, first + WAVE))
    return order


def check_done(*batches: SimulationBatch) -> None:
    for batch in batches:
        batch.refresh_from_db()
        assert (batch.status, batch.games_done, batch.chunks_done, batch.chunks_sent) == (
            Status.DONE, batch.games, batch.chunks_total, batch.chunks_total,
        )  # fmt: skip
        expected = simulation.play_games(selectors.batch_spec(batch), 0, batch.games)
        assert batch.totals == expected.to_json()


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> QueuedExecutor:
    """In-process mode, the pool one thread that plays its jobs first in, first out."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    executor = QueuedExecutor()
    monkeypatch.setattr(services, "background", executor)
    return executor


@pytest.mark.usefixtures("cards_db")
def test_in_process_a_small_batch_runs_after_a_wave_of_each_large_one(
    owner: Any, precon_deck: Deck, pool: QueuedExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        large = create_batch(owner, precon_deck, 200, chunk_size=10)
        other = create_batch(owner, precon_deck, 200, chunk_size=10, seed=8)
    with django_capture_on_commit_callbacks(execute=True):
        small = create_batch(owner, precon_deck, 10)
    assert (large.chunks_total, small.chunks_total) == (20, 1)
    assert len(pool.queue) == 2 * WAVE + 1
    pool.run()
    assert _ran() == _turns(large, other, small)
    assert pool.jobs == 41
    check_done(large, other, small)


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> deque[tuple[int, int]]:
    """With a broker: the chunk tasks sent, as (batch id, index), in a queue."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    queue: deque[tuple[int, int]] = deque()
    monkeypatch.setattr(
        "engine.tasks.run_chunk.apply_async", lambda args: queue.append((args[0], args[1]))
    )
    return queue


def _work(queue: deque[tuple[int, int]]) -> None:
    """One worker process taking the queue's tasks first in, first out."""
    from engine import tasks

    while queue:
        tasks.run_chunk.apply(args=queue.popleft())


@pytest.mark.usefixtures("cards_db")
def test_with_celery_a_small_batch_runs_after_a_wave_of_each_large_one(
    owner: Any,
    precon_deck: Deck,
    broker: deque[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        large = create_batch(owner, precon_deck, 200, chunk_size=10)
        other = create_batch(owner, precon_deck, 200, chunk_size=10, seed=8)
        small = create_batch(owner, precon_deck, 10)
    assert list(broker) == chunks_of(large, range(WAVE)) + chunks_of(other, range(WAVE)) + [
        (small.pk, 0)
    ]
    _work(broker)
    assert _ran() == _turns(large, other, small)
    check_done(large, other, small)


@pytest.mark.usefixtures("cards_db")
def test_a_chunk_sends_the_next_to_the_queue_it_came_from(
    owner: Any,
    precon_deck: Deck,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Not to the worker's default queue: the benchmark's and the tests' workers take a queue of
    their own that the process creating the batch sends its first wave to."""
    from cod_site.celery import app
    from engine import tasks

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    calls: list[tuple[tuple[int, int], dict[str, str]]] = []
    monkeypatch.setattr(
        "engine.tasks.run_chunk.apply_async",
        lambda args, **options: calls.append(((args[0], args[1]), options)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 100, chunk_size=10)
    assert calls == [((batch.pk, index), {}) for index in range(WAVE)]
    tasks.run_chunk.apply(args=(batch.pk, 0), routing_key="bench-simulations-2")
    assert calls[WAVE:] == [((batch.pk, WAVE), {"queue": "bench-simulations-2"})]


@pytest.mark.usefixtures("cards_db")
def test_a_cancelled_batch_sends_no_more_chunks(
    owner: Any,
    precon_deck: Deck,
    broker: deque[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 200, chunk_size=10)
    from engine import tasks

    tasks.run_chunk.apply(args=broker.popleft())
    assert list(broker) == chunks_of(batch, range(1, WAVE + 1))
    services.batch_cancel(batch=batch, actor=owner)
    _work(broker)
    batch.refresh_from_db()
    assert (batch.status, batch.games_done, batch.chunks_done, batch.chunks_sent) == (
        Status.CANCELLED, 10, 1, WAVE + 1,
    )  # fmt: skip
    assert batch.totals is not None and batch.totals["games"] == 10


def _idle(batch: SimulationBatch) -> None:
    two_hours_ago = timezone.now() - timedelta(hours=2)
    SimulationBatch.objects.filter(pk=batch.pk).update(active_at=two_hours_ago)


@pytest.mark.usefixtures("cards_db")
def test_the_sweep_resends_the_next_chunk_a_dead_worker_never_sent(
    owner: Any,
    precon_deck: Deck,
    broker: deque[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The worker that wrote chunk 3 died before sending the chunk it claimed (7): the other
    chunks run on, then the batch waits with nothing queued until the sweep sends chunk 7 again,
    and only it."""
    from engine import tasks

    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 100, chunk_size=10)
    for _chunk in range(WAVE):
        tasks.run_chunk.apply(args=broker.popleft())
    assert list(broker) == chunks_of(batch, range(4, 8))
    broker.remove((batch.pk, 7))
    _work(broker)
    batch.refresh_from_db()
    assert (batch.status, batch.chunks_done, batch.chunks_sent) == (Status.RUNNING, 9, 10)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 0
    _idle(batch)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == 1
    assert list(broker) == [(batch.pk, 7)]
    _work(broker)
    check_done(batch)


@pytest.mark.usefixtures("cards_db")
def test_a_chunk_whose_next_could_not_be_sent_counts_and_the_sweep_sends_that_one(
    owner: Any,
    precon_deck: Deck,
    broker: deque[tuple[int, int]],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from kombu.exceptions import OperationalError

    from engine import tasks

    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 100, chunk_size=10)
    broker.clear()

    def refused(args: tuple[int, int]) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as patch:
        patch.setattr("engine.tasks.run_chunk.apply_async", refused)
        assert tasks.run_chunk.apply(args=(batch.pk, 0)).get() == 10
    batch.refresh_from_db()
    assert (batch.status, batch.chunks_done, batch.chunks_sent) == (Status.RUNNING, 1, WAVE + 1)
    _idle(batch)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == WAVE
    assert list(broker) == chunks_of(batch, range(1, WAVE + 1))
    _work(broker)
    check_done(batch)


@pytest.mark.usefixtures("cards_db")
def test_the_sweep_sends_the_next_wave_of_a_batch_with_nothing_left_queued(
    owner: Any,
    precon_deck: Deck,
    broker: deque[tuple[int, int]],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Its wave's messages all lost, and the wave made larger meanwhile: the sweep sends the lost
    chunks again and the next ones up to the new wave, then the batch runs on by itself."""
    settings.SIMULATION_WAVE = 2
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 100, chunk_size=10)
    assert list(broker) == chunks_of(batch, range(2))
    broker.clear()
    settings.SIMULATION_WAVE = WAVE
    _idle(batch)
    assert services.batch_resend_lost_chunks(idle_for=timedelta(hours=1)) == WAVE
    assert list(broker) == chunks_of(batch, range(WAVE))
    _work(broker)
    check_done(batch)


@pytest.mark.usefixtures("cards_db")
def test_the_pool_s_sweep_resumes_a_batch_from_its_lost_wave(
    owner: Any, precon_deck: Deck, pool: QueuedExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    """In-process: the server stopped with chunks 0-5 written and 6-9 in its pool's queue."""
    with django_capture_on_commit_callbacks(execute=True):
        batch = create_batch(owner, precon_deck, 100, chunk_size=10)
    for _chunk in range(6):
        function, kwargs = pool.queue.popleft()
        function(**kwargs)
    pool.queue.clear()
    pool.batches.clear()
    assert services.batches_resume_orphaned() == WAVE
    assert [kwargs["index"] for _function, kwargs in pool.queue] == [6, 7, 8, 9]
    pool.run()
    check_done(batch)
