"""The in-process runner's sweep (no broker): a thread of the web process that resumes the
batches a previous server left unfinished, started when the process loads its application."""

import importlib
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

from engine import background, services


def test_the_sweep_runs_at_once_then_every_period_in_a_thread_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(background, "_sweeper", None)
    threads: list[str] = []
    finished, never = threading.Event(), threading.Event()

    def sweep() -> None:
        threads.append(threading.current_thread().name)
        if len(threads) == 2:
            raise RuntimeError("the database restarted")  # logged; the next round comes
        if len(threads) == 3:
            finished.set()
            never.wait()  # the daemon thread rests here until the test process ends

    assert background.start_sweep(sweep, 0.01) is True
    assert finished.wait(10)
    assert threads == ["simulation-sweep"] * 3
    # Once per process.
    assert background.start_sweep(sweep, 0.01) is False
    assert background._sweeper is not None and background._sweeper.daemon


class _Pool:
    def __init__(self) -> None:
        self.sweeps: list[tuple[Callable[[], object], float]] = []

    def start_sweep(self, sweep: Callable[[], object], every: float) -> bool:
        self.sweeps.append((sweep, every))
        return True


def test_without_a_broker_the_web_process_sweeps_for_orphaned_batches(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from cod_site.celery import app

    pool = _Pool()
    monkeypatch.setattr(services, "background", pool)
    settings.SIMULATION_SWEEP_SECONDS = 42
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    assert services.pool_sweep_start() is True
    assert pool.sweeps == [(services.batches_resume_orphaned, 42)]
    # With a broker, the beat of `make worker` sweeps: the web process starts nothing.
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    assert services.pool_sweep_start() is False
    assert len(pool.sweeps) == 1


@pytest.mark.parametrize("module", ["cod_site.wsgi", "cod_site.asgi"])
def test_loading_the_web_application_starts_the_sweep(
    monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(services, "pool_sweep_start", lambda: calls.append(module) or True)
    monkeypatch.delitem(sys.modules, module, raising=False)
    importlib.import_module(module)
    assert calls == [module]
