"""How many live streams a client holds open: at most `STREAMS_PER_ADDRESS` per client address
and `STREAMS_PER_USER` per account, counted over every server process.

A stream takes a slot when it opens and gives it back when it ends. With REDIS_URL the slots
are members of a Redis sorted set per address and per account, scored with the time they lapse
at, so that a process that died without giving its slots back holds them only until then;
without it, in this process's memory, which lapse the same way. A refusal is a 429 in the API's
error shape.
"""

import threading
import time
import uuid
from dataclasses import dataclass

import redis
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from cod_site.api.errors import error_body

# A slot outlives its stream by this much at most (a process that died holding it).
SLACK_SECONDS = 30


@dataclass(frozen=True)
class Slot:
    member: str
    keys: tuple[str, ...]


_local_lock = threading.Lock()
# Without Redis: the slots of each key, each with the time it lapses at.
_local: dict[str, dict[str, float]] = {}
_client: redis.Redis | None = None


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
    return _client


def _limits(request: HttpRequest) -> list[tuple[str, str, int]]:
    """(scope, key, limit) of the request's client: its address, and its account if any."""
    # Keys of Redis's database, named as the cache's (KEY_PREFIX), which Redis keeps apart by
    # database number.
    prefix = f"{settings.CACHES['default'].get('KEY_PREFIX', '')}:streams"
    address = request.META.get("REMOTE_ADDR", "")
    limits = [("address", f"{prefix}:address:{address}", settings.STREAMS_PER_ADDRESS)]
    user = request.user
    if user.is_authenticated:
        limits.append(("user", f"{prefix}:user:{user.pk}", settings.STREAMS_PER_USER))
    return limits


def slot_take(request: HttpRequest, seconds: float) -> Slot | JsonResponse:
    """A slot for a stream of at most `seconds`, or the 429 that refuses it."""
    limits = _limits(request)
    member = uuid.uuid4().hex
    keys = tuple(key for _scope, key, _limit in limits)
    if settings.REDIS_URL:
        try:
            counts = _take_redis(keys, member, seconds)
        except redis.RedisError:  # no count without Redis: the stream is not refused for it
            return Slot(member, ())
    else:
        counts = _take_local(keys, member, seconds)
    for (scope, _key, limit), count in zip(limits, counts, strict=True):
        if count > limit:
            slot_give_back(Slot(member, keys))
            message = _("Too many live updates open at once: close a table page and try again.")
            body = error_body("too_many_streams", message, {"scope": scope, "limit": limit})
            refusal = JsonResponse(body, status=429)
            refusal["Retry-After"] = str(int(seconds))
            return refusal
    return Slot(member, keys)


def _take_redis(keys: tuple[str, ...], member: str, seconds: float) -> list[int]:
    now = time.time()
    pipe = _redis().pipeline()
    for key in keys:
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {member: now + seconds + SLACK_SECONDS})
        pipe.zcard(key)
        pipe.expire(key, int(seconds + SLACK_SECONDS))
    replies = pipe.execute()
    return [int(replies[4 * index + 2]) for index in range(len(keys))]


def _take_local(keys: tuple[str, ...], member: str, seconds: float) -> list[int]:
    now = time.time()
    with _local_lock:
        counts = []
        for key in keys:
            slots = {other: end for other, end in _local.get(key, {}).items() if end > now}
            slots[member] = now + seconds + SLACK_SECONDS
            _local[key] = slots
            counts.append(len(slots))
        return counts


def slot_give_back(slot: Slot) -> None:
    if settings.REDIS_URL:
        try:
            pipe = _redis().pipeline()
            for key in slot.keys:
                pipe.zrem(key, slot.member)
            pipe.execute()
        except redis.RedisError:  # it lapses by itself
            pass
        return
    with _local_lock:
        for key in slot.keys:
            slots = _local.get(key, {})
            slots.pop(slot.member, None)
            if not slots:
                _local.pop(key, None)
