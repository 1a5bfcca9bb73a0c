"""News of small changes, from the process that made them to every process that waits for them.

A writer publishes a message under a key (a table's uid) after its transaction commits
(`publish`, from `transaction.on_commit`); a reader (a live stream) opens a `Subscription` to a
key and waits for its messages without a thread of its own (`await subscription.next(...)`
in an event loop) or, under a WSGI server such as runserver, in its request's thread
(`subscription.next_sync(...)`).

With REDIS_URL, a message goes to Redis on one channel (`BROADCAST_CHANNEL`), and each process
holds one subscription to it, in a thread of its own started by the first reader: it hands
each message to this process's readers of its key. One channel rather than one per key: the
processes subscribe once, and each gets every key's messages, a small JSON each (one per move
played anywhere), which costs less than subscribing and unsubscribing as streams open and close.
Without REDIS_URL (`make run`) a message goes straight to this process's readers.

A server process that stops (a restart) ends its readers first (`close_all`): they get `CLOSING`,
so a live stream can stay open for minutes and still not hold a restart up.

A message can be lost: the subscription broke and came back (Redis restarted), or a process
published into a Redis that was down. Readers then get `RESYNC` in its place, and read the
state again from the database: messages say that something changed, the database what.
"""

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import deque
from typing import Any

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

Message = dict[str, Any]
# Given to readers in place of messages that may have been lost.
RESYNC: Message = {"resync": True}
# Given to readers when their process stops: they end.
CLOSING: Message = {"closing": True}
# A reader that falls behind keeps only its latest messages (each says the state after it).
KEPT = 16
# Seconds between attempts to subscribe again after Redis broke the subscription.
RETRY_SECONDS = 1.0


class Subscription:
    """The messages of one key for one reader, from its opening to its closing (a `with`)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.messages: deque[Message] = deque(maxlen=KEPT)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event: asyncio.Event | None = None
        try:
            self.loop = asyncio.get_running_loop()
            self.event = asyncio.Event()
        except RuntimeError:  # no loop: a thread that waits (WSGI)
            pass
        self.condition = threading.Condition()

    def __enter__(self) -> "Subscription":
        _hub.add(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _hub.remove(self)

    def deliver(self, message: Message) -> None:
        """From any thread: keep `message` and wake the reader."""
        with self.condition:
            self.messages.append(message)
            self.condition.notify_all()
        if self.loop is not None and self.event is not None:
            # RuntimeError: the reader's loop is closed, nobody to wake.
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self.event.set)

    def _take(self) -> Message | None:
        with self.condition:
            return self.messages.popleft() if self.messages else None

    async def next(self, timeout: float) -> Message | None:
        """The next message, or None after `timeout` seconds without one."""
        assert self.event is not None, "opened outside an event loop: use next_sync"
        message = self._take()
        if message is not None:
            return message
        self.event.clear()
        message = self._take()  # delivered between the look and the clear
        if message is not None:
            return message
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return None
        return self._take()

    def next_sync(self, timeout: float) -> Message | None:
        """As `next`, blocking this thread."""
        with self.condition:
            if not self.messages:
                self.condition.wait(timeout)
            return self.messages.popleft() if self.messages else None


class _Hub:
    """This process's readers by key, and its one Redis subscription."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.readers: dict[str, set[Subscription]] = {}
        self.listening: threading.Thread | None = None
        self.subscribed = threading.Event()
        self.closing = False

    def add(self, subscription: Subscription) -> None:
        with self.lock:
            self.readers.setdefault(subscription.key, set()).add(subscription)
            if self.closing:
                subscription.deliver(CLOSING)
                return
            if settings.REDIS_URL and self.listening is None:
                self.listening = threading.Thread(
                    target=self._listen, name="broadcast", daemon=True
                )
                self.listening.start()
        if settings.REDIS_URL:
            # The first reader waits for the subscription: a message published after its
            # reader read the database must not be missed.
            self.subscribed.wait(timeout=2)

    def remove(self, subscription: Subscription) -> None:
        with self.lock:
            readers = self.readers.get(subscription.key)
            if readers is not None:
                readers.discard(subscription)
                if not readers:
                    del self.readers[subscription.key]

    def deliver(self, key: str, message: Message) -> None:
        with self.lock:
            readers = list(self.readers.get(key, ()))
        for reader in readers:
            reader.deliver(message)

    def resync(self) -> None:
        self._deliver_all(RESYNC)

    def close_all(self) -> None:
        with self.lock:
            self.closing = True
        self._deliver_all(CLOSING)

    def _deliver_all(self, message: Message) -> None:
        with self.lock:
            readers = [reader for group in self.readers.values() for reader in group]
        for reader in readers:
            reader.deliver(message)

    def _listen(self) -> None:
        """The process's subscription to the channel, for as long as the process lives."""
        lost = False
        while True:
            try:
                client = redis.Redis.from_url(settings.REDIS_URL, health_check_interval=30)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(settings.BROADCAST_CHANNEL)
                self.subscribed.set()
                if lost:  # whatever was published while there was no subscription
                    self.resync()
                for raw in pubsub.listen():
                    envelope = json.loads(raw["data"])
                    self.deliver(envelope["key"], envelope["message"])
            except (redis.RedisError, OSError) as error:
                lost = True
                self.subscribed.clear()
                logger.warning("broadcast: subscription lost (%s), subscribing again", error)
                time.sleep(RETRY_SECONDS)


_hub = _Hub()
_publisher: redis.Redis | None = None


def close_all() -> None:
    """End this process's readers, and those that come after (the process is stopping)."""
    _hub.close_all()


def publish(key: str, message: Message) -> None:
    """Send `message` to every reader of `key`, in every process (see the module's doc)."""
    global _publisher
    if not settings.REDIS_URL:
        _hub.deliver(key, message)
        return
    if _publisher is None:
        _publisher = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
    envelope = json.dumps({"key": key, "message": message})
    try:
        _publisher.publish(settings.BROADCAST_CHANNEL, envelope)
    except redis.RedisError as error:
        # What was written stays written; the readers see it when they read again (a stream
        # ends after PLAY_STREAM_SECONDS and starts with the state as stored).
        logger.warning("broadcast: could not publish to %s (%s)", key, error)
