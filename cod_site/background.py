"""Work that must not run inside a request, when there is no broker (`make run` without
REDIS_URL).

With REDIS_URL the Celery workers take such work (`make worker`). Without a broker, Celery's
eager mode would run a task inside the request that sent it, which is what this module avoids:
a `Pool` runs jobs in a few daemon threads of the web process, so the request answers at once
and the page polls the job's status as it would with workers. Each job closes its thread's
database connections when it ends. The pools live and die with the process.

`task_send` is the one way a service sends a background task by its registered name: to the
broker, else to the shared pool (`BACKGROUND_THREADS` threads). The engine's test batches keep a
pool of their own (`engine.background`, `SIMULATION_THREADS`).
"""

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connections, transaction


class Pool:
    """A thread pool started on first use, its size read from settings then (so tests and the
    environment may change it before)."""

    def __init__(self, name: str, threads: Callable[[], int]) -> None:
        self.name = name
        self._threads = threads
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=self._threads(), thread_name_prefix=self.name
                )
            return self._executor

    def submit(self, function: Callable[..., Any], /, **kwargs: Any) -> Future:
        return self._pool().submit(_run, function, kwargs)


def _run(function: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    try:
        return function(**kwargs)
    finally:
        connections.close_all()


# Every in-process task sent by `task_send` (the solver's jobs, and any other slow work).
tasks = Pool("background", lambda: settings.BACKGROUND_THREADS)


def in_process() -> bool:
    """No broker: tasks would run eagerly inside the request (CELERY_TASK_ALWAYS_EAGER)."""
    return bool(current_app.conf.task_always_eager)


def task_send(name: str, /, **kwargs: Any) -> None:
    """Send the registered task `name` with `kwargs` once the current transaction commits (so
    that what it reads is there): to the Celery workers, or without a broker to the `tasks` pool,
    where the task's body runs in a thread of this process."""

    def send() -> None:
        task = current_app.tasks[name]
        if in_process():
            tasks.submit(task, **kwargs)
        else:
            task.apply_async(kwargs=kwargs)

    transaction.on_commit(send)
