"""Django's Redis cache with one client, and so one pool of connections, per process.

Django keeps a cache object per context (`django.core.cache.caches`), and each object its own
Redis client and connection pool. Under `make serve` every request runs in a context of its own
(a2wsgi copies the event loop's context for each request; Django's ASGI handler makes one per
request too), so each request that used the cache opened a connection to Redis and closed it when
its cache object was dropped: one for a card page or search, and for a guest's action (its
seat's throttle). Opening one (connect, the client's name and version sent, redis-py reading its own
version from the package's metadata) was 40% of a kept card page's CPU in the server. Here the
objects of a process share one client, whose pool keeps its connections (redis-py's pool is safe
across threads and, after a fork, opens new ones).
"""

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    """`RedisCache` whose objects with the same servers and options share their client."""

    _servers: list[str]
    _options: dict[str, Any]

    @cached_property
    def _cache(self) -> RedisCacheClient:
        # The options are plain settings (strings, numbers, classes): their repr tells them apart.
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = RedisCacheClient(self._servers, **self._options)
            return client
