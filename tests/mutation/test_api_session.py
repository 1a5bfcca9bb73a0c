"""A whole Mutation session played through the API, and the API's permissions."""

from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from mutation.draft import hand_origin
from mutation.models import DraftCard, Mutation
from tests.mutation.conftest import DECK_1, LAB_1, fast_draft

pytestmark = pytest.mark.django_db

BASE = "/api/v1/mutation-sessions/"
# Round and table → winning seat. Round 1 is (1 v 2, 3 v 4), round 2 (1 v 3, 2 v 4),
# round 3 (1 v 4, 2 v 3); rounds 4-6 replay them.
WINNERS = {
    (1, 1): 2, (1, 2): 3,
    (2, 1): 1, (2, 2): 2,
    (3, 1): 4, (3, 2): 2,
    (4, 1): 1, (4, 2): 3,
    (5, 1): 3, (5, 2): 2,
    (6, 1): 1, (6, 2): 3,
}  # fmt: skip
POINTS = {"attack": Decimal("0.5"), "hp": Decimal("0.5"), "mana": Decimal("1")}


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def ok(response, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def stat_mutation(view: dict, remaining: Decimal) -> tuple[dict, Decimal] | None:
    """A legal value mutation a careful player would pick: the first deck creature whose box is
    still printed and a Laboratory value that improves it within the budget left."""
    for deck_card in view["deck"]:
        if deck_card["card"]["type"] != "creature":
            continue
        now = deck_card["now"]
        for lab_card in view["laboratory"]:
            for element in lab_card["elements"]:
                kind, value = element["element"], element["value"]
                if kind not in POINTS or element["used"] or kind in now["mutated"]:
                    continue
                gain = now[kind] - value if kind == "mana" else value - now[kind]
                cost = gain * POINTS[kind]
                if gain > 0 and value <= 9 and cost <= remaining:
                    payload = {
                        "seat": view["number"],
                        "target": deck_card["card"]["slug"],
                        "source": lab_card["card"]["slug"],
                        "element": kind,
                    }
                    return payload, cost
    return None


def test_a_whole_session_through_the_api(catalogue, organiser, players) -> None:
    orga = client_for(organiser)
    session = ok(
        orga.post(
            BASE,
            {
                "name": "Club night",
                "expansion_a": "submersion",
                "expansion_b": "elusive",
                "seed": 77,
            },
            format="json",
        ),
        201,
    )
    assert (session["status"], session["seed"], len(session["games"])) == ("draft", 77, 12)
    url = f"{BASE}{session['id']}/"
    clients = {}
    for seat, player in zip(session["seats"], players, strict=True):
        clients[seat["number"]] = client_for(player)
        joined = ok(clients[seat["number"]].post(f"{BASE}join/", {"token": seat["join_token"]}))
        assert joined["id"] == session["id"]

    # The draft: each player on their own phone picks the first card of the hand in front of them.
    dealt: dict[int, list[int]] = {n: [] for n in (1, 2, 3, 4)}
    for row in DraftCard.objects.filter(session_id=session["id"]).order_by(
        "dealt_to", "deal_order"
    ):
        dealt[row.dealt_to].append(row.card.slug)
    picked: list[str] = []
    for pick in range(16):
        for number in (1, 2, 3, 4):
            view = ok(clients[number].get(f"{url}seats/{number}/"))
            hand = [card["slug"] for card in view["hand"]]
            # The hand that reaches seat n at pick k is the one dealt to seat n-k, minus its picks.
            origin = hand_origin(number, pick)
            assert hand == [slug for slug in dealt[origin] if slug not in picked]
            view = ok(clients[number].post(f"{url}picks/", {"seat": number, "card": hand[0]}), 201)
            picked.append(hand[0])
            assert [card["slug"] for card in view["picks"]][-1] == hand[0]
    assert sorted(picked) == sorted(slug for hand in dealt.values() for slug in hand)
    assert len(set(picked)) == 64
    assert ok(orga.get(url))["status"] == "deckbuilding"

    # Decks: the first 8 picks; the rest is the Laboratory.
    for number, client in clients.items():
        picks = [c["slug"] for c in ok(client.get(f"{url}seats/{number}/"))["picks"]]
        view = ok(client.post(f"{url}deck/", {"seat": number, "cards": picks[:8]}, format="json"))
        assert [c["card"]["slug"] for c in view["deck"]] == picks[:8]
        assert [c["card"]["slug"] for c in view["laboratory"]] == picks[8:]
        assert view["stronghold"] == "stronghold-submersion"

    # Six rounds: a Mutation Phase for each player before each game, then the games.
    spent_per_phase: dict[tuple[int, int], Decimal] = {}
    for round_number in range(1, 7):
        for number, client in clients.items():
            view = ok(client.get(f"{url}seats/{number}/"))
            assert view["budget"]["phase"] == round_number
            assert Decimal(view["budget"]["remaining"]) == Decimal("2.5")  # nothing carried over
            remaining = Decimal("2.5")
            while (choice := stat_mutation(view, remaining)) is not None:
                payload, cost = choice
                quote = ok(client.post(f"{url}mutations/quote/", payload, format="json"))
                assert Decimal(quote["cost"]) == cost
                mutation = ok(client.post(f"{url}mutations/", payload, format="json"), 201)
                assert (mutation["phase"], Decimal(mutation["cost"])) == (round_number, cost)
                remaining -= cost
                spent_per_phase[(number, round_number)] = Decimal("2.5") - remaining
                view = ok(client.get(f"{url}seats/{number}/"))
                assert Decimal(view["budget"]["remaining"]) == remaining
        for table in (1, 2):
            winner = WINNERS[(round_number, table)]
            game = ok(
                clients[winner].post(
                    f"{url}results/", {"round": round_number, "table": table, "winner": winner}
                )
            )
            assert game["winner"] == winner
    assert all(Decimal(0) < spent <= Decimal("2.5") for spent in spent_per_phase.values())
    assert len(spent_per_phase) >= 12
    for row in Mutation.objects.filter(seat__session_id=session["id"]):
        assert row.value_after <= 9

    final = ok(orga.get(url))
    assert final["status"] == "finished"
    standings = ok(orga.get(f"{url}standings/"))
    assert [
        (row["seat"], row["rank"], row["wins"], row["losses"], row["tied"])
        for row in standings["standings"]
    ] == [(2, 1, 4, 2, True), (3, 1, 4, 2, True), (1, 3, 3, 3, False), (4, 4, 1, 5, False)]
    assert [row["wins"] for row in standings["grid"]] == [3, 4, 4, 1]
    assert standings["grid"][0]["cells"][1] == {"opponent": 2, "outcomes": ["L", "W"]}
    assert standings["grid"][0]["cells"][0] is None

    # The mutated deck, as the engine will play it.
    view = ok(clients[1].get(f"{url}seats/1/"))
    engine = ok(clients[1].get(f"{url}seats/1/engine-deck/"))
    assert [card["cost"] for card in engine] == [card["now"]["mana"] for card in view["deck"]]
    assert [card["attack"] for card in engine] == [card["now"]["attack"] for card in view["deck"]]
    assert [card.get("hp") for card in engine] == [card["now"]["hp"] for card in view["deck"]]
    # Kept after the session: saved in the player's decks.
    saved = ok(clients[1].post(f"{url}seats/1/export/"), 201)
    assert (saved["format"], saved["name"]) == ("mutation", "Club night: mutated deck of ana")
    assert clients[2].post(f"{url}seats/1/export/").status_code == 403
    # After the sixth game the decks can no longer mutate.
    refused = clients[1].post(
        f"{url}mutations/",
        {
            "seat": 1,
            "target": view["deck"][0]["card"]["slug"],
            "source": view["laboratory"][0]["card"]["slug"],
            "element": "hp",
        },
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "no_mutation_phase"


# --- permissions ----------------------------------------------------------------------------------


@pytest.fixture
def api_session(ready_session, players):
    for seat, player in zip(ready_session.seats.all(), players[:2], strict=False):
        seat.user = player
        seat.save()
    return ready_session


def test_anonymous_visitors_cannot_organise(catalogue) -> None:
    response = client_for().post(
        BASE, {"name": "x", "expansion_a": "treachery", "expansion_b": "resistance"}
    )
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_authenticated"


def test_strangers_see_nothing(api_session, django_user_model) -> None:
    stranger = client_for(django_user_model.objects.create_user("eve", password="pw-eve-1234567"))
    url = f"{BASE}{api_session.pk}/"
    for path in ("", "seats/1/", "standings/", "mutations/", "results/", "costs/"):
        response = stranger.get(url + path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found"
    assert ok(stranger.get(BASE))["count"] == 0
    assert client_for().get(url).status_code == 404


def test_players_see_and_act_for_their_own_seat_only(api_session, players) -> None:
    url = f"{BASE}{api_session.pk}/"
    ana = client_for(players[0])
    detail = ok(ana.get(url))
    assert [seat["join_token"] is not None for seat in detail["seats"]] == [
        True,
        False,
        False,
        False,
    ]
    assert ok(ana.get(f"{url}seats/1/"))["number"] == 1
    refused = ana.get(f"{url}seats/2/")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_seat")
    attempt = ana.post(
        f"{url}mutations/",
        {"seat": 2, "target": "titan", "source": "swarmer", "element": "hp"},
        format="json",
    )
    assert (attempt.status_code, attempt.json()["code"]) == (403, "not_your_seat")
    assert Mutation.objects.count() == 0
    assert {m["seat"] for m in ok(ana.get(f"{url}mutations/"))} == set()
    ok(
        ana.post(
            f"{url}mutations/",
            {"seat": 1, "target": "mad-scientist", "source": "titan", "element": "hp"},
            format="json",
        ),
        201,
    )
    bo = client_for(players[1])
    assert ok(bo.get(f"{url}mutations/")) == []
    assert [m["target"] for m in ok(ana.get(f"{url}mutations/"))] == ["mad-scientist"]
    orga = client_for(api_session.organiser)
    assert [m["seat"] for m in ok(orga.get(f"{url}mutations/?seat=1"))] == [1]
    assert ok(orga.get(f"{url}seats/3/"))["number"] == 3


def test_a_guest_acts_with_the_seat_token_header(api_session) -> None:
    url = f"{BASE}{api_session.pk}/"
    seat3 = api_session.seats.get(number=3)
    guest = APIClient()
    guest.credentials(HTTP_X_SEAT_TOKEN=seat3.join_token)
    view = ok(guest.get(f"{url}seats/3/"))
    assert view["name"] == "Cy"
    assert guest.get(f"{url}seats/4/").status_code == 403
    game = ok(guest.post(f"{url}results/", {"round": 1, "table": 2, "winner": 3}))
    assert game == {"round": 1, "table": 2, "seat_a": 3, "seat_b": 4, "winner": 3}


def test_a_refused_mutation_names_its_rule_in_the_request_language(api_session, players) -> None:
    url = f"{BASE}{api_session.pk}/"
    ana = client_for(players[0])
    payload = {
        "seat": 1,
        "target": "reaper",
        "source": "veteran",
        "element": "ability:1",
        "covers": [1],
    }
    response = ana.post(f"{url}mutations/", payload, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "code": "malus_not_gainable",
        "message": "Defender is a malus: a creature never gains a malus by mutation.",
        "details": {"rule": "malus_not_gainable", "ability": "defender"},
    }
    french = ana.post(f"{url}mutations/?lang=fr", payload, format="json")
    assert french.json()["message"] == (
        "Défenseur est un malus : une créature ne gagne jamais de malus par mutation."
    )
    swedish = ana.post(f"{url}mutations/?lang=sv", payload, format="json")
    assert swedish.json()["code"] == "malus_not_gainable"
    assert swedish.json()["message"] != response.json()["message"]
    assert Mutation.objects.count() == 0


def test_a_quote_changes_nothing(api_session, players) -> None:
    url = f"{BASE}{api_session.pk}/"
    ana = client_for(players[0])
    quote = ok(
        ana.post(
            f"{url}mutations/quote/",
            {
                "seat": 1,
                "target": "sylvan-protector",
                "source": "democular",
                "element": "ability:1",
                "covers": [2, 3],
            },
            format="json",
        )
    )
    assert quote == {
        "kind": "ability",
        "value_before": None,
        "value_after": None,
        "ability": "aura:berserk",
        "covers": [2, 3],
        "covered_abilities": ["perforation", "splash"],
        "cost": "1.0",
        "remaining_after": "1.5",
    }
    assert Mutation.objects.count() == 0


def test_the_organiser_edits_the_cost_table(api_session, players) -> None:
    url = f"{BASE}{api_session.pk}/"
    orga = client_for(api_session.organiser)
    line = ok(orga.post(f"{url}costs/", {"key": "budget", "points": "3.5"}))
    assert line == {"key": "budget", "ability_code": "", "points": "3.5"}
    table = {(r["key"], r["ability_code"]): r["points"] for r in ok(orga.get(f"{url}costs/"))}
    assert table[("budget", "")] == "3.5"
    assert table[("cover", "defender")] == "1.5"
    assert table[("ability", "rage")] == "1.5"
    assert len(table) == 32
    refused = client_for(players[0]).post(f"{url}costs/", {"key": "budget", "points": "9"})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
    assert ok(client_for(players[0]).get(f"{url}seats/1/"))["budget"]["budget"] == "3.5"


def test_validation_errors_name_the_field(api_session, players) -> None:
    url = f"{BASE}{api_session.pk}/"
    response = client_for(players[0]).post(
        f"{url}mutations/",
        {"seat": 1, "target": "no-such-card", "source": "titan", "element": "hp"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "target" in response.json()["details"]


def test_fast_draft_helper_sanity(catalogue, organiser) -> None:
    """The set-up helper the rule tests rely on gives seat 1 exactly its listed cards."""
    from tests.mutation.conftest import new_session

    session = new_session(organiser)
    pools = fast_draft(session, {1: DECK_1 + LAB_1})
    assert [len(cards) for cards in pools.values()] == [16, 16, 16, 16]
    assert len({card for cards in pools.values() for card in cards}) == 64


def test_the_openapi_schema_documents_every_action(client) -> None:
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = {path for path in schema["paths"] if path.startswith("/api/v1/mutation-sessions/")}
    assert paths == {
        "/api/v1/mutation-sessions/",
        "/api/v1/mutation-sessions/join/",
        "/api/v1/mutation-sessions/{id}/",
        "/api/v1/mutation-sessions/{id}/picks/",
        "/api/v1/mutation-sessions/{id}/deck/",
        "/api/v1/mutation-sessions/{id}/mutations/",
        "/api/v1/mutation-sessions/{id}/mutations/quote/",
        "/api/v1/mutation-sessions/{id}/results/",
        "/api/v1/mutation-sessions/{id}/standings/",
        "/api/v1/mutation-sessions/{id}/costs/",
        "/api/v1/mutation-sessions/{id}/seats/{number}/",
        "/api/v1/mutation-sessions/{id}/seats/{number}/engine-deck/",
        "/api/v1/mutation-sessions/{id}/seats/{number}/export/",
    }
    post = schema["paths"]["/api/v1/mutation-sessions/{id}/mutations/"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body == "#/components/schemas/MutationInput"
    assert {p["name"] for p in post["parameters"]} == {"id", "X-Seat-Token"}
