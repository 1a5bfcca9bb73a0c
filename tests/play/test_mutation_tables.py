"""Mutation tables: each player plays the deck they chose in a Mutation session they hold a
seat in (its mutations applied, as `mutation.selectors` gives it); anyone else is refused."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from mutation.models import MutationSession
from mutation.models import Seat as MutationSeat
from mutation.selectors import seat_deck_definitions
from play.models import Seat
from tests.mutation.conftest import (
    DECK_1,
    LAB_1,
    choose_all_decks,
    fast_draft,
    new_session,
)

from .conftest import dealt

pytestmark = pytest.mark.django_db

COMPUTER = {"kind": "agent", "agent": "greedy"}


@pytest.fixture
def session(cards_db: None, owner: Any, players: list[Any]) -> MutationSession:
    """Olga holds seat 1 (DECK_1 chosen), Bo seat 2 (deck chosen); seat 3 has no deck yet."""
    session = new_session(players[0])
    pools = fast_draft(session, {1: DECK_1 + LAB_1})
    choose_all_decks(session, {number: pools[number] for number in (1, 2)})
    MutationSeat.objects.filter(session=session, number=1).update(user=owner)
    MutationSeat.objects.filter(session=session, number=2).update(user=players[1])
    MutationSeat.objects.filter(session=session, number=3).update(user=players[2])
    return session


def _create(client: APIClient, me: dict[str, Any], other: dict[str, Any] = COMPUTER) -> Any:
    body = {"format": "mutation", "seats": [{"kind": "me", **me}, other]}
    with dealt(4):
        return client.post("/api/v1/games/", body, format="json")


def test_my_mutation_deck_plays_at_the_table(olga_api: APIClient, session: MutationSession) -> None:
    response = _create(olga_api, {"mutation_session": session.pk})
    assert response.status_code == 201, response.json()
    table = response.json()
    assert (table["status"], table["format"]) == ("playing", "mutation")
    mine, computer = Seat.objects.filter(game__uid=table["id"]).order_by("index")
    seat_1 = MutationSeat.objects.get(session=session, number=1)
    assert mine.deck_name == "Mutation: Friday session"
    assert mine.cards == seat_deck_definitions(seat_1)
    assert mine.slugs == DECK_1
    assert computer.deck_name == "Preconstructed deck 3"
    view = olga_api.get(f"/api/v1/games/{table['id']}/").json()
    hand = {card["name"] for card in view["state"]["players"][0]["hand"]}
    assert hand == {card["name"] for card in seat_deck_definitions(seat_1)}


def test_another_player_joins_with_their_own_deck(
    olga_api: APIClient, session: MutationSession, players: list[Any]
) -> None:
    table = _create(olga_api, {"mutation_session": session.pk}, {"kind": "invite"}).json()
    bo = APIClient()
    bo.force_authenticate(players[1])
    joined = bo.post(
        f"/api/v1/games/{table['id']}/join/",
        {"invite_code": table["invite_code"], "mutation_session": session.pk},
        format="json",
    )
    assert joined.status_code == 200, joined.json()
    seats = Seat.objects.filter(game__uid=table["id"]).order_by("index")
    seat_2 = MutationSeat.objects.get(session=session, number=2)
    assert seats[1].cards == seat_deck_definitions(seat_2)
    assert seats[0].game.status == "playing"


@pytest.mark.parametrize(
    ("who", "me", "error"),
    [
        (
            "other",
            {"mutation_session": "pk"},
            {"code": "unknown_mutation_session", "side": "a", "field": "mutation_session"},
        ),
        # The organiser sees every deck but holds no seat: none to play.
        (
            "organiser",
            {"mutation_session": "pk"},
            {"code": "unknown_mutation_session", "side": "a", "field": "mutation_session"},
        ),
        (
            "cy",
            {"mutation_session": "pk"},
            {"code": "mutation_deck_not_ready", "side": "a", "field": "mutation_session"},
        ),
        (
            "owner",
            {},
            {"code": "mutation_session_required", "side": "a", "field": "mutation_session"},
        ),
        (
            "owner",
            {"mutation_session": "pk", "deck": {"preconstructed": 1}},
            {"code": "wrong_format", "side": "a", "field": None},
        ),
    ],
)
def test_who_may_not_play_a_session_s_deck(
    session: MutationSession,
    owner: Any,
    other: Any,
    players: list[Any],
    who: str,
    me: dict[str, Any],
    error: dict[str, Any],
) -> None:
    users = {"owner": owner, "other": other, "organiser": players[0], "cy": players[2]}
    client = APIClient()
    client.force_authenticate(users[who])
    if "mutation_session" in me:
        me = {**me, "mutation_session": session.pk}
    response = _create(client, me)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == error["code"]
    assert body["details"]["side"] == error["side"]
    assert body["details"].get("field") == error["field"]


def test_a_session_s_deck_only_at_a_mutation_table(
    olga_api: APIClient, session: MutationSession
) -> None:
    body = {
        "format": "preconstructed",
        "seats": [
            {"kind": "me", "deck": {"preconstructed": 1}, "mutation_session": session.pk},
            COMPUTER,
        ],
    }
    response = olga_api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["details"] == {
        "side": "a",
        "format": "preconstructed",
        "field": "mutation_session",
    }


def test_the_new_table_form_offers_my_sessions(
    cards_db: None, owner: Any, session: MutationSession
) -> None:
    client = Client()
    client.force_login(owner)
    page = client.get("/play/new/").content.decode()
    assert '<option value="mutation">Mutation decks</option>' in page
    assert f'<option value="{session.pk}">Friday session</option>' in page
    response = client.post(
        "/play/new/",
        {"format": "mutation", "mutation_session": str(session.pk), "opponent": "agent:greedy"},
    )
    assert response.status_code == 302
    seat = Seat.objects.get(index=0)
    assert seat.slugs == DECK_1
