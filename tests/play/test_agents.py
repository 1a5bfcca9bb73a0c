"""The computer players a table seats: the strong search agent, ranked by the strength ladder,
thinking within a node budget so that the same table plays the same moves again."""

import random
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from cards.selectors import card_lookup_by_name
from decks.selectors.codes import deck_code_for
from decks.selectors.formats import format_get
from engine.agent_ladder import Ladder, current_ladder
from engine.rules import GameState, apply
from play import selectors, services
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
    strong, lookahead, greedy, random = (
        ladder.of(name) for name in ("strong", "lookahead", "greedy", "random")
    )
    reordered = Ladder(
        seed=ladder.seed,
        games_per_deck_pair=ladder.games_per_deck_pair,
        rules_ms_per_game=ladder.rules_ms_per_game,
        agents=tuple(
            replace(agent, rank=rank)
            for rank, agent in enumerate((lookahead, strong, random, greedy), 1)
            if agent is not None
        ),
    )
    monkeypatch.setattr(selectors, "current_ladder", lambda mode="duel": reordered)
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


# Decks of the stall corpus's game random-11; the computer's holds Cycle of life (0 Mana,
# 0 Damage: cast, it goes back to the hand).
CYCLE_DECK = [
    "Toxic thrasher",
    "Boom!",
    "Cycle of life",
    "Centaur",
    "Blacksmith",
    "Excess adrenaline",
    "Marchroom",
    "Reason gnawer",
]
OTHER_DECK = [
    "Leprechaun",
    "Skiwk-skiwk",
    "Hydra",
    "Aqueous elementary",
    "Efreet",
    "Harasser",
    "Indomitable beast",
    "Reservist",
]


def _code(names: list[str]) -> str:
    cards = [card_lookup_by_name(name) for name in names]
    return deck_code_for(
        format=format_get(slug="constructed"),
        cards=[card for card in cards if card is not None],
        champion=None,
    )


def test_a_computer_turn_ends_though_an_incantation_could_be_cast_forever(
    olga_api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a fresh agent for each move, the lookahead's repetition guard saw one move at a
    time: at this table it cast Cycle of life again and again in one turn, a request that never
    ended. One agent per turn sees the whole turn."""
    turns: dict[int, int] = {}

    def count(state: GameState) -> None:
        turns[state.turn] = turns.get(state.turn, 0) + 1
        assert turns[state.turn] <= 150, "a turn of more than 150 actions"

    def counted(state: GameState, action: tuple[int, int, int]) -> None:
        count(state)
        apply(state, action)

    choose = services._TableSeat.choose

    def counted_choice(seat: Any, state: GameState) -> tuple[int, int, int]:
        count(state)
        return choose(seat, state)

    # The person's actions (services.apply), and the computer's (its seat's choices, which the
    # engine's game object plays).
    monkeypatch.setattr(services, "apply", counted)
    monkeypatch.setattr(services._TableSeat, "choose", counted_choice)
    body = {
        "format": "constructed",
        "seats": [
            {"kind": "me", "deck": {"code": _code(OTHER_DECK)}},
            {"kind": "agent", "agent": "lookahead", "deck": {"code": _code(CYCLE_DECK)}},
        ],
        "seed": 3,
    }
    uid = olga_api.post("/api/v1/games/", body, format="json").json()["id"]
    rng = random.Random(3)
    view = olga_api.get(f"/api/v1/games/{uid}/").json()
    for step in range(400):
        if view["status"] == "finished":
            break
        action = rng.choice(view["state"]["legal_actions"])
        view = olga_api.post(
            f"/api/v1/games/{uid}/act/", {"client_id": f"m{step}", **action}, format="json"
        ).json()
    assert view["status"] == "finished"
    assert (len(turns), max(turns.values())) == (13, 9)
