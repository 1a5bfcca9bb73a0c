"""The Redis cache keeps its connections across requests (cod_site/cache.py)."""

import contextvars
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import caches
from redis.connection import Connection


def _cached(key: str) -> object:
    return caches["default"].get(key)


def test_requests_in_contexts_of_their_own_share_one_connection() -> None:
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set: the cache is each process's memory")
    caches["default"].set("shared", 1)
    # Opens a socket to Redis (`connect` is called for every command, and returns at once on a
    # connection that is open).
    connect = Connection._connect
    with mock.patch.object(Connection, "_connect", autospec=True, side_effect=connect) as opened:
        # As the server runs each request: in a context of its own, where `caches` holds no
        # cache object yet.
        values = [contextvars.Context().run(_cached, "shared") for _ in range(20)]
    assert values == [1] * 20
    assert opened.call_count == 0
