"""The ASGI app of `make serve`: the live streams (async views) through Django's ASGI handler,
everything else through Django's WSGI handler in a pool of threads (a2wsgi).

Django's ASGI handler runs a sync view in a new thread per request and hands the request over
between the event loop and that thread three times (the request's signals, the view, the
response's close); through a pool of threads a request is one hand-over, in a thread that keeps
its database connection. CPU a request, one worker process, same run: /healthz 1.2 ms and a
card page 2.6 ms this way, 1.7 and 3.3-3.6 ms through the ASGI handler (runserver: 1.6 and 2.8).

`/healthz` is answered on the event loop from the process's recent report
(`cod_site.health.RecentHealth`: at most a second old while probes come often, checked again in a
thread of its own). In the pages' pool a load balancer's probe waited behind every page and action
queued ahead of it; in a thread of its own, for the interpreter lock at each step of its checks.
Either way it told how busy the process was, not whether it answers. `runserver` and the test
client check at each request (`cod_site.views.healthz`), with the same answer.
"""

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import WSGIResponder
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.http import HttpResponseBase

from cod_site.health import RecentHealth

App = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]


HEALTH_PATH = "/healthz"


def async_paths() -> re.Pattern[str]:
    """The paths of the async views: a table's and a spectator's stream, in every language."""
    languages = "|".join(code for code, _name in settings.LANGUAGES)
    return re.compile(rf"^/(?:(?:{languages})/)?play/[^/]+/(?:watch/[^/]+/)?stream/$")


def health_application(recent: RecentHealth) -> App:
    """`/healthz` on the event loop: the recent report at once, a check awaited only when none
    is recent (the first probe, or a check that hangs)."""
    checks = ThreadPoolExecutor(1, thread_name_prefix="healthz")

    async def application(scope: Any, receive: Any, send: Any) -> None:
        report, start = recent.answer()
        loop = asyncio.get_running_loop()
        if report is None:
            report = await loop.run_in_executor(checks, recent.refresh)
        elif start:
            loop.run_in_executor(checks, recent.refresh)
        healthy, body = report
        content = json.dumps(body).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(content)).encode()),
            (b"cache-control", b"no-store"),
        ]
        await send(
            {"type": "http.response.start", "status": 200 if healthy else 503, "headers": headers}
        )
        await send({"type": "http.response.body", "body": content})

    return application


class _WholeResponder(WSGIResponder):
    """a2wsgi's responder, handing a response whose content is all in memory (every page and
    API answer but files and streams) over to the event loop at once, after its close.

    a2wsgi hands each message over from the request's thread and waits for the loop to take it:
    the headers, the body, the end of the body, three waits for the loop (busy with the streams'
    news and the other requests) with the request's database connection still held (Django
    gives it back on the close). In bench/live_bench.py an action's thread waited 2.2 ms for
    them on average after its view, 8 ms at p95. One worker process, requests one after the
    other, runs of 10-13 s in pairs: card pages 3.1/3.0 -> 2.5/2.9 ms a round trip and
    2.0/2.1 -> 1.9/1.9 ms of CPU; a Duel's actions (one pair) 22 -> 17 ms a round trip and
    9.2 -> 8.8 ms of CPU. A streaming response is handed over chunk by chunk, as a2wsgi does."""

    def wsgi(self, environ: Any, start_response: Any) -> None:
        started: list[Any] = []

        def keep(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            started[:] = [status, headers, exc_info]
            return self._write

        response = self.app(environ, keep)
        if not isinstance(response, HttpResponseBase) or response.streaming:
            start_response(*started)
            self._stream(response)
            return
        try:
            body = b"".join(response)
        finally:
            response.close()
        status, headers, self.exc_info = started
        start = {
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": [
                (name.strip().encode("latin1").lower(), value.strip().encode("latin1"))
                for name, value in headers
            ],
        }
        asyncio.run_coroutine_threadsafe(
            self._put(start, {"type": "http.response.body", "body": body}), self.loop
        ).result()

    async def _put(self, *messages: Any) -> None:
        for message in messages:
            await self.send_queue.put(message)

    def _write(self, chunk: bytes) -> None:
        # WSGI's write callable, which Django never calls: its views return their content.
        raise RuntimeError("write() is not supported: return the body")

    def _stream(self, response: Any) -> None:
        # WSGIResponder.wsgi after its call of the app.
        try:
            for chunk in response:
                self.send({"type": "http.response.body", "body": chunk, "more_body": True})
            self.send({"type": "http.response.body", "body": b""})
        finally:
            getattr(response, "close", lambda: None)()


class _Pages(WSGIMiddleware):
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            responder = _WholeResponder(self.app, self.executor, self.send_queue_size)
            await responder(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def hybrid_application(threads: int) -> App:
    streams = get_asgi_application()
    wsgi = get_wsgi_application()
    pages = _Pages(wsgi, workers=threads)  # type: ignore[arg-type]
    health = health_application(RecentHealth())
    paths = async_paths()

    async def application(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or paths.match(scope["path"]):
            await streams(scope, receive, send)
        elif scope["path"] == HEALTH_PATH:
            await health(scope, receive, send)
        else:
            await pages(scope, receive, send)

    return application
