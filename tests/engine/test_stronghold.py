"""Hand and Stronghold arithmetic: unit and property tests (rule stronghold)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules.errors import GameOver
from engine.rules.kingdom import hand_of
from engine.rules.state import NO_CARD, OVER
from engine.rules.turn import phase_1

from .support import position


@st.composite
def hands(draw: st.DrawFn) -> tuple[int, int, bool]:
    """(cards in hand, Stronghold position, Fort up) of a living Stronghold."""
    size = draw(st.integers(min_value=1, max_value=14))
    return size, draw(st.integers(min_value=0, max_value=size - 1)), draw(st.booleans())


@given(hands(), st.integers(min_value=0, max_value=20))
def test_damage_moves_right_and_the_bastion_falls_without_carry_over(
    hand: tuple[int, int, bool], amount: int
) -> None:
    size, sh, fort = hand
    state = position(size, sh, fort)
    hp = size - sh
    try:
        state.players[0].damage(state, amount, NO_CARD, -1)
    except GameOver:
        assert fort and amount >= hp
        assert state.outcome is not None
        assert (state.outcome.winners(), state.phase) == ((1,), OVER)
        return
    pl = hand_of(state, 0)
    if amount < hp:
        assert (pl.sh, pl.fort, pl.hit_points()) == (sh + amount, fort, hp - amount)
    else:
        # The Bastion is destroyed: Fort up, leftmost, full hand of hit points, excess lost.
        assert not fort
        assert (pl.sh, pl.fort, pl.hit_points()) == (0, True, size)
    assert state.outcome is None


@given(hands(), st.integers(min_value=0, max_value=20))
def test_instances_of_one_carry_on_to_the_fort(hand: tuple[int, int, bool], missing: int) -> None:
    size, sh, fort = hand
    state = position(size, sh, fort)
    hp = size - sh
    lost = False
    try:
        for _ in range(missing):
            state.players[0].damage(state, 1, NO_CARD, -1)
    except GameOver:
        lost = True
    pl = hand_of(state, 0)
    if fort:
        assert lost == (missing >= hp)
        if not lost:
            assert pl.hit_points() == hp - missing
    elif missing < hp:
        assert (lost, pl.fort, pl.hit_points()) == (False, False, hp - missing)
    else:
        # After the Bastion, the remaining instances hit the Fort (full hand of hit points).
        remaining = missing - hp
        assert lost == (remaining >= size)
        if not lost:
            assert (pl.fort, pl.hit_points()) == (True, size - remaining)


@given(hands())
def test_regeneration(hand: tuple[int, int, bool]) -> None:
    size, sh, fort = hand
    state = position(size, sh, fort)
    state.players[0].heal(state)
    pl = hand_of(state, 0)
    if sh > 0:
        assert (pl.sh, pl.fort) == (sh - 1, fort)
    elif fort:
        # The Fort turns back to its Bastion, second rightmost: 1 hit point.
        assert (pl.fort, pl.hit_points()) == (False, 1)
    else:
        assert (pl.sh, pl.fort) == (0, False)


@given(hands(), st.data())
def test_a_card_leaving_the_hand_costs_a_hit_point_only_from_the_right(
    hand: tuple[int, int, bool], data: st.DataObject
) -> None:
    size, sh, fort = hand
    state = position(size, sh, fort)
    pl = hand_of(state, 0)
    index = data.draw(st.integers(min_value=0, max_value=size - 1))
    card = pl.hand[index]
    assert pl.take(index) == card
    assert pl.hit_points() == (size - sh if index < sh else size - sh - 1)
    assert len(pl.hand) + 1 == size


@given(hands())
def test_returning_cards(hand: tuple[int, int, bool]) -> None:
    size, sh, fort = hand
    state = position(size, sh, fort)
    pl = hand_of(state, 0)
    pl.receive(99, False)
    assert pl.hit_points() == size - sh + 1
    pl.receive(98, True)
    # Cursed: leftmost, left of the Stronghold, no hit point gained.
    assert (pl.hand[0], pl.sh, pl.hit_points()) == (98, sh + 1, size - sh + 1)


@given(hands())
def test_mana_is_the_cards_in_hand_with_the_stronghold(hand: tuple[int, int, bool]) -> None:
    size, sh, fort = hand
    state = position(size, sh, fort)
    state.first_player = 1
    state.players[0].turns = 1
    phase_1(state, 0)
    assert state.players[0].mana == size + 1


def test_first_player_first_turn_gets_6() -> None:
    state = position(8, 0, False)
    state.first_player = 0
    state.players[0].turns = 1
    phase_1(state, 0)
    assert state.players[0].mana == 6


def test_empty_hand_loses_even_with_the_bastion() -> None:
    state = position(1, 0, False)
    pl = hand_of(state, 0)
    pl.take(0)
    with pytest.raises(GameOver):
        state.players[0].check(state, NO_CARD, -1)
    assert state.outcome is not None and state.outcome.winners() == (1,)
