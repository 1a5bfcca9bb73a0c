"""Draft tables: the seats draft their decks at the table with the mode's procedure (ruling
D1-D6), then play them; each seat sees only its own pack and picks."""

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.rules.drafts import PROCEDURES
from play.models import DraftPick, Game, Seat
from play.position_selectors import draft_state

from .conftest import dealt, join_as_guest

pytestmark = pytest.mark.django_db

COMPUTER = {"kind": "agent", "agent": "greedy"}


def _view(client: APIClient, uid: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{uid}/")
    assert response.status_code == 200, response.json()
    data: dict[str, Any] = response.json()
    return data


def _draft_table(
    client: APIClient, others: list[dict[str, Any]], seed: int, **extra: Any
) -> dict[str, Any]:
    """A Draft table of the deal of `seed`, drawn by the server (`dealt`)."""
    body = {"format": "draft", "pool": "initiation", "seats": [{"kind": "me"}, *others], **extra}
    with dealt(seed):
        response = client.post("/api/v1/games/", body, format="json")
    assert response.status_code == 201, response.json()
    data: dict[str, Any] = response.json()
    return data


def _pick(client: APIClient, uid: str, cards: list[int], client_id: str) -> Any:
    return client.post(
        f"/api/v1/games/{uid}/pick/", {"client_id": client_id, "cards": cards}, format="json"
    )


def _pick_first(client: APIClient, uid: str, view: dict[str, Any]) -> dict[str, Any]:
    """Take the first cards of my pack."""
    draft = view["draft"]
    cards = [card["id"] for card in draft["pack"][: draft["count"]]]
    response = _pick(client, uid, cards, f"p{draft['pick_count']}")
    assert response.status_code == 200, response.json()
    data: dict[str, Any] = response.json()
    return data


def _draft_alone(client: APIClient, uid: str) -> dict[str, Any]:
    """Draft against computer seats only: pick until the game starts."""
    view = _view(client, uid)
    while view["status"] == "drafting":
        view = _pick_first(client, uid, view)
    return view


def _names(cards: list[dict[str, Any]]) -> list[str]:
    return [card["name"] for card in cards]


def test_a_duel_draft_against_the_computer_is_picked_then_played(olga_api: APIClient) -> None:
    table = _draft_table(olga_api, [COMPUTER], seed=5)
    uid = table["id"]
    assert table["status"] == "drafting"
    assert table["active"] == "A"
    view = _view(olga_api, uid)
    assert view["state"] is None
    draft = view["draft"]
    assert {key: draft[key] for key in ("pool", "procedure", "rule_id", "to_pick", "count")} == {
        "pool": "initiation",
        "procedure": "duel",
        "rule_id": "format-draft",
        "to_pick": "A",
        "count": 1,
    }
    assert _names(draft["pack"]) == ["Alpha", "Grrr", "Partisan", "Scribe"]
    assert draft["pack"][0] == {
        "id": 4,
        "name": "Alpha",
        "cost": 5,
        "attack": 4,
        "hp": 2,
        "creature": True,
        "abilities": ["perforation", "indestructible", "protection"],
    }
    # A takes 1 of 4, the computer 2 of the 3 left, A the last (ABBA): my pick again at once.
    view = _pick(olga_api, uid, [4], "first").json()
    draft = view["draft"]
    assert _names(draft["picks"]) == ["Alpha"]
    assert draft["held"] == {"A": 1, "B": 2}
    assert (draft["count"], draft["pick_count"]) == (1, 2)
    rows = DraftPick.objects.filter(game__uid=uid).values_list("seat", "client_id", "cards")
    assert list(rows) == [(0, "first", [4]), (1, "agent-1", [2, 24])]
    assert _names(draft["pack"]) == ["Grrr"]
    view = _draft_alone(olga_api, uid)
    # Four rounds: 8 cards each, then the game starts with the drafted decks.
    assert view["status"] == "playing"
    assert view["draft"]["pick_count"] == 12
    assert view["draft"]["to_pick"] is None
    assert view["draft"]["held"] == {"A": 8, "B": 8}
    mine = _names(view["draft"]["picks"])
    assert mine == [
        "Alpha",
        "Grrr",
        "Annihilation",
        "Ogre",
        "Brigand",
        "Assassin",
        "Carapace",
        "Machine",
    ]
    assert sorted(_names(view["state"]["players"][0]["hand"])) == sorted(mine)
    seats = Seat.objects.filter(game__uid=uid).order_by("index")
    assert [seat.deck_name for seat in seats] == ["Drafted deck", "Drafted deck"]
    assert [len(seat.slugs) for seat in seats] == [8, 8]
    assert not set(seats[0].slugs) & set(seats[1].slugs)
    # Played to the end through the API: my cards first, else an Assault, else end the turn.
    for turn in range(400):
        if view["status"] == "finished":
            break
        actions = olga_api.get(f"/api/v1/games/{uid}/actions/").json()
        kinds = {action["kind"]: action for action in reversed(actions)}
        action = next(
            kinds[kind] for kind in ("play", "cast", "assault", "end_turn") if kind in kinds
        )
        response = olga_api.post(
            f"/api/v1/games/{uid}/act/", {"client_id": f"a{turn}", **action}, format="json"
        )
        assert response.status_code == 200, response.json()
        view = response.json()
    assert view["status"] == "finished"
    game = Game.objects.get(uid=uid)
    assert (game.winners, game.turn, game.action_count) == ([1], 6, 21)
    replay = olga_api.get(f"/api/v1/games/{uid}/replay/").json()
    # The replay holds the drafted decks.
    assert sorted(card["name"] for card in replay["decks"][0]) == sorted(mine)


def test_picks_are_refused_out_of_turn_or_naming_a_card_not_in_my_pack(
    olga_api: APIClient,
) -> None:
    table = _draft_table(olga_api, [{"kind": "invite"}], seed=5)
    uid = table["id"]
    assert table["status"] == "waiting"
    guest = join_as_guest(uid, table["invite_code"], deck=None)
    assert _view(guest, uid)["status"] == "drafting"
    refused = _pick(guest, uid, [4], "g1")
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_your_pick"
    assert refused.json()["details"] == {"active": "A"}
    # Card 7 is in the pool, not in my pack.
    bad = _pick(olga_api, uid, [7], "o1")
    assert bad.status_code == 400
    assert bad.json()["code"] == "illegal_pick"
    assert bad.json()["details"] == {
        "field": "cards",
        "refusal": "draft_not_revealed",
        "rule_id": "format-draft",
        "card": 7,
    }
    count = _pick(olga_api, uid, [4, 12], "o2")
    assert count.status_code == 400
    assert count.json()["details"] == {
        "field": "cards",
        "refusal": "draft_wrong_count",
        "rule_id": "format-draft",
        "count": 1,
        "given": 2,
    }
    # The same client id picks once.
    for _ in range(2):
        assert _pick(olga_api, uid, [4], "o3").status_code == 200
    assert DraftPick.objects.filter(game__uid=uid).count() == 1
    assert _view(guest, uid)["draft"]["count"] == 2
    # Not a game yet.
    act = guest.post(f"/api/v1/games/{uid}/act/", {"client_id": "x", "kind": "assault"})
    assert (act.status_code, act.json()["code"]) == (409, "not_started")


def test_a_finished_draft_refuses_picks(olga_api: APIClient) -> None:
    uid = _draft_table(olga_api, [COMPUTER], seed=5)["id"]
    _draft_alone(olga_api, uid)
    refused = _pick(olga_api, uid, [4], "late")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_drafting")


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"pool": ""}, {"code": "pool_required", "details": {"field": "pool"}}),
        (
            {"pool": "nowhere"},
            {"code": "unknown_pool", "details": {"field": "pool", "pool": "nowhere"}},
        ),
        (
            {"seats": [{"kind": "me", "deck": {"preconstructed": 1}}, COMPUTER]},
            {"code": "wrong_format", "details": {"side": "a", "format": "draft"}},
        ),
        (
            {"format": "preconstructed"},
            {
                "code": "pool_without_draft",
                "details": {"field": "pool", "format": "preconstructed"},
            },
        ),
    ],
)
def test_a_draft_table_needs_a_pool_and_no_deck(
    olga_api: APIClient, changes: dict[str, Any], error: dict[str, Any]
) -> None:
    body = {"format": "draft", "pool": "initiation", "seats": [{"kind": "me"}, COMPUTER], **changes}
    if changes.get("format") == "preconstructed":
        body["seats"] = [{"kind": "me", "deck": {"preconstructed": 1}}, COMPUTER]
    response = olga_api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400
    assert {key: response.json()[key] for key in ("code", "details")} == error


def test_every_player_sees_the_revealed_cards_and_every_pick(olga_api: APIClient) -> None:
    """The rulebook (format-draft): the round's cards are revealed and "for the whole duration
    of the Draft, the cards chosen by the players remain visible" (issue 29: the other seat's
    picks showed only as "B: 7 cards"). Through the whole draft of two players, the guest's view
    and page show the cards revealed while I pick and every card I picked; a spectator none."""
    table = _draft_table(olga_api, [{"kind": "invite"}], seed=9, listed=True)
    uid = table["id"]
    guest_page = Client()
    response = guest_page.post(f"/play/{uid}/join/{table['invite_code']}/", {"guest_name": "Gus"})
    assert response.status_code == 302
    token = guest_page.session["play-seat-tokens"][uid]
    guest = APIClient()
    guest.credentials(HTTP_X_SEAT_TOKEN=token)
    view = _view(olga_api, uid)
    while view["status"] == "drafting":
        draft = view["draft"]
        if draft["to_pick"] == "A":
            seen = _view(guest, uid)["draft"]
            # My pack is face up for the guest too, though only I pick from it.
            assert seen["pack"] == [] and seen["count"] == 0
            assert seen["revealed"] == draft["pack"] == draft["revealed"]
            page = guest_page.get(f"/play/{uid}/").content.decode()
            assert 'class="board-hand play-revealed"' in page
            view = _pick_first(olga_api, uid, view)
        else:
            assert draft["pack"] == []
            _pick_first(guest, uid, _view(guest, uid))
            view = _view(olga_api, uid)
        seen = _view(guest, uid)["draft"]
        assert seen["seat_picks"] == view["draft"]["seat_picks"]
        assert seen["seat_picks"]["A"] == view["draft"]["picks"]
    assert view["status"] == "playing"
    guest_view = _view(guest, uid)
    assert [len(cards) for cards in guest_view["draft"]["seat_picks"].values()] == [8, 8]
    assert view["draft"]["held"] == guest_view["draft"]["held"] == {"A": 8, "B": 8}


def test_a_draft_resumes_from_the_seed_and_the_stored_picks(olga_api: APIClient) -> None:
    uid = _draft_table(olga_api, [COMPUTER], seed=5)["id"]
    _pick(olga_api, uid, [4], "first")
    game = Game.objects.get(uid=uid)
    draft = draft_state(game)
    # A fresh replay of the picks: the pack I see now.
    assert draft.revealed == [12]
    assert draft.decks == [[4], [2, 24]]
    assert _view(olga_api, uid)["draft"]["pack"][0]["id"] == 12


def test_a_solo_draft_gives_the_ai_the_cards_i_leave(olga_api: APIClient) -> None:
    body = {"mode": "solo", "format": "draft", "pool": "initiation", "seats": [{"kind": "me"}]}
    response = olga_api.post("/api/v1/games/", {**body, "seed": 3}, format="json")
    assert response.status_code == 201, response.json()
    uid = response.json()["id"]
    view = _view(olga_api, uid)
    assert view["draft"]["procedure"] == "solo"
    assert view["draft"]["rule_id"] == "solo-setup"
    assert (view["draft"]["count"], len(view["draft"]["pack"])) == (1, 4)
    assert view["draft"]["gives_rest"] is True
    view = _draft_alone(olga_api, uid)
    assert view["status"] == "playing"
    assert view["draft"]["pick_count"] == 8
    seats = list(Seat.objects.filter(game__uid=uid).order_by("index"))
    assert [seat.deck_name for seat in seats] == ["Drafted deck", "The Solo AI"]
    assert [len(seat.cards or []) for seat in seats] == [8, 24]
    # The AI's 24 are the 32 cards of the pool but mine.
    assert len(set(seats[0].slugs) | set(seats[1].slugs)) == 32
    me, ai = view["state"]["players"]
    assert ai["controller"] == "automaton"
    assert len(me["hand"]) == 8


def test_a_four_player_draft_with_three_computers(olga_api: APIClient) -> None:
    uid = _draft_table(olga_api, [COMPUTER, COMPUTER, COMPUTER], mode="free_for_all", seed=2)["id"]
    view = _view(olga_api, uid)
    draft = view["draft"]
    assert (draft["procedure"], draft["rule_id"]) == ("four_players", "multiplayer-draft")
    # Round 1 (ABCDDCBA): A 1 of 8 first.
    assert (draft["to_pick"], draft["count"], len(draft["pack"])) == ("A", 1, 8)
    view = _pick_first(olga_api, uid, view)
    # B, C, D (2), C, B took theirs: A the last card.
    assert view["draft"]["held"] == {"A": 1, "B": 2, "C": 2, "D": 2}
    assert (view["draft"]["count"], len(view["draft"]["pack"])) == (1, 1)
    view = _draft_alone(olga_api, uid)
    assert view["status"] == "playing"
    assert view["draft"]["held"] == {"A": 8, "B": 8, "C": 8, "D": 8}
    slugs = [seat.slugs for seat in Seat.objects.filter(game__uid=uid).order_by("index")]
    assert [len(deck) for deck in slugs] == [8, 8, 8, 8]
    assert len({slug for deck in slugs for slug in deck}) == 32
    assert len(view["state"]["players"]) == 4


def test_a_coop_draft_with_a_computer_partner(olga_api: APIClient) -> None:
    uid = _draft_table(olga_api, [COMPUTER], mode="coop", pool="01,02", seed=4)["id"]
    view = _view(olga_api, uid)
    draft = view["draft"]
    assert (draft["procedure"], draft["to_pick"], draft["count"]) == ("coop", "A", 1)
    assert len(draft["pack"]) == PROCEDURES["coop"].reveal == 8
    assert draft["held"] == {"A": 0, "C": 0}
    view = _draft_alone(olga_api, uid)
    assert view["status"] == "playing"
    assert view["draft"]["held"] == {"A": 8, "C": 8}
    seats = list(Seat.objects.filter(game__uid=uid).order_by("index"))
    assert [len(seat.cards or []) for seat in seats] == [8, 48, 8, 48]
    assert [seat.deck_name for seat in seats] == [
        "Drafted deck",
        "The Co-op AI",
        "Drafted deck",
        "The Co-op AI",
    ]
    players = view["state"]["players"]
    # The AI's 48 cards divided into two deck piles of 24.
    assert [player["controller"] for player in players] == [
        "hand",
        "automaton",
        "hand",
        "automaton",
    ]


def test_conceding_during_the_draft_ends_the_table_without_a_replay(olga_api: APIClient) -> None:
    uid = _draft_table(olga_api, [COMPUTER], seed=5)["id"]
    _pick(olga_api, uid, [4], "first")
    view = olga_api.post(f"/api/v1/games/{uid}/concede/").json()
    assert (view["status"], view["winners"], view["state"]) == ("finished", ["B"], None)
    assert view["draft"]["to_pick"] is None
    assert _names(view["draft"]["picks"]) == ["Alpha"]
    replay = olga_api.get(f"/api/v1/games/{uid}/replay/")
    assert (replay.status_code, replay.json()["code"]) == (409, "not_finished")


def test_a_spectator_of_a_draft_sees_who_picks_but_no_card(olga_api: APIClient) -> None:
    table = _draft_table(olga_api, [{"kind": "invite"}], seed=9)
    uid = table["id"]
    join_as_guest(uid, table["invite_code"], deck=None)
    view = _view(olga_api, uid)
    taken = view["draft"]["pack"][: view["draft"]["count"]]
    view = _pick_first(olga_api, uid, view)
    watcher = Client()
    spectated = watcher.get(table["spectate_url"])
    assert spectated.status_code == 200
    draft = spectated.json()["draft"]
    assert draft["to_pick"] == "B"
    assert draft["pack"] == draft["picks"] == []
    assert draft["count"] == 0
    assert draft["held"] == {"A": 1, "B": 0}
    page = watcher.get(table["watch_url"]).content.decode()
    board = watcher.get(f"{table['watch_url']}board/").content.decode()
    for name in _names(taken) + _names(view["draft"]["picks"]):
        assert name not in json.dumps(spectated.json())
        assert name not in page
        assert name not in board
