"""The simulations API: 202 and the batch URL, progress and results, 400s that queue nothing,
429s, cancel, replays, who sees what, and the OpenAPI schema."""

from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from decks.selectors.codes import deck_code_of
from engine import selectors, services, simulation
from engine.models import SimulationBatch, Status
from engine.rules import replay as replays
from tests.decks.conftest import PRECON
from tests.simulations.conftest import (
    InlineExecutor,
    create_batch,
    make_deck,
    post_batch,
    run_chunks,
)

pytestmark = pytest.mark.usefixtures("cards_db")

URL = "/api/v1/simulations/"


def _body(deck: Deck, **changes: Any) -> dict[str, Any]:
    return {
        "deck_a": {"deck": deck.share_id},
        "deck_b": {"preconstructed": 3},
        "agent_a": "greedy",
        "agent_b": "greedy",
        "games": 40,
        "seed": 99,
        **changes,
    }


def test_post_answers_202_with_the_batch_url_then_the_results(
    owner_client: Client,
    precon_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    response = post_batch(owner_client, _body(precon_deck), django_capture_on_commit_callbacks)
    assert response.status_code == 202
    created = response.json()
    batch = SimulationBatch.objects.get()
    assert created["url"] == f"http://testserver/api/v1/simulations/{batch.pk}/"
    assert response["Location"] == created["url"]
    assert created["page_url"] == f"/simulations/{batch.pk}/"
    detail = owner_client.get(created["url"]).json()
    assert detail["status"] == "done"
    assert detail["progress"] == {
        "games_done": 40, "games": 40, "percent": 100.0, "chunks_done": 4, "chunks": 4,
    }  # fmt: skip
    seat_a, seat_b = batch.seats.all()
    assert detail["deck_a"] == {
        "source": "deck",
        "deck": precon_deck.share_id,
        "code": seat_a.code,
        "name": "Olga's deck 1",
        "agent": "greedy",
        "drafter": "",
    }
    assert detail["deck_b"] == {
        "source": "preconstructed",
        "deck": None,
        "code": seat_b.code,
        "name": "Preconstructed deck 3",
        "agent": "greedy",
        "drafter": "",
    }
    # The general form: one entry per deck, deck A first; deck_a/deck_b are its Duel shorthand.
    assert detail["seats"] == [detail["deck_a"], detail["deck_b"]]
    assert (detail["seed"], detail["games"], detail["mode"]) == (99, 40, "duel")
    summary = simulation.summarise(
        simulation.play_games(selectors.batch_spec(batch), 0, 40),
        selectors.batch_card_names(batch),
    )
    deck_a, deck_b = summary.decks
    results = detail["results"]
    assert results["games"] == 40
    assert results["deck_a"]["wins"] == {
        "wins": deck_a.wins.hits,
        "games": 40,
        "rate": deck_a.wins.hits / 40,
        "low": deck_a.wins.low,
        "high": deck_a.wins.high,
    }
    assert results["deck_b"]["wins"]["wins"] == deck_b.wins.hits
    assert results["seats"] == [results["deck_a"], results["deck_b"]]
    assert results["draws"] == summary.draws
    assert results["first_player"]["wins"] == summary.first_player.hits
    assert results["deck_a"]["when_first"]["games"] == 20
    assert results["turns"] == {str(turns): games for turns, games in summary.turns.items()}
    assert sum(results["ends"].values()) == 40
    assert set(results["notable"]) == {"losses", "draws", "shortest", "longest"}
    assert results["notable"]["shortest"] == [
        {"game": index, "turns": turns} for index, turns in summary.notable["shortest"]
    ]
    assert len(results["notable"]["longest"]) == 5
    troll = next(card for card in results["deck_a"]["cards"] if card["name"] == "Troll")
    row = next(card for card in deck_a.cards if card.name == "Troll")
    assert troll["games_played"] == row.games_played
    assert troll["damage_dealt"] == row.damage
    assert [card["name"] for card in results["deck_a"]["cards"]][:2] == [
        card["name"] for card in seat_a.cards
    ][:2]
    listing = owner_client.get(URL).json()
    assert listing["count"] == 1 and listing["results"][0]["id"] == batch.pk


def test_a_deck_code_and_preconstructed_decks_work_as_well(
    owner_client: Client,
    constructed_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    code = deck_code_of(constructed_deck, viewer=constructed_deck.owner)
    body = {"deck_a": {"code": code}, "deck_b": {"preconstructed": 1}, "games": 10}
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202
    data = response.json()
    assert data["status"] == "queued" and data["results"] is None
    assert data["deck_a"]["source"] == "code" and data["deck_a"]["code"] == code
    assert data["deck_a"]["deck"] is None
    # No AI asked for: the strongest of the Duel's ladder that fits 10 games, in one chunk.
    assert data["deck_a"]["agent"] == data["deck_b"]["agent"] == "learned_deep"
    assert dispatched == [(data["id"], 1)]


def test_the_general_form_names_each_deck_and_its_ai(
    owner_client: Client,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    body = {
        "seats": [
            {"preconstructed": 2, "agent": "random"},
            {"deck": precon_deck.share_id, "agent": "lookahead"},
        ],
        "games": 12,
        "seed": 5,
    }
    response = post_batch(owner_client, body, django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.content
    data = response.json()
    assert [(seat["source"], seat["agent"]) for seat in data["seats"]] == [
        ("preconstructed", "random"), ("deck", "lookahead"),
    ]  # fmt: skip
    assert data["deck_b"]["deck"] == precon_deck.share_id
    batch = SimulationBatch.objects.get()
    assert batch.chunk_size == 10  # a lookahead deck: the slow agent's chunks
    assert selectors.batch_spec(batch).agents == ("random", "lookahead")
    assert list(batch.seats.values_list("index", "preconstructed")) == [(0, 2), (1, None)]


def test_a_duel_takes_two_decks_in_one_form(
    owner_client: Client,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks
    three = {"seats": [{"preconstructed": n} for n in (1, 2, 3)], "games": 10}
    assert _refused(owner_client, three, capture) == {
        "code": "wrong_deck_count",
        "message": "This game mode is played by 2 decks, not 3.",
        "details": {"field": "seats", "expected": 2, "given": 3},
    }
    both = {**_body(precon_deck), "seats": [{"preconstructed": 1}, {"preconstructed": 2}]}
    error = _refused(owner_client, both, capture)
    assert error["code"] == "invalid"
    assert error["details"] == {
        "deck_a": ["Give either `seats` or `deck_a` and `deck_b`, not both."],
        "deck_b": ["Give either `seats` or `deck_a` and `deck_b`, not both."],
        "agent_a": ["Give either `seats` or `deck_a` and `deck_b`, not both."],
        "agent_b": ["Give either `seats` or `deck_a` and `deck_b`, not both."],
    }
    error = _refused(owner_client, {"deck_a": {"preconstructed": 1}, "games": 10}, capture)
    assert error["details"] == {"deck_b": ["Give `seats`, or `deck_a` and `deck_b`."]}
    bad = {"seats": [{"preconstructed": 1, "agent": "genius"}, {"code": "x", "deck": "y"}]}
    error = _refused(owner_client, {**bad, "games": 10}, capture)
    assert error["code"] == "invalid"
    assert list(error["details"]) == ["seats"]
    error = _refused(
        owner_client,
        {"seats": [{"preconstructed": 1}, {"deck": "nope"}], "games": 10},
        capture,
    )
    assert (error["code"], error["details"]) == ("unknown_deck", {"side": "b", "deck": "nope"})
    assert dispatched == []


def _refused(owner_client: Client, body: dict[str, Any], capture: Any) -> dict[str, Any]:
    response = post_batch(owner_client, body, capture)
    assert response.status_code == 400, response.content
    assert not SimulationBatch.objects.exists()
    return response.json()


def test_bad_input_is_a_400_and_queues_nothing(
    owner_client: Client,
    owner: Any,
    other: Any,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    capture = django_capture_on_commit_callbacks

    error = _refused(owner_client, _body(precon_deck, deck_b={"deck": "nope"}), capture)
    assert error == {
        "code": "unknown_deck",
        "message": "There is no deck “nope” you can use.",
        "details": {"side": "b", "deck": "nope"},
    }
    private = make_deck(other, PRECON[2], name="Oscar's secret")
    error = _refused(owner_client, _body(precon_deck, deck_b={"deck": private.share_id}), capture)
    assert error["code"] == "unknown_deck"

    short = make_deck(owner, PRECON[3][:7], name="Seven cards")
    error = _refused(owner_client, _body(short), capture)
    assert error["code"] == "illegal_deck"
    assert error["details"]["side"] == "a"
    assert [item["code"] for item in error["details"]["errors"]] == ["deck_size"]
    assert error["details"]["errors"][0]["message"] == (
        "A Constructed deck holds exactly 8 cards; this one holds 7."
    )

    for games in (0, 10**9):
        error = _refused(owner_client, _body(precon_deck, games=games), capture)
        assert error["code"] == "invalid"
        assert list(error["details"]) == ["games"]

    error = _refused(owner_client, _body(precon_deck, deck_b={"code": "AQAB!!"}), capture)
    assert error["code"] == "invalid_deck_code"
    assert error["details"] == {"side": "b", "reason": "bad_character"}
    code = deck_code_of(precon_deck, viewer=precon_deck.owner)
    mistyped = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    error = _refused(owner_client, _body(precon_deck, deck_b={"code": mistyped}), capture)
    assert error["code"] == "invalid_deck_code"
    assert error["details"]["reason"] in {"checksum", "not_canonical"}

    error = _refused(
        owner_client, _body(precon_deck, deck_b={"preconstructed": 3, "code": code}), capture
    )
    assert error["code"] == "invalid"
    assert "deck_b" in error["details"]
    error = _refused(owner_client, _body(precon_deck, agent_a="genius"), capture)
    assert (error["code"], list(error["details"])) == ("invalid", ["agent_a"])
    assert dispatched == []


def test_limits_answer_429(
    owner_client: Client,
    precon_deck: Deck,
    settings: Any,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.SIMULATION_MAX_ACTIVE_BATCHES = 1
    assert (
        post_batch(owner_client, _body(precon_deck), django_capture_on_commit_callbacks).status_code
        == 202
    )
    response = post_batch(owner_client, _body(precon_deck), django_capture_on_commit_callbacks)
    assert response.status_code == 429
    assert response.json() == {
        "code": "too_many_batches",
        "message": "You already have 1 test batches queued or running: wait for one to finish, "
        "or cancel one.",
        "details": {"limit": 1},
    }
    settings.SIMULATION_MAX_ACTIVE_BATCHES = 5
    settings.SIMULATION_MAX_GAMES_PER_DAY = 50
    response = post_batch(
        owner_client, _body(precon_deck, games=11), django_capture_on_commit_callbacks
    )
    assert response.status_code == 429
    assert response.json()["code"] == "daily_games_limit"
    assert response.json()["details"] == {"limit": 50, "used": 40, "requested": 11}
    assert SimulationBatch.objects.count() == 1
    assert len(dispatched) == 1


def test_cancel(
    owner_client: Client,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    batch_id = post_batch(
        owner_client, _body(precon_deck), django_capture_on_commit_callbacks
    ).json()["id"]
    services.chunk_run(batch_id=batch_id, index=2)
    response = owner_client.post(f"{URL}{batch_id}/cancel/")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "cancelled"
    assert data["progress"]["games_done"] == 10
    assert data["results"]["games"] == 10
    assert owner_client.post(f"{URL}{batch_id}/cancel/").status_code == 200
    assert services.chunk_run(batch_id=batch_id, index=0).chunk is None
    SimulationBatch.objects.filter(pk=batch_id).update(status=Status.DONE)
    response = owner_client.post(f"{URL}{batch_id}/cancel/")
    assert response.status_code == 409
    assert response.json()["code"] == "not_cancellable"


def test_replay_of_one_game(
    owner_client: Client,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    batch_id = post_batch(
        owner_client, _body(precon_deck), django_capture_on_commit_callbacks
    ).json()["id"]
    batch = SimulationBatch.objects.get(pk=batch_id)
    response = owner_client.get(f"{URL}{batch_id}/games/3/replay/")
    assert response.status_code == 200
    data = response.json()
    outcome = simulation.play_game(selectors.batch_spec(batch), 3)
    assert data["index"] == 3
    assert (data["deck_a_seat"], data["first"]) == ("B", "b")
    assert sorted(outcome.returns) == [-1, 1]
    assert data["winner"] == "ab"[outcome.returns.index(1)]
    assert data["seats"] == [
        {"seat": "B", "agent": "greedy", "result": outcome.returns[0]},
        {"seat": "A", "agent": "greedy", "result": outcome.returns[1]},
    ]
    assert (data["turns"], data["end"]) == (outcome.turns, outcome.end)
    assert data["agents"] == {"A": "greedy", "B": "greedy"}
    assert data["page_url"] == f"/simulations/{batch_id}/games/3/"
    state = replays.play(replays.parse(data["replay"]))
    assert state.turn == outcome.turns
    assert data["replay"]["seed"] == simulation.derived_seed(99, 3)
    missing = owner_client.get(f"{URL}{batch_id}/games/40/replay/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "unknown_game"


def test_a_replay_by_another_engine_is_refused_and_the_results_stay(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    """A batch played before the rules or the agents changed: replaying its game 3 today would
    show another game than the one its totals counted."""
    batch = create_batch(owner, precon_deck, 20, opponent=3)
    run_chunks(batch)
    url = f"{URL}{batch.pk}/"
    assert owner_client.get(url).json()["replayable"] is True
    assert owner_client.get(f"{url}games/3/replay/").status_code == 200
    SimulationBatch.objects.filter(pk=batch.pk).update(engine_digest="0" * 64)
    response = owner_client.get(f"{url}games/3/replay/")
    assert response.status_code == 409
    assert response.json() == {
        "code": "engine_changed",
        "message": "The games of this test batch were played by another version of the rules "
        "engine or of its AIs: replaying game 3 today would show a different game. The "
        "batch's results remain those of the games it played.",
        "details": {"batch": batch.pk, "index": 3},
    }
    detail = owner_client.get(url).json()
    assert detail["replayable"] is False
    assert detail["results"]["games"] == 20
    assert detail["results"] == owner_client.get(url).json()["results"]
    french = owner_client.get(f"{url}games/3/replay/?lang=fr").json()
    assert french["message"].startswith("Les parties de cette série de test ont été jouées par une")


def test_only_the_requester_sees_a_batch(
    owner_client: Client,
    other: Any,
    precon_deck: Deck,
    dispatched: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    batch_id = post_batch(
        owner_client, _body(precon_deck), django_capture_on_commit_callbacks
    ).json()["id"]
    stranger = Client()
    stranger.force_login(other)
    for response in (
        stranger.get(f"{URL}{batch_id}/"),
        stranger.post(f"{URL}{batch_id}/cancel/"),
        stranger.get(f"{URL}{batch_id}/games/0/replay/"),
    ):
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    assert stranger.get(URL).json()["count"] == 0
    anonymous = Client()
    assert anonymous.get(f"{URL}{batch_id}/").status_code == 403
    response = anonymous.post(URL, _body(precon_deck), content_type="application/json")
    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"


def test_the_schema_documents_the_endpoints(owner_client: Client) -> None:
    schema = owner_client.get("/api/v1/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/v1/simulations/"]) == {"get", "post"}
    assert "202" in paths["/api/v1/simulations/"]["post"]["responses"]
    assert "429" in paths["/api/v1/simulations/"]["post"]["responses"]
    assert "/api/v1/simulations/{batch_id}/cancel/" in paths
    assert "/api/v1/simulations/{batch_id}/games/{index}/replay/" in paths
    # A replay's `end`: how a game of any mode may end (schemathesis once met a Solo ending the
    # schema did not list).
    assert schema["components"]["schemas"]["EndEnum"]["enum"] == [
        "fort_destroyed",
        "empty_hand_bastion",
        "empty_hand_fort",
        "turn_limit",
        "deck_pile_emptied",
    ]
