"""The Solo Draft as the set-up of Solo test games: POST /api/v1/simulations/ with `mode: solo`
and `format: draft`: each game the player's drafter drafts (reveal 4, keep 1, give 3 to the AI,
until 8 cards), then its agent plays against the automaton with the 24 cards it gave away."""

from typing import Any

import pytest
from django.test import Client

from engine import selectors
from engine.models import SimulationBatch
from engine.rules.drafters import PriceDrafter, run_draft
from engine.simulation import derived_seed, play_game
from tests.simulations.conftest import InlineExecutor, post_batch

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"
BODY = {"mode": "solo", "format": "draft", "pool": "initiation", "games": 12, "seed": 5}


def test_a_solo_draft_batch_drafts_then_plays_the_automaton(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    body = {**BODY, "ai": {"level": 2}}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    detail = owner_client.get(response.json()["url"]).json()
    assert (detail["status"], detail["mode"], detail["draft_expansion"]) == (
        "done", "solo", "initiation",
    )  # fmt: skip
    assert detail["seats"] == [
        {"source": "draft", "deck": None, "code": "", "name": "Drafted (card worth)",
         "agent": "greedy", "drafter": "price"},
        {"source": "solo_ai", "deck": None, "code": "", "name": "The Solo AI",
         "agent": "automaton", "drafter": ""},
    ]  # fmt: skip
    spec = selectors.batch_spec(batch)
    assert spec.draft is not None
    assert (spec.draft.procedure, spec.draft.drafters) == ("solo", ("price",))
    # The seating: the player's 8 drafted cards, then the 24 the drafter gave the AI.
    drafted = run_draft(
        "solo",
        spec.draft.pool,
        derived_seed(5, 3, -1),  # the draft's stream
        [PriceDrafter(derived_seed(5, 3, -2))],  # deck A's drafter's stream
    )
    player, ai = spec.seating(3)
    assert (len(player), len(ai)) == (8, 24)
    assert not {card.name for card in player} & {card.name for card in ai}
    assert (player, ai) == (drafted.decks[0], drafted.ai_pile)
    results = detail["results"]
    assert sum(results["ends"].values()) == 12
    wins = results["seats"][0]["wins"]["wins"] + results["seats"][1]["wins"]["wins"]
    assert wins + results["draws"] == 12
    # The results are those of the games the spec plays again from the seed.
    assert [play_game(spec, index).winners for index in range(12)].count((0,)) == results["seats"][
        0
    ]["wins"]["wins"]


def test_the_same_seed_drafts_and_plays_the_same_games(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    for _ in range(2):
        response = post_batch(owner_client, BODY, django_capture_on_commit_callbacks)
        assert response.status_code == 202, response.content
    first, second = (
        selectors.batch_spec(batch) for batch in SimulationBatch.objects.order_by("pk")
    )
    assert [first.seating(index) for index in range(3)] == [
        second.seating(index) for index in range(3)
    ]
    assert first.seating(0) != first.seating(1)
    totals = [batch.totals for batch in SimulationBatch.objects.order_by("pk")]
    assert totals[0] == totals[1]


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        (
            {"agent_b": "random"},
            ("invalid", {"agent_b": ["A Solo game has one deck: the player's."]}),
        ),
        # Team Play drafts four decks: one AI each.
        (
            {"mode": "teams", "agents": ["greedy"]},
            ("invalid", {"agents": ["The teams mode drafts 4 decks: give 4 AIs."]}),
        ),
    ],
)
def test_a_solo_draft_refuses_a_second_deck_and_agents_of_other_modes(
    owner_client: Client, changes: dict[str, Any], error: tuple[str, Any]
) -> None:
    response = owner_client.post(URL, {**BODY, **changes}, content_type="application/json")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["details"]) == error
    assert not SimulationBatch.objects.exists()


@pytest.mark.parametrize(
    ("body", "details"),
    [
        # The seats each mode takes, checked once by the service, in the request's language
        # (issue 27): the code and the fields as the serializer answered them, in English.
        (
            {**BODY, "agent_b": "random"},
            {"agent_b": ["Une partie Solo a un seul Deck : celui du joueur."]},
        ),
        (
            {**BODY, "mode": "teams", "agents": ["greedy"]},
            {"agents": ["Le mode teams drafte 4 Decks : donnez 4 IA."]},
        ),
        (
            {
                "mode": "solo",
                "deck_a": {"preconstructed": 1},
                "deck_b": {"preconstructed": 2},
                "games": 3,
            },
            {"deck_b": ["Une partie Solo a un seul Deck : celui du joueur."]},
        ),
        (
            {"mode": "duel", "deck_a": {"preconstructed": 1}, "games": 3},
            {"deck_b": ["Donnez `seats`, ou `deck_a` et `deck_b`."]},
        ),
    ],
)
def test_the_seats_a_mode_takes_are_refused_in_the_request_language(
    owner_client: Client, body: dict[str, Any], details: dict[str, list[str]]
) -> None:
    response = owner_client.post(
        URL, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.status_code == 400
    field, [message] = next(iter(details.items()))
    assert response.json() == {
        "code": "invalid",
        "message": f"{field}: {message}",
        "details": details,
    }
    assert not SimulationBatch.objects.exists()
