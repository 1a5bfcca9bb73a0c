"""The games API serves the engine's observation (issue 27, item 2): the `state` of
/api/v1/games/<id>/ is what `engine.rules.observe` gives the player's seat, and the `state` of
/api/v1/games/<id>/spectate/ what it gives a spectator, field by field, in every mode, while the
game goes on and once it is over.

Each side is read on its own terms (the JSON by its documented keys, the observation by its
dataclasses' fields) into the same plain shape, so a second projection of a position that drifted
from the observation would show here.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine.adapters.decks import DeckChoice
from engine.rules import SPECTATOR, observe
from engine.rules.agents import GreedyAgent
from engine.rules.events import PLAYER_NAMES
from engine.rules.observation import CardSeen, Observation
from engine.rules.view import ACTION_KINDS, action_json
from play.models import Game, SeatKind, Status
from play.position_selectors import game_state
from play.services import game_act, game_concede
from play.table_services import SeatRequest, game_create
from tests.decks.conftest import CONSTRUCTED
from tests.simulations.conftest import make_deck

pytestmark = pytest.mark.django_db

GREEDY = SeatRequest(kind="agent", agent="greedy")
# Each mode's players' seats after the creator's own (Solo's and Co-op's AI seats are added).
OTHERS: dict[str, list[SeatRequest]] = {
    "duel": [GREEDY],
    "solo": [],
    "coop": [GREEDY],
    "free_for_all": [GREEDY, GREEDY, GREEDY],
    "teams": [GREEDY, GREEDY, GREEDY],
}
# The creator's actions before the views are compared: enough for creatures on the lines.
ACTIONS = 12


def _table(mode: str, owner: Any) -> Game:
    if mode == "coop":
        # The Co-op AI takes cards of the decks' expansions that neither deck holds: more than a
        # preconstructed deck leaves in the test catalogue (tests/play/test_pinned_tables.py).
        deck = make_deck(owner, CONSTRUCTED, name="Mixed")
        me, format = DeckChoice(deck=deck.share_id), "constructed"
    else:
        me, format = DeckChoice(preconstructed=1), "preconstructed"
    return game_create(
        creator=owner,
        format=format,
        seats=[SeatRequest(kind="me", deck=me), *OTHERS[mode]],
        mode=mode,
        seed=11,
        ai_level=2 if mode == "coop" else None,
    )


def _card(card: CardSeen) -> tuple[Any, ...]:
    return (card.id, card.name, card.cost, card.attack, card.hp, card.creature, card.abilities)


def _card_json(card: dict[str, Any]) -> tuple[Any, ...]:
    return (
        card["id"],
        card["name"],
        card["cost"],
        card["attack"],
        card["hp"],
        card["creature"],
        tuple(card["abilities"]),
    )


def _face(card: tuple[Any, ...]) -> tuple[Any, ...]:
    """A creature's card without its printed attack and hp: the API's creature holds its
    current ones in their place."""
    return card[:3] + card[5:]


def _cards(cards: tuple[CardSeen, ...] | None) -> list[tuple[Any, ...]] | None:
    return None if cards is None else [_card(card) for card in cards]


def _cards_json(cards: list[dict[str, Any]] | None) -> list[tuple[Any, ...]] | None:
    return None if cards is None else [_card_json(card) for card in cards]


def _observed(observation: Observation) -> dict[str, Any]:
    seats = []
    for seen in observation.seats:
        seats.append(
            {
                "seat": seen.letter,
                "automaton": seen.automaton,
                "hand": None if seen.automaton else _cards(seen.hand),
                "hand_count": seen.hand_count,
                "stronghold": (seen.stronghold_at, seen.fort, seen.hit_points),
                "mana": seen.mana,
                "pile_count": seen.pile_count,
                # The observation lists the discard top card first, the API bottom card first.
                "discard": _cards(seen.discard[::-1]) if seen.automaton else None,
                "lines": [
                    [
                        (
                            _face(_card(creature.card)),
                            creature.attack,
                            creature.hp,
                            creature.damage,
                            None if creature.symbiote is None else _card(creature.symbiote),
                            _cards(creature.chained),
                        )
                        for creature in line
                    ]
                    for line in seen.lines
                ],
                "removed": (seen.removed_count, _cards(seen.removed)),
                "champion": (
                    None if seen.champion is None else _card(seen.champion),
                    seen.champion_exhausted,
                ),
            }
        )
    outcome = observation.outcome
    return {
        "seat": None if observation.seat == SPECTATOR else PLAYER_NAMES[observation.seat],
        "active": PLAYER_NAMES[observation.active],
        "phase": observation.phase,
        "turn": observation.turn,
        "seats": seats,
        "legal_actions": [
            (ACTION_KINDS[kind], card, arg) for kind, card, arg in observation.legal_actions
        ],
        "outcome": None
        if outcome is None
        else (
            [PLAYER_NAMES[winner] for winner in outcome.winners],
            PLAYER_NAMES[outcome.loser],
            outcome.reason,
        ),
    }


def _served(state: dict[str, Any]) -> dict[str, Any]:
    seats = []
    for player in state["players"]:
        automaton = player["controller"] == "automaton"
        stronghold = player["stronghold"]
        seats.append(
            {
                "seat": player["seat"],
                "automaton": automaton,
                "hand": None if automaton else _cards_json(player["hand"]),
                "hand_count": player["hand_count"],
                "stronghold": (
                    stronghold["position"],
                    stronghold["side"] == "fort",
                    stronghold["hit_points"],
                ),
                "mana": player["mana"],
                "pile_count": player.get("pile_count"),
                "discard": _cards_json(player["discard"]) if automaton else None,
                "lines": [
                    [
                        (
                            _face(_card_json(creature)),
                            creature["attack"],
                            creature["hp"],
                            creature["damage"],
                            None
                            if creature["symbiote"] is None
                            else _card_json(creature["symbiote"]),
                            _cards_json(creature["chained"]),
                        )
                        for creature in line
                    ]
                    for line in player["lines"]
                ],
                "removed": (player["removed_count"], _cards_json(player["removed"])),
                "champion": (
                    None if player["champion"] is None else _card_json(player["champion"]),
                    player["champion_exhausted"],
                ),
            }
        )
    outcome = state["outcome"]
    return {
        "seat": state["seat"],
        "active": state["active"],
        "phase": state["phase"],
        "turn": state["turn"],
        "seats": seats,
        "legal_actions": [
            (action["kind"], action["card"], action["arg"]) for action in state["legal_actions"]
        ],
        "outcome": None
        if outcome is None
        else (outcome["winners"], outcome["loser"], outcome["reason"]),
    }


def _check(game: Game, mine: int, olga_api: APIClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """The API's views of ``game`` for the creator's seat and a spectator, each checked against
    the observation of that seat (hands revealed once the game is over)."""
    game.refresh_from_db()
    state = game_state(game)
    reveal = game.status == Status.FINISHED
    seat_view = olga_api.get(f"/api/v1/games/{game.uid}/").json()["state"]
    spectated = APIClient().get(f"/api/v1/games/{game.uid}/spectate/", {"code": game.spectate_code})
    assert spectated.status_code == 200, spectated.json()
    spectator_view = spectated.json()["state"]
    mine_seen = _observed(observe(state, mine, reveal=reveal))
    public = _observed(observe(state, SPECTATOR, reveal=reveal))
    assert _served(seat_view) == mine_seen
    assert _served(spectator_view) == public
    return mine_seen, public


@pytest.mark.parametrize("mode", list(OTHERS))
def test_the_api_serves_the_observation_of_a_seat_and_of_a_spectator(
    cards_db: None, owner: Any, olga_api: APIClient, mode: str
) -> None:
    game = _table(mode, owner)
    mine = next(seat for seat in game.seats.all() if seat.kind == SeatKind.PLAYER)
    agent = GreedyAgent()
    for step in range(ACTIONS):
        game.refresh_from_db()
        state = game_state(game)
        if game.status != Status.PLAYING or state.active != mine.index:
            break
        game = game_act(
            game=game, seat=mine, client_id=f"me-{step}", **action_json(agent.choose(state))
        )
    assert game.status == Status.PLAYING
    seat_seen, public = _check(game, mine.index, olga_api)
    # The position is worth comparing: creatures on the table, my hand shown to me alone.
    assert any(line for seen in public["seats"] for line in seen["lines"])
    [my_hand] = [seen["hand"] for seen in seat_seen["seats"] if seen["seat"] == seat_seen["seat"]]
    assert my_hand
    assert all(seen["hand"] is None for seen in public["seats"] if not seen["automaton"])
    assert public["legal_actions"] == []
    assert seat_seen["legal_actions"]

    # Once over (conceded: every hand revealed), the spectator sees every hand too.
    game_concede(game=game, seat=mine)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    _seat_seen, public = _check(game, mine.index, olga_api)
    assert public["phase"] == "over"
    assert all(seen["hand"] is not None for seen in public["seats"] if not seen["automaton"])
