"""The ASGI app of `make serve`: the live streams (async views) through Django's ASGI handler,
everything else through Django's WSGI handler in a pool of threads (a2wsgi).

Django's ASGI handler runs a sync view in a new thread per request and hands the request over
between the event loop and that thread three times (the request's signals, the view, the
response's close); through a pool of threads a request is one hand-over, in a thread that keeps
its database connection. CPU a request, one worker process, same run: /healthz 1.2 ms and a
card page 2.6 ms this way, 1.7 and 3.3-3.6 ms through the ASGI handler (runserver: 1.6 and 2.8).

`/healthz` goes through the same WSGI handler (same middleware) in a thread of its own: in the
pages' pool a load balancer's probe waited behind every page and action queued ahead of it, so
it told how long the queue was, not whether the process answers.
"""

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

App = Callable[
    [MutableMapping[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
    Awaitable[None],
]


HEALTH_PATH = "/healthz"


def async_paths() -> re.Pattern[str]:
    """The paths of the async views: a table's and a spectator's stream, in every language."""
    languages = "|".join(code for code, _name in settings.LANGUAGES)
    return re.compile(rf"^/(?:(?:{languages})/)?play/[^/]+/(?:watch/[^/]+/)?stream/$")


def hybrid_application(threads: int) -> App:
    streams = get_asgi_application()
    wsgi = get_wsgi_application()
    pages = WSGIMiddleware(wsgi, workers=threads)  # type: ignore[arg-type]
    health = WSGIMiddleware(wsgi, workers=1)  # type: ignore[arg-type]
    paths = async_paths()

    async def application(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or paths.match(scope["path"]):
            await streams(scope, receive, send)
        elif scope["path"] == HEALTH_PATH:
            await health(scope, receive, send)
        else:
            await pages(scope, receive, send)

    return application
