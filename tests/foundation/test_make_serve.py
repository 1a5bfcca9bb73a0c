"""`make serve`, the production server, on this checkout behind an HTTPS proxy (DJANGO_SECURE=1)."""

import http.client
import json
import os
import re
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import ROOT, child_environ, free_port, running, wait_for_http

pytestmark = pytest.mark.services

# What a TLS-terminating proxy in front of the server adds to every request it passes on.
BEHIND_HTTPS = {"X-Forwarded-Proto": "https"}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, headers=headers or {}), timeout=30) as answer:
            return answer.status, _named(answer.headers), answer.read()
    except urllib.error.HTTPError as answer:
        return answer.code, _named(answer.headers), answer.read()


def _named(headers: Any) -> dict[str, str]:
    """Header names as the tests spell them: uvicorn sends them in lower case."""
    return {name.title(): value for name, value in headers.items()}


def worker_pids(log: Path) -> list[int]:
    return [int(pid) for pid in re.findall(r"Booting worker with pid: (\d+)", log.read_text())]


def wait_for(condition: object, what: str, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {timeout} s\n{log.read_text()[-3000:]}")
        time.sleep(0.2)


def test_make_serve_serves_pages_static_files_and_restarts_gracefully(tmp_path: Path) -> None:
    port = free_port()
    pid_file = tmp_path / "serve.pid"
    env = child_environ("DATABASE_URL", "REDIS_URL", "WEB_CONCURRENCY")
    env |= {
        "PORT": str(port),
        "DJANGO_SECURE": "1",
        "WEB_CONCURRENCY": "2",
        "GUNICORN_CMD_ARGS": f"--pid {pid_file}",
    }
    log = tmp_path / "make-serve.log"
    base = f"http://127.0.0.1:{port}"
    with running(["make", "serve"], env, log) as process:
        try:
            wait_for_http(f"{base}/healthz", timeout=240, process=process)
        except (RuntimeError, TimeoutError) as problem:
            pytest.fail(f"{problem}\n{log.read_text()[-3000:]}")
        assert "Using worker: cod_site.server.Worker" in log.read_text()
        assert len(worker_pids(log)) == 2

        # Keep-alive: a client's requests share one connection instead of opening one each.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sockets = []
        for _ in range(3):
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            # HTTP/1.1 keeps the connection unless the answer says "close".
            assert (answer.status, answer.getheader("Connection")) == (200, None)
            answer.read()
            sockets.append(connection.sock)
        assert sockets[0] is not None and sockets == [sockets[0]] * 3
        connection.close()

        # The health probe of a load balancer talks plain HTTP; pages are HTTPS only.
        status, _headers, body = fetch(f"{base}/healthz")
        assert status == 200
        assert json.loads(body) == {
            "status": "ok",
            "database": "ok",
            "redis": "not configured",
            "engine": "compiled (mypyc)",
        }
        status, headers, _body = fetch(f"{base}/cards/")
        assert (status, headers["Location"]) == (301, f"https://127.0.0.1:{port}/cards/")

        status, headers, body = fetch(f"{base}/", BEHIND_HTTPS)
        assert status == 200
        assert headers["Strict-Transport-Security"] == (
            "max-age=31536000; includeSubDomains; preload"
        )
        # Static files collected with hashed names, served by WhiteNoise for a year.
        css = re.search(r'href="(/static/cod_site/site\.[0-9a-f]{12}\.css)"', body.decode())
        assert css is not None
        status, headers, body = fetch(base + css.group(1), BEHIND_HTTPS)
        assert status == 200
        assert headers["Content-Type"] == 'text/css; charset="utf-8"'
        assert headers["Cache-Control"] == "max-age=315360000, public, immutable"
        assert body == (ROOT / "cod_site/static/cod_site/site.css").read_bytes()

        status, headers, _body = fetch(f"{base}/favicon.ico", BEHIND_HTTPS)
        assert status == 302
        assert re.fullmatch(r"/static/cod_site/favicon\.[0-9a-f]{12}\.ico", headers["Location"])
        status, headers, body = fetch(base + headers["Location"], BEHIND_HTTPS)
        assert (status, headers["Content-Type"]) == (200, "image/x-icon")
        assert body == (ROOT / "cod_site/static/cod_site/favicon.ico").read_bytes()

        # One access-log line per request, with its status and duration.
        assert re.search(r'"GET /healthz HTTP/1\.1" 200 \d+ \d+ms', log.read_text())

        # HUP: new workers take over, the old ones finish and leave, the master stays.
        master = int(pid_file.read_text())
        old_workers = worker_pids(log)
        os.kill(master, signal.SIGHUP)
        wait_for(lambda: len(worker_pids(log)) == 4, "no new workers", log)
        wait_for(
            lambda: not any(Path(f"/proc/{pid}").exists() for pid in old_workers),
            "the old workers stayed",
            log,
        )
        # Each old worker finished its requests and said so.
        assert all(f"Finished server process [{pid}]" in log.read_text() for pid in old_workers)
        assert set(worker_pids(log)[2:]).isdisjoint(old_workers)
        assert int(pid_file.read_text()) == master
        assert fetch(f"{base}/healthz")[0] == 200
