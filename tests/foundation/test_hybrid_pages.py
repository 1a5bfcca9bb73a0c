"""Pages under `make serve` (cod_site/hybrid.py): an answer in memory goes from its thread to
the event loop at once, a streamed one chunk by chunk."""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cod_site.hybrid import hybrid_application

pytestmark = pytest.mark.django_db(transaction=True)


async def _messages(app: Any, path: str) -> list[dict[str, Any]]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def _answer(settings: Any, path: str) -> list[tuple[Any, ...]]:
    settings.ROOT_URLCONF = "tests.foundation.urls_answers"
    settings.ALLOWED_HOSTS = ["testserver"]
    app = hybrid_application(threads=1)
    # In a thread of its own: a browser test earlier in this process may have left its event
    # loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        sent = thread.submit(asyncio.run, _messages(app, path)).result()
    return [
        (m["type"], m["status"], dict(m["headers"])[b"content-type"])
        if m["type"] == "http.response.start"
        else (m["type"], m["body"], m.get("more_body", False))
        for m in sent
    ]


def test_an_answer_in_memory_is_sent_whole(settings: Any) -> None:
    assert _answer(settings, "/whole/") == [
        ("http.response.start", 200, b"text/plain"),
        ("http.response.body", b"all of it", False),
    ]


def test_a_streamed_answer_is_sent_chunk_by_chunk(settings: Any) -> None:
    assert _answer(settings, "/streamed/") == [
        ("http.response.start", 200, b"text/plain"),
        ("http.response.body", b"first ", True),
        ("http.response.body", b"second", True),
        ("http.response.body", b"", False),
    ]
