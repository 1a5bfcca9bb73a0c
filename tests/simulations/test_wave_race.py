"""Two chunks of a batch written at the same instant, on committed data in two threads (issue 30):
each claims the batch's next unsent chunk under the batch row's lock, so none is sent twice or
skipped."""

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from engine import services
from tests.decks.conftest import PRECON
from tests.simulations.conftest import create_batch, make_deck
from tests.simulations.test_waves import WAVE, check_done, chunks_of

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def test_two_chunks_written_at_once_send_two_different_chunks(
    django_user_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks run two by two, both written at the same instant: each claims the next unsent
    chunk under the batch row's lock, so every chunk is sent once and the totals are exact."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", False)
    sent: list[tuple[int, int]] = []
    lock = threading.Lock()

    def send(args: tuple[int, int]) -> None:
        with lock:
            sent.append((args[0], args[1]))

    monkeypatch.setattr("engine.tasks.run_chunk.apply_async", send)
    together = threading.Barrier(2, timeout=30)
    write: Callable[..., Any] = services._chunk_write

    def write_together(*args: Any) -> Any:
        together.wait()
        return write(*args)

    monkeypatch.setattr(services, "_chunk_write", write_together)
    owner = django_user_model.objects.create_user("tove", password="pw-tove-123456")
    batch = create_batch(owner, make_deck(owner, PRECON[1]), 100, chunk_size=10)
    assert sent == chunks_of(batch, range(WAVE))
    played: list[bool] = []

    def run(index: int) -> None:
        try:
            played.append(services.chunk_run(batch_id=batch.pk, index=index).played)
        finally:
            connection.close()

    ran = 0
    while ran < len(sent):
        pair = [index for _batch, index in sent[ran : ran + 2]]
        ran += len(pair)
        assert len(pair) == 2
        threads = [threading.Thread(target=run, args=(index,)) for index in pair]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert played == [True] * 10
    assert sorted(sent) == chunks_of(batch, range(10))
    check_done(batch)
