"""Catalogue search throughput against the trivial endpoint, from one real server process.

Starts `manage.py runserver` (a separate process, its own SQLite database unless DATABASE_URL is
set), loads the catalogue, then drives `/healthz` and `/api/v1/cards/?q=ab:splash cost<=4` in
turns with a bounded loopback load generator (a few client processes, one request in flight
each) and prints requests/s of both and their ratio. Goal: search ≥ 50% of /healthz.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.processes import free_port, running, wait_for_http  # noqa: E402

CLIENTS = 4  # client processes, each with one request in flight: the load is bounded
SECONDS = 2.0  # per measurement
# Alternating measurements: each search run is paired with the /healthz run just before it, so
# a load change on the machine hits both; the median of the paired ratios is reported.
ROUNDS = 7
SEARCH = "/api/v1/cards/?q=" + quote("ab:splash cost<=4")
HEALTH = "/healthz"


def _client(port: int, path: str, seconds: float) -> tuple[int, int]:
    """Requests until the time is up; returns (answers with status 200, other answers)."""
    ok = failed = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        connection = HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                ok += 1
            else:
                failed += 1
        finally:
            connection.close()
    return ok, failed


def measure(pool: ProcessPoolExecutor, port: int, path: str) -> float:
    started = time.perf_counter()
    results = list(pool.map(_client, [port] * CLIENTS, [path] * CLIENTS, [SECONDS] * CLIENTS))
    elapsed = time.perf_counter() - started
    ok = sum(r[0] for r in results)
    failed = sum(r[1] for r in results)
    if failed:
        raise RuntimeError(f"{failed} answers to {path} were not 200")
    return ok / elapsed


def main() -> int:
    env = dict(os.environ)
    workdir = Path(tempfile.mkdtemp(prefix="catalogue-bench-"))
    env.setdefault("DATABASE_URL", f"sqlite:///{workdir / 'bench.sqlite3'}")
    env.update(
        {
            "DJANGO_DEBUG": "0",
            # The anonymous API throttle stays on (every request from one address), with a rate
            # it never reaches and a one-second window that keeps its history short.
            "API_ANON_RATE": "100000000/second",
            "DJANGO_LOG_LEVEL": "ERROR",
        }
    )
    python = sys.executable
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalogue"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    port = free_port()
    server = [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--nothreading"]
    with running(server, env, workdir / "server.log") as process:
        wait_for_http(f"http://127.0.0.1:{port}{HEALTH}", 60, process)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{SEARCH}") as answer:
            count = answer.read().decode().split(",")[0]
        rates: dict[str, list[float]] = {HEALTH: [], SEARCH: []}
        with ProcessPoolExecutor(CLIENTS) as pool:
            measure(pool, port, HEALTH)  # warm-up: connections, caches, the name index
            measure(pool, port, SEARCH)
            for _ in range(ROUNDS):
                for path in (HEALTH, SEARCH):
                    rates[path].append(measure(pool, port, path))
    health = statistics.median(rates[HEALTH])
    search = statistics.median(rates[SEARCH])
    ratio = statistics.median(s / h for h, s in zip(rates[HEALTH], rates[SEARCH], strict=True))
    database = env["DATABASE_URL"].split(":")[0]
    print(f"server: manage.py runserver --nothreading (one process), {database}")
    print(f"load: {CLIENTS} clients × 1 request in flight, {ROUNDS} × {SECONDS:.0f} s per endpoint")
    print(f"search answer: {count}}}")
    for path, rate in ((HEALTH, health), (SEARCH, search)):
        runs = ", ".join(f"{r:.0f}" for r in rates[path])
        print(f"GET {path}: {rate:8.1f} requests/s  (runs: {runs})")
    print(
        f"search / healthz = {ratio:.0%} (median of {ROUNDS} paired runs; "
        f"goal ≥ 50%: {'met' if ratio >= 0.5 else 'NOT met'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
