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


def test_a_solo_table_from_the_form_shows_the_ai_at_its_level_and_its_piles(olga: Client) -> None:
    response = olga.post(
        "/play/new/",
        {"mode": "solo", "format": "preconstructed", "preconstructed": "1", "ai_level": "2"},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.mode, game.ai_level, game.seats.count()) == ("solo", 2, 2)
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "<title>Your turn · Solo · cod_site</title>" in page
    assert "<h1>Solo · AI level 2</h1>" in page
    assert "<li>B: The AI (level 2)</li>" in page
    assert "Opponent (B) · The AI (level 2)" in page
    assert "Deck pile: 24 cards over its Stronghold · 0 Mana" in page
    assert "Discard pile: empty" in page
    lobby = olga.get("/play/").content.decode()
    assert "olga – AI level 2" in lobby
    assert "Solo · Preconstructed · turn 1" in lobby


def test_a_team_table_names_partners_and_the_winning_team(olga: Client) -> None:
    response = olga.post(
        "/play/new/",
        {
            "mode": "teams",
            "format": "preconstructed",
            "preconstructed": "1",
            "opponent": "agent:random",
            "seat_c": "agent:greedy",
            "seat_d": "agent:random",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert [seat.agent for seat in game.seats.all()] == ["", "random", "greedy", "random"]
    page = olga.get(f"/play/{game.uid}/").content.decode()
    # The computers play until it is my turn.
    assert '<li aria-current="true">A: olga (me) · to play</li>' in page
    assert "<li>C: Computer (Greedy) (partner)</li>" in page
    assert "Partner (C) · Computer (Greedy)" in page
    assert "Opponent (D) · Computer (Random (weakest))" in page
    olga.post(f"/play/{game.uid}/act/", {"kind": "concede"})
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "Game over: the team B + D wins together." in page


def test_the_form_refuses_a_four_player_table_with_a_missing_seat(olga: Client) -> None:
    response = olga.post(
        "/play/new/",
        {"mode": "free_for_all", "format": "preconstructed", "preconstructed": "1"},
    )
    assert response.status_code == 200
    assert "Unknown computer player." in response.content.decode()
    assert Game.objects.count() == 0


def test_the_modes_are_translated(olga: Client) -> None:
    page = olga.get("/fr/play/new/").content.decode()
    assert '<option value="free_for_all">Chacun pour soi</option>' in page
    page = olga.get("/sv/play/new/").content.decode()
    assert '<option value="coop">Samarbetsläge</option>' in page
