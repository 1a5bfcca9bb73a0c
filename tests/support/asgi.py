"""The app under ASGI in a thread of the test process (uvicorn), as `make serve` serves it
(`cod_site.hybrid`), for the browser tests of what it serves differently from the WSGI live
server of pytest-django: the live streams of the play app wait in the event loop there
(`tests/play/conftest.py`).

Same interface as pytest-django's `live_server` (`url`, and the settings it switches on around
each test); it shares the test database, on committed data (transactional tests)."""

import threading
from typing import Any

from django.test.utils import modify_settings

from tests.support.processes import free_port

HOST = "127.0.0.1"


class AsgiLiveServer:
    def __init__(self) -> None:
        import uvicorn

        from cod_site.hybrid import hybrid_application

        self.port = free_port()
        config = uvicorn.Config(
            hybrid_application(threads=8),
            host=HOST,
            port=self.port,
            lifespan="off",
            log_level="warning",
            access_log=False,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="asgi-live-server", daemon=True)
        # What pytest-django's `_live_server_helper` switches on around each test.
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": HOST})

    def start(self) -> None:
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the ASGI live server did not start")
            self.thread.join(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def __add__(self, other: Any) -> str:
        return f"{self}{other}"


async def asgi_get(app: Any, path: str) -> list[dict[str, Any]]:
    """The messages an ASGI `app` sends for a plain GET of `path` from a test client."""
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
