"""Load on the web server: `runserver` against the production server (`make serve`: gunicorn and
uvicorn workers).

    python bench/load_bench.py [--clients 20] [--seconds 60]

20 clients, each with one request in flight, for 60 s on loopback against each server in turn,
on the same mix: card searches (the card browser with a query), card pages and `/healthz`, a
third each, the searches and cards varied. Prints for each server requests/s, the p50/p95/p99
latencies and the errors (refused or broken connections, time-outs, answers other than 2xx/3xx),
then the throughput ratio. Goal: 0 errors, and the production server >= 1.6x runserver, its
connections spread over its processes.

The load generator is `wrk` (Debian: `apt-get install wrk`; macOS: `brew install wrk`): a
compiled, event-driven client, one thread for the 20 connections, so the cores stay the
servers'. The CPU time it took is printed beside each run, with the server's own and the
machine's (the rest is PostgreSQL and whatever else runs here).

Database: PostgreSQL, LOAD_BENCH_DATABASE_URL or a database of its own,
postgres://postgres@127.0.0.1:5432/cod_site_bench_load (created, migrated, catalogue loaded):
production runs on PostgreSQL, and the servers' processes then each keep their own connection
as they would there; the bench is skipped, saying why, without PostgreSQL or wrk. No Redis: the
cache is each process's memory and /healthz checks the database only, for both servers alike.
"""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import database_missing  # noqa: E402
from tests.support.processes import free_port, running, wait_for_http  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/cod_site_bench_load"
DATABASE_URL = os.environ.get("LOAD_BENCH_DATABASE_URL") or DEFAULT_DATABASE
THROUGHPUT_GOAL = 1.6
WARM_UP_SECONDS = 5
SEARCHES = [
    "ab:splash cost<=4",
    "cost<=2 type:creature",
    "-ab:rage set:00",
    "dragon",
    "(ab:splash or ab:perforation) cost<4",
    "ab:sprint",
]
CARDS = ["aberration", "clan-leader", "martyr", "skewerer", "small-fry", "stagecoach"]
TICKS = os.sysconf("SC_CLK_TCK")

# wrk calls `request` for each request (the paths in turn) and `done` once at the end, where
# the figures are printed in one line for this script to read.
WRK_SCRIPT = """
local paths = {%(paths)s}
local next_path = 0
request = function()
  next_path = next_path %% #paths + 1
  return wrk.format("GET", paths[next_path])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%%d micros=%%d errors=%%d p50=%%d p95=%%d p99=%%d\\n",
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
"""


@dataclass
class Run:
    requests: int
    seconds: float
    errors: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    load_cpu: float  # the load generator's CPU seconds
    server_cpu: float  # the server processes' CPU seconds
    machine_busy: float  # CPU seconds the whole machine spent, every core

    @property
    def rate(self) -> float:
        return self.requests / self.seconds


def group_stats(group: int) -> Iterator[tuple[Path, list[str]]]:
    """Each live process of process group `group`: its /proc folder and the fields of its stat
    after the command name (in parentheses, possibly with spaces): state is [0], the process
    group [2], utime [11] and stime [12]."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == group:
            yield entry, fields


def group_cpu_seconds(group: int) -> float:
    """CPU time (user + system) of the live processes of process group `group`."""
    return sum(int(fields[11]) + int(fields[12]) for _entry, fields in group_stats(group)) / TICKS


def machine_busy_seconds() -> float:
    """CPU seconds all cores spent on anything but idling, since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / TICKS


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wrk(url: str, script: Path, clients: int, seconds: int) -> dict[str, int]:
    command = ["wrk", "-t1", f"-c{clients}", f"-d{seconds}s", "--timeout", "30s", "-s"]
    result = subprocess.run(
        [*command, str(script), url], capture_output=True, text=True, check=True
    )
    found = re.search(r"^RESULT (.*)$", result.stdout, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"wrk printed no figures:\n{result.stdout}\n{result.stderr}")
    return {key: int(value) for key, value in re.findall(r"(\w+)=(\d+)", found.group(1))}


def measure(process: subprocess.Popen, url: str, script: Path, clients: int, seconds: int) -> Run:
    wrk(url, script, clients, WARM_UP_SECONDS)  # connections, caches, lazily built indexes
    group = os.getpgid(process.pid)
    before = (children_cpu_seconds(), group_cpu_seconds(group), machine_busy_seconds())
    figures = wrk(url, script, clients, seconds)
    after = (children_cpu_seconds(), group_cpu_seconds(group), machine_busy_seconds())
    return Run(
        requests=figures["requests"],
        seconds=figures["micros"] / 1e6,
        errors=figures["errors"],
        p50_ms=figures["p50"] / 1000,
        p95_ms=figures["p95"] / 1000,
        p99_ms=figures["p99"] / 1000,
        load_cpu=after[0] - before[0],
        server_cpu=after[1] - before[1],
        machine_busy=after[2] - before[2],
    )


def paths() -> list[str]:
    """The mix, a third each, in turn: a search, a card page, /healthz."""
    mix = []
    for search, slug in zip(SEARCHES, CARDS, strict=True):
        mix += [f"/cards/?{urlencode({'q': search})}", f"/cards/{slug}/", "/healthz"]
    return mix


def report(name: str, run: Run, cores: int) -> None:
    print(
        f"{name:<11} {run.rate:7.1f} requests/s  p50 {run.p50_ms:6.0f} ms  p95 {run.p95_ms:6.0f} ms"
        f"  p99 {run.p99_ms:6.0f} ms  errors {run.errors}  ({run.requests} in {run.seconds:.1f} s)"
    )
    others = run.machine_busy - run.server_cpu - run.load_cpu
    print(
        f"{'':<11} CPU in cores: server {run.server_cpu / run.seconds:.2f} "
        f"({1000 * run.server_cpu / run.requests:.1f} ms a request), wrk "
        f"{run.load_cpu / run.seconds:.2f}, the rest (PostgreSQL, anything else running) "
        f"{others / run.seconds:.2f}; the machine has {cores}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print(
            "skipped: wrk, the load generator, is not installed "
            "(Debian/Ubuntu: `apt-get install wrk`; macOS: `brew install wrk`)"
        )
        return 0
    missing = database_missing(DATABASE_URL)
    if missing:
        print(f"skipped: {missing}")
        return 0

    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update({"DATABASE_URL": DATABASE_URL, "DJANGO_DEBUG": "0", "DJANGO_LOG_LEVEL": "ERROR"})
    python = sys.executable
    # As `make run` and `make serve` prepare: the pages then name the collected, hashed static
    # files (a manifest lookup) instead of probing STATIC_ROOT for each one.
    for command in (
        ["migrate", "--noinput", "-v", "0"],
        ["load_catalogue"],
        ["collectstatic", "--noinput", "-v", "0"],
    ):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    mix = paths()
    workdir = Path(tempfile.mkdtemp(prefix="load-bench-"))
    script = workdir / "mix.lua"
    script.write_text(WRK_SCRIPT % {"paths": ", ".join(f'"{path}"' for path in mix)})
    cores = len(os.sched_getaffinity(0))
    port = free_port()
    servers = {
        # As `make run` serves.
        "runserver": [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        # As `make serve` serves (after its migrate and collectstatic).
        "production": [str(Path(python).with_name("gunicorn")), "-c", "cod_site/gunicorn_conf.py"],
    }
    print(
        f"{args.clients} clients x 1 request in flight, {args.seconds} s per server "
        f"(after {WARM_UP_SECONDS} s of warm-up), {cores} cores, PostgreSQL; "
        f"mix of {len(mix)} paths in turn, e.g. {', '.join(mix[:3])}"
    )
    runs: dict[str, Run] = {}
    for name, command in servers.items():
        server_env = {**env, "HOST": "127.0.0.1", "PORT": str(port)}
        with running(command, server_env, workdir / f"{name}.log") as process:
            wait_for_http(f"http://127.0.0.1:{port}/healthz", 60, process)
            for path in mix:  # every path answers 200 before the load starts
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as page:
                    assert page.status == 200, path
            runs[name] = measure(
                process, f"http://127.0.0.1:{port}", script, args.clients, args.seconds
            )
        report(name, runs[name], cores)
    log = (workdir / "production.log").read_text()
    # The access log's lines end with the worker's pid: a kept-alive connection stays with the
    # worker that accepted it (cod_site/server.py spreads them as they open).
    served = Counter(re.findall(r" <(\d+)>$", log, re.MULTILINE))
    print(
        f"production: gunicorn + uvicorn, {log.count('Booting worker')} worker processes, "
        "requests served by each (warm-up included): "
        f"{', '.join(str(n) for _pid, n in served.most_common())}; "
        f"logs in {workdir}"
    )
    ratio = runs["production"].rate / runs["runserver"].rate
    errors = sum(run.errors for run in runs.values())
    met = ratio >= THROUGHPUT_GOAL and errors == 0
    print(
        f"production / runserver throughput: {ratio:.2f}x (goal >= {THROUGHPUT_GOAL}x, "
        f"0 errors: {errors} errors) {'OK' if met else 'BELOW GOAL'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
