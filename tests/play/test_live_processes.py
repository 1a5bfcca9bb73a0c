"""Live play on the production server (`make serve`'s gunicorn with its defaults), real
processes on PostgreSQL and Redis: open streams hold no worker, and a move made through one
server process reaches a stream held by another."""

import http.client
import json
import os
import signal
import socket
import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import connection

from engine.adapters.decks import DeckChoice
from play.models import Game
from play.services import game_act
from play.table_services import SeatRequest, game_join
from tests.play.conftest import seeded_table
from tests.support.processes import child_environ, free_port, running, wait_for_http

pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]

GUNICORN = [str(Path(sys.executable).with_name("gunicorn")), "-c", "cod_site/gunicorn_conf.py"]


@pytest.fixture
def channel(settings: Any) -> str:
    """A broadcast channel of this test's own, for the servers and this process alike."""
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: a server process cannot see SQLite's test DB")
    settings.BROADCAST_CHANNEL = f"test-live-{uuid.uuid4().hex[:8]}"
    return str(settings.BROADCAST_CHANNEL)


def _database_url(name: str) -> str:
    """The test database, for a server whose connections are named `name` in PostgreSQL."""
    conf = connection.settings_dict
    password = f":{conf['PASSWORD']}" if conf["PASSWORD"] else ""
    return (
        f"postgres://{conf['USER']}{password}@{conf['HOST'] or '127.0.0.1'}:"
        f"{conf['PORT'] or 5432}/{conf['NAME']}?application_name={name}"
    )


def _last_query_times(name: str) -> list[Any]:
    """When each connection of the server named `name` last began or ended a query."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT state_change FROM pg_stat_activity WHERE application_name = %s", [name]
        )
        return sorted(row[0] for row in cursor.fetchall())


@contextmanager
def server(channel: str, log: Path, **extra: str) -> Iterator[int]:
    """`make serve`'s server with its defaults on a free port (its port); its database
    connections are named after its log's file name."""
    port = free_port()
    env = child_environ("WEB_CONCURRENCY", "DATABASE_URL")
    env |= {
        "DATABASE_URL": _database_url(log.stem),
        "BROADCAST_CHANNEL": channel,
        "PORT": str(port),
        "DJANGO_LOG_LEVEL": "WARNING",
        **extra,
    }
    with running(GUNICORN, env, log) as process:
        try:
            wait_for_http(f"http://127.0.0.1:{port}/healthz", timeout=120, process=process)
        except (RuntimeError, TimeoutError) as problem:
            pytest.fail(f"{problem}\n{log.read_text()[-3000:]}")
        yield port


class Stream:
    """A table's event stream read as a browser's EventSource reads it."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError(f"the stream ended: {self.buffer!r}")
            self.buffer += chunk
        found, self.buffer = self.buffer.split(end, 1)
        return found

    def update(self) -> dict[str, Any]:
        """The next `update` event's data (chunked transfer: the sizes are skipped)."""
        while True:
            block = self._until(b"\n\n").decode()
            if "event: update" in block:
                data = block.split("data: ", 1)[1].split("\n", 1)[0]
                result: dict[str, Any] = json.loads(data)
                return result

    def end(self) -> float:
        """Reads until the server closes the connection: the seconds that took."""
        started = time.monotonic()
        while self.sock.recv(4096):
            pass
        return time.monotonic() - started

    def close(self) -> None:
        self.sock.close()


def _playing_table(user: User) -> tuple[Game, str]:
    """A Duel in play between `user` and a guest, the guest to play; the guest's seat token."""
    game = seeded_table(user, SeatRequest(kind="invite"))
    _seat, token = game_join(
        game=game,
        invite_code=game.invite_code,
        user=AnonymousUser(),
        guest_name="Gus",
        deck=DeckChoice(preconstructed=2),
    )
    game.refresh_from_db()
    if game.active_seat == 0:
        game = game_act(
            game=game,
            seat=game.seats.get(index=0),
            client_id="b0",
            kind="end_turn",
            card=-1,
            arg=-1,
        )
    return game, token


def _healthz_ms(port: int) -> float:
    started = time.perf_counter()
    answer = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    answer.request("GET", "/healthz")
    assert answer.getresponse().status == 200
    answer.close()
    return 1000 * (time.perf_counter() - started)


def test_open_streams_do_not_delay_healthz(
    channel: str, tmp_path: Path, django_user_model: Any
) -> None:
    """Four table pages open (the site hung on them when each held one of gunicorn's threads):
    the health check still answers at once."""
    game, _token = _playing_table(django_user_model.objects.create_user("bea"))
    watch = f"/play/{game.uid}/watch/{game.spectate_code}/stream/"
    with server(channel, tmp_path / "server.log") as port, ExitStack() as streams:
        for _ in range(4):
            stream = Stream(port, watch)
            streams.callback(stream.close)
            assert stream.update()["status"] == "playing"
        times = [_healthz_ms(port) for _ in range(10)]
    assert statistics.median(times) <= 100, times


def test_a_move_made_through_one_process_reaches_a_stream_held_by_another(
    channel: str, tmp_path: Path, django_user_model: Any
) -> None:
    game, token = _playing_table(django_user_model.objects.create_user("bea"))
    one = dict(WEB_CONCURRENCY="1")
    with (
        server(channel, tmp_path / "a.log", **one) as port_a,
        server(channel, tmp_path / "b.log", **one) as port_b,
    ):
        stream = Stream(port_b, f"/play/{game.uid}/watch/{game.spectate_code}/stream/")
        first = stream.update()
        assert first == {"action_count": game.action_count, "pick_count": 0, "status": "playing"}
        # While nothing happens the stream asks the database nothing (it used to, 4 times a
        # second): it waits for the news.
        time.sleep(0.5)
        idle = _last_query_times("b")
        time.sleep(2)
        assert _last_query_times("b") == idle
        api = http.client.HTTPConnection("127.0.0.1", port_a, timeout=10)
        body = json.dumps({"client_id": "x1", "kind": "end_turn", "card": -1, "arg": -1})
        headers = {"Content-Type": "application/json", "X-Seat-Token": token}
        api.request("POST", f"/api/v1/games/{game.uid}/act/", body, headers)
        answer = api.getresponse()
        assert answer.status == 200, answer.read()
        started = time.monotonic()
        news = stream.update()
        assert time.monotonic() - started < 5
        stream.close()
    game.refresh_from_db()
    assert news == {"action_count": game.action_count, "pick_count": 0, "status": "playing"}
    assert news["action_count"] > first["action_count"]
    # The move went through server A only; server B sent the stream.
    assert f"/api/v1/games/{game.uid}/act/" in (tmp_path / "a.log").read_text()
    assert "/stream/" not in (tmp_path / "a.log").read_text()


def test_a_restart_ends_the_old_workers_streams_at_once(
    channel: str, tmp_path: Path, django_user_model: Any
) -> None:
    """A stream lasts minutes (PLAY_STREAM_SECONDS): a graceful restart (HUP) must not wait for
    them, nor cut them at the end of gunicorn's 30 s of grace."""
    game, _token = _playing_table(django_user_model.objects.create_user("bea"))
    pid_file = tmp_path / "server.pid"
    extra = {"WEB_CONCURRENCY": "1", "GUNICORN_CMD_ARGS": f"--pid {pid_file}"}
    with server(channel, tmp_path / "server.log", **extra) as port:
        stream = Stream(port, f"/play/{game.uid}/watch/{game.spectate_code}/stream/")
        assert stream.update()["status"] == "playing"
        os.kill(int(pid_file.read_text()), signal.SIGHUP)
        assert stream.end() < 10
        stream.close()
