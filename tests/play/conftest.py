"""Tables of the play app: the catalogue in the database and an API client per player."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from engine.adapters.decks import DeckChoice
from play.models import Game
from play.services import SeatRequest, game_create
from tests.mutation.conftest import players  # noqa: F401 (the Mutation tables' players)
from tests.support.asgi import AsgiLiveServer


@pytest.fixture(scope="session")
def live_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[AsgiLiveServer]:
    """The browser tests of live play run against the app under ASGI, as `make serve` serves
    it: their pages' streams wait in the event loop (`play.streams`)."""
    server = AsgiLiveServer()
    with django_db_blocker.unblock():
        server.start()
        yield server
        server.stop()


GREEDY = SeatRequest(kind="agent", agent="greedy", deck=DeckChoice(preconstructed=2))


@pytest.fixture
def olga_api(cards_db: None, owner: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def create_table(client: APIClient, opponent: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = {
        "format": "preconstructed",
        "seats": [{"kind": "me", "deck": {"preconstructed": 1}}, opponent],
        **extra,
    }
    response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    data: dict[str, Any] = response.json()
    return data


PRECONSTRUCTED_2 = {"preconstructed": 2}


def join_as_guest(
    uid: str, invite_code: str, name: str = "Gus", deck: dict[str, Any] | None = PRECONSTRUCTED_2
) -> APIClient:
    """A guest's client seated at the table (`deck` None: a Draft table's seat)."""
    guest = APIClient()
    body: dict[str, Any] = {"invite_code": invite_code, "guest_name": name}
    if deck is not None:
        body["deck"] = deck
    response = guest.post(f"/api/v1/games/{uid}/join/", body, format="json")
    assert response.status_code == 200, response.json()
    token = response.json()["seat_token"]
    assert len(token) == 32
    guest.credentials(HTTP_X_SEAT_TOKEN=token)
    return guest


def seeded_table(creator: User, opponent: SeatRequest = GREEDY) -> Game:
    """A table with a known deal (seed 8; the new-table form draws its seed): the creator's
    preconstructed deck 1 against `opponent`."""
    return game_create(
        creator=creator,
        format="preconstructed",
        seats=[SeatRequest(kind="me", deck=DeckChoice(preconstructed=1)), opponent],
        seed=8,
    )
