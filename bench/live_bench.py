"""Live play on the production server: open streams, acting games and browsing visitors at once.

    python bench/live_bench.py [--streams 500] [--games 50] [--browsers 20] [--seconds 60]
                               [--workers N] [--threads N]

The production server (`make serve`'s gunicorn and uvicorn workers, with their defaults) on
PostgreSQL and Redis, and on the same machine:
- `--games` Duels between an account and a guest through the API, one action a second per game
  (spread 0.5-1.5 s), as bench/play_bench.py plays them: the act round trip;
- `--streams` live streams held open by a separate asyncio process, `--streams / --games` on each
  game's spectate link, opened from many loopback addresses (127.0.0.x: a stream cap counts per
  address, and real spectators have theirs) and opened again when one ends, as EventSource does:
  how long each action takes to reach each of its table's watchers (from the moment the action
  was sent to the moment the watcher read its update);
- `--browsers` visitors browsing card pages and card searches, a page a second each (spread
  0.5-1.5 s): the page round trip;
- `/healthz` ten times a second from a process of its own, as a load balancer asks: its round
  trip (the goal's figure); printed beside it, the same probe as a thread among the players and
  visitors (it also waits for the load generator's own interpreter lock) and the server's own
  time for every probe, from its access log.
Prints p50/p95/p99 of each with the errors, the memory the server took per open stream (its
processes' resident memory before and after the streams opened, idle), the CPU the server, the
load generators and the rest of the machine took, and the machine's load average.
Goals: act p95 <= 150 ms, pages p95 <= 200 ms, /healthz p99 <= 100 ms, watchers p95 <= 500 ms,
0 errors.

Database: LIVE_BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/cod_site_bench_live
(created, migrated, catalogue loaded); Redis: LIVE_BENCH_REDIS_URL or REDIS_URL; skipped, saying
why, without either.
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load_bench import (  # noqa: E402
    SEARCHES,
    group_cpu_seconds,
    group_stats,
    machine_busy_seconds,
)
from bench.play_bench import Api, api_token, invited_duel  # noqa: E402
from bench.postgres import database_missing  # noqa: E402
from tests.support.processes import free_port, running, wait_for_http  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/cod_site_bench_live"
DATABASE_URL = os.environ.get("LIVE_BENCH_DATABASE_URL") or DEFAULT_DATABASE
REDIS_URL = os.environ.get("LIVE_BENCH_REDIS_URL") or os.environ.get("REDIS_URL", "")
GOALS_MS = {"act p95": 150, "pages p95": 200, "healthz p99": 100, "watchers p95": 500}
# Loopback addresses the streams come from (127.0.0.10 and on).
ADDRESSES = 40
RECONNECT_S = 0.3
# Seconds the streams are held open alone, before the players and visitors start.
IDLE_SECONDS = 15
CARDS = ["aberration", "clan-leader", "martyr", "skewerer", "small-fry", "stagecoach"]


def cuts(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        return (float("nan"),) * 3
    points = statistics.quantiles(values, n=100)
    return points[49], points[94], points[98]


def line(name: str, values: list[float], errors: int) -> str:
    p50, p95, p99 = cuts(values)
    return (
        f"{name:<9} {len(values):6d}  p50 {p50:6.0f} ms  p95 {p95:6.0f} ms  p99 {p99:6.0f} ms  "
        f"errors {errors}"
    )


# --- the streams: a process of their own, one asyncio loop ---------------------------------


async def _watch(
    port: int, path: str, source: str, stop: float, seen: list[tuple[str, int, float]], uid: str
) -> None:
    while time.time() < stop:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
        except OSError:
            await asyncio.sleep(RECONNECT_S)
            continue
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        buffer = b""
        try:
            while time.time() < stop:
                chunk = await asyncio.wait_for(
                    reader.read(4096), timeout=max(0.1, stop - time.time())
                )
                if not chunk:
                    break
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    text = block.decode(errors="replace")
                    if "event: update" in text:
                        data = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
                        seen.append((uid, data["action_count"], time.time()))
        except (TimeoutError, OSError):
            pass
        writer.close()
        await asyncio.sleep(RECONNECT_S)


def hold_streams(
    port: int, watch: list[tuple[str, str]], per_game: int, opened: Any, stop: float, out: Path
) -> None:
    async def main() -> None:
        seen: list[tuple[str, int, float]] = []
        tasks = []
        for number in range(len(watch) * per_game):
            uid, path = watch[number % len(watch)]
            source = f"127.0.0.{10 + number % ADDRESSES}"
            tasks.append(asyncio.create_task(_watch(port, path, source, stop, seen, uid)))
            if number % 50 == 49:
                await asyncio.sleep(0.2)
        await asyncio.sleep(2)
        opened.set()
        await asyncio.gather(*tasks)
        out.write_text(json.dumps(seen))

    asyncio.run(main())


# --- the players, the visitors, the health probe -------------------------------------------


def new_game(port: int, token: str, rng: random.Random) -> tuple[str, str, Api, Api]:
    """A Duel between the bench's account and a guest: uid, spectate path, both clients."""
    table, owner, guest = invited_duel(port, token, 0, rng)
    return table["id"], f"{table['watch_url']}stream/", owner, guest


def play(
    port: int,
    game: tuple[str, str, Api, Api],
    seed: int,
    start: float,
    stop: float,
    acts: list[tuple[str, int, float, float]],
    errors: list[str],
) -> None:
    uid, _path, owner, guest = game
    rng = random.Random(seed)
    seats = [owner, guest]
    _status, view = owner.call("GET", f"/api/v1/games/{uid}/")
    time.sleep(max(0, start - time.time()) + rng.uniform(0, 1))
    step = 0
    while view["status"] == "playing" and time.time() < stop:
        active = seats["AB".index(view["state"]["active"])]
        if view["seat"] == view["state"]["active"]:
            legal = view["state"]["legal_actions"]
        else:
            _status, legal = active.call("GET", f"/api/v1/games/{uid}/actions/")
        action = rng.choice(legal)
        time.sleep(rng.uniform(0.5, 1.5))
        step += 1
        sent = time.time()
        status, view = active.call(
            "POST",
            f"/api/v1/games/{uid}/act/?events_from=1000000",
            {"client_id": f"{seed}-{step}", **action},
        )
        if status != 200:
            errors.append(f"act {status}")
            return
        acts.append((uid, view["action_count"], sent, time.time()))


def browse(port: int, seed: int, stop: float, times: list[float], errors: list[str]) -> None:
    rng = random.Random(seed)
    client = Api(port, {})
    while time.time() < stop:
        if rng.random() < 0.5:
            path = f"/cards/?{urllib.parse.urlencode({'q': rng.choice(SEARCHES)})}"
        else:
            path = f"/cards/{rng.choice(CARDS)}/"
        started = time.perf_counter()
        try:
            client.connection.request("GET", path)
            answer = client.connection.getresponse()
            answer.read()
            if answer.status != 200:
                errors.append(f"page {answer.status}")
        except OSError as error:
            errors.append(f"page {error}")
            client = Api(port, {})
            continue
        times.append(time.perf_counter() - started)
        time.sleep(rng.uniform(0.5, 1.5))


def probe(port: int, stop: float, times: list[float], errors: list[str]) -> None:
    client = Api(port, {})
    while time.time() < stop:
        started = time.perf_counter()
        try:
            status, _body = client.call("GET", "/healthz")
            if status != 200:
                errors.append(f"healthz {status}")
        except OSError as error:
            errors.append(f"healthz {error}")
            client = Api(port, {})
            continue
        times.append(time.perf_counter() - started)
        time.sleep(0.1)


def probe_alone(port: int, start: float, stop: float, out: Path) -> None:
    """The health probe in a process of its own, as a load balancer's is: the probe thread among
    the players' and visitors' 70 threads also waits for its own process's interpreter lock."""
    times: list[float] = []
    errors: list[str] = []
    time.sleep(max(0, start - time.time()))
    probe(port, stop, times, errors)
    out.write_text(json.dumps({"times": times, "errors": errors}))


def server_health_ms(log: Path, since: float) -> list[float]:
    """The server's own time for each /healthz answered from `since` on, from its access log
    (cod_site.server.AccessLog: from the request's arrival in the worker's loop to the end of its
    answer); the probes of the server's start, cold, are left out."""
    times = []
    for entry in log.read_text(errors="replace").splitlines():
        if '"GET /healthz HTTP' not in entry or '" 200 ' not in entry:
            continue
        stamp = entry.split("[", 1)[1].split("]", 1)[0]
        if datetime.strptime(stamp, "%d/%b/%Y:%H:%M:%S %z").timestamp() < int(since):
            continue
        times.append(float(entry.split('" 200 ', 1)[1].split("ms", 1)[0].split()[-1]))
    return times


def process_cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_rss_kb(group: int) -> int:
    total = 0
    for entry, _fields in group_stats(group):
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        for row in status.splitlines():
            if row.startswith("VmRSS:"):
                total += int(row.split()[1])
    return total


def watcher_latencies(
    acts: list[tuple[str, int, float, float]], seen: list[tuple[str, int, float]], per_game: int
) -> tuple[list[float], int]:
    """For each action and each watcher read of its table: the time from the action sent to the
    first update naming its count or a later one; and how many (action, watcher) pairs the
    updates never reached (a watcher between two streams, or the run's end)."""
    by_game: dict[str, list[tuple[int, float]]] = {}
    for uid, count, at in seen:
        by_game.setdefault(uid, []).append((count, at))
    latencies: list[float] = []
    missed = 0
    for uid, count, sent, _done in acts:
        reads = sorted(
            at for seen_count, at in by_game.get(uid, []) if seen_count >= count and at >= sent
        )
        # Each watcher's first read after the action: the first `per_game` reads, at most.
        firsts = reads[:per_game]
        latencies += [at - sent for at in firsts]
        missed += per_game - len(firsts)
    return latencies, missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--browsers", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=60)
    # The server's defaults unless given (to compare others; the goals are for the defaults).
    parser.add_argument("--workers", type=int, help="WEB_CONCURRENCY")
    parser.add_argument("--threads", type=int, help="WEB_THREADS")
    args = parser.parse_args()
    if not REDIS_URL:
        print("skipped: no Redis (set LIVE_BENCH_REDIS_URL or REDIS_URL)")
        return 0
    missing = database_missing(DATABASE_URL)
    if missing:
        print(f"skipped: {missing}")
        return 0
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "BROADCAST_CHANNEL": f"live-bench-{uuid.uuid4().hex[:8]}",
        "DJANGO_DEBUG": "0",
        "DJANGO_LOG_LEVEL": "ERROR",
        # The players and visitors come from one address; the throttles are not measured.
        "API_ANON_RATE": "1000000/minute",
        "API_SEAT_RATE": "1000000/minute",
        "API_GAMES_RATE": "1000000/hour",
    }
    env.pop("WEB_CONCURRENCY", None)
    env.pop("WEB_THREADS", None)
    if args.workers:
        env["WEB_CONCURRENCY"] = str(args.workers)
    if args.threads:
        env["WEB_THREADS"] = str(args.threads)
    python = sys.executable
    for command in (
        ["migrate", "--noinput", "-v", "0"],
        ["load_catalogue"],
        ["collectstatic", "--noinput", "-v", "0"],
    ):
        subprocess.run(
            [python, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    token = api_token(env, "live-bench")
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="live-bench-"))
    gunicorn = [str(Path(python).with_name("gunicorn")), "-c", "cod_site/gunicorn_conf.py"]
    per_game = max(1, args.streams // args.games)
    load_before = os.getloadavg()
    with running(
        gunicorn, {**env, "HOST": "127.0.0.1", "PORT": str(port)}, workdir / "server.log"
    ) as process:
        wait_for_http(f"http://127.0.0.1:{port}/healthz", 60, process)
        group = os.getpgid(process.pid)
        rng = random.Random(1)
        games = [new_game(port, token, rng) for _ in range(args.games)]
        idle_kb = server_rss_kb(group)
        warm = time.time() + 5 + args.streams / 250
        stop = warm + IDLE_SECONDS + args.seconds
        opened = multiprocessing.Event()
        streams = multiprocessing.Process(
            target=hold_streams,
            args=(
                port,
                [(uid, path) for uid, path, _o, _g in games],
                per_game,
                opened,
                stop,
                workdir / "seen.json",
            ),
        )
        streams.start()
        opened.wait(60)
        time.sleep(max(0, warm - time.time()))
        streaming_kb = server_rss_kb(group)
        # The streams alone for a while: what holding them open costs the server (a stream
        # opened again every PLAY_STREAM_SECONDS, as the pages do).
        idle = (group_cpu_seconds(group), process_cpu_seconds(streams.pid or 0))
        time.sleep(IDLE_SECONDS)
        idle = (group_cpu_seconds(group) - idle[0], process_cpu_seconds(streams.pid or 0) - idle[1])
        acts: list[tuple[str, int, float, float]] = []
        pages: list[float] = []
        health: list[float] = []
        errors: list[str] = []
        warm += IDLE_SECONDS
        before = (
            group_cpu_seconds(group),
            machine_busy_seconds(),
            time.process_time(),
            process_cpu_seconds(streams.pid or 0),
        )
        threads = [
            threading.Thread(target=play, args=(port, game, seed, warm, stop, acts, errors))
            for seed, game in enumerate(games)
        ]
        threads += [
            threading.Thread(target=browse, args=(port, seed, stop, pages, errors))
            for seed in range(args.browsers)
        ]
        threads.append(threading.Thread(target=probe, args=(port, stop, health, errors)))
        prober = multiprocessing.Process(
            target=probe_alone, args=(port, warm, stop, workdir / "probe.json")
        )
        prober.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        prober.join(30)
        after = (
            group_cpu_seconds(group),
            machine_busy_seconds(),
            time.process_time(),
            process_cpu_seconds(streams.pid or 0),
        )
        streams.join(30)
        load_after = os.getloadavg()
    seen = (
        json.loads((workdir / "seen.json").read_text()) if (workdir / "seen.json").exists() else []
    )
    latencies, missed = watcher_latencies(acts, seen, per_game)
    alone = json.loads((workdir / "probe.json").read_text())
    errors += alone["errors"]
    served = server_health_ms(workdir / "server.log", warm)
    seconds = args.seconds
    print(
        f"{args.streams} streams ({per_game} per game), {args.games} games acting about once a "
        f"second, {args.browsers} visitors a page a second, /healthz 10/s, {seconds} s; "
        f"production server (gunicorn + uvicorn, {len(os.sched_getaffinity(0))} cores), "
        f"PostgreSQL, Redis"
    )
    act_errors = sum(error.startswith("act") for error in errors)
    page_errors = sum(error.startswith("page") for error in errors)
    health_errors = sum(error.startswith("healthz") for error in errors)
    print(line("act", [1000 * (done - sent) for _u, _c, sent, done in acts], act_errors))
    print(line("pages", [1000 * t for t in pages], page_errors))
    print(line("healthz", [1000 * t for t in alone["times"]], health_errors))
    print(line("  in gen.", [1000 * t for t in health], 0) + "  (the probe among the players)")
    print(line("  server", served, 0) + "  (the server's time, access log: both probes)")
    print(line("watchers", [1000 * t for t in latencies], 0) + f"  (not reached: {missed})")
    per_stream = (streaming_kb - idle_kb) / args.streams if args.streams else float("nan")
    print(
        f"memory: server {idle_kb / 1024:.0f} MB idle, {streaming_kb / 1024:.0f} MB with the "
        f"streams open: {per_stream:.1f} KB per open stream"
    )
    print(
        f"the streams alone ({IDLE_SECONDS} s before the load): server "
        f"{idle[0] / IDLE_SECONDS:.2f} of a core, the stream client {idle[1] / IDLE_SECONDS:.2f}"
    )
    print(
        f"CPU in cores: server {(after[0] - before[0]) / seconds:.2f}, players, visitors and probe "
        f"{(after[2] - before[2]) / seconds:.2f}, stream client "
        f"{(after[3] - before[3]) / seconds:.2f}, the whole machine "
        f"{(after[1] - before[1]) / seconds:.2f}; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after; logs in {workdir}"
    )
    figures = {
        "act p95": cuts([1000 * (done - sent) for _u, _c, sent, done in acts])[1],
        "pages p95": cuts([1000 * t for t in pages])[1],
        "healthz p99": cuts([1000 * t for t in alone["times"]])[2],
        "watchers p95": cuts([1000 * t for t in latencies])[1],
    }
    verdicts = [
        f"{name} <= {goal} ms: {'met' if figures[name] <= goal else 'NOT met'}"
        for name, goal in GOALS_MS.items()
    ]
    print("goals: " + "; ".join(verdicts) + f"; errors: {len(errors)} ({errors[:3]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
