"""Reachability checks of the services the app depends on."""

import threading
import time
from collections.abc import Callable
from functools import cache

import redis
from django.conf import settings
from django.db import close_old_connections, connection

from engine.rules import native


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means "unreachable", reported as text
        return f"error: {exc.__class__.__name__}"
    return "ok"


@cache
def _redis(url: str) -> redis.Redis:
    # One client per process, whose pool keeps its connections: a client made per check connected
    # anew every time, and /healthz is asked every few seconds by every load balancer.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def redis_status() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        _redis(settings.REDIS_URL).ping()
    except redis.RedisError as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


def health_report() -> tuple[bool, dict[str, str]]:
    checks = {"database": database_status(), "redis": redis_status()}
    healthy = all(value in ("ok", "not configured") for value in checks.values())
    # Informative, not a failure: the interpreted engine plays the same games, only slower.
    return healthy, {
        "status": "ok" if healthy else "unavailable",
        **checks,
        "engine": native.STATUS,
    }


Report = tuple[bool, dict[str, str]]


class RecentHealth:
    """The health report of this process as a load balancer's frequent probe reads it, answered
    at once: a report younger than `fresh` seconds as it is; an older one, still younger than
    `stale`, as it is while a check runs again in the background; else a check, awaited.

    `make serve` answers `/healthz` on the event loop from this (cod_site/hybrid.py): a probe
    answered by a thread waited for the interpreter lock at each step of a check (the database's
    round trip, Redis's, the middleware) behind the pages' threads, so its tail told how busy
    the process was, not whether it answers. The report is never older than `stale` seconds, and a
    check that hangs (a database that no longer answers) leaves it to age past that: the probe
    then waits for the check, as it did before."""

    def __init__(
        self,
        check: Callable[[], Report] = health_report,
        fresh: float = 1.0,
        stale: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.check, self.fresh, self.stale, self.clock = check, fresh, stale, clock
        self.lock = threading.Lock()
        self.report: Report | None = None
        self.checked = float("-inf")
        self.checking = False

    def answer(self) -> tuple[Report | None, bool]:
        """The report to answer with now (None: none recent enough, wait for `refresh`) and
        whether the caller should start a `refresh` (one at a time)."""
        with self.lock:
            age = self.clock() - self.checked
            start = age >= self.fresh and not self.checking
            if start:
                self.checking = True
            return (self.report if age < self.stale else None), start

    def refresh(self) -> Report:
        """Check again (in a thread: the checks block) and keep the report."""
        try:
            # A connection broken since the last check is replaced, as around a request.
            close_old_connections()
            report = self.check()
        finally:
            with self.lock:
                self.checking = False
        with self.lock:
            self.report, self.checked = report, self.clock()
        return report
