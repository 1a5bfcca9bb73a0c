"""The live stream of a table (its players' and its spectators' pages): server-sent events, an
`update` with the action count, the Draft pick count and the status each time they move.

The services publish them after each commit (`play.services._announce`, through
`cod_site.broadcast`); a stream reads them from the database once when it opens, then waits for
the news, so an idle stream makes no query. Under ASGI (`make serve`) it waits in the event
loop, holding no thread; under a WSGI server (`make run`'s runserver, the test client) in its
request's thread, as WSGI has it. A stream ends after `PLAY_STREAM_SECONDS`, with the game, or
when its server process stops (`cod_site.broadcast.CLOSING`), and the page opens the next one.
A quiet stream sends a comment every `KEEPALIVE_SECONDS`, so that a proxy does not close it as
idle (nginx's default: 60 s).

Streams last minutes, not seconds: each opening costs a request through the whole middleware
and a database read, and the news of a move made while a page reconnects reaches it only once
it is back. With 500 streams on 2 cores (bench/live_bench.py), streams of 15-25 s reopened 25
times a second: watchers p95 1.6 s, and 1 (table, move) in 2 missed by a watcher until its next
stream; streams of 300 s: watchers p95 0.25 s, every move seen by every watcher.
"""

import json
import random
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import HttpRequest, StreamingHttpResponse

from cod_site.broadcast import CLOSING, RESYNC, Message, Subscription
from cod_site.stream_slots import Slot, slot_give_back
from play import selectors
from play.models import Game, Status

Progress = tuple[int, int, str]
# Streams reading the database at once in this process (opening, or reading again after lost
# news): the rest wait their turn, so that many pages reconnecting together (a restart) leave
# the pool's other connections to the requests.
READERS = threading.BoundedSemaphore(4)
# A comment line on a quiet stream this often (see the module's doc).
KEEPALIVE_SECONDS = 20.0
KEEPALIVE = ": keep-alive\n\n"
# Statuses in the order a table goes through them.
STAGES = [Status.WAITING, Status.DRAFTING, Status.PLAYING, Status.FINISHED]


def _later(progress: Progress, than: Progress | None) -> bool:
    """`progress` comes after `than`: news may arrive out of order (two processes published
    the moves of one table at once), and an older one is not shown again."""
    if than is None:
        return True
    return (STAGES.index(Status(progress[2])), progress[1], progress[0]) > (
        STAGES.index(Status(than[2])),
        than[1],
        than[0],
    )


def _from(message: Message) -> Progress:
    return (int(message["action_count"]), int(message["pick_count"]), str(message["status"]))


def _event(progress: Progress) -> str:
    data = {"action_count": progress[0], "pick_count": progress[1], "status": progress[2]}
    return f"event: update\ndata: {json.dumps(data)}\n\n"


Reader = Callable[[], Progress | None]


def _read(read: Reader) -> Progress | None:
    with READERS:
        return read()


def _read_and_let_go(read: Reader) -> Progress | None:
    """Under ASGI: the progress as stored, then the thread's database connection goes back to
    the pool (else the stream would hold it until it ends)."""
    try:
        return _read(read)
    finally:
        close_old_connections()


class _Told:
    """What a stream told so far: it says a progress once, and only a later one."""

    def __init__(self) -> None:
        self.last: Progress | None = None
        # 60-100% of it: pages that reconnected together (a restart) drift apart.
        seconds = settings.PLAY_STREAM_SECONDS * random.uniform(0.6, 1.0)
        self.deadline = time.monotonic() + seconds

    def news(self, progress: Progress) -> str | None:
        if not _later(progress, self.last):
            return None
        self.last = progress
        return _event(progress)

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def wait(self) -> float:
        """How long to wait for news before the stream says it is alive (or ends)."""
        return max(0.0, min(self.remaining(), KEEPALIVE_SECONDS))

    @staticmethod
    def over(progress: Progress | None) -> bool:
        """Nothing more to tell: the game was deleted or is over."""
        return progress is None or progress[2] == Status.FINISHED


async def _async_events(key: str, read: Reader, release: Callable[[], None]) -> AsyncIterator[str]:
    try:
        with Subscription(key) as subscription:
            yield "retry: 500\n\n"
            told = _Told()
            # Read after subscribing: a move committed meanwhile is in the news, if not here.
            progress = await sync_to_async(_read_and_let_go)(read)
            while told.remaining() > 0 and progress is not None:
                if event := told.news(progress):
                    yield event
                if told.over(progress):
                    return
                message = await subscription.next(told.wait())
                if message is CLOSING:
                    return
                if message is RESYNC:
                    progress = await sync_to_async(_read_and_let_go)(read)
                elif message is not None:
                    progress = _from(message)
                elif told.remaining() > 0:
                    yield KEEPALIVE
    finally:
        release()


def _sync_events(key: str, read: Reader, release: Callable[[], None]) -> Iterator[str]:
    try:
        with Subscription(key) as subscription:
            yield "retry: 500\n\n"
            told = _Told()
            progress = _read(read)
            while told.remaining() > 0 and progress is not None:
                if event := told.news(progress):
                    yield event
                if told.over(progress):
                    return
                message = subscription.next_sync(told.wait())
                if message is CLOSING:
                    return
                if message is RESYNC:
                    progress = _read(read)
                elif message is not None:
                    progress = _from(message)
                elif told.remaining() > 0:
                    yield KEEPALIVE
    finally:
        release()


class _Events:
    """A stream's events with its slot: Django calls `close` when the response closes, whether
    the stream started or not (the client may leave before its first byte)."""

    def __init__(self, release: Callable[[], None]) -> None:
        self.close = release


class _SyncEvents(_Events):
    def __init__(self, key: str, read: Reader, release: Callable[[], None]) -> None:
        super().__init__(release)
        self.events = _sync_events(key, read, release)

    def __iter__(self) -> Iterator[str]:
        return self.events


class _AsyncEvents(_Events):
    def __init__(self, key: str, read: Reader, release: Callable[[], None]) -> None:
        super().__init__(release)
        self.events = _async_events(key, read, release)

    def __aiter__(self) -> AsyncIterator[str]:
        return self.events


def stream_response(request: HttpRequest, game: Game, slot: Slot) -> StreamingHttpResponse:
    """The stream of `game`, holding `slot` (`cod_site.stream_slots`) until it ends."""
    return progress_stream(request, game.uid, lambda: selectors.game_progress(game), slot)


def progress_stream(
    request: HttpRequest, key: str, read: Reader, slot: Slot
) -> StreamingHttpResponse:
    """The stream of the news published under `key`, `read` giving the progress as stored (a
    Duel of Chaos table's too: `play.chaos_views`), holding `slot` until it ends."""
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            slot_give_back(slot)

    events = _AsyncEvents if isinstance(request, ASGIRequest) else _SyncEvents
    response = StreamingHttpResponse(events(key, read, release), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
