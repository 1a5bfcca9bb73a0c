"""Test games of four players through the API: Free-For-All and Team Play, the decks seated in
turn, results per deck and per team with their intervals."""

from typing import Any

import pytest
from django.test import Client

from engine import selectors, simulation
from engine.models import SimulationBatch
from engine.rules.drafters import PriceDrafter, run_draft
from tests.decks.conftest import CONSTRUCTED
from tests.simulations.conftest import InlineExecutor, make_deck, post_batch

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"
FOUR = [{"preconstructed": n} for n in (1, 2, 3, 4)]


def _rate(rate: simulation.Rate) -> dict[str, Any]:
    return {
        "wins": rate.hits,
        "games": rate.games,
        "rate": rate.value,
        "low": rate.low,
        "high": rate.high,
    }


def test_team_play_results_per_deck_and_per_team(
    owner_client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {"mode": "teams", "seats": FOUR, "games": 20, "seed": 5}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    assert batch.mode == "teams"
    detail = owner_client.get(response.json()["url"]).json()
    assert (detail["status"], detail["mode"], len(detail["seats"])) == ("done", "teams", 4)
    results = detail["results"]
    summary = simulation.summarise(
        simulation.play_games(selectors.batch_spec(batch), 0, 20),
        selectors.batch_card_names(batch),
        "teams",
    )
    wins = [deck["wins"]["wins"] for deck in results["seats"]]
    assert wins == [deck.wins.hits for deck in summary.decks]
    # Partners share every result; each game is won by one team or is a draw.
    assert wins[0] == wins[2] and wins[1] == wins[3]
    assert wins[0] + wins[1] + results["draws"] == 20
    assert results["teams"] == [
        {"decks": ["A", "C"], "wins": _rate(simulation.Rate.of(wins[0], 20))},
        {"decks": ["B", "D"], "wins": _rate(simulation.Rate.of(wins[1], 20))},
    ]
    # Seated in turn: each deck played first in a quarter of the games.
    assert [deck["when_first"]["games"] for deck in results["seats"]] == [5, 5, 5, 5]
    page = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert '<table class="sim-table" id="team-table">' in page
    assert '<tr data-team="AC">' in page and "Decks A + C" in page
    assert f"{wins[1]} / 20" in page.split('<tr data-team="BD">')[1].split("</tr>")[0]
    assert "Vinster per lag" in owner_client.get(f"/sv/simulations/{batch.pk}/").content.decode()


def test_free_for_all_has_no_teams(
    owner_client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {"mode": "free_for_all", "seats": FOUR, "games": 8, "seed": 3}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    results = owner_client.get(response.json()["url"]).json()["results"]
    assert results["teams"] == []
    assert len(results["seats"]) == 4
    assert results["first_player"]["games"] == 8


@pytest.mark.parametrize(
    ("body", "code", "details"),
    [
        (
            {"mode": "free_for_all", "seats": FOUR[:2]},
            "wrong_deck_count",
            {"field": "seats", "expected": 4, "given": 2},
        ),
        (
            {"mode": "teams", "deck_a": {"preconstructed": 1}, "deck_b": {"preconstructed": 2}},
            "wrong_deck_count",
            {"field": "seats", "expected": 4, "given": 2},
        ),
        (
            {"mode": "duel", "seats": FOUR},
            "wrong_deck_count",
            {"field": "seats", "expected": 2, "given": 4},
        ),
        (
            {"mode": "solo", "seats": FOUR},
            "wrong_deck_count",
            {"field": "seats", "expected": 1, "given": 4},
        ),
        (
            {"mode": "coop", "seats": FOUR},
            "wrong_deck_count",
            {"field": "seats", "expected": 2, "given": 4},
        ),
    ],
)  # fmt: skip
def test_the_mode_sets_the_number_of_decks(
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
    body: dict[str, Any],
    code: str,
    details: dict[str, Any],
) -> None:
    response = post_batch(owner_client, {**body, "games": 4}, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    error = response.json()
    assert (error["code"], error["details"]) == (code, details)
    assert not SimulationBatch.objects.exists()


def test_a_four_player_draft_deals_each_game_four_decks(
    owner_client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    agents = ["greedy", "random", "greedy", "random"]
    body = {
        "mode": "teams",
        "format": "draft",
        "pool": "00",
        "agents": agents,
        "games": 8,
        "seed": 5,
    }
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    detail = owner_client.get(response.json()["url"]).json()
    assert (detail["status"], detail["draft_expansion"]) == ("done", "initiation")
    assert [(seat["source"], seat["agent"], seat["drafter"]) for seat in detail["seats"]] == [
        ("draft", agent, "price") for agent in agents
    ]
    spec = selectors.batch_spec(batch)
    assert spec.draft is not None and spec.draft.procedure == "four_players"
    # Game 1: seat A is deck B's, so deck B's drafter drafts from seat A (the first pick).
    drafted = run_draft(
        "four_players",
        spec.draft.pool,
        simulation.derived_seed(5, 1, -1),
        [PriceDrafter(simulation.derived_seed(5, 1, -2 - (seat + 1) % 4)) for seat in range(4)],
    )
    assert spec.seating(1) == list(drafted.decks)
    assert [len(deck) for deck in spec.seating(1)] == [8, 8, 8, 8]
    results = detail["results"]
    wins = [deck["wins"]["wins"] for deck in results["seats"]]
    assert wins == simulation.play_games(spec, 0, 8).wins
    assert wins[0] == wins[2] and wins[1] == wins[3]
    assert results["teams"] == [
        {"decks": ["A", "C"], "wins": _rate(simulation.Rate.of(wins[0], 8))},
        {"decks": ["B", "D"], "wins": _rate(simulation.Rate.of(wins[1], 8))},
    ]
    assert [deck["when_first"]["games"] for deck in results["seats"]] == [2, 2, 2, 2]


@pytest.mark.parametrize(
    ("changes", "code", "details"),
    [
        (
            {"agents": ["greedy", "greedy"]},
            "invalid",
            {"agents": ["The free_for_all mode drafts 4 decks: give 4 AIs."]},
        ),
        (
            {"agents": ["greedy"] * 4, "agent_a": "random"},
            "invalid",
            {"agent_a": ["Give either `agents` or `agent_a` and `agent_b`."]},
        ),
        # The 4-player Draft takes one expansion's 32 cards.
        (
            {"pool": "00,01"},
            "unplayable_pool",
            {
                "field": "pool",
                "pool": "initiation,treachery",
                "reason": "the four_players draft takes 32 cards, not 64",
            },
        ),
    ],
)
def test_bad_four_player_drafts_are_400s(
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
    changes: dict[str, Any],
    code: str,
    details: dict[str, Any],
) -> None:
    body = {"mode": "free_for_all", "format": "draft", "pool": "00", "games": 4, **changes}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["details"]) == (code, details)
    assert not SimulationBatch.objects.exists()


def test_a_saved_deck_plays_free_for_all(
    owner: Any,
    owner_client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # The engine's mode "free_for_all" is the catalogue's game mode "free-for-all": a saved deck
    # was refused as an unknown game mode.
    deck = make_deck(owner, CONSTRUCTED, name="Mixed")
    seats = [{"deck": deck.share_id}, *FOUR[1:]]
    body = {"mode": "free_for_all", "seats": seats, "games": 4}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    assert response.json()["seats"][0]["name"] == "Mixed"
    assert SimulationBatch.objects.get().status == "done"
