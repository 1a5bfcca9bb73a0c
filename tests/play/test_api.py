"""The games API: tables, seats, actions and their refusals, concede and replay."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.rules.replay import parse, play
from play.models import Game, GameAction
from play.position_selectors import positions

from .conftest import create_table, dealt, join_as_guest

pytestmark = pytest.mark.django_db


def _view(client: APIClient, uid: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{uid}/")
    assert response.status_code == 200, response.json()
    data: dict[str, Any] = response.json()
    return data


def _invite_table(olga_api: APIClient, seed: int = 7) -> tuple[str, APIClient]:
    """A Duel against an invited guest, of the deal of `seed` (drawn by the server: `dealt`)."""
    with dealt(seed):
        table = create_table(olga_api, {"kind": "invite"})
    assert table["status"] == "waiting"
    return table["id"], join_as_guest(table["id"], table["invite_code"])


def test_a_table_against_the_computer_starts_at_once(olga_api: APIClient) -> None:
    table = create_table(olga_api, {"kind": "agent", "agent": "greedy"}, seed=11)
    assert table["status"] == "playing"
    assert [seat["kind"] for seat in table["seats"]] == ["player", "agent"]
    view = _view(olga_api, table["id"])
    state = view["state"]
    # The computer played its turn first if it had it: it is my turn now.
    assert state["active"] == "A"
    assert state["legal_actions"][0] == {"kind": "assault", "card": -1, "arg": -1}
    me, computer = state["players"]
    assert len(me["hand"]) == me["hand_count"] > 0
    assert computer["hand"] is None
    assert computer["hand_count"] > 0


def test_out_of_turn_is_409_and_an_illegal_action_400_with_its_rule(olga_api: APIClient) -> None:
    uid, guest = _invite_table(olga_api)
    active = _view(olga_api, uid)["state"]["active"]
    waiting, playing = (guest, olga_api) if active == "A" else (olga_api, guest)
    refused = waiting.post(
        f"/api/v1/games/{uid}/act/", {"client_id": "x1", "kind": "assault"}, format="json"
    )
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_your_turn"
    # A card id of the other deck: not in my hand.
    mine = _view(playing, uid)["state"]
    other_deck_card = next(
        card_id
        for card_id in range(40)
        if card_id not in [card["id"] for card in mine["players"]["AB".index(active)]["hand"]]
    )
    illegal = playing.post(
        f"/api/v1/games/{uid}/act/",
        {"client_id": "x2", "kind": "play", "card": other_deck_card, "arg": 0},
        format="json",
    )
    assert illegal.status_code == 400
    body = illegal.json()
    assert body["code"] == "illegal_action"
    # The other deck's card by the id asked for: its name would tell what the other hand holds.
    assert body["message"] == f"Illegal action: card {other_deck_card} is not in your hand."
    assert body["details"] == {
        "rule_id": "phase-2-summoning",
        "refusal": "not_in_hand",
        "card": other_deck_card,
    }


def test_the_same_client_id_plays_once(olga_api: APIClient) -> None:
    uid, guest = _invite_table(olga_api)
    active = _view(olga_api, uid)["state"]["active"]
    playing = olga_api if active == "A" else guest
    for _ in range(2):
        response = playing.post(
            f"/api/v1/games/{uid}/act/", {"client_id": "once", "kind": "assault"}, format="json"
        )
        assert response.status_code == 200
    assert GameAction.objects.filter(game__uid=uid).count() == 1
    assert response.json()["state"]["phase"] == "assault_done"


def test_only_the_players_see_a_game(olga_api: APIClient, other: Any) -> None:
    uid, _guest = _invite_table(olga_api)
    stranger = APIClient()
    stranger.force_authenticate(other)
    assert stranger.get(f"/api/v1/games/{uid}/").json()["code"] == "not_seated"
    forged = APIClient()
    forged.credentials(HTTP_X_SEAT_TOKEN="not-a-token")
    assert forged.get(f"/api/v1/games/{uid}/").status_code == 403


def test_a_full_table_and_a_bad_invite_are_refused(olga_api: APIClient) -> None:
    table = create_table(olga_api, {"kind": "invite"})
    bad = APIClient().post(
        f"/api/v1/games/{table['id']}/join/",
        {"invite_code": "wrong", "guest_name": "Eve", "deck": {"preconstructed": 3}},
        format="json",
    )
    assert (bad.status_code, bad.json()["code"]) == (403, "bad_invite")
    join_as_guest(table["id"], table["invite_code"])
    full = APIClient().post(
        f"/api/v1/games/{table['id']}/join/",
        {"invite_code": table["invite_code"], "guest_name": "Eve", "deck": {"preconstructed": 3}},
        format="json",
    )
    assert (full.status_code, full.json()["code"]) == (409, "table_full")


def test_concede_ends_the_game_and_opens_its_replay(olga_api: APIClient) -> None:
    uid, guest = _invite_table(olga_api)
    assert olga_api.get(f"/api/v1/games/{uid}/replay/").json()["code"] == "not_finished"
    active = _view(olga_api, uid)["state"]["active"]
    playing = olga_api if active == "A" else guest
    playing.post(f"/api/v1/games/{uid}/act/", {"client_id": "a", "kind": "end_turn"}, format="json")
    conceded = guest.post(f"/api/v1/games/{uid}/concede/")
    assert conceded.status_code == 200
    assert conceded.json()["winners"] == ["A"]
    assert conceded.json()["status"] == "finished"
    replay = guest.get(f"/api/v1/games/{uid}/replay/").json()
    assert replay["actions"] == ["end_turn"]
    assert play(parse(replay)).turn == 2
    # Once over, every hand shows.
    assert _view(olga_api, uid)["state"]["players"][1]["hand"] is not None


def test_a_changed_engine_refuses_to_resume(olga_api: APIClient) -> None:
    uid, _guest = _invite_table(olga_api)
    Game.objects.filter(uid=uid).update(engine_digest="0" * 64)
    response = olga_api.get(f"/api/v1/games/{uid}/")
    assert (response.status_code, response.json()["code"]) == (409, "engine_changed")


def test_wrong_seats_and_formats_are_400(olga_api: APIClient) -> None:
    response = olga_api.post(
        "/api/v1/games/",
        {"format": "preconstructed", "seats": [{"kind": "me", "deck": {"preconstructed": 1}}]},
        format="json",
    )
    assert response.json()["code"] == "wrong_seats"
    response = olga_api.post(
        "/api/v1/games/",
        {
            "format": "constructed",
            "seats": [{"kind": "me", "deck": {"preconstructed": 1}}, {"kind": "invite"}],
        },
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "wrong_format")
    too_many = olga_api.post(
        "/api/v1/games/",
        {"format": "preconstructed", "seats": [{"kind": "invite"}] * 5},
        format="json",
    )
    assert too_many.json()["code"] == "too_many"


def test_a_restarted_server_resumes_the_game_exactly(
    olga_api: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    table = create_table(olga_api, {"kind": "agent", "agent": "random"}, seed=21)
    uid = table["id"]
    for step in range(6):
        view = _view(olga_api, uid)
        action = view["state"]["legal_actions"][-1]
        # Committed: this process keeps the position in memory, as a running server does.
        with django_capture_on_commit_callbacks(execute=True):
            olga_api.post(
                f"/api/v1/games/{uid}/act/", {"client_id": f"s{step}", **action}, format="json"
            )
    game = Game.objects.get(uid=uid)
    assert positions.get(game) is not None
    before = _view(olga_api, uid)
    # A new process: nothing in memory, the position replayed from the stored actions.
    positions.states.clear()
    after = _view(olga_api, uid)
    assert after == before
    assert before["action_count"] == GameAction.objects.filter(game__uid=uid).count() > 6


def test_client_ids_are_each_seats_own(olga_api: APIClient) -> None:
    uid, guest = _invite_table(olga_api, seed=3)
    clients = {"A": olga_api, "B": guest}
    for _ in range(2):
        active = _view(olga_api, uid)["state"]["active"]
        # Both clients number their actions from 1: the second is no repeat of the first.
        response = clients[active].post(
            f"/api/v1/games/{uid}/act/", {"client_id": "1", "kind": "end_turn"}, format="json"
        )
        assert response.status_code == 200
    assert list(GameAction.objects.filter(game__uid=uid).values_list("client_id", flat=True)) == [
        "1",
        "1",
    ]


def test_a_table_closed_while_waiting_shows_no_position(olga_api: APIClient, owner: Any) -> None:
    table = create_table(olga_api, {"kind": "invite"})
    view = olga_api.post(f"/api/v1/games/{table['id']}/concede/").json()
    assert (view["status"], view["winners"], view["state"]) == ("finished", ["B"], None)
    olga = Client()
    olga.force_login(owner)
    page = olga.get(f"/play/{table['id']}/")
    assert page.status_code == 200
    assert "Game over: B wins." in page.content.decode()
