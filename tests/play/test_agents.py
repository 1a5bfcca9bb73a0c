"""The computer players a table seats: the strong search agent, ranked by the strength ladder,
thinking within a node budget so that the same table plays the same moves again."""

from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.agent_ladder import Ladder, current_ladder
from play import selectors
from play.models import GameAction

from .conftest import create_table

pytestmark = pytest.mark.django_db


def test_the_choices_list_the_agents_strongest_first_as_the_ladder_rates_them() -> None:
    assert selectors.agent_choices() == [
        ("strong", "Strong search (strongest)"),
        ("lookahead", "Lookahead"),
        ("greedy", "Greedy"),
        ("random", "Random (weakest)"),
    ]


def test_another_ladder_would_name_another_strongest(monkeypatch: pytest.MonkeyPatch) -> None:
    ladder = current_ladder()
    strong, lookahead, greedy, random = ladder.agents
    reordered = Ladder(
        seed=ladder.seed,
        games_per_deck_pair=ladder.games_per_deck_pair,
        rules_ms_per_game=ladder.rules_ms_per_game,
        agents=tuple(
            replace(agent, rank=rank)
            for rank, agent in enumerate((lookahead, strong, random, greedy), 1)
        ),
    )
    monkeypatch.setattr(selectors, "current_ladder", lambda: reordered)
    assert selectors.agent_choices() == [
        ("lookahead", "Lookahead (strongest)"),
        ("strong", "Strong search"),
        ("random", "Random"),
        ("greedy", "Greedy (weakest)"),
    ]


def test_the_new_table_form_offers_the_strongest_first(cards_db: None, owner: Any) -> None:
    client = Client()
    client.force_login(owner)
    page = client.get("/play/new/").content.decode()
    strong = page.index('<option value="agent:strong">Strong search (strongest)</option>')
    assert strong < page.index('<option value="agent:random">Random (weakest)</option>')


def _play_against_strong(client: APIClient) -> list[tuple[int, int, int, int]]:
    """A Duel against the strong agent where I always play my first legal action, for 12 of my
    actions: every action of the table, in order."""
    table = create_table(client, {"kind": "agent", "agent": "strong"}, seed=21)
    assert table["seats"][1] == {
        "seat": "B",
        "name": "Computer (Strong search (strongest))",
        "kind": "agent",
    }
    uid = table["id"]
    view = client.get(f"/api/v1/games/{uid}/").json()
    for step in range(12):
        if view["status"] == "finished":
            break
        action = view["state"]["legal_actions"][0]
        response = client.post(
            f"/api/v1/games/{uid}/act/", {"client_id": f"s{step}", **action}, format="json"
        )
        assert response.status_code == 200, response.json()
        view = response.json()
    rows = GameAction.objects.filter(game__uid=uid).order_by("index")
    return list(rows.values_list("seat", "kind", "card", "arg"))


def test_the_strong_agent_answers_and_plays_the_same_moves_again(olga_api: APIClient) -> None:
    first = _play_against_strong(olga_api)
    # The computer played its turns between mine: two of them, each ended (kind 1: end turn).
    assert [kind for seat, kind, _card, _arg in first if seat == 1].count(1) == 2
    # Its budget counts nodes, not time: the same table and my same actions, the same game.
    assert _play_against_strong(olga_api) == first
