"""Champions at tables: a saved Constructed deck with a Champion plays it (the Champion module
on), shown on the board as the engine's board shows it; someone's private Champion reaches the
other seats only as the rules show it (its card at the table), never its identity."""

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from rest_framework.test import APIClient

from champions.models import Champion
from decks.models import Deck
from engine.adapters.decks import DeckChoice, simulation_deck_resolve
from play.models import Game
from play.position_selectors import game_options, game_state
from play.table_services import SeatRequest, game_create, game_join

from .conftest import CHAMPION_NAME as NAME
from .conftest import dealt, join_as_guest

pytestmark = pytest.mark.django_db

COMPUTER = SeatRequest(kind="agent", agent="greedy")


def _table(owner: Any, deck: Deck, opponent: SeatRequest = COMPUTER) -> Game:
    with dealt(8):
        return game_create(
            creator=owner,
            format="constructed",
            seats=[SeatRequest(kind="me", deck=DeckChoice(deck=deck.share_id)), opponent],
        )


def test_a_deck_with_its_champion_plays_it_at_the_table(owner: Any, champion_deck: Deck) -> None:
    game = _table(owner, champion_deck)
    me, computer = game.seats.all()
    assert me.champion is not None
    assert me.champion["name"] == NAME
    assert me.champion["type"] == "champion"
    assert computer.champion is None
    assert game_options(game, log=False).champions is True
    state = game_state(game)
    assert state.setup.names[state.setup.champion_id[0]] == NAME
    client = Client()
    client.force_login(owner)
    page = client.get(f"/play/{game.uid}/").content.decode()
    assert f"Champion ready: {NAME}" in page
    api = APIClient()
    api.force_authenticate(owner)
    view = api.get(f"/api/v1/games/{game.uid}/").json()
    champion = view["state"]["players"][0]["champion"]
    assert {key: champion[key] for key in ("name", "cost", "attack", "hp", "creature")} == {
        "name": NAME,
        "cost": 5,
        "attack": 4,
        "hp": 4,
        "creature": True,
    }
    assert champion["abilities"] == ["splash", "aura:rage"]
    assert view["state"]["players"][0]["champion_exhausted"] is False
    assert view["state"]["players"][1]["champion"] is None


def test_my_champion_is_chosen_and_played_from_the_board(owner: Any, champion_deck: Deck) -> None:
    game = _table(owner, champion_deck)
    client = Client()
    client.force_login(owner)
    state = game_state(game)
    champion = state.setup.champion_id[0]
    # Enough Mana at some turn: play until the Champion (cost 5) is legal.
    api = APIClient()
    api.force_authenticate(owner)
    for turn in range(40):
        actions = api.get(f"/api/v1/games/{game.uid}/actions/").json()
        if any(action["card"] == champion for action in actions):
            break
        response = api.post(
            f"/api/v1/games/{game.uid}/act/",
            {"client_id": f"end{turn}", "kind": "end_turn"},
            format="json",
        )
        assert response.status_code == 200, response.json()
    page = client.get(f"/play/{game.uid}/").content.decode()
    assert f'aria-label="Choose {NAME}"' in page
    chosen = client.get(f"/play/{game.uid}/?card={champion}").content.decode()
    assert f"Where does {NAME} go?" in chosen
    assert re.findall(r'aria-label="Play [^"]*"', chosen) == [
        f'aria-label="Play {NAME} on Top line"',
        f'aria-label="Play {NAME} on Bottom line"',
    ]
    played = api.post(
        f"/api/v1/games/{game.uid}/act/",
        {"client_id": "hero", "kind": "play", "card": champion, "arg": 0},
        format="json",
    ).json()
    me = played["state"]["players"][0]
    assert me["champion"] is None
    assert NAME in [creature["name"] for creature in me["lines"][0]]


def test_another_player_plays_the_deck_without_the_private_champion(
    owner: Any, other: Any, champion_deck: Deck
) -> None:
    game = _table(owner, champion_deck, SeatRequest(kind="invite"))
    seat, _token = game_join(
        game=game,
        invite_code=game.invite_code,
        user=other,
        guest_name="",
        deck=DeckChoice(deck=champion_deck.share_id),
    )
    assert seat.champion is None
    game.refresh_from_db()
    names = [seat.champion["name"] if seat.champion else None for seat in game.seats.all()]
    assert names == [NAME, None]


def test_the_other_seat_sees_the_champion_only_as_the_rules_show_it(
    owner: Any, champion_deck: Deck, secret: Champion
) -> None:
    api = APIClient()
    api.force_authenticate(owner)
    body = {
        "format": "constructed",
        "seats": [{"kind": "me", "deck": {"deck": champion_deck.share_id}}, {"kind": "invite"}],
    }
    with dealt(3):
        table = api.post("/api/v1/games/", body, format="json").json()
    code = simulation_deck_resolve(
        side="b", choice=DeckChoice(preconstructed=2), viewer=AnonymousUser()
    ).code
    guest = join_as_guest(table["id"], table["invite_code"], deck={"code": code})
    view = guest.get(f"/api/v1/games/{table['id']}/").json()
    # The Champion waits face up outside Olga's Kingdom (rule champion-setup).
    assert view["state"]["players"][0]["champion"]["name"] == NAME
    responses = [
        json.dumps(view),
        json.dumps(guest.get(f"/api/v1/games/{table['id']}/actions/").json()),
        json.dumps(guest.get("/api/v1/games/open/").json()),
    ]
    for text in responses:
        assert secret.uid not in text
        assert "Intrépide" not in text
