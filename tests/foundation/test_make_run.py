"""`make run` on this checkout, with the embedded defaults, serves the app."""

import json
import urllib.request
from pathlib import Path

import pytest

from tests.support.processes import child_environ, free_port, running, wait_for_http

pytestmark = pytest.mark.services


def test_make_run_serves_pages_api_and_health(tmp_path: Path) -> None:
    port = free_port()
    env = child_environ("DATABASE_URL", "REDIS_URL")
    env["PORT"] = str(port)
    log = tmp_path / "make-run.log"
    with running(["make", "run"], env, log) as process:
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for_http(f"{base}/healthz", timeout=240, process=process)
        except (RuntimeError, TimeoutError) as problem:
            pytest.fail(f"{problem}\n{log.read_text()[-3000:]}")
        for path in ("/", "/fr/", "/sv/", "/api/v1/schema/", "/healthz", "/api/v1/docs/"):
            with urllib.request.urlopen(base + path, timeout=30) as response:
                assert response.status == 200, path
        with urllib.request.urlopen(base + "/healthz", timeout=10) as response:
            assert json.load(response) == {
                "status": "ok",
                "database": "ok",
                "redis": "not configured",
                # `make run` compiles the engine before it serves.
                "engine": "compiled (mypyc)",
            }
