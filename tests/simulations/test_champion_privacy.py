"""A private Champion never reaches another player through test games (issue 12, fault 1).

Olga attaches her private Champion to her public deck. Oscar tests that deck with the Champion
module on: it plays without a Champion, and neither the batch, its results, its replays nor its
pages hold a trace of it. Olga's own batches still play it.
"""

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from champions import services as champion_services
from champions.models import Champion
from decks.models import Deck
from decks.selectors.checks import deck_check
from decks.selectors.codes import deck_decode
from engine.models import SimulationBatch, Status
from tests.champions.conftest import design
from tests.decks.conftest import PRECON

pytestmark = pytest.mark.usefixtures("cards_db", "inline_chunks")

URL = "/api/v1/simulations/"
NAME = "Åsa the Bold"
BODY = {
    "deck_a": {"deck": ""},
    "deck_b": {"preconstructed": 1},
    "games": 4,
    "seed": 5,
    "champions": True,
}


@pytest.fixture
def secret(owner: Any) -> Champion:
    return champion_services.champion_create(owner=owner, design=design())


@pytest.fixture
def public_deck(precon_deck: Deck, secret: Champion) -> Deck:
    Deck.objects.filter(pk=precon_deck.pk).update(champion=secret, visibility="public")
    precon_deck.refresh_from_db()
    return precon_deck


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


Played = Callable[[Client], tuple[SimulationBatch, dict[str, Any]]]


@pytest.fixture
def played(public_deck: Deck, django_capture_on_commit_callbacks: Any) -> Played:
    """A client's 4-game batch of Olga's deck with the Champion module, played to the end: the
    batch and the API's answer to its creation."""

    def play(client: Client) -> tuple[SimulationBatch, dict[str, Any]]:
        body = {**BODY, "deck_a": {"deck": public_deck.share_id}}
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(URL, body, content_type="application/json")
        assert response.status_code == 202
        return SimulationBatch.objects.get(pk=response.json()["id"]), response.json()

    return play


def _assert_no_trace(text: str, champion: Champion) -> None:
    assert "Åsa" not in text
    assert champion.uid not in text


def test_another_player_tests_the_deck_without_its_hidden_champion(
    other: Any, public_deck: Deck, secret: Champion, played: Played
) -> None:
    oscar = _client(other)
    batch, created = played(oscar)
    _assert_no_trace(json.dumps(created), secret)
    # The batch stores no trace of it: no definition, and a deck code without it.
    seat_a, seat_b = batch.seats.all()
    assert seat_a.champion is None
    assert seat_b.champion is None
    assert batch.champions is True
    assert seat_a.code == deck_check(format="constructed", cards=PRECON[1]).code
    assert deck_decode(seat_a.code).champion is None
    _assert_no_trace(json.dumps(list(batch.seats.values())), secret)
    detail = oscar.get(f"{URL}{batch.pk}/")
    assert detail.json()["status"] == Status.DONE
    assert [card["name"] for card in detail.json()["results"]["deck_a"]["cards"]] == [
        card["name"] for card in seat_a.cards
    ]
    _assert_no_trace(detail.content.decode(), secret)
    for index in range(4):
        replay = oscar.get(f"{URL}{batch.pk}/games/{index}/replay/")
        assert replay.status_code == 200
        assert replay.json()["replay"]["champions"] == [None, None]
        _assert_no_trace(replay.content.decode(), secret)
        page = oscar.get(f"/simulations/{batch.pk}/games/{index}/?turn=1")
        assert page.status_code == 200
        _assert_no_trace(page.content.decode(), secret)
    _assert_no_trace(oscar.get(f"/simulations/{batch.pk}/").content.decode(), secret)
    _assert_no_trace(oscar.get("/simulations/").content.decode(), secret)
    form = oscar.get(f"/simulations/new/?deck={public_deck.share_id}")
    assert form.status_code == 200
    _assert_no_trace(form.content.decode(), secret)


def test_the_owner_still_plays_her_champion(owner: Any, secret: Champion, played: Played) -> None:
    olga = _client(owner)
    batch, _created = played(olga)
    seat_a = batch.seats.get(index=0)
    assert seat_a.champion["name"] == NAME
    assert deck_decode(seat_a.code).champion == secret.uid
    replay = olga.get(f"{URL}{batch.pk}/games/1/replay/").json()
    assert replay["replay"]["champions"][1]["name"] == NAME  # deck A sits in seat B
    assert replay["replay"]["champions"][0] is None


def test_a_public_champion_plays_for_everyone(
    owner: Any, other: Any, secret: Champion, played: Played
) -> None:
    champion_services.champion_update(
        champion=secret, actor=owner, design=design(visibility="public")
    )
    batch, _created = played(_client(other))
    seat_a = batch.seats.get(index=0)
    assert seat_a.champion["name"] == NAME
    assert deck_decode(seat_a.code).champion == secret.uid


def test_refused_requests_queue_nothing(
    other: Any, public_deck: Deck, secret: Champion, django_capture_on_commit_callbacks: Any
) -> None:
    body = {**BODY, "deck_a": {"deck": public_deck.share_id}}
    with django_capture_on_commit_callbacks(execute=True):
        anonymous = _client(None).post(URL, body, content_type="application/json")
    assert anonymous.status_code == 403
    # A deck code naming the Champion (Olga gave it away): refused exactly as an unknown one.
    code = deck_check(format="constructed", cards=PRECON[1], champion=secret.uid).code
    with django_capture_on_commit_callbacks(execute=True):
        refused = _client(other).post(
            URL, {**BODY, "deck_a": {"code": code}}, content_type="application/json"
        )
    assert refused.status_code == 400
    assert refused.json() == {
        "code": "unknown_champion",
        "message": f"There is no Champion “{secret.uid}” you can use.",
        "details": {"side": "a", "field": "champion", "champion": secret.uid},
    }
    assert SimulationBatch.objects.count() == 0


def test_a_batch_keeps_what_it_played_for_its_requester_only(
    owner: Any, other: Any, secret: Champion, played: Played, django_user_model: Any
) -> None:
    """Oscar tested the deck while its Champion was public; Olga then made it private. Oscar's
    batch is his record of games played: it keeps them; nobody else may open it."""
    champion_services.champion_update(
        champion=secret, actor=owner, design=design(visibility="public")
    )
    oscar = _client(other)
    batch, _created = played(oscar)
    champion_services.champion_update(champion=secret, actor=owner, design=design())
    replay = oscar.get(f"{URL}{batch.pk}/games/1/replay/").json()
    assert replay["replay"]["champions"][1]["name"] == NAME
    carol = _client(django_user_model.objects.create_user("carol", password="pw-carol-123456"))
    for url in (
        f"{URL}{batch.pk}/",
        f"{URL}{batch.pk}/games/1/replay/",
        f"/simulations/{batch.pk}/",
        f"/simulations/{batch.pk}/games/1/",
    ):
        response = carol.get(url)
        assert response.status_code == 404
        _assert_no_trace(response.content.decode(), secret)
    assert _client(owner).get(f"{URL}{batch.pk}/").status_code == 404
