"""The Champion module in Solo test games: Custom Play's "champion" parameter with the player's
deck's Champion (POST /api/v1/simulations/ with `mode: solo`, `champions: true`)."""

from typing import Any

import pytest
from django.test import Client

from champions import services as champion_services
from decks.models import Deck
from engine import selectors
from engine.models import DifficultyLevel, DifficultyParameter, SimulationBatch
from engine.simulation import play_game, replay_game
from tests.champions.conftest import design
from tests.decks.conftest import PRECON
from tests.simulations.conftest import InlineExecutor, make_deck

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"


@pytest.fixture
def champion_deck(owner: Any) -> Deck:
    deck = make_deck(owner, PRECON[1], name="Solo deck", fmt="preconstructed")
    champion = champion_services.champion_create(owner=owner, design=design())
    Deck.objects.filter(pk=deck.pk).update(champion=champion)
    deck.refresh_from_db()
    return deck


def _body(deck: Deck, **changes: Any) -> dict[str, Any]:
    return {
        "mode": "solo",
        "seats": [{"deck": deck.share_id, "agent": "greedy"}],
        "champions": True,
        "ai": {"champion": True},
        "games": 6,
        "seed": 3,
        **changes,
    }


def test_the_player_plays_its_champion_against_the_custom_play_ai(
    owner_client: Client,
    champion_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(URL, _body(champion_deck), content_type="application/json")
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    assert (batch.champions, batch.ai["champion"], batch.status) == (True, True, "done")
    spec = selectors.batch_spec(batch)
    player_champion, ai_champion = spec.seat_champions(0) or (None, None)
    assert ai_champion is None
    player_seat, ai_seat = selectors.batch_seats(batch)
    assert (player_seat.champion is not None, ai_seat.champion) == (True, None)
    assert player_champion is not None and player_champion.name == player_seat.champion["name"]
    game = replay_game(spec, 0)
    assert game.outcome == play_game(spec, 0)
    champion = game.frames[0].players.seats[0].champion
    assert champion is not None and champion.name == player_champion.name
    assert game.frames[0].players.seats[1].champion is None
    assert sum(batch.totals["ends"].values()) == 6


def test_a_level_with_the_champion_parameter_takes_the_champion(
    owner_client: Client,
    champion_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    DifficultyLevel.objects.get(level=2).parameters.add(
        DifficultyParameter.objects.get(code="champion")
    )
    body = _body(champion_deck, ai={"level": 2})
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(URL, body, content_type="application/json")
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    assert (batch.ai_level, batch.ai["champion"], batch.status) == (2, True, "done")


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"ai": {}}, "champions"), ({"champions": False}, "ai")],
)
def test_the_champion_and_the_ai_parameter_go_together(
    owner_client: Client, champion_deck: Deck, changes: dict[str, Any], field: str
) -> None:
    body = _body(champion_deck, **changes)
    response = owner_client.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["details"]) == (
        "champions_in_solo", {"field": field},
    )  # fmt: skip
    assert not SimulationBatch.objects.exists()
