"""The step interface: seeded and replayable, refusals leave the position unchanged, seat views."""

from __future__ import annotations

import random

import pytest

from engine.chaos.actions import (
    END_TURN_ACTION,
    apply,
    legal_actions,
    to_json,
)
from engine.chaos.agents import GreedyAgent
from engine.chaos.cards import example_box
from engine.chaos.errors import IllegalAction, InputError
from engine.chaos.replay import record, replay
from engine.chaos.state import OVER, ChaosState, Options, Player
from engine.chaos.turn import new_game
from engine.chaos.view import SPECTATOR, seat_events, seat_view

BOX = example_box()


def _random_game(seed: int, log: bool = False) -> tuple[ChaosState, list[object]]:
    state = new_game(BOX, seed, Options(log=log))
    rng = random.Random(seed)
    played = []
    while state.phase != OVER:
        action = rng.choice(legal_actions(state))
        played.append(to_json(state, action))
        apply(state, action)
    return state, played


def test_a_seed_gives_one_game() -> None:
    first = new_game(BOX, 7)
    assert first == new_game(BOX, 7)
    assert first != new_game(BOX, 8)
    assert _random_game(3)[0] == _random_game(3)[0]


def test_the_deal_is_random_unless_given() -> None:
    firsts = {new_game(BOX, seed).active for seed in range(20)}
    assert firsts == {0, 1}
    assert {new_game(BOX, seed, Options(first_player=1)).active for seed in range(5)} == {1}
    with pytest.raises(InputError, match="first_player: no seat 1 in mode prologue"):
        new_game(BOX, 0, Options(mode="prologue", first_player=1))


def test_set_up_of_the_example_box() -> None:
    state = new_game(BOX, 11, Options(first_player=0))
    assert [len(p.hand) for p in state.players] == [5, 5]
    assert [len(p.deck) for p in state.players] == [5, 5]
    assert [len(slot) for slot in state.domain] == [1, 1, 1, 1, 1]
    # Open Gate lies on top of the pile: beside the Domain from the start.
    assert [state.setup.names[c] for c in state.interventions] == ["Open Gate"]
    assert len(state.pile) == 44 - 5 + 2
    assert state.to_move == 0


def test_a_refused_action_changes_nothing() -> None:
    state = new_game(BOX, 5, Options(first_player=0))
    before = state.copy()
    with pytest.raises(IllegalAction) as caught:
        apply(state, END_TURN_ACTION)
    assert caught.value.code == "not_now"
    assert caught.value.rule_id == "turn-structure"
    assert caught.value.message_en == "That action is not possible now: the combo of A is awaited."
    with pytest.raises(IllegalAction, match="It is A's decision, not B's"):
        apply(state, legal_actions(state)[0], seat=1)
    assert state == before


def test_copies_are_independent() -> None:
    state = new_game(BOX, 2)
    copy = state.copy()
    apply(copy, legal_actions(copy)[0])
    assert copy != state
    assert state == new_game(BOX, 2)


def _by_names(state: ChaosState) -> list[object]:
    """The position with cards by name: a replay may take another copy of a card where copies
    are alike (two in a hand), so its card ids may differ."""
    names = state.setup.names
    zones = [
        [names[c] for c in getattr(p, z)]
        for p in state.players
        for z in Player.__slots__
        if z in ("deck", "hand", "played", "recruited", "discard")
    ]
    return [
        zones,
        [[names[c] for c in slot] for slot in state.domain],
        [names[c] for c in state.pile],
        [names[c] for c in state.void],
        state.turn,
        state.winner,
        state.phase,
    ]


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_a_replay_plays_the_game_again(seed: int) -> None:
    state, played = _random_game(seed, log=True)
    data = record(BOX, seed, Options(), played)
    again = replay(data)
    assert _by_names(again) == _by_names(state)
    assert data["result"] == {
        "winner": "AB"[state.winner] if state.winner is not None else None,
        "turns": state.turn,
    }
    broken = {**data, "actions": ["end_turn", *played]}
    assert data["cards"][0] == {
        "name": "Acolyte",
        "type": "emissary",
        "clan": "chaos",
        "cost": "0",
        "deck": "both",
        "copies": "4",
        "play": "",
        "reaction_on": "",
        "reaction_opponent_turn": "no",
        "reaction": "",
        "depth": "",
        "complete": "yes",
    }
    with pytest.raises(
        InputError, match=r"^actions\[0\] 'end_turn': That action is not possible now"
    ):
        replay(broken)


def test_the_seat_views_hide_hands_and_decks() -> None:
    state = new_game(BOX, 4, Options(first_player=0, log=True))
    mine, theirs, nobody = seat_view(state, 0), seat_view(state, 1), seat_view(state, SPECTATOR)
    assert len(mine["players"]["A"]["hand"]) == 5
    assert theirs["players"]["A"]["hand"] is None
    assert theirs["players"]["A"]["hand_count"] == 5
    assert nobody["players"]["A"]["hand"] is None and nobody["players"]["B"]["hand"] is None
    assert "deck" not in mine["players"]["A"]
    assert mine["players"]["A"]["deck_count"] == 5
    assert "actions" in mine["decision"] and "actions" not in theirs["decision"]
    drawn_for_a = [
        e for e in seat_events(state, 0) if e["code"] == "drawn" and e["args"]["player"] == "A"
    ]
    drawn_for_b = [
        e for e in seat_events(state, 1) if e["code"] == "drawn" and e["args"]["player"] == "A"
    ]
    assert all(e["args"]["card"] for e in drawn_for_a)
    assert [e["args"]["card"] for e in drawn_for_b] == [None] * 5


def test_returns() -> None:
    state, _ = _random_game(1)
    assert state.returns() in ((1, -1), (-1, 1), (0, 0))
    assert sum(state.returns()) == 0
    assert new_game(BOX, 1).returns() == (0, 0)


def test_an_interruption_is_the_other_players_decision() -> None:
    """Greedy A against greedy B until B must decide in A's turn (a reaction or a discard)."""
    for seed in range(200):
        state = new_game(BOX, seed, Options(log=True))
        agents = [GreedyAgent(), GreedyAgent()]
        while state.phase != OVER:
            if state.to_move != state.active:
                view = seat_view(state, state.to_move)
                assert view["decision"]["seat"] != view["active"]
                assert view["decision"]["actions"]
                return
            apply(state, agents[state.to_move].choose(state))
    pytest.fail("no interruption in 200 greedy games")
