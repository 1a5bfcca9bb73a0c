"""A refusal at a table names only what the seat that asked may see. Card ids are positions in
the decks (at a Draft table, in the pool), so a refusal that named the card behind any id asked
for would list another seat's hand, a Draft's hidden picks, Co-op's AI piles: the seat reads the
card it cannot see by the id it sent, as a card that does not exist, in every language, through
the API and the table's page."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from engine.rules.drafts import pending
from engine.rules.kingdom import HandKingdom
from play.models import Game
from play.position_selectors import draft_state, game_state

from .conftest import create_table, dealt, join_as_guest

pytestmark = pytest.mark.django_db

NOT_IN_HAND = {
    "en": "Illegal action: card {card} is not in your hand.",
    "fr": "Action interdite : la carte {card} n'est pas dans votre main.",
    "sv": "Otillåtet drag: kort {card} finns inte på din hand.",
}


def _invited_duel(olga_api: APIClient) -> tuple[Game, dict[str, APIClient]]:
    """A Duel against an invited guest (seed 7: the guest, B, plays first), each seat's client
    by letter."""
    with dealt(7):
        table = create_table(olga_api, {"kind": "invite"})
    guest = join_as_guest(table["id"], table["invite_code"])
    return Game.objects.get(uid=table["id"]), {"A": olga_api, "B": guest}


def _act(client: APIClient, game: Game, card: int, language: str = "en") -> dict[str, Any]:
    response = client.post(
        f"/api/v1/games/{game.uid}/act/?lang={language}",
        {"client_id": f"probe-{card}", "kind": "play", "card": card, "arg": 0},
        format="json",
    )
    assert response.status_code == 400, response.json()
    body: dict[str, Any] = response.json()
    return body


def test_acting_with_each_card_id_of_the_table_names_no_card_of_another_hand(
    olga_api: APIClient,
) -> None:
    game, clients = _invited_duel(olga_api)
    state = game_state(game)
    active = state.active
    mine = state.players[active]
    assert isinstance(mine, HandKingdom)
    names = state.setup.names
    others = [card for card in range(len(names)) if card not in mine.hand]
    mine_names = {names[card] for card in mine.hand}
    hidden_names = {names[card] for card in others} - mine_names
    assert len(others) == 8 and hidden_names
    for card in others:
        for language, message in NOT_IN_HAND.items():
            body = _act(clients["AB"[active]], game, card, language)
            assert body == {
                "code": "illegal_action",
                "message": message.format(card=card),
                "details": {"rule_id": "phase-2-summoning", "refusal": "not_in_hand", "card": card},
            }
    # No different from a card that does not exist.
    assert _act(clients["AB"[active]], game, 999)["message"] == NOT_IN_HAND["en"].format(card=999)


def test_a_refusal_names_a_card_of_my_hand_in_my_language(olga_api: APIClient) -> None:
    game, clients = _invited_duel(olga_api)
    state = game_state(game)
    mine = state.players[state.active]
    assert isinstance(mine, HandKingdom)
    rightmost = mine.hand[-1]
    name = state.setup.names[rightmost]
    messages = {
        "en": f"Illegal action: {name} is not among the 4 leftmost cards of your hand.",
        "fr": f"Action interdite : {name} n'est pas l'une des 4 cartes les plus à gauche de "
        "votre main.",
        "sv": f"Otillåtet drag: {name} är inte ett av de 4 korten längst till vänster på din hand.",
    }
    for language, message in messages.items():
        body = _act(clients["AB"[state.active]], game, rightmost, language)
        assert body["message"] == message
        assert body["details"] == {
            "rule_id": "phase-2-available-cards",
            "refusal": "not_available",
            "card": rightmost,
        }


def test_the_table_page_refuses_a_card_of_another_hand_without_naming_it(
    olga_api: APIClient, owner: Any
) -> None:
    game, clients = _invited_duel(olga_api)
    # The guest plays first: its turn ends, Olga's begins.
    clients["B"].post(
        f"/api/v1/games/{game.uid}/act/", {"client_id": "b1", "kind": "end_turn"}, format="json"
    )
    state = game_state(Game.objects.get(uid=game.uid))
    assert state.active == 0
    guest_hand = state.players[1]
    assert isinstance(guest_hand, HandKingdom)
    names = state.setup.names
    shown = {names[card] for card in range(len(names)) if card not in guest_hand.hand}
    olga = Client()
    olga.force_login(owner)
    for card in guest_hand.hand:
        for prefix, language in (("", "en"), ("/fr", "fr"), ("/sv", "sv")):
            page = olga.post(
                f"{prefix}/play/{game.uid}/act/",
                {"kind": "play", "card": card, "arg": 0},
                HTTP_HX_REQUEST="true",
            ).content.decode()
            message = NOT_IN_HAND[language].format(card=card).replace("'", "&#x27;")
            assert f'<p class="message message-error" role="alert">{message}</p>' in page
            if names[card] not in shown:
                assert names[card] not in page


def test_a_pick_names_no_card_still_in_the_pile(olga_api: APIClient, owner: Any) -> None:
    body = {"format": "draft", "pool": "initiation", "seats": [{"kind": "me"}, {"kind": "invite"}]}
    with dealt(5):
        table = olga_api.post("/api/v1/games/", body, format="json").json()
    uid = table["id"]
    guest = join_as_guest(uid, table["invite_code"], deck=None)
    olga = Client()
    olga.force_login(owner)
    # ABBA then BAAB: up to Olga's pick after the guest took 1 of the second round's 4 cards.
    clients = [olga_api, guest]
    while True:
        draft = draft_state(Game.objects.get(uid=uid))
        waiting = pending(draft)
        assert waiting is not None
        if waiting.seat == 0 and waiting.round == 1:
            break
        picked = clients[waiting.seat].post(
            f"/api/v1/games/{uid}/pick/",
            {
                "client_id": f"p{draft.step}-{waiting.round}",
                "cards": waiting.revealed[: waiting.count],
            },
            format="json",
        )
        assert picked.status_code == 200, picked.json()
    # Every revealed card, so every pick, is shown to both players ("For the whole duration of
    # the Draft, the cards chosen by the players remain visible"); the pile is not.
    mine = set().union(*draft.decks) | set(draft.revealed)
    names = draft.names
    # Olga picks 2 here: each refused card first, then one of her pack.
    other = draft.revealed[0]
    for card in range(len(names)):
        if card in mine:
            continue
        refused = olga_api.post(
            f"/api/v1/games/{uid}/pick/",
            {"client_id": f"x{card}", "cards": [card, other]},
            format="json",
        )
        assert refused.json() == {
            "code": "illegal_pick",
            "message": f"Illegal pick: card {card} is not among the revealed cards.",
            "details": {
                "field": "cards",
                "refusal": "draft_not_revealed",
                "rule_id": "format-draft",
                "card": card,
            },
        }
        page = olga.post(
            f"/play/{uid}/act/", {"kind": "pick", "card": [card, other]}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert f"Illegal pick: card {card} is not among the revealed cards." in page
    # The cards still in the pile: named by no answer to her.
    hidden = set(range(len(names))) - mine
    assert len(hidden) == len(names) - 8
    answers = [
        olga_api.get(f"/api/v1/games/{uid}/").content.decode(),
        olga.get(f"/play/{uid}/").content.decode(),
    ]
    for card in hidden:
        for answer in answers:
            assert names[card] not in answer
