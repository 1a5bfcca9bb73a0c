"""Start real processes (the app server, Celery workers) for the tests that need them."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Set in this process by the browser fixture for Playwright's event loop; a child process must
# not inherit it (`check --deploy` would, rightly, refuse an app that allows unsafe async).
TEST_PROCESS_ONLY = ("DJANGO_ALLOW_ASYNC_UNSAFE",)


def child_environ(*drop: str) -> dict[str, str]:
    """This process's environment for a child process, without `drop` and the test-only vars."""
    return {k: v for k, v in os.environ.items() if k not in drop and k not in TEST_PROCESS_ONLY}


def database_url(conf: dict[str, Any]) -> str:
    """The test database of `conf` (a connection's settings), as a URL a child process (a worker)
    reads its settings from."""
    password = f":{conf['PASSWORD']}" if conf["PASSWORD"] else ""
    return (
        f"postgres://{conf['USER']}{password}@{conf['HOST'] or '127.0.0.1'}:"
        f"{conf['PORT'] or 5432}/{conf['NAME']}"
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, timeout: float, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"process exited with {process.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextmanager
def running(command: list[str], env: dict[str, str], log: Path) -> Iterator[subprocess.Popen]:
    """Run `command` in its own process group (so its children stop with it), logging to `log`."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield process
        finally:
            stop(process)
