"""How long a table's live stream lasts: minutes, saying it is alive while quiet, and no longer
than its server process (play/streams.py)."""

import json
import threading
from typing import Any

import pytest
from django.test import Client

from cod_site import broadcast
from play import streams
from play.models import Game
from tests.play.conftest import seeded_table

RETRY = "retry: 500\n\n"


@pytest.fixture
def table(cards_db: None, owner: Any) -> Game:
    return seeded_table(owner)


@pytest.fixture
def fresh_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hub of this test's own: `close_all` marks a hub closing for good."""
    monkeypatch.setattr(broadcast, "_hub", broadcast._Hub())


def _update(game: Game) -> str:
    data = json.dumps({"action_count": game.action_count, "pick_count": 0, "status": "playing"})
    return f"event: update\ndata: {data}\n\n"


def test_a_quiet_stream_says_it_is_alive_until_it_ends(
    table: Game, owner: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stream of 1.8-3 s saying it is alive every 0.2 s: several times, however long its
    # opening took on a busy machine, and nothing else.
    settings.PLAY_STREAM_SECONDS = 3
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.2)
    client = Client()
    client.force_login(owner)
    chunks = [c.decode() for c in client.get(f"/play/{table.uid}/stream/").streaming_content]
    assert chunks[:2] == [RETRY, _update(table)]
    assert set(chunks[2:]) == {": keep-alive\n\n"}


def test_a_stream_ends_when_its_server_process_stops(
    table: Game, owner: Any, settings: Any, fresh_hub: None
) -> None:
    # Without the stop the stream would last ten minutes.
    settings.PLAY_STREAM_SECONDS = 600
    client = Client()
    client.force_login(owner)
    chunks = iter(client.get(f"/play/{table.uid}/stream/").streaming_content)
    assert [next(chunks).decode(), next(chunks).decode()] == [RETRY, _update(table)]
    rest: list[bytes] = []
    reader = threading.Thread(target=lambda: rest.extend(chunks), daemon=True)
    reader.start()
    broadcast.close_all()
    reader.join(timeout=10)
    assert not reader.is_alive()
    assert rest == []
    # A stream that opens on a stopping process says where the table is, then ends.
    again = client.get(f"/play/{table.uid}/stream/").streaming_content
    assert [c.decode() for c in again] == [RETRY, _update(table)]
