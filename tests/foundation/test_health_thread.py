"""/healthz under `make serve` answers from a thread of its own: behind the pages' threads a
load balancer's probe waited for the slowest requests queued ahead of it (issue 26)."""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cod_site.hybrid import hybrid_application
from tests.foundation import urls_busy
from tests.support.asgi import asgi_get

pytestmark = pytest.mark.django_db(transaction=True)


async def _get(app: Any, path: str) -> tuple[int, bytes]:
    sent = await asgi_get(app, path)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body


def test_healthz_answers_while_every_page_thread_is_busy(settings: Any) -> None:
    settings.ROOT_URLCONF = "tests.foundation.urls_busy"
    settings.ALLOWED_HOSTS = ["testserver"]
    app = hybrid_application(threads=1)
    urls_busy.released.clear()

    async def scenario() -> tuple[tuple[int, bytes], bool, tuple[int, bytes]]:
        page = asyncio.ensure_future(_get(app, "/busy/"))
        try:
            await asyncio.sleep(0.2)  # the one page thread now holds /busy/
            health = await asyncio.wait_for(_get(app, "/healthz"), timeout=10)
            page_waiting = not page.done()
        finally:
            urls_busy.released.set()
        return health, page_waiting, await page

    # In a thread of its own: a browser test earlier in this process may have left its event
    # loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        health, page_waiting, page = thread.submit(asyncio.run, scenario()).result()
    assert health[0] == 200
    assert b'"database": "ok"' in health[1]
    assert page_waiting is True
    assert page == (200, b"done")
