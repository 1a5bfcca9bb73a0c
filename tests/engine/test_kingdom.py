"""The automaton's Kingdom (Solo and Co-op's AI): its Stronghold rules, the reshuffle with the
game's RNG, the end of the game. Its turn (the reveals) is the Solo mode's."""

from __future__ import annotations

import random

import pytest

from engine.rules.errors import GameOver
from engine.rules.kingdom import CURSED_END, GIVEN, OWN, AutomatonKingdom, HandKingdom
from engine.rules.modes import AUTOMATON, DUEL, HAND, OTHER_TEAMS, Mode, Seat
from engine.rules.state import NO_CARD, OVER, GameSetup, GameState, Options, new_creature

from .support import english_log, filler_deck

SOLO_LIKE = Mode("test", DUEL, (Seat(HAND, 0), Seat(AUTOMATON, 1)), (6,), OTHER_TEAMS, False)


def _state(pile: int, seed: int = 3) -> tuple[GameState, AutomatonKingdom]:
    """A: a hand of 8; B: the automaton with the cards 8.. 8+pile-1 in its pile (top last)."""
    setup = GameSetup([filler_deck("A"), filler_deck("B", 24)], Options(), SOLO_LIKE)
    state = GameState(setup, random.Random(seed), log=True)
    automaton = AutomatonKingdom(1, list(range(8, 8 + pile)), 2)
    state.players = [HandKingdom(0, list(range(8)), 2), automaton]
    return state, automaton


def test_damage_moves_cards_from_the_top_of_the_pile_to_the_discard() -> None:
    state, ai = _state(6)
    ai.damage(state, 2, 0, 0)
    assert (ai.pile, ai.discard, ai.hit_points(), ai.fort) == ([8, 9, 10, 11], [13, 12], 4, False)
    ai.damage(state, 0, 0, 0)
    assert ai.hit_points() == 4
    assert english_log(state) == ["B's Stronghold takes 2 damage (4 HP left)."]


def test_the_bastion_revealed_turns_to_the_fort_with_the_discard_shuffled() -> None:
    state, ai = _state(3, seed=11)
    ai.discard = [20, 21]
    ai.damage(state, 5, 0, 0)
    # The excess damage is lost, as a Bastion's is; the new pile is the whole discard, shuffled
    # with the game's RNG.
    expected = [20, 21, 10, 9, 8]
    random.Random(11).shuffle(expected)
    assert (ai.fort, ai.pile, ai.discard) == (True, expected, [])
    assert state.outcome is None
    assert english_log(state)[-1] == (
        "B's Bastion is revealed: the Fort is up and the discard pile, shuffled, is the new deck "
        "pile (5 cards)."
    )


def test_the_pile_emptied_with_the_fort_revealed_loses() -> None:
    state, ai = _state(2)
    ai.fort = True
    attacker = 3
    with pytest.raises(GameOver):
        ai.damage(state, 2, attacker, 0)
    assert state.outcome is not None
    assert (state.phase, state.returns(), state.outcome.reason) == (OVER, (1, -1), "lost_pile")
    assert (state.outcome.source, state.outcome.source_player) == (attacker, 0)
    assert english_log(state)[-1] == (
        "B loses: the deck pile is empty with the Fort revealed. A wins."
    )


def test_an_empty_discard_at_the_bastion_loses_at_once() -> None:
    state, ai = _state(1)
    ai.damage(state, 1, NO_CARD, -1)
    # The one card damaged away is the whole new pile.
    assert (ai.fort, ai.pile, ai.discard) == (True, [8], [])
    state, ai = _state(0)
    with pytest.raises(GameOver):
        ai.check(state, NO_CARD, -1)
    assert (ai.fort, state.returns()) == (True, (1, -1))


def test_regeneration_puts_the_last_discarded_card_back_on_the_pile() -> None:
    state, ai = _state(4)
    ai.heal(state)
    assert (ai.pile, ai.discard) == ([8, 9, 10, 11], [])
    ai.damage(state, 2, 0, 0)
    ai.heal(state)
    assert (ai.pile, ai.discard, ai.hit_points()) == ([8, 9, 10], [11], 3)
    assert english_log(state)[-1] == "B's Stronghold regenerates (3 HP)."


def test_its_cards_return_to_the_discard_pile_and_cursed_or_given_ones_on_top() -> None:
    _, ai = _state(4)
    ai.receive(30, OWN)
    ai.receive(31, OWN)
    assert (ai.discard, ai.pile) == ([30, 31], [8, 9, 10, 11])
    ai.receive(32, CURSED_END)
    ai.receive(33, GIVEN)
    assert (ai.discard, ai.pile, ai.hit_points()) == ([30, 31], [8, 9, 10, 11, 32, 33], 6)
    assert ai.received(OWN) == "returns_discard"
    assert ai.received(CURSED_END) == ai.received(GIVEN) == "returns_pile"


def test_phase_1_mana_is_fixed_plus_per_enemy_creature() -> None:
    state, ai = _state(4)
    assert ai.phase_1_mana(state) == 6
    for lane, card in ((0, 0), (1, 1), (1, 2)):
        state.players[0].lines[lane].append(new_creature(state.setup, card, 0, lane))
    ai.lines[0].append(new_creature(state.setup, 8, 1, 0))
    assert ai.phase_1_mana(state) == 6 + 3
    ai.fixed_mana, ai.mana_per_enemy = 8, 2
    assert ai.phase_1_mana(state) == 8 + 6


def test_copies_are_equal_and_independent() -> None:
    state, ai = _state(5)
    ai.damage(state, 1, 0, 0)
    copy = state.copy()
    assert copy == state
    copied = copy.players[1]
    assert isinstance(copied, AutomatonKingdom) and copied.pile is not ai.pile
    copied.damage(copy, 1, 0, 0)
    assert copy != state and ai.hit_points() == 4
