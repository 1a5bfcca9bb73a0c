"""Draft batches: POST /api/v1/simulations/ with `format: draft` drafts each game's decks from an
expansion (the Draft format), then plays them; results as for other batches."""

from typing import Any

import pytest
from django.test import Client

from engine import selectors, services, simulation
from engine.models import SimulationBatch
from engine.rules.cards import load_catalogue
from engine.rules.drafters import DRAFTERS, PriceDrafter, run_draft
from engine.rules.drafts import catalogue_pool
from tests.simulations.conftest import InlineExecutor, post_batch

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"


def _draft(**changes: Any) -> dict[str, Any]:
    return {"format": "draft", "pool": "initiation", "games": 12, "seed": 5, **changes}


def test_a_draft_batch_drafts_each_game_then_plays_it(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    response = post_batch(
        owner_client, _draft(agent_b="random"), django_capture_on_commit_callbacks
    )
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    detail = owner_client.get(response.json()["url"]).json()
    assert detail["status"] == "done"
    assert (detail["draft_expansion"], detail["mode"], detail["games"]) == (
        "initiation",
        "duel",
        12,
    )
    assert detail["seats"] == [
        {
            "source": "draft",
            "deck": None,
            "code": "",
            "name": "Drafted (card worth)",
            "agent": agent,
            "drafter": "price",
        }
        for agent in ("greedy", "random")
    ]
    assert len(batch.draft_pool) == 32 and len(batch.draft_slugs) == 32

    spec = selectors.batch_spec(batch)
    # Game 0: deck A drafts from seat A (first pick); game 1: deck A sits in seat B.
    pool = spec.draft.pool if spec.draft else ()
    game_0 = run_draft(
        "duel",
        pool,
        simulation.derived_seed(5, 0, -1),
        [PriceDrafter(simulation.derived_seed(5, 0, -2 - deck)) for deck in (0, 1)],
    )
    assert spec.seating(0) == list(game_0.decks)
    seat_b, seat_a = spec.seating(1)
    assert len({card.name for card in seat_a + seat_b}) == 16
    assert spec.seating(1) == spec.seating(1)
    assert spec.seating(1) != spec.seating(0)

    expected = simulation.summarise(
        simulation.play_games(spec, 0, 12), selectors.batch_card_names(batch)
    )
    results = detail["results"]
    assert [seat["wins"]["wins"] for seat in results["seats"]] == [
        deck.wins.hits for deck in expected.decks
    ]
    assert results["draws"] == expected.draws
    # Each drafter has a row for every card of the pool, drafted or not.
    names = [card["name"] for card in results["seats"][0]["cards"]]
    assert sorted(names) == sorted(card.name for card in catalogue_pool(load_catalogue(), "00"))
    played = sum(card["games_played"] for card in results["seats"][0]["cards"])
    assert played == sum(row.games_played for row in expected.decks[0].cards)


def test_a_draft_game_replays(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    body = _draft(games=4, drafter="simulated", pool="00")
    batch_id = post_batch(owner_client, body, django_capture_on_commit_callbacks).json()["id"]
    batch = SimulationBatch.objects.get(pk=batch_id)
    assert (batch.chunk_size, batch.draft_expansion) == (10, "initiation")
    # A big batch's chunks shrink by the cost of the simulated drafter's games.
    big = [services.chunk_size_for(100_000, ["greedy", "greedy"], drafter) for drafter in DRAFTERS]
    assert big == [1000, 33]
    data = owner_client.get(f"{URL}{batch_id}/games/1/replay/").json()
    outcome = simulation.play_game(selectors.batch_spec(batch), 1)
    assert (data["deck_a_seat"], data["turns"]) == ("B", outcome.turns)
    seating = selectors.batch_spec(batch).seating(1)
    assert [[card["name"] for card in deck] for deck in data["replay"]["decks"]] == [
        [card.name for card in deck] for deck in seating
    ]
    page = owner_client.get(f"/simulations/{batch_id}/")
    assert page.status_code == 200
    assert '<dt>Draft pool</dt><dd><a href="/sets/initiation/">initiation</a>' in (
        page.content.decode()
    )
    assert owner_client.get(f"/simulations/{batch_id}/games/1/").status_code == 200


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"pool": None}, {"code": "invalid", "field": "pool"}),
        ({"deck_a": {"preconstructed": 1}}, {"code": "invalid", "field": "deck_a"}),
        ({"drafter": "genius"}, {"code": "invalid", "field": "drafter"}),
        ({"format": "sealed"}, {"code": "invalid", "field": "format"}),
        ({"format": "decks", "deck_a": {"preconstructed": 1}, "deck_b": {"preconstructed": 2}},
         {"code": "invalid", "field": "pool"}),
        ({"pool": "nowhere"}, {"code": "unknown_pool", "field": "pool"}),
        ({"champions": True}, {"code": "champions_in_draft", "field": "champions"}),
    ],
)  # fmt: skip
def test_bad_draft_requests_are_400s_that_queue_nothing(
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
    changes: dict[str, Any],
    error: dict[str, str],
) -> None:
    body = {key: value for key, value in _draft(**changes).items() if value is not None}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 400, response.content
    data = response.json()
    assert data["code"] == error["code"]
    field = data["details"].get("field") or next(iter(data["details"]))
    assert field == error["field"]
    assert not SimulationBatch.objects.exists()


def test_an_unknown_pool_is_named(
    owner_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    response = post_batch(owner_client, _draft(pool="nowhere"), django_capture_on_commit_callbacks)
    assert response.json() == {
        "code": "unknown_pool",
        "message": "There is no expansion “nowhere” to draft from.",
        "details": {"field": "pool", "pool": "nowhere"},
    }
