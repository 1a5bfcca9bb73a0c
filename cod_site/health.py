"""Reachability checks of the services the app depends on."""

from functools import cache

import redis
from django.conf import settings
from django.db import connection

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
