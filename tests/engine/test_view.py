"""One seat's view of a game (engine.rules.view): the hands stay hidden, everything else shows."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.actions import CAST, END_TURN_ACTION, apply, legal_actions
from engine.rules.kingdom import AutomatonKingdom, hand_of
from engine.rules.solo import preconstructed
from engine.rules.state import OVER, GameState, Options
from engine.rules.turn import new_game
from engine.rules.view import (
    SPECTATOR,
    action_from_json,
    action_json,
    public_cards,
    seat_events,
    seat_view,
)
from tests.support.views import card_ids

from .support import load_catalogue, precon_decks


def _on_table(state: GameState) -> set[int]:
    cards: set[int] = set()
    for kingdom in state.players:
        for line in kingdom.lines:
            for creature in line:
                cards.add(creature.card)
                cards.add(creature.symbiote)
                cards.update(card for card, _owner in creature.chained)
    return cards


def _check_no_leak(state: GameState, seen: set[int], events_from: int) -> None:
    names = state.setup.names
    for seat in range(2):
        other = 1 - seat
        hidden = {card for card in hand_of(state, other).hand if card not in seen}
        view = seat_view(state, seat, events_from)
        assert not hidden & card_ids(view), f"seat {seat} sees {hidden & card_ids(view)}"
        shown_names = {names[card] for card in range(len(names)) if card not in hidden}
        text = json.dumps(view)
        for card in hidden:
            if names[card] not in shown_names:
                assert json.dumps(names[card]) not in text
        mine = view["players"][seat]
        assert [card["id"] for card in mine["hand"]] == hand_of(state, seat).hand
        theirs = view["players"][other]
        assert theirs["hand"] is None
        assert theirs["hand_count"] == len(hand_of(state, other).hand)
        assert theirs["stronghold"]["position"] == hand_of(state, other).sh


@settings(max_examples=8)
@given(
    seed=st.integers(0, 2**32),
    decks=st.sampled_from([(1, 2), (3, 4), (2, 3), (4, 1)]),
    exhaustion=st.booleans(),
)
def test_no_hidden_card_reaches_the_other_seat(
    seed: int, decks: tuple[int, int], exhaustion: bool
) -> None:
    state = new_game(precon_decks(*decks), seed, Options(log=True, exhaustion=exhaustion))
    rng = random.Random(seed)
    seen: set[int] = set()
    events_from = 0
    while state.phase != OVER and state.turn < 60:
        action = rng.choice(legal_actions(state))
        if action[0] == CAST:
            seen.add(action[1])  # cast face up, then back to the hand
        apply(state, action)
        seen |= _on_table(state)
        if state.phase == OVER:
            break  # every hand shows at the end
        _check_no_leak(state, seen, 0)
        _check_no_leak(state, seen, events_from)
        assert state.log is not None
        events_from = rng.randrange(len(state.log) + 1)


@pytest.mark.parametrize("mode", ["duel", "free_for_all"])
def test_a_spectator_sees_no_hand_and_no_card_that_never_left_one(mode: str) -> None:
    seats = 2 if mode == "duel" else 4
    decks = precon_decks(1, 2) if seats == 2 else [*precon_decks(1, 2), *precon_decks(3, 4)]
    state = new_game(decks, 3, Options(log=True, exhaustion=True, mode=mode))
    rng = random.Random(3)
    seen: set[int] = set()
    views = 0
    while state.phase != OVER and state.turn < 40:
        action = rng.choice(legal_actions(state))
        if action[0] == CAST:
            seen.add(action[1])
        apply(state, action)
        seen |= _on_table(state)
        if state.phase == OVER:
            break
        in_hands = {card for kingdom in state.players for card in kingdom.hand}
        view = seat_view(state, SPECTATOR)
        assert not (in_hands - seen) & card_ids(view)
        assert view["seat"] is None
        assert view["legal_actions"] == []
        assert [player["hand"] for player in view["players"]] == [None] * seats
        assert [player["hand_count"] for player in view["players"]] == [
            len(kingdom.hand) for kingdom in state.players
        ]
        views += 1
    assert views > 40


def test_legal_actions_only_for_the_active_seat_and_round_trip() -> None:
    state = new_game(precon_decks(1, 2), 5, Options(log=True, first_player=1))
    assert seat_view(state, 0)["legal_actions"] == []
    mine = seat_view(state, 1)["legal_actions"]
    assert mine == [action_json(action) for action in legal_actions(state)]
    assert mine[0] == {"kind": "assault", "card": -1, "arg": -1}
    assert [action_from_json(**item) for item in mine] == legal_actions(state)


def test_exhaustion_names_a_hidden_card_to_its_owner_only() -> None:
    # Nobody plays a card: Exhaustion then removes cards that never left the hands.
    state = new_game(precon_decks(1, 2), 4, Options(log=True, exhaustion=True))
    assert state.log is not None
    while not any(event.code == "exhaustion" for event in state.log):
        apply(state, END_TURN_ACTION)
    index = next(i for i, event in enumerate(state.log) if event.code == "exhaustion")
    card = dict(state.log[index].args)["card"]
    assert isinstance(card, int)
    assert card not in public_cards(state.log, len(state.log))
    owner = state.setup.origin[card]
    assert seat_events(state, owner, index)[0] == {"code": "exhaustion", "args": {"card": card}}
    assert seat_events(state, 1 - owner, index)[0] == {
        "code": "exhaustion",
        "args": {"card": None},
    }


def test_every_hand_shows_once_the_game_is_over() -> None:
    state = new_game(precon_decks(1, 2), 9, Options(log=True))
    rng = random.Random(9)
    while state.phase != OVER:
        apply(state, rng.choice(legal_actions(state)))
    view = seat_view(state, 0)
    assert [card["id"] for card in view["players"][1]["hand"]] == hand_of(state, 1).hand
    assert view["outcome"]["loser"] in ("A", "B")
    assert view["phase"] == "over"


def test_the_solo_ai_shows_its_deck_pile_and_discard_but_no_hand() -> None:
    player, ai = preconstructed(load_catalogue(), 1)
    state = new_game([player, ai], 5, Options(mode="solo", log=True))
    kingdom = state.players[1]
    assert isinstance(kingdom, AutomatonKingdom)
    # Two cards off the top of the pile, as Stronghold damage moves them.
    kingdom.damage(state, 2, kingdom.pile[0], 0)
    view = seat_view(state, 0)
    mine, theirs = view["players"]
    assert (mine["controller"], mine["hand_count"], mine["stronghold"]["position"]) == (
        "hand",
        8,
        0,
    )
    assert theirs == {
        **theirs,
        "controller": "automaton",
        "hand_count": 0,
        "hand": None,
        "pile_count": 22,
        "stronghold": {"position": None, "side": "bastion", "hit_points": 22},
    }
    assert [card["id"] for card in theirs["discard"]] == kingdom.discard
    assert len(kingdom.discard) == 2
