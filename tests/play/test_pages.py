"""The play pages: lobby, new table, the share link, the table with its controls and stream."""

import json
from typing import Any

import pytest
from django.test import Client

from play.models import Game, GameAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(cards_db: None, owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _new_table(client: Client, opponent: str = "agent:greedy") -> Game:
    response = client.post(
        "/play/new/", {"format": "preconstructed", "preconstructed": "1", "opponent": opponent}
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == f"/play/{game.uid}/"
    return game


def test_a_table_against_the_computer_shows_my_turn_and_my_hand(olga: Client) -> None:
    game = _new_table(olga)
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "<title>Your turn · Duel · cod_site</title>" in page
    hand = next(seat for seat in game.seats.all() if seat.index == 0).cards
    assert hand is not None
    for card in hand:
        assert card["name"] in page
    lobby = olga.get("/play/").content.decode()
    assert "<title>Your turn · Play · cod_site</title>" in lobby
    assert f'href="/play/{game.uid}/"' in lobby


def test_ending_the_turn_with_htmx_lets_the_computer_answer(olga: Client) -> None:
    game = _new_table(olga)
    before = GameAction.objects.filter(game=game).count()
    response = olga.post(
        f"/play/{game.uid}/act/",
        {"client_id": "end-1", "kind": "end_turn"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'class="play-board"' in response.content.decode()
    actions = list(GameAction.objects.filter(game=game).order_by("index")[before:])
    assert actions[0].client_id == "end-1"
    # Then the computer played its whole turn, ending it: my turn again.
    assert actions[-1].seat == 1
    assert actions[-1].kind == 1
    game.refresh_from_db()
    assert game.active_seat == 0


def test_a_guest_joins_by_the_share_link_and_keeps_the_seat(olga: Client) -> None:
    game = _new_table(olga, opponent="invite")
    waiting = olga.get(f"/play/{game.uid}/").content.decode()
    assert f"/play/{game.uid}/join/{game.invite_code}/" in waiting
    guest = Client()
    joined = guest.post(
        f"/play/{game.uid}/join/{game.invite_code}/",
        {"guest_name": "Gus", "preconstructed": "2"},
    )
    assert joined.status_code == 302
    assert guest.get(f"/play/{game.uid}/").status_code == 200
    assert Client().get(f"/play/{game.uid}/").status_code == 404
    game.refresh_from_db()
    assert game.status == "playing"


def test_the_stream_tells_the_action_count(olga: Client, settings: Any) -> None:
    settings.PLAY_STREAM_SECONDS = 0
    game = _new_table(olga)
    response = olga.get(f"/play/{game.uid}/stream/?after=-5")
    assert response["Content-Type"] == "text/event-stream"
    assert b"".join(response.streaming_content).decode() == "retry: 500\n\n"
    settings.PLAY_STREAM_SECONDS = 1
    response = olga.get(f"/play/{game.uid}/stream/")
    body = b"".join(response.streaming_content).decode()
    data = json.dumps({"action_count": game.action_count, "status": "playing"})
    assert body.startswith(f"retry: 500\n\nevent: update\ndata: {data}\n\n")
