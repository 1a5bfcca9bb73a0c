"""Pages under `make serve` (cod_site/hybrid.py): an answer in memory goes from its thread to
the event loop at once, a streamed one chunk by chunk."""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cod_site.hybrid import hybrid_application
from tests.support.asgi import asgi_get

pytestmark = pytest.mark.django_db(transaction=True)


def _answer(settings: Any, path: str) -> list[tuple[Any, ...]]:
    settings.ROOT_URLCONF = "tests.foundation.urls_answers"
    settings.ALLOWED_HOSTS = ["testserver"]
    app = hybrid_application(threads=1)
    # In a thread of its own: a browser test earlier in this process may have left its event
    # loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        sent = thread.submit(asyncio.run, asgi_get(app, path)).result()
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
