"""Test games of four players through the API: Free-For-All and Team Play, the decks seated in
turn, results per deck and per team with their intervals."""

from typing import Any

import pytest
from django.test import Client

from engine import selectors, simulation
from engine.models import SimulationBatch
from tests.simulations.conftest import InlineExecutor

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"
FOUR = [{"preconstructed": n} for n in (1, 2, 3, 4)]


def _post(client: Client, body: dict[str, Any], capture: Any) -> Any:
    with capture(execute=True):
        return client.post(URL, body, content_type="application/json")


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
    response = _post(owner_client, body, django_capture_on_commit_callbacks)
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
    response = _post(owner_client, body, django_capture_on_commit_callbacks)
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
        ({"mode": "coop", "seats": FOUR}, "invalid", {"mode": ['"coop" is not a valid choice.']}),
    ],
)  # fmt: skip
def test_the_mode_sets_the_number_of_decks(
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
    body: dict[str, Any],
    code: str,
    details: dict[str, Any],
) -> None:
    response = _post(owner_client, {**body, "games": 4}, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    error = response.json()
    assert (error["code"], error["details"]) == (code, details)
    assert not SimulationBatch.objects.exists()
