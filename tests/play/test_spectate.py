"""Spectate links: anyone with a table's spectate code sees the public view, through the API,
the page, its board and its stream, and never a card of a hand that was not shown."""

import json
import random
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.rules.kingdom import HandKingdom
from engine.rules.view import public_cards
from play.models import Game
from play.position_selectors import game_state
from tests.play.conftest import LASTING
from tests.support.views import card_ids

pytestmark = pytest.mark.django_db

ME = {"kind": "me", "deck": {"preconstructed": 1}}
RANDOM = {"kind": "agent", "agent": "random"}


def _hidden(game: Game) -> tuple[set[int], set[str]]:
    """The cards of every hand never shown on the table, and those of their names that no other
    card of the game bears (a name shared with a shown card may rightly be on the page)."""
    state = game_state(game)
    assert state.log is not None
    shown = public_cards(state.log, len(state.log))
    hidden = {
        card
        for kingdom in state.players
        if isinstance(kingdom, HandKingdom)
        for card in kingdom.hand
        if card not in shown
    }
    names = state.setup.names
    others = {names[card] for card in range(len(names)) if card not in hidden}
    return hidden, {names[card] for card in hidden} - others


def _check_page(html: str, hidden: set[int], names: set[str]) -> None:
    for card in hidden:
        assert f'data-card="{card}"' not in html
    for name in names:
        assert name not in html


def _watch(mode: str, others: list[dict[str, Any]], olga_api: APIClient, seed: int) -> None:
    body = {"mode": mode, "format": "preconstructed", "seats": [ME, *others], "seed": seed}
    created = olga_api.post("/api/v1/games/", {**body, "exhaustion": True}, format="json").json()
    uid = created["id"]
    code = created["spectate_url"].split("?code=")[1]
    assert created["spectate_url"] == f"/api/v1/games/{uid}/spectate/?code={code}"
    assert created["watch_url"] == f"/play/{uid}/watch/{code}/"
    api, page = APIClient(), Client()
    rng = random.Random(seed)
    checked = 0
    for step in range(40):
        view = olga_api.get(f"/api/v1/games/{uid}/").json()
        if view["status"] == "finished":
            break
        hidden, names = _hidden(Game.objects.get(uid=uid))
        watched = api.get(f"/api/v1/games/{uid}/spectate/?code={code}&events_from={step % 3}")
        assert watched.status_code == 200
        seen = watched.json()
        assert seen["seat"] is None
        assert seen["state"]["legal_actions"] == []
        assert [player["hand"] for player in seen["state"]["players"]] == [None] * len(
            seen["seats"]
        )
        assert not hidden & card_ids(seen)
        for url in (created["watch_url"], f"{created['watch_url']}board/?since=0"):
            response = page.get(url)
            assert response.status_code == 200
            _check_page(response.content.decode(), hidden, names)
        checked += 1
        action = rng.choice(view["state"]["legal_actions"])
        acted = olga_api.post(
            f"/api/v1/games/{uid}/act/", {"client_id": f"w{step}", **action}, format="json"
        )
        assert acted.status_code == 200
    assert checked >= 10
    # Once the game is over every hand shows, to the spectator too.
    olga_api.post(f"/api/v1/games/{uid}/concede/")
    over = api.get(f"/api/v1/games/{uid}/spectate/?code={code}").json()
    assert over["status"] == "finished"
    hands = [player["hand"] for player in over["state"]["players"]]
    state = game_state(Game.objects.get(uid=uid))
    assert [[card["id"] for card in hand] for hand in hands] == [
        list(kingdom.hand) for kingdom in state.players
    ]


def test_a_spectator_of_a_duel_never_sees_a_hidden_card(olga_api: APIClient) -> None:
    _watch("duel", [RANDOM], olga_api, seed=31)


def test_a_spectator_of_a_free_for_all_never_sees_a_hidden_card(olga_api: APIClient) -> None:
    _watch("free_for_all", [RANDOM, RANDOM, RANDOM], olga_api, seed=32)


def test_a_wrong_spectate_code_is_a_404_and_a_spectator_has_no_controls(
    olga_api: APIClient,
) -> None:
    created = olga_api.post(
        "/api/v1/games/", {"format": "preconstructed", "seats": [ME, RANDOM]}, format="json"
    ).json()
    uid = created["id"]
    wrong = APIClient().get(f"/api/v1/games/{uid}/spectate/?code=nope")
    assert wrong.status_code == 404
    assert wrong.json()["code"] == "not_found"
    assert Client().get(f"/play/{uid}/watch/nope/").status_code == 404
    page = Client().get(created["watch_url"]).content.decode()
    assert "You are watching: every hand is hidden." in page
    assert 'name="kind" value="concede"' not in page
    assert f'hx-get="/play/{uid}/watch/' in page
    # The player's own page gives the link to share.
    mine = Client()
    mine.force_login(Game.objects.get(uid=uid).created_by)
    assert f"/play/{uid}/watch/" in mine.get(f"/play/{uid}/").content.decode()


def test_the_spectator_stream_tells_the_action_count(olga_api: APIClient, settings: Any) -> None:
    settings.PLAY_STREAM_SECONDS = LASTING
    created = olga_api.post(
        "/api/v1/games/", {"format": "preconstructed", "seats": [ME, RANDOM]}, format="json"
    ).json()
    response = Client().get(f"{created['watch_url']}stream/")
    assert response["Content-Type"] == "text/event-stream"
    chunks = iter(response.streaming_content)
    assert next(chunks) == b"retry: 500\n\n"
    data = json.dumps(
        {"action_count": created["action_count"], "pick_count": 0, "status": "playing"}
    )
    assert next(chunks).decode() == f"event: update\ndata: {data}\n\n"


def test_listed_games_in_play_are_in_the_lobby_to_watch(olga_api: APIClient, other: Any) -> None:
    listed = olga_api.post(
        "/api/v1/games/",
        {"format": "preconstructed", "seats": [ME, RANDOM], "listed": True},
        format="json",
    ).json()
    unlisted = olga_api.post(
        "/api/v1/games/", {"format": "preconstructed", "seats": [ME, RANDOM]}, format="json"
    ).json()
    oscar = Client()
    oscar.force_login(other)
    lobby = oscar.get("/play/").content.decode()
    assert f'href="{listed["watch_url"]}"' in lobby
    assert unlisted["id"] not in lobby
    live = APIClient().get("/api/v1/games/live/").json()
    assert [game["id"] for game in live["results"]] == [listed["id"]]
