"""Solo test games through POST /api/v1/simulations/: the AI asked for by level or by explicit
parameters, the AI's deck pile, and the 400s that name the field (nothing is queued)."""

from typing import Any

import pytest
from django.test import Client

from cards.models import Card
from decks.models import Deck
from engine import selectors, simulation
from engine.adapters.decks import ResolvedDeck, solo_ai_deck_resolve
from engine.models import SimulationBatch
from tests.decks.conftest import CONSTRUCTED, PRECON
from tests.simulations.conftest import make_deck, post_batch

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"


def _solo(**changes: Any) -> dict[str, Any]:
    return {
        "mode": "solo",
        "seats": [{"preconstructed": 2, "agent": "random"}],
        "games": 30,
        "seed": 5,
        **changes,
    }


def test_a_solo_batch_by_level_plays_the_level_against_the_three_other_decks(
    owner_client: Client, dispatched: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    response = post_batch(owner_client, _solo(ai={"level": 4}), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["mode"], body["ai_level"]) == ("solo", 4)
    assert body["ai"] == {
        "fixed_mana": 6, "mana_per_creature": 1, "ai_first": False, "resistance": False,
        "abilities": ["sharpening", "catalyst", "instinct", "perforation"], "champion": False,
        "bastion": True,
    }  # fmt: skip
    player, ai = body["seats"]
    assert (player["source"], player["agent"], player["name"]) == (
        "preconstructed", "random", "Preconstructed deck 2",
    )  # fmt: skip
    assert (ai["source"], ai["agent"], ai["name"], ai["deck"]) == (
        "solo_ai", "automaton", "The Solo AI", None,
    )  # fmt: skip
    batch = SimulationBatch.objects.get()
    seat = batch.seats.get(index=1)
    assert sorted(seat.slugs) == sorted(PRECON[1] + PRECON[3] + PRECON[4])
    assert len(seat.cards) == 24
    assert dispatched == [(batch.pk, batch.chunks_total)]


def test_a_solo_replay_keeps_the_player_in_seat_a_and_says_how_it_ended(
    owner_client: Client, dispatched: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    body = _solo(seats=[{"preconstructed": 1, "agent": "greedy"}], ai={"level": 1}, seed=7)
    batch_id = post_batch(owner_client, body, django_capture_on_commit_callbacks).json()["id"]
    outcome = simulation.play_game(selectors.batch_spec(SimulationBatch.objects.get()), 1)
    response = owner_client.get(f"{URL}{batch_id}/games/1/replay/")
    assert response.status_code == 200, response.content
    data = response.json()
    assert (data["deck_a_seat"], data["first"]) == ("A", "a")
    assert data["agents"] == {"A": "greedy", "B": "automaton"}
    assert data["seats"] == [
        {"seat": "A", "agent": "greedy", "result": outcome.returns[0]},
        {"seat": "B", "agent": "automaton", "result": outcome.returns[1]},
    ]
    assert data["end"] == outcome.end
    assert outcome.end in simulation.SOLO_END_REASONS


def test_explicit_parameters_are_worth_their_level(
    owner_client: Client, dispatched: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    ai = {"fixed_mana": 9, "abilities": ["rage", "sprint"]}
    response = post_batch(owner_client, _solo(ai=ai), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    body = response.json()
    # 3 (fixed 9) + 1 + 1 (two abilities)
    assert body["ai_level"] == 5
    assert body["ai"]["abilities"] == ["rage", "sprint"]
    quick = post_batch(owner_client, _solo(), django_capture_on_commit_callbacks).json()
    assert (quick["ai_level"], quick["ai"]["fixed_mana"]) == (0, 6)


def _refused(client: Client, body: dict[str, Any], capture: Any) -> dict[str, Any]:
    response = post_batch(client, body, capture)
    assert response.status_code == 400, response.content
    assert not SimulationBatch.objects.exists()
    return response.json()


def test_bad_solo_input_is_a_400_naming_the_field(
    owner_client: Client,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    # precon_deck is saved in the Constructed format, which Solo does not allow.
    error = _refused(owner_client, _solo(seats=[{"deck": precon_deck.share_id}]), capture)
    assert (error["code"], error["details"]["side"]) == ("illegal_deck", "a")
    assert [item["code"] for item in error["details"]["errors"]] == ["format_not_allowed_in_mode"]

    error = _refused(owner_client, _solo(ai={"level": 11}), capture)
    assert (error["code"], error["details"]["field"]) == ("unknown_level", "ai.level")
    # The current edition has ten abilities and no AI without a Bastion (ruling SO12).
    error = _refused(owner_client, _solo(ai={"abilities": ["berserk"]}), capture)
    assert (error["code"], error["details"]["field"]) == ("invalid_ai", "ai.abilities")
    error = _refused(owner_client, _solo(ai={"bastion": False}), capture)
    assert (error["code"], error["details"]["field"]) == ("invalid_ai", "ai.bastion")
    error = _refused(owner_client, _solo(ai={"fixed_mana": 11}), capture)
    assert (error["code"], error["details"]["field"]) == ("invalid_ai", "ai.fixed_mana")
    error = _refused(owner_client, _solo(ai={"level": 2, "fixed_mana": 8}), capture)
    assert (error["code"], error["details"]["field"]) == ("ai_level_and_options", "ai")
    error = _refused(owner_client, _solo(ai={"abilities": ["aerial"]}), capture)
    assert (error["code"], list(error["details"])) == ("invalid", ["ai"])
    assert list(error["details"]["ai"]) == ["abilities"]

    two = [{"preconstructed": 2}, {"preconstructed": 3}]
    error = _refused(owner_client, _solo(seats=two), capture)
    assert (error["code"], error["details"]["field"], error["details"]["expected"]) == (
        "wrong_deck_count", "seats", 1,
    )  # fmt: skip
    error = _refused(owner_client, _solo(champions=True), capture)
    assert (error["code"], error["details"]) == ("champions_in_solo", {"field": "champions"})
    duel = {"deck_a": {"preconstructed": 1}, "deck_b": {"preconstructed": 2}, "games": 5}
    error = _refused(owner_client, {**duel, "ai": {"level": 3}}, capture)
    assert (error["code"], error["details"]) == ("ai_without_solo", {"field": "ai"})
    shorthand = {"mode": "solo", **duel}
    error = _refused(owner_client, shorthand, capture)
    assert list(error["details"]) == ["deck_b"]
    error = _refused(owner_client, {**duel, "mode": "quest"}, capture)
    assert list(error["details"]) == ["mode"]
    assert dispatched == []


def test_the_deck_a_shorthand_alone_is_a_solo_seat(
    owner_client: Client, dispatched: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    body = {
        "mode": "solo",
        "deck_a": {"preconstructed": 4},
        "agent_a": "greedy",
        "games": 3,
        "ai": {"level": 1},
    }
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    assert [seat["agent"] for seat in response.json()["seats"]] == ["greedy", "automaton"]


def test_a_deck_of_one_preconstructed_deck_faces_the_three_others(
    owner: Any, cards_db: None
) -> None:
    saved = make_deck(owner, PRECON[3], name="Three", fmt="preconstructed")
    player = ResolvedDeck("deck", saved, "", "Three", [], PRECON[3], None)
    pile = solo_ai_deck_resolve(player=player, seed=1)
    assert sorted(pile.slugs) == sorted(PRECON[1] + PRECON[2] + PRECON[4])


def test_another_deck_faces_24_other_cards_of_its_expansions(owner: Any, cards_db: None) -> None:
    player = ResolvedDeck("code", None, "X", "Mixed", [], CONSTRUCTED, None)
    pile = solo_ai_deck_resolve(player=player, seed=3)
    assert len(pile.slugs) == len(set(pile.slugs)) == 24
    assert not set(pile.slugs) & set(CONSTRUCTED)
    expansions = set(Card.objects.filter(slug__in=CONSTRUCTED).values_list("expansion", flat=True))
    chosen = Card.objects.filter(slug__in=pile.slugs)
    assert set(chosen.values_list("expansion", flat=True)) <= expansions
    assert set(chosen.values_list("card_type", flat=True)) <= {"creature", "incantation"}
    assert solo_ai_deck_resolve(player=player, seed=3).slugs == pile.slugs
    assert solo_ai_deck_resolve(player=player, seed=4).slugs != pile.slugs


def test_a_level_whose_parameters_bring_a_champion_is_refused_without_champions(
    owner_client: Client, dispatched: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    from engine.models import DifficultyLevel, DifficultyParameter

    DifficultyLevel.objects.get(level=2).parameters.add(
        DifficultyParameter.objects.get(code="champion")
    )
    error = _refused(owner_client, _solo(ai={"level": 2}), django_capture_on_commit_callbacks)
    assert (error["code"], error["details"]) == ("champions_in_solo", {"field": "ai"})


def test_the_2021_edition_variant_takes_berserk_and_no_bastion(
    owner_client: Client, dispatched: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    ai = {"edition": "2021", "abilities": ["berserk"], "bastion": False}
    response = post_batch(owner_client, _solo(ai=ai), django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    body = response.json()["ai"]
    assert (body["edition"], body["abilities"], body["bastion"]) == ("2021", ["berserk"], False)
