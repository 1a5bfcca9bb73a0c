"""`/healthz` on the production server while heavy work is queued: the slow work runs on the
Celery workers (`make worker`), not in the server's requests.

    python bench/healthz_bench.py [--seconds 30] [--jobs 4] [--games 2000]

The production server (gunicorn + uvicorn, its defaults) and `make worker`'s Celery worker
(2 processes) on PostgreSQL and Redis. `--jobs` heavy jobs are queued through the API, then
`/healthz` is asked ten times a second for `--seconds` seconds while the workers take both
cores: its p50/p95/p99 and errors, the CPU the server and the workers took, the load average.
Goal: p99 <= 100 ms.

The heavy jobs are test batches of `--games` games of the lookahead agent each (`POST
/api/v1/simulations/`), Celery
tasks as the Grimoire's solver becomes one; the solve API's heavy puzzle puts the same load on
the workers once the solver runs there.

Database: HEALTHZ_BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/cod_site_bench_healthz
(created, migrated, catalogue loaded); Redis: HEALTHZ_BENCH_REDIS_URL or REDIS_URL; skipped,
saying why, without either.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_bench import group_cpu_seconds  # noqa: E402
from bench.play_bench import Api, api_token  # noqa: E402
from bench.postgres import database_missing  # noqa: E402
from tests.support.processes import free_port, running, wait_for_http  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/cod_site_bench_healthz"
DATABASE_URL = os.environ.get("HEALTHZ_BENCH_DATABASE_URL") or DEFAULT_DATABASE
REDIS_URL = os.environ.get("HEALTHZ_BENCH_REDIS_URL") or os.environ.get("REDIS_URL", "")
GOAL_P99_MS = 100


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    if not REDIS_URL:
        print("skipped: no Redis (set HEALTHZ_BENCH_REDIS_URL or REDIS_URL)")
        return 0
    missing = database_missing(DATABASE_URL)
    if missing:
        print(f"skipped: {missing}")
        return 0
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "CELERY_QUEUE": f"healthz-bench-{uuid.uuid4().hex[:8]}",
        "DJANGO_LOG_LEVEL": "ERROR",
        "SIMULATION_MAX_ACTIVE_BATCHES": str(args.jobs),
        "API_SIMULATIONS_RATE": "1000/hour",
    }
    env.pop("WEB_CONCURRENCY", None)
    python = sys.executable
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalogue"]):
        subprocess.run(
            [python, "manage.py", *command], cwd=ROOT, env=env, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
    # A new account each run: the batches of the last one may still be queued.
    token = api_token(env, f"healthz-bench-{uuid.uuid4().hex[:8]}")
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="healthz-bench-"))
    gunicorn = [str(Path(python).with_name("gunicorn")), "-c", "cod_site/gunicorn_conf.py"]
    worker = [
        str(Path(python).with_name("celery")), "-A", "cod_site", "worker", "--concurrency=2",
        "--prefetch-multiplier=1", "--loglevel=INFO",
    ]  # fmt: skip
    times: list[float] = []
    errors: list[str] = []
    with (
        running(gunicorn, {**env, "PORT": str(port)}, workdir / "server.log") as server,
        running(worker, env, workdir / "worker.log") as workers,
    ):
        wait_for_http(f"http://127.0.0.1:{port}/healthz", 60, server)
        client = Api(port, {"Authorization": f"Token {token}"})
        for job in range(args.jobs):
            status, body = client.call(
                "POST",
                "/api/v1/simulations/",
                {
                    "deck_a": {"preconstructed": 1 + job % 4},
                    "deck_b": {"preconstructed": 1 + (job + 1) % 4},
                    "games": args.games,
                    # The searching agent: seconds of CPU a chunk, like a heavy puzzle's proof.
                    "agent_a": "lookahead",
                    "agent_b": "lookahead",
                },
            )
            if status != 202:
                print(f"the job was refused: {status} {body}")
                return 1
        groups = (os.getpgid(server.pid), os.getpgid(workers.pid))
        busy = time.monotonic() + 120
        while time.monotonic() < busy:  # until the workers play the batches' chunks
            spent = group_cpu_seconds(groups[1])
            time.sleep(1)
            if group_cpu_seconds(groups[1]) - spent >= 0.8:
                break
        before = [group_cpu_seconds(group) for group in groups]
        load_before = os.getloadavg()
        probe = Api(port, {})
        stop = time.monotonic() + args.seconds
        while time.monotonic() < stop:
            started = time.perf_counter()
            try:
                status, _body = probe.call("GET", "/healthz")
                if status != 200:
                    errors.append(str(status))
            except OSError as error:
                errors.append(str(error))
                probe = Api(port, {})
                continue
            times.append(1000 * (time.perf_counter() - started))
            time.sleep(0.1)
        after = [group_cpu_seconds(group) for group in groups]
        load_after = os.getloadavg()
    cuts = statistics.quantiles(times, n=100)
    p50, p95, p99 = cuts[49], cuts[94], cuts[98]
    print(
        f"/healthz, {len(times)} requests over {args.seconds} s with {args.jobs} test batches of "
        f"{args.games} games queued on the Celery worker (2 processes); production server, "
        f"PostgreSQL, Redis, {len(os.sched_getaffinity(0))} cores"
    )
    print(
        f"p50 {p50:.1f} ms  p95 {p95:.1f} ms  p99 {p99:.1f} ms  max {max(times):.1f} ms  "
        f"errors {len(errors)}"
    )
    print(
        f"CPU in cores: server {(after[0] - before[0]) / args.seconds:.2f}, workers "
        f"{(after[1] - before[1]) / args.seconds:.2f}; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after; logs in {workdir}"
    )
    verdict = "met" if p99 <= GOAL_P99_MS and not errors else "NOT met"
    print(f"goal p99 <= {GOAL_P99_MS} ms, 0 errors: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
