"""Solo games played through the services and the API: a batch's results with how its games
ended, and the difficulty curve (one batch per level, a fixed seed, a small game count)."""

from typing import Any

import pytest
from django.test import Client

from engine import curve_selectors, selectors, services, simulation
from engine.models import DifficultyCurve, SimulationBatch, SimulationSeat
from engine.rules.play import wilson
from tests.simulations.conftest import InlineExecutor

pytestmark = pytest.mark.usefixtures("cards_db")

CURVES = "/api/v1/simulations/curves/"


def test_a_solo_batch_counts_how_its_games_ended(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    body = {
        "mode": "solo",
        "seats": [{"preconstructed": 1, "agent": "greedy"}],
        "ai": {"level": 3},
        "games": 40,
        "seed": 11,
    }
    with django_capture_on_commit_callbacks(execute=True):
        created = owner_client.post("/api/v1/simulations/", body, content_type="application/json")
    assert created.status_code == 202, created.content
    detail = owner_client.get(created.json()["url"]).json()
    assert (detail["status"], detail["replayable"]) == ("done", True)
    results = detail["results"]
    # Level 3 gives the AI's creatures Sharpening, Instinct and Perforation (engine 0017).
    assert results["ends"] == {
        "fort_destroyed": 33, "empty_hand_bastion": 0, "empty_hand_fort": 0,
        "deck_pile_emptied": 7, "turn_limit": 0,
    }  # fmt: skip
    assert (results["seats"][0]["wins"]["wins"], results["seats"][1]["wins"]["wins"]) == (7, 33)
    assert (results["mean_turns"], results["draws"]) == (10.9, 0)
    # Level 3 does not make the AI first: the player begins every game.
    assert results["seats"][1]["when_first"]["games"] == 0


def test_a_curve_plays_every_level_with_its_win_rate(
    owner_client: Client,
    other: Any,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {"preconstructed": 1, "agent": "greedy", "games": 20, "seed": 2026}
    with django_capture_on_commit_callbacks(execute=True):
        created = owner_client.post(CURVES, body, content_type="application/json")
    assert created.status_code == 202, created.content
    curve = DifficultyCurve.objects.get()
    assert created["Location"] == f"http://testserver{CURVES}{curve.pk}/"
    data = owner_client.get(created.json()["url"]).json()
    assert (data["active"], data["games_done"], data["games"]) == (False, 200, 200)
    assert [(level["level"], level["wins"]["wins"]) for level in data["levels"]] == [
        (1, 6), (2, 4), (3, 3), (4, 1), (5, 1), (6, 0), (7, 0), (8, 0), (9, 0), (10, 0),
    ]  # fmt: skip
    first = data["levels"][0]["wins"]
    low, high = wilson(6, 20)
    assert (first["rate"], first["low"], first["high"]) == (0.3, low, high)
    assert data["level_beaten"] == 0
    batches = SimulationBatch.objects.filter(curve=curve)
    assert {(batch.mode, batch.seed, batch.games) for batch in batches} == {("solo", 2026, 20)}
    other_client = Client()
    other_client.force_login(other)
    assert other_client.get(created.json()["url"]).status_code == 404


def test_a_curve_counts_as_one_active_batch(
    owner: Any,
    owner_client: Client,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(services, "_dispatch", lambda batch_id, chunks: sent.append(batch_id))
    body = {"preconstructed": 2, "games": 5, "seed": 1}
    with django_capture_on_commit_callbacks(execute=True):
        assert owner_client.post(CURVES, body, content_type="application/json").status_code == 202
    assert len(sent) == SimulationBatch.objects.filter(status="queued").count() == 10
    assert selectors.active_batch_count(owner) == 1
    # No agent asked: the batch rule's default for 5 Solo games, not greedy (issue 28).
    agents = {
        seat.agent
        for seat in SimulationSeat.objects.filter(batch__curve__isnull=False)
        if seat.agent != "automaton"
    }
    assert agents == {services.agent_for(5, "solo")}
    assert services.agent_for(5, "solo") != "greedy"


def test_bad_curve_input_is_a_400(
    owner_client: Client, precon_deck: Any, django_capture_on_commit_callbacks: Any
) -> None:
    constructed = {"deck": precon_deck.share_id, "games": 5}
    with django_capture_on_commit_callbacks(execute=True):
        refused = owner_client.post(CURVES, constructed, content_type="application/json")
        too_many = owner_client.post(
            CURVES, {"preconstructed": 1, "games": 10_001}, content_type="application/json"
        )
    assert (refused.status_code, refused.json()["code"]) == (400, "illegal_deck")
    assert (too_many.status_code, list(too_many.json()["details"])) == (400, ["games"])
    assert not DifficultyCurve.objects.exists()
    assert not SimulationBatch.objects.exists()


def _point(level: int, wins: int, games: int) -> curve_selectors.CurvePoint:
    return curve_selectors.CurvePoint(level, SimulationBatch(), simulation.Rate.of(wins, games))


def test_the_level_beaten_is_the_last_of_the_first_levels_won_half_of_the_time() -> None:
    points = [_point(1, 15, 20), _point(2, 10, 20), _point(3, 9, 20), _point(4, 12, 20)]
    assert curve_selectors.curve_level_beaten(points) == 2
    assert curve_selectors.curve_level_beaten(points[2:]) == 0
    assert curve_selectors.curve_level_beaten([_point(1, 3, 4), _point(2, 0, 0)]) == 1
