"""The optional time per turn: the deadline of the seat to play in the API and on the page, and
a player out of time losing on time when anyone acts, claims it or the beat's sweep runs. A
fixed clock, moved by hand: no sleep."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from play.models import Game
from play.services import game_timeouts_apply
from play.tasks import apply_turn_timeouts

from .conftest import dealt, join_as_guest

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
ME = {"kind": "me", "deck": {"preconstructed": 1}}


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fixed = Clock()
    monkeypatch.setattr(timezone, "now", fixed)
    return fixed


def _duel(olga_api: APIClient, turn_seconds: int | None) -> tuple[str, dict[str, APIClient]]:
    """An invited Duel of seed 7 (the guest, B, plays first) with `turn_seconds` per turn."""
    body = {"format": "preconstructed", "seats": [ME, {"kind": "invite"}]}
    with dealt(7):
        created = olga_api.post(
            "/api/v1/games/", {**body, "turn_seconds": turn_seconds}, format="json"
        ).json()
    guest = join_as_guest(created["id"], created["invite_code"])
    return created["id"], {"A": olga_api, "B": guest}


def _view(client: APIClient, uid: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/v1/games/{uid}/").json()
    return data


def test_a_table_has_no_time_per_turn_by_default(olga_api: APIClient, clock: Clock) -> None:
    uid, _clients = _duel(olga_api, None)
    view = _view(olga_api, uid)
    assert (view["turn_seconds"], view["deadline"]) == (None, None)
    clock.now = START + timedelta(days=365)
    assert game_timeouts_apply() == 0
    refused = olga_api.post(f"/api/v1/games/{uid}/claim-time/")
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "time_left",
        "message": "The player to play still has time.",
        "details": {"deadline": None},
    }


def test_the_deadline_is_the_turn_start_plus_the_time_and_moves_with_the_turn(
    olga_api: APIClient, clock: Clock
) -> None:
    uid, clients = _duel(olga_api, 3600)
    view = _view(olga_api, uid)
    assert view["state"]["active"] == "B"
    assert (view["turn_seconds"], view["deadline"]) == (3600, "2026-03-02T10:30:00Z")
    summary = olga_api.get("/api/v1/games/").json()["results"][0]
    assert (summary["active"], summary["deadline"]) == ("B", "2026-03-02T10:30:00Z")
    # An action within the turn keeps its deadline; the next turn gets a new one.
    clock.now = START + timedelta(minutes=20)
    played = clients["B"].post(
        f"/api/v1/games/{uid}/act/", {"client_id": "b1", "kind": "assault"}, format="json"
    )
    assert played.json()["deadline"] == "2026-03-02T10:30:00Z"
    clock.now = START + timedelta(minutes=50)
    ended = (
        clients["B"]
        .post(f"/api/v1/games/{uid}/act/", {"client_id": "b2", "kind": "end_turn"}, format="json")
        .json()
    )
    assert (ended["state"]["active"], ended["deadline"]) == ("A", "2026-03-02T11:20:00Z")
    page = Client()
    page.force_login(Game.objects.get(uid=uid).created_by)
    html = page.get(f"/play/{uid}/").content.decode()
    assert (
        '<span class="play-deadline">A must play by '
        '<time datetime="2026-03-02T11:20:00+00:00">March 2, 2026, 11:20 a.m. UTC</time></span>'
    ) in html


def test_a_claim_before_the_deadline_is_refused_after_it_the_seat_loses_on_time(
    olga_api: APIClient, clock: Clock
) -> None:
    uid, clients = _duel(olga_api, 300)
    clock.now = START + timedelta(seconds=299)
    early = olga_api.post(f"/api/v1/games/{uid}/claim-time/")
    assert early.status_code == 409
    assert early.json()["details"] == {"deadline": "2026-03-02T09:35:00+00:00"}
    clock.now = START + timedelta(seconds=300)
    claimed = olga_api.post(f"/api/v1/games/{uid}/claim-time/")
    assert claimed.status_code == 200
    view = claimed.json()
    assert (view["status"], view["winners"], view["deadline"]) == ("finished", ["A"], None)
    assert [(seat["seat"], seat["timed_out"]) for seat in view["seats"]] == [
        ("A", False),
        ("B", True),
    ]
    # The game is a replay now; a second claim (the other player's, at the same time) gets
    # the same result.
    assert olga_api.get(f"/api/v1/games/{uid}/replay/").status_code == 200
    again = clients["B"].post(f"/api/v1/games/{uid}/claim-time/")
    assert (again.status_code, again.json()["winners"]) == (200, ["A"])


def test_acting_out_of_time_loses_on_time(olga_api: APIClient, clock: Clock) -> None:
    uid, clients = _duel(olga_api, 300)
    clock.now = START + timedelta(minutes=6)
    late = clients["B"].post(
        f"/api/v1/games/{uid}/act/", {"client_id": "late", "kind": "assault"}, format="json"
    )
    assert (late.status_code, late.json()["code"]) == (409, "game_over")
    game = Game.objects.get(uid=uid)
    assert (game.status, game.winners, game.action_count) == ("finished", [0], 0)


def test_the_sweep_ends_the_games_out_of_time_only(olga_api: APIClient, clock: Clock) -> None:
    short, _ = _duel(olga_api, 300)
    long, _ = _duel(olga_api, 86400)
    clock.now = START + timedelta(hours=2)
    # Reading a table out of time writes nothing: the view shows the past deadline.
    assert _view(olga_api, short)["deadline"] == "2026-03-02T09:35:00Z"
    assert Game.objects.get(uid=short).status == "playing"
    assert apply_turn_timeouts() == 1
    assert Game.objects.get(uid=short).status == "finished"
    assert Game.objects.get(uid=long).status == "playing"
    clock.now = START + timedelta(days=1)
    assert game_timeouts_apply() == 1
    assert Game.objects.get(uid=long).winners == [0]
    assert game_timeouts_apply() == 0


def test_the_page_offers_the_claim_once_the_time_is_out(olga_api: APIClient, clock: Clock) -> None:
    uid, _clients = _duel(olga_api, 300)
    page = Client()
    page.force_login(Game.objects.get(uid=uid).created_by)
    assert 'value="claim_time"' not in page.get(f"/play/{uid}/").content.decode()
    clock.now = START + timedelta(minutes=5)
    assert 'value="claim_time"' in page.get(f"/play/{uid}/").content.decode()
    response = page.post(f"/play/{uid}/act/", {"client_id": "c1", "kind": "claim_time"})
    assert response.status_code == 302
    assert Game.objects.get(uid=uid).winners == [0]


def test_an_unknown_time_per_turn_is_refused(olga_api: APIClient) -> None:
    body = {"format": "preconstructed", "seats": [ME, {"kind": "invite"}], "turn_seconds": 61}
    response = olga_api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400
