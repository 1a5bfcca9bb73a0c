"""The production server's worker (`make serve`, `cod_site/gunicorn_conf.py`): gunicorn's master
(binding, HUP and TERM, worker health) over uvicorn serving the app under ASGI.

Two things differ from `uvicorn_worker.UvicornWorker`, each measured (bench/load_bench.py):

- Connections spread over the processes. An event loop accepts every connection waiting on the
  listening socket it shares with the other processes as soon as it wakes, so the first process
  to wake took most of the load bench's 20 kept-alive connections and served them on one core.
  Here a thread of each process waits in accept() and hands the connection to the process's
  loop: the kernel gives each connection to the process that waited longest, in turn.
- The access log is gunicorn's line (status, size, duration, worker pid) written when the
  response ends, which uvicorn's own lacks (no duration, no pid).
"""

import asyncio
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

from cod_site import broadcast

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# How often the accepting thread looks whether the server is stopping.
ACCEPT_WAIT_MS = 500
# How long a process waits before its next accept(), per connection it holds (at most DEFER_CAP).
DEFER_SECONDS = 0.0002
DEFER_CAP = 10


class AccessLog:
    """An ASGI app that logs each HTTP request of `app` once its response has ended: address,
    time, request line, status, bytes, milliseconds, referrer, user agent and `<pid>`."""

    def __init__(self, app: App, logger: logging.Logger) -> None:
        self.app = app
        self.logger = logger
        self.pid = os.getpid()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0
        size = 0

        async def logged_send(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, logged_send)
        finally:
            self._log(scope, status, size, time.perf_counter() - started)

    def _log(self, scope: Scope, status: int, size: int, seconds: float) -> None:
        headers = dict(scope.get("headers") or [])
        client = scope.get("client") or ("-", 0)
        query = scope.get("query_string", b"").decode("latin-1")
        target = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
        target += f"?{query}" if query else ""
        line = f"{scope['method']} {target} HTTP/{scope['http_version']}"
        stamp = time.strftime("[%d/%b/%Y:%H:%M:%S %z]")
        self.logger.info(
            '%s %s "%s" %s %s %dms "%s" "%s" <%d>',
            client[0],
            stamp,
            line,
            status or "-",
            size or "-",
            round(seconds * 1000),
            headers.get(b"referer", b"-").decode("latin-1"),
            headers.get(b"user-agent", b"-").decode("latin-1"),
            self.pid,
        )


class _SharedSocketServer(Server):
    """uvicorn's server, accepting from gunicorn's listening sockets in a thread of its own
    (see the module's doc) instead of the event loop."""

    def __init__(self, config: Any, listeners: list[socket.socket]) -> None:
        super().__init__(config)
        self.listeners = listeners
        self.stopping = threading.Event()
        self.accepting: list[threading.Thread] = []

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        # No socket for uvicorn itself: its lifespan and state only.
        await super().startup(sockets=[])
        loop = asyncio.get_running_loop()

        def protocol() -> asyncio.Protocol:
            # uvicorn types the class as a plain asyncio.Protocol, not its own protocols'.
            return self.config.http_protocol_class(  # type: ignore[call-arg]
                config=self.config,
                server_state=self.server_state,
                app_state=self.lifespan.state,
                _loop=loop,
            )

        for listener in self.listeners:
            # Blocking, with a time limit: a thread blocked in accept() waits in the kernel's
            # queue of the socket's acceptors, which hands each new connection to the one that
            # waited longest, so the processes take the connections in turn. The time limit
            # lets it see that the server stops.
            listener.setblocking(True)
            timeout = struct.pack("ll", 0, ACCEPT_WAIT_MS * 1000)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeout)
            accepting = threading.Thread(
                target=self._accept, args=(listener, loop, protocol), daemon=True
            )
            accepting.start()
            self.accepting.append(accepting)

    def _accept(
        self,
        listener: socket.socket,
        loop: asyncio.AbstractEventLoop,
        protocol: Callable[[], asyncio.Protocol],
    ) -> None:
        while not self.stopping.is_set():
            # A process that holds more connections comes back to accept() a little later, so
            # that the others, waiting, get the connections of a burst that queue meanwhile.
            time.sleep(min(len(self.server_state.connections), DEFER_CAP) * DEFER_SECONDS)
            try:
                connection, _address = listener.accept()
            except (BlockingIOError, InterruptedError):  # the time limit
                continue
            except OSError:  # out of file descriptors: let connections end, then accept again
                time.sleep(0.1)
                continue
            connection.setblocking(False)
            # Taken even while stopping: the loop still serves it (its answer says "close").
            asyncio.run_coroutine_threadsafe(
                loop.connect_accepted_socket(protocol, connection), loop
            )

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.stopping.set()
        # Live streams end now instead of holding the restart up to gunicorn's grace period:
        # their pages open the next one, on a process that stays.
        broadcast.close_all()
        for accepting in self.accepting:
            await asyncio.to_thread(accepting.join)
        await super().shutdown(sockets=sockets)


class Worker(UvicornWorker):
    """gunicorn's worker class of `make serve`: uvloop and httptools, the access log above."""

    CONFIG_KWARGS: dict[str, Any] = {"loop": "uvloop", "http": "httptools", "access_log": False}

    async def _serve(self) -> None:
        self.config.app = AccessLog(self.wsgi, self.log.access_log)
        listeners = [getattr(listener, "sock", listener) for listener in self.sockets]
        server = _SharedSocketServer(self.config, listeners)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            raise SystemExit(Arbiter.WORKER_BOOT_ERROR)
