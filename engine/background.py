"""The in-process runner used when there is no broker (`make run` without REDIS_URL).

Chunks of simulated games run in a small pool of daemon threads inside the web process
(`cod_site.background.Pool`), so a request that queues a batch returns at once and the batch page
shows the same progress as with Celery workers.

The pool lives and dies with the process: the batches it was given are remembered, so a batch
still active in the database that this process never took (the server restarted mid-batch) can be
recognised as orphaned and resumed. That is the work of the pool's sweep (`start_sweep`): a
thread of its own that the web process starts when it loads its application, the way `make worker`
runs a beat, so that looking at a batch never writes.
"""

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from django.conf import settings
from django.db import connections

from cod_site.background import Pool

logger = logging.getLogger(__name__)

# The batches' own threads: a long batch never waits behind other background work, nor holds it up.
_pool = Pool("simulation", lambda: settings.SIMULATION_THREADS)
_lock = threading.Lock()
_batches: set[int] = set()
_sweeper: threading.Thread | None = None


def submit(function: Callable[..., Any], /, **kwargs: Any) -> Future:
    return _pool.submit(function, **kwargs)


def take_batch(batch_id: int) -> bool:
    """Mark a batch as this process's to run; False if it already was."""
    with _lock:
        if batch_id in _batches:
            return False
        _batches.add(batch_id)
        return True


def _sweep_forever(sweep: Callable[[], object], every: float) -> None:
    while True:
        try:
            sweep()
        except Exception:
            # A database restarting, say: the next round tries again.
            logger.exception("the simulation pool's sweep failed")
        finally:
            connections.close_all()
        time.sleep(every)


def start_sweep(sweep: Callable[[], object], every: float) -> bool:
    """Run `sweep` now, then every `every` seconds, in a daemon thread: once per process (False
    if it already runs)."""
    global _sweeper
    with _lock:
        if _sweeper is not None:
            return False
        _sweeper = threading.Thread(
            target=_sweep_forever, args=(sweep, every), name="simulation-sweep", daemon=True
        )
        _sweeper.start()
        return True
