"""A bot plays whole games through the API with random legal actions, both seats of invited
tables: no 5xx, every game ends, the replay recomputes the result, and no response to one seat
names a card hidden in the other's hand."""

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from engine.rules.kingdom import hand_of
from engine.rules.replay import parse, play
from engine.rules.view import public_cards
from play.models import Game
from play.selectors import game_state
from tests.support.views import card_ids

from .conftest import create_table, join_as_guest


def _hidden_from(game: Game, seat: int) -> set[int]:
    """The cards of the other seat's hand that were never shown on the table."""
    state = game_state(game)
    assert state.log is not None
    shown = public_cards(state.log, len(state.log))
    return {card for card in hand_of(state, 1 - seat).hand if card not in shown}


def _play_one(
    owner_api: APIClient, seed: int, check_leaks: bool, committed: Callable[..., Any]
) -> None:
    # The guests all come from one address: a fresh throttle count per game, as for one guest.
    cache.clear()
    rng = random.Random(seed)
    table = create_table(owner_api, {"kind": "invite"}, seed=seed, exhaustion=True)
    uid = table["id"]
    clients = [owner_api, join_as_guest(uid, table["invite_code"], f"Guest {seed}")]
    view = clients[0].get(f"/api/v1/games/{uid}/").json()
    for step in range(2000):
        if view["status"] == "finished":
            break
        active = "AB".index(view["state"]["active"])
        client = clients[active]
        legal = view["state"]["legal_actions"]
        if view["seat"] != view["state"]["active"]:
            actions = client.get(f"/api/v1/games/{uid}/actions/")
            assert actions.status_code == 200
            legal = actions.json()
        action = rng.choice(legal)
        # Each request commits as it would outside the test's transaction, so the position
        # cache fills as in production (it is filled on commit).
        with committed(execute=True):
            response = client.post(
                f"/api/v1/games/{uid}/act/?events_from={rng.randrange(5)}",
                {"client_id": f"{seed}-{step}", **action},
                format="json",
            )
        assert response.status_code == 200, response.json()
        view = response.json()
        if check_leaks and view["status"] != "finished":
            game = Game.objects.get(uid=uid)
            for seat, seat_client in enumerate(clients):
                seen = seat_client.get(f"/api/v1/games/{uid}/").json()
                assert not _hidden_from(game, seat) & card_ids(seen)
    assert view["status"] == "finished"
    game = Game.objects.get(uid=uid)
    replay = clients[1].get(f"/api/v1/games/{uid}/replay/").json()
    final = play(parse(replay))
    assert [int(w) for w in game.winners] == list(final.outcome.winners() if final.outcome else [])
    assert replay["result"]["turns"] == game.turn == final.turn


@pytest.mark.django_db
@override_settings(PLAY_MAX_TURNS=40)
def test_the_bot_plays_fifty_games_through_the_api(
    olga_api: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    for seed in range(50):
        # The leak check reads both views after every action: on a tenth of the games.
        _play_one(olga_api, seed, seed % 10 == 0, django_capture_on_commit_callbacks)


@pytest.mark.slow
@pytest.mark.services
@pytest.mark.django_db
def test_the_bot_plays_two_hundred_games_through_the_api(
    olga_api: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    for seed in range(1000, 1200):
        _play_one(olga_api, seed, True, django_capture_on_commit_callbacks)
