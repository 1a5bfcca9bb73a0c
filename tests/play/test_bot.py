"""A bot plays whole games through the API with random legal actions, in every mode, every
players' seat its own client (the creator's account, invited guests in the others; Solo's and
Co-op's AI seats play inside the engine): no 5xx, every game ends, the replay recomputes the
result. What each seat may see is `test_hidden`'s check."""

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from engine.rules.game import Game as EngineGame
from engine.rules.replay import parse, play
from play import services
from play.models import Game

from .conftest import Decks, dealt, join_as_guest

MODES = ["duel", "solo", "free_for_all", "teams", "coop"]
# The players' seats of each mode (the others are Solo's and Co-op's AI).
PLAYERS = {"duel": 2, "solo": 1, "free_for_all": 4, "teams": 4, "coop": 2}


def _open(owner_api: APIClient, mode: str, seed: int, decks: Decks) -> tuple[str, dict[str, Any]]:
    """A table of `mode` with an invited guest in every players' seat but the creator's; its id
    and the client of each players' seat, by letter."""
    coop = mode == "coop"
    me = {"kind": "me", "deck": {"deck": decks.saved} if coop else {"preconstructed": 1 + seed % 4}}
    body = {
        "mode": mode,
        "format": "constructed" if coop else "preconstructed",
        "seats": [me, *[{"kind": "invite"}] * (PLAYERS[mode] - 1)],
        "exhaustion": seed % 2 == 0,
    }
    with dealt(seed):
        response = owner_api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    table = response.json()
    letters = [seat["seat"] for seat in table["seats"] if seat["kind"] == "player"]
    clients = {letters[0]: owner_api}
    for number, letter in enumerate(letters[1:], 1):
        deck = {"code": decks.code} if coop else {"preconstructed": 1 + (seed + number) % 4}
        clients[letter] = join_as_guest(table["id"], table["invite_code"], f"Guest {number}", deck)
    return table["id"], clients


def _play_one(
    owner_api: APIClient,
    mode: str,
    seed: int,
    decks: Decks,
    committed: Callable[..., Any],
) -> None:
    # The guests all come from one address: a fresh throttle count per game, as for one guest.
    cache.clear()
    rng = random.Random(seed)
    uid, clients = _open(owner_api, mode, seed, decks)
    view = owner_api.get(f"/api/v1/games/{uid}/").json()
    for step in range(3000):
        if view["status"] == "finished":
            break
        active = view["state"]["active"]
        client = clients[active]
        legal = view["state"]["legal_actions"]
        if view["seat"] != active:
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
    assert view["status"] == "finished"
    game = Game.objects.get(uid=uid)
    replay = clients[max(clients)].get(f"/api/v1/games/{uid}/replay/").json()
    final = play(parse(replay))
    assert [int(w) for w in game.winners] == list(final.outcome.winners() if final.outcome else [])
    assert replay["result"]["turns"] == game.turn == final.turn


@pytest.mark.django_db
def test_the_bot_plays_thirty_games_in_every_mode_through_the_api(
    olga_api: APIClient,
    coop_decks: Decks,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # Games of at most 30 turns: the tables' games end at a shorter turn limit than their modes'.
    monkeypatch.setattr(services, "EngineGame", partial(EngineGame, turn_limit=30))
    # Six games of each mode, within a minute; the slow test plays the two hundred.
    for seed in range(30):
        mode = MODES[seed % len(MODES)]
        _play_one(olga_api, mode, seed, coop_decks, django_capture_on_commit_callbacks)


@pytest.mark.slow
@pytest.mark.services
@pytest.mark.django_db
def test_the_bot_plays_two_hundred_games_in_every_mode_through_the_api(
    olga_api: APIClient, coop_decks: Decks, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    for seed in range(1000, 1200):
        mode = MODES[seed % len(MODES)]
        _play_one(olga_api, mode, seed, coop_decks, django_capture_on_commit_callbacks)
