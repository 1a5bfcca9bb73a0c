"""`cod_site.background`: a task sent by a service runs on the Celery workers with a broker, and
without one in a thread of the web process, never inside the request that sent it."""

import threading
from typing import Any

import pytest
from celery import shared_task

from cod_site import background
from cod_site.celery import app

pytestmark = pytest.mark.django_db

seen: list[tuple[str, int]] = []
done = threading.Event()


@shared_task(name="tests.background_probe")
def probe(value: int) -> None:
    seen.append((threading.current_thread().name, value))
    done.set()


@pytest.fixture(autouse=True)
def _fresh() -> None:
    seen.clear()
    done.clear()


def test_without_a_broker_the_task_runs_in_a_thread_of_the_pool(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(background, "tasks", background.Pool("probe", lambda: 1))
    with django_capture_on_commit_callbacks(execute=True):
        background.task_send("tests.background_probe", value=7)
        # Sent once the transaction commits, not before.
        assert seen == []
    assert done.wait(10)
    assert seen == [("probe_0", 7)]


def test_with_a_broker_the_task_goes_to_the_workers(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setattr(probe, "apply_async", lambda **options: sent.append(options))
    with django_capture_on_commit_callbacks(execute=True):
        background.task_send("tests.background_probe", value=7)
    assert sent == [{"kwargs": {"value": 7}}]
    assert seen == []
