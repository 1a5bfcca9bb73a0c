"""Games at a table: the computer players' time per decision, and the action round trip
through the API at 50 concurrent games.

    python bench/play_bench.py [--games 50] [--seconds 60] [--think 1.0] [--agent-games 4]

First the searching computer players a table seats (`play.services.table_agent`: lookahead and
strong at their node budgets, `PLAY_LOOKAHEAD_NODES` and `PLAY_STRONG_NODES`), each playing every
seat of `--agent-games` Duels and Free-For-Alls of the preconstructed decks: the CPU ms of their
decisions that had a choice, p50/p95/max. Goal: at most 1 s, a computer seat's time per action.

The production server (`make serve`'s gunicorn) on PostgreSQL, and on the same machine the load:
one thread per game, each playing both seats of an invited Duel (an account and a guest) with
random legal actions from the answers, one request in flight per game and `--think` seconds
between a game's actions (a player at a table; 0: as fast as the server answers, a stress test
whose latency is mostly the queue), starting a new game when one ends. A round trip is one
`POST /api/v1/games/<id>/act/` (the action applied, the position stored, the seat's view back),
timed by the client. Prints the count, p50/p95/p99 and the errors
(answers other than 200, broken connections). Goal: p95 <= 150 ms on this 2-core machine.

Database: PLAY_BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/cod_site_bench_play
(created, migrated, catalogue loaded); skipped, saying why, without PostgreSQL.
"""

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import database_missing  # noqa: E402
from engine.rules import Action, GameState, Options, legal_actions  # noqa: E402
from engine.rules.agents import Agent  # noqa: E402
from engine.rules.cards import load_catalogue  # noqa: E402
from engine.rules.game import Game  # noqa: E402
from tests.support.processes import free_port, running, wait_for_http  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/cod_site_bench_play"
DATABASE_URL = os.environ.get("PLAY_BENCH_DATABASE_URL") or DEFAULT_DATABASE
GOAL_P95_MS = 150
GOAL_DECISION_MS = 1000


class Api:
    """One keep-alive connection of one client thread."""

    def __init__(self, port: int, headers: dict[str, str]) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Content-Type": "application/json", **headers}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        try:
            self.connection.request(method, path, data, self.headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError):
            # The server closed an idle keep-alive connection: once more on a new one (an
            # action is idempotent on its client id).
            self.connection.close()
            self.connection.request(method, path, data, self.headers)
            response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"null")


def invited_duel(port: int, token: str, seed: int, rng: random.Random) -> tuple[Any, Api, Api]:
    """A Duel between the account of `token` and a guest who joined by the invite: the table
    (as created), the account's client and the guest's; RuntimeError if refused."""
    owner = Api(port, {"Authorization": f"Token {token}"})
    status, table = owner.call(
        "POST",
        "/api/v1/games/",
        {
            "format": "preconstructed",
            "exhaustion": True,
            "seats": [
                {"kind": "me", "deck": {"preconstructed": 1 + rng.randrange(4)}},
                {"kind": "invite"},
            ],
        },
    )
    if status != 201:
        raise RuntimeError(f"create {status}")
    guest = Api(port, {})
    status, joined = guest.call(
        "POST",
        f"/api/v1/games/{table['id']}/join/",
        {
            "invite_code": table["invite_code"],
            "guest_name": f"g{seed}",
            "deck": {"preconstructed": 2},
        },
    )
    if status != 200:
        raise RuntimeError(f"join {status}")
    guest.headers["X-Seat-Token"] = joined["seat_token"]
    return table, owner, guest


def api_token(env: dict[str, str], username: str) -> str:
    """The API token of the account `username` (created if missing) in the database of `env`."""
    return subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.contrib.auth.models import User;"
            "from rest_framework.authtoken.models import Token;"
            f"u, _ = User.objects.get_or_create(username={username!r});"
            "print(Token.objects.get_or_create(user=u)[0].key)",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[-1]  # the shell may print a banner first


def play(
    port: int,
    token: str,
    seed: int,
    stop: float,
    think: float,
    times: list[float],
    errors: list[str],
) -> None:
    rng = random.Random(seed)
    game = 0
    while time.monotonic() < stop:
        game += 1
        try:
            table, owner, guest = invited_duel(port, token, seed, rng)
        except RuntimeError as refused:
            errors.append(str(refused))
            return
        uid = table["id"]
        seats = [owner, guest]
        status, view = owner.call("GET", f"/api/v1/games/{uid}/")
        step = 0
        while view["status"] == "playing" and time.monotonic() < stop:
            active = seats["AB".index(view["state"]["active"])]
            if view["seat"] == view["state"]["active"]:
                legal = view["state"]["legal_actions"]
            else:
                _status, legal = active.call("GET", f"/api/v1/games/{uid}/actions/")
            action = rng.choice(legal)
            # Spread around `think` so that the games do not act in lockstep.
            time.sleep(rng.uniform(0.5, 1.5) * think)
            step += 1
            started = time.perf_counter()
            status, view = active.call(
                "POST",
                f"/api/v1/games/{uid}/act/?events_from=1000000",
                {"client_id": f"{seed}-{game}-{step}", **action},
            )
            times.append(time.perf_counter() - started)
            if status != 200:
                errors.append(f"act {status}")
                return


class _Timed:
    """An agent whose decisions (those with a choice) are timed into ``spent``, in ms."""

    def __init__(self, agent: Agent, spent: list[float]) -> None:
        self.agent = agent
        self.spent = spent

    def choose(self, state: GameState) -> Action:
        choice = len(legal_actions(state)) > 1
        started = time.process_time()
        action = self.agent.choose(state)
        if choice:
            self.spent.append(1000 * (time.process_time() - started))
        return action


def agent_decisions(games: int) -> None:
    """Print the ms per decision of the table's searching agents (see the module's doc)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")
    import django

    django.setup()
    from django.conf import settings

    from play.services import table_agent

    catalogue = load_catalogue()
    decks = [list(catalogue.precon(number)) for number in (1, 2, 3, 4)]
    budgets = {"lookahead": settings.PLAY_LOOKAHEAD_NODES, "strong": settings.PLAY_STRONG_NODES}
    for name, nodes in budgets.items():
        for mode, seats in (("duel", 2), ("free_for_all", 4)):
            spent: list[float] = []
            for game in range(games):
                dealt = [decks[(game + seat) % 4] for seat in range(seats)]
                agents = [
                    _Timed(table_agent(name, game * seats + seat), spent) for seat in range(seats)
                ]
                Game.start(dealt, game, Options(mode=mode)).advance(agents)
            cuts = statistics.quantiles(spent, n=100)
            verdict = "met" if max(spent) <= GOAL_DECISION_MS else "NOT met"
            print(
                f"{name} at {nodes} nodes, {mode}: {len(spent)} decisions  "
                f"p50 {cuts[49]:.0f} ms  p95 {cuts[94]:.0f} ms  max {max(spent):.0f} ms  "
                f"(goal max <= {GOAL_DECISION_MS} ms: {verdict})",
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--agent-games", type=int, default=4)
    args = parser.parse_args()
    agent_decisions(args.agent_games)
    missing = database_missing(DATABASE_URL)
    if missing:
        print(f"skipped: {missing}")
        return 0
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(
        {
            "DATABASE_URL": DATABASE_URL,
            "DJANGO_DEBUG": "0",
            "DJANGO_LOG_LEVEL": "ERROR",
            # The clients all come from one address; the throttle is not what is measured.
            "API_ANON_RATE": "1000000/minute",
        }
    )
    python = sys.executable
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalogue"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    token = api_token(env, "play-bench")
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="play-bench-"))
    gunicorn = [str(Path(python).with_name("gunicorn")), "-c", "cod_site/gunicorn_conf.py"]
    server_env = {**env, "HOST": "127.0.0.1", "PORT": str(port)}
    times: list[float] = []
    errors: list[str] = []
    with running(gunicorn, server_env, workdir / "server.log") as process:
        wait_for_http(f"http://127.0.0.1:{port}/healthz", 60, process)
        stop = time.monotonic() + args.seconds
        threads = [
            threading.Thread(
                target=play,
                args=(port, token, seed, stop, args.think, times, errors),
            )
            for seed in range(args.games)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if len(times) < 2:
        print(f"no figures: {len(times)} round trips, errors {errors[:5]}")
        return 1
    cuts = statistics.quantiles(times, n=100)
    p50, p95, p99 = (1000 * cuts[i - 1] for i in (50, 95, 99))
    verdict = "met" if p95 <= GOAL_P95_MS else "NOT met"
    print(
        f"{args.games} concurrent games, {args.think:g} s between a game's actions, "
        f"{args.seconds} s, gunicorn + PostgreSQL, "
        f"{len(os.sched_getaffinity(0))} cores (load generator on the same machine)"
    )
    print(
        f"act round trip: {len(times)} actions ({len(times) / args.seconds:.1f}/s)  "
        f"p50 {p50:.0f} ms  p95 {p95:.0f} ms  p99 {p99:.0f} ms  errors {len(errors)}"
    )
    print(f"goal p95 <= {GOAL_P95_MS} ms: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
