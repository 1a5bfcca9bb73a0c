"""Co-op test games: POST /api/v1/simulations/ with `mode: coop`: the two players' decks (seats A
and C) against two of the rulebook's automata (B and D) sharing one set of AI parameters; the AI's
48 cards come from the decks' expansions, or from the Co-op Draft (`format: draft`)."""

from typing import Any

import pytest
from django.test import Client

from cards.models import Card
from champions import services as champion_services
from decks.models import Deck
from engine import selectors, simulation
from engine.models import SimulationBatch
from engine.rules.coop import drafted_decks
from engine.rules.drafters import PriceDrafter, run_draft
from engine.simulation import derived_seed, play_games
from tests.champions.conftest import design
from tests.decks.conftest import CONSTRUCTED, PRECON
from tests.simulations.conftest import InlineExecutor, make_deck, post_batch

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"
# The Co-op Draft takes exactly 64 cards: two expansions.
DRAFT = {"mode": "coop", "format": "draft", "pool": "01,02", "games": 10, "seed": 5}


def _rate(hits: int, games: int) -> dict[str, Any]:
    rate = simulation.Rate.of(hits, games)
    return {"wins": hits, "games": games, "rate": rate.value, "low": rate.low, "high": rate.high}


def _check_team_results(batch: SimulationBatch, results: dict[str, Any], games: int) -> None:
    """The players (A and C) win or lose together against the AIs (B and D): the teams' rows
    are those of the games the batch's spec plays again."""
    totals = play_games(selectors.batch_spec(batch), 0, games)
    wins = [deck["wins"]["wins"] for deck in results["seats"]]
    assert wins == totals.wins
    assert wins[0] == wins[2] and wins[1] == wins[3]
    assert wins[0] + wins[1] + results["draws"] == games
    assert results["teams"] == [
        {"decks": ["A", "C"], "wins": _rate(wins[0], games)},
        {"decks": ["B", "D"], "wins": _rate(wins[1], games)},
    ]
    # Co-op's first player is seat A (no ai_first): nothing rotates.
    assert [deck["when_first"]["games"] for deck in results["seats"]] == [games, 0, 0, 0]


def _unheld(slugs: list[str]) -> set[str]:
    """The deckable cards of the expansions of `slugs` that are not among them."""
    expansions = Card.objects.filter(slug__in=slugs).values_list("expansion", flat=True)
    return set(
        Card.objects.deckable()
        .filter(expansion__in=set(expansions))
        .exclude(slug__in=slugs)
        .values_list("slug", flat=True)
    )


def test_two_decks_play_together_against_the_ai_cards_of_their_expansions(
    owner: Any,
    owner_client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    deck = make_deck(owner, CONSTRUCTED, name="Mixed")
    body = {
        "mode": "coop",
        "seats": [
            {"deck": deck.share_id, "agent": "greedy"},
            {"preconstructed": 2, "agent": "random"},
        ],
        "ai": {"level": 1},
        "games": 12,
        "seed": 9,
        "control": True,
    }
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get(pk=response.json()["id"])
    detail = owner_client.get(response.json()["url"]).json()
    assert (detail["status"], detail["mode"], detail["ai_level"]) == ("done", "coop", 1)
    assert [(seat["source"], seat["name"], seat["agent"]) for seat in detail["seats"]] == [
        ("deck", "Mixed", "greedy"),
        ("coop_ai", "The Co-op AI", "automaton"),
        ("preconstructed", "Preconstructed deck 2", "random"),
        ("coop_ai", "The Co-op AI", "automaton"),
    ]
    seats = selectors.batch_seats(batch)
    # The AI's 48 cards: of the decks' expansions, held by neither deck, the same in both rows.
    held = CONSTRUCTED + PRECON[2]
    assert seats[1].slugs == seats[3].slugs
    assert len(seats[1].slugs) == len(set(seats[1].slugs)) == 48
    assert set(seats[1].slugs) <= _unheld(held)
    spec = selectors.batch_spec(batch)
    # Each game divides them into two deck piles of 24 in its own way.
    first, second = spec.seating(0), spec.seating(1)
    assert [len(deck) for deck in first] == [8, 24, 8, 24]
    assert {card.name for card in first[1] + first[3]} == {card["name"] for card in seats[1].cards}
    assert first[1] != second[1]
    assert (first[0], first[2]) == (second[0], second[2])
    _check_team_results(batch, detail["results"], 12)
    # The control batch: the same decks, AI cards and automata, the players played by greedy.
    control = batch.control
    assert control is not None and (control.status, control.games) == ("done", 1000)
    assert [seat.agent for seat in selectors.batch_seats(control)] == [
        "greedy",
        "automaton",
        "greedy",
        "automaton",
    ]
    assert [seat.cards for seat in selectors.batch_seats(control)] == [seat.cards for seat in seats]
    assert detail["verdict"]["control"]["deck_a_wins"]["games"] == 1000
    page = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "Mixed and Preconstructed deck 2 against the Co-op AI" in page
    assert "Decks A and C together against two AIs of level 1" in page
    assert '<tr data-team="AC">' in page
    assert "Samarbetsläge" in owner_client.get(f"/sv/simulations/{batch.pk}/").content.decode()


def test_decks_of_one_expansion_leave_too_few_cards_for_the_ai(
    owner_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    body = {"mode": "coop", "seats": [{"preconstructed": 1}, {"preconstructed": 2}], "games": 3}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert response.json() == {
        "code": "no_coop_opponent",
        "message": "The expansions of these decks hold 16 other cards: the Co-op AI needs 48.",
        "details": {"field": "seats", "count": 16, "needed": 48},
    }
    assert not SimulationBatch.objects.exists()


@pytest.mark.parametrize(
    ("changes", "code", "details"),
    [
        (
            {"seats": [{"preconstructed": 1}]},
            "wrong_deck_count",
            {"field": "seats", "expected": 2, "given": 1},
        ),
        ({"champions": True}, "champions_in_solo", {"field": "champions"}),
        ({"mode": "duel", "ai": {"level": 1}}, "ai_without_solo", {"field": "ai"}),
    ],
)
def test_bad_coop_requests_are_400s(
    owner_client: Client,
    django_capture_on_commit_callbacks: Any,
    changes: dict[str, Any],
    code: str,
    details: dict[str, Any],
) -> None:
    body = {"mode": "coop", "seats": [{"preconstructed": 1}, {"preconstructed": 2}], "games": 3}
    response = post_batch(owner_client, {**body, **changes}, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["details"]) == (code, details)
    assert not SimulationBatch.objects.exists()


def test_a_coop_draft_batch_drafts_both_players_and_the_ai(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    body = {**DRAFT, "agents": ["greedy", "random"], "ai": {"level": 2}}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    detail = owner_client.get(response.json()["url"]).json()
    assert (detail["status"], detail["draft_expansion"]) == ("done", "treachery,submersion")
    assert [(seat["source"], seat["agent"], seat["drafter"]) for seat in detail["seats"]] == [
        ("draft", "greedy", "price"),
        ("coop_ai", "automaton", ""),
        ("draft", "random", "price"),
        ("coop_ai", "automaton", ""),
    ]
    assert len(batch.draft_pool) == 64
    spec = selectors.batch_spec(batch)
    assert spec.draft is not None
    assert (spec.draft.procedure, spec.draft.drafters) == ("coop", ("price", "price"))
    # Game 3: the Co-op Draft's player A drafts for seat A, its player B for seat C (deck C's
    # drafter stream), then the AI's 48 cards are divided by the game's own stream.
    drafted = run_draft(
        "coop",
        spec.draft.pool,
        derived_seed(5, 3, -1),
        [PriceDrafter(derived_seed(5, 3, -2)), PriceDrafter(derived_seed(5, 3, -4))],
    )
    expected = [tuple(deck) for deck in drafted_decks(drafted, derived_seed(5, 3, -100))]
    assert spec.seating(3) == expected
    assert [len(deck) for deck in expected] == [8, 24, 8, 24]
    _check_team_results(batch, detail["results"], 10)
    page = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert (
        '<a href="/sets/treachery/">treachery</a>, <a href="/sets/submersion/">submersion</a>'
        in page
    )


def test_the_coop_draft_needs_64_cards(
    owner_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    response = post_batch(owner_client, {**DRAFT, "pool": "01"}, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert response.json()["code"] == "unplayable_pool"
    assert response.json()["details"] == {
        "field": "pool",
        "pool": "treachery",
        "reason": "the coop draft takes 64 cards, not 32",
    }
    assert not SimulationBatch.objects.exists()


def test_a_coop_game_opens_in_the_replay_viewer(
    owner_client: Client, inline_chunks: InlineExecutor, django_capture_on_commit_callbacks: Any
) -> None:
    response = post_batch(owner_client, {**DRAFT, "games": 2}, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    replay = owner_client.get(f"/api/v1/simulations/{batch.pk}/games/1/replay/").json()
    assert [(seat["seat"], seat["agent"]) for seat in replay["seats"]] == [
        ("A", "greedy"),
        ("B", "automaton"),
        ("C", "greedy"),
        ("D", "automaton"),
    ]
    # Teammates share their result.
    results = [seat["result"] for seat in replay["seats"]]
    assert results[0] == results[2] and results[1] == results[3]
    assert (replay["deck_a_seat"], replay["first"]) == ("A", "a")
    page = owner_client.get(f"/simulations/{batch.pk}/games/1/")
    assert page.status_code == 200


def test_the_players_play_their_champions_with_the_ai_champion_parameter(
    owner: Any,
    owner_client: Client,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    deck = make_deck(owner, PRECON[1], name="Champion deck", fmt="preconstructed")
    champion = champion_services.champion_create(owner=owner, design=design())
    Deck.objects.filter(pk=deck.pk).update(champion=champion)
    partner = make_deck(owner, CONSTRUCTED, name="Mixed")
    body = {
        "mode": "coop",
        "seats": [{"deck": deck.share_id}, {"deck": partner.share_id}],
        "champions": True,
        "ai": {"champion": True},
        "games": 4,
        "seed": 3,
    }
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    batch = SimulationBatch.objects.get()
    assert (batch.champions, batch.ai["champion"], batch.status) == (True, True, "done")
    seats = selectors.batch_seats(batch)
    assert [seat.champion is not None for seat in seats] == [True, False, False, False]
    champions = selectors.batch_spec(batch).seat_champions(0)
    assert champions is not None
    assert [one.name if one else None for one in champions] == [
        seats[0].champion["name"],
        None,
        None,
        None,
    ]
    # The Champion has a row among deck A's cards, with what it did in the games.
    results = owner_client.get(response.json()["url"]).json()["results"]
    rows = {card["name"]: card for card in results["seats"][0]["cards"]}
    totals = play_games(selectors.batch_spec(batch), 0, 4)
    name = seats[0].champion["name"]
    assert (rows[name]["games_played"], rows[name]["damage_dealt"]) == (
        totals.cards[0][name]["played"],
        totals.cards[0][name]["damage"],
    )
    assert rows[name]["games_played"] > 0
