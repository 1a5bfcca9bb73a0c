"""Tables of the play app: the catalogue in the database, an API client per player, a known
deal, and the decks some tables need (Co-op's Constructed decks, a deck with a Champion)."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cards.models import Card
from champions import services as champion_services
from champions.models import Champion
from decks.models import Deck
from decks.selectors.codes import deck_code_for
from decks.selectors.formats import format_get
from engine.adapters.decks import DeckChoice
from play.models import Game
from play.table_services import SeatRequest, game_create
from tests.champions.conftest import design
from tests.decks.conftest import CONSTRUCTED, PRECON
from tests.mutation.conftest import players  # noqa: F401 (the Mutation tables' players)
from tests.simulations.conftest import make_deck
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

# PLAY_STREAM_SECONDS of a stream a test reads the first events of: they come however slow the
# machine. A stream lives 60-100% of it, drawn: of 1 s, its first update was not sent when the
# first read took longer; of 5 s, it ended before the news of a join or a pick.
LASTING = 600


# The name of Olga's private Champion (`secret`).
CHAMPION_NAME = "Åsa the Bold"


@dataclass(frozen=True)
class Decks:
    """Co-op's decks: the AI takes 48 cards of the players' expansions that neither deck holds,
    more than preconstructed decks leave in the test catalogue, so its players bring
    Constructed decks: the creator a saved one, the guest a deck code."""

    saved: str
    code: str


@pytest.fixture
def coop_decks(cards_db: None, owner: Any) -> Decks:
    code = deck_code_for(
        format=format_get(slug="constructed"),
        cards=list(Card.objects.filter(slug__in=PRECON[2])),
        champion=None,
    )
    return Decks(make_deck(owner, CONSTRUCTED, name="Mixed").share_id, code)


@pytest.fixture
def secret(owner: Any) -> Champion:
    """Olga's private Champion."""
    return champion_services.champion_create(owner=owner, design=design())


@pytest.fixture
def champion_deck(cards_db: None, owner: Any, secret: Champion) -> Deck:
    """Olga's public Constructed deck (preconstructed deck 1's cards) with her Champion."""
    deck = make_deck(owner, PRECON[1], name="Olga's deck 1")
    Deck.objects.filter(pk=deck.pk).update(champion=secret, visibility="public")
    deck.refresh_from_db()
    return deck


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


@contextmanager
def dealt(seed: int) -> Iterator[None]:
    """The server draws `seed` for the tables opened meanwhile: a known deal for a test's
    table, one with an invited player too (no one at such a table may choose its seed)."""
    with mock.patch("play.table_services.new_seed", return_value=seed):
        yield


def seeded_table(creator: User, opponent: SeatRequest = GREEDY) -> Game:
    """A table with a known deal (seed 8, drawn by the server: `dealt`): the creator's
    preconstructed deck 1 against `opponent`."""
    with dealt(8):
        return game_create(
            creator=creator,
            format="preconstructed",
            seats=[SeatRequest(kind="me", deck=DeckChoice(preconstructed=1)), opponent],
        )


@pytest.fixture
def chaos_computer_inline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer seat of a Duel of Chaos table decides as soon as its task is sent, in the
    test's transaction (the registered task's body, called): for tests of the game, not of when
    the computer plays (`tests/play/test_chaos_tables.py` tests that)."""
    from celery import current_app

    from play import chaos_services

    def run(name: str, /, **kwargs: Any) -> None:
        current_app.tasks[name](**kwargs)

    monkeypatch.setattr(chaos_services, "task_send", run)
