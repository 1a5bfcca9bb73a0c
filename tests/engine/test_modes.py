"""Modes as data: the 4-seat topology, the first-turn Mana table, who wins (returns per seat, the
source of the damage that ended the game), and the ability handlers dispatched per controller."""

from __future__ import annotations

import random

import pytest

from engine.rules import ASSAULT_ACTION, NotSupported, Options, apply, new_game
from engine.rules.abilities import registry
from engine.rules.abilities.registry import REGISTRY
from engine.rules.board import board_order
from engine.rules.errors import GameOver
from engine.rules.events import render
from engine.rules.kingdom import HandKingdom, lose
from engine.rules.modes import (
    AUTOMATON,
    DUEL,
    DUEL_MODE,
    FOUR_PLAYERS,
    HAND,
    MODES,
    OTHER_TEAMS,
    Mode,
    Seat,
    playable_mode,
)
from engine.rules.scenario import build_state, parse
from engine.rules.state import NO_CARD, OVER, GameSetup, GameState, new_creature
from engine.rules.turn import phase_1

from .support import english_log, filler_deck, precon_decks

A, B, C, D = range(4)


def test_the_four_player_lines_are_shared_as_the_scenario_format_says() -> None:
    top, bottom = 0, 1
    # A shares its top line with B and its bottom line with D; C its top with D, bottom with B.
    assert FOUR_PLAYERS.facing_player(A, top) == B
    assert FOUR_PLAYERS.facing_player(A, bottom) == D
    assert FOUR_PLAYERS.facing_player(C, top) == D
    assert FOUR_PLAYERS.facing_player(C, bottom) == B
    # B's lines face A then C, D's face C then A.
    assert [FOUR_PLAYERS.facing_player(B, lane) for lane in (top, bottom)] == [A, C]
    assert [FOUR_PLAYERS.facing_player(D, lane) for lane in (top, bottom)] == [C, A]
    for topology in (DUEL, FOUR_PLAYERS):
        for player in range(topology.players):
            for lane in range(topology.lanes):
                other, other_lane = topology.facing[player][lane]
                # The two halves of a line face each other, and are the same line...
                assert topology.facing[other][other_lane] == (player, lane)
                number = topology.line_number[player][lane]
                assert topology.line_number[other][other_lane] == number
                # ...both on the upper side, or both on the lower side.
                assert topology.upper[lane] == topology.upper[other_lane]
    # 4 lines, each made of 2 halves; upper lines first in the resolution order.
    numbers = [FOUR_PLAYERS.line_number[p][lane] for p in range(4) for lane in range(2)]
    assert sorted(numbers) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert {FOUR_PLAYERS.line_number[p][0] for p in range(4)} == {0, 1}
    # Splash reaches the same Kingdom's other line, in every mode.
    assert FOUR_PLAYERS.neighbour == DUEL.neighbour == (1, 0)


def _four_player_state(mode_name: str = "free_for_all") -> GameState:
    mode = MODES[mode_name]
    decks = [filler_deck(name) for name in "ABCD"]
    setup = GameSetup(decks, Options(mode=mode_name), mode)
    state = GameState(setup, random.Random(0))
    state.players = [HandKingdom(p, list(range(8 * p, 8 * p + 8)), 2) for p in range(4)]
    return state


def test_board_order_over_four_lines() -> None:
    state = _four_player_state()
    setup = state.setup
    placed = {}
    # (owner, lane, card) in placement order: each line from the Bridge outward.
    for owner, lane, card in [(C, 1, 16), (B, 1, 9), (B, 1, 10), (D, 0, 24), (A, 0, 0), (B, 0, 8)]:
        creature = new_creature(setup, card, owner, lane)
        state.players[owner].lines[lane].append(creature)
        placed[card] = creature
    state.active = C
    ordered = [c.card for c in board_order(state, list(placed.values()))]
    # Line A-B (upper), A and B at the Bridge: the active player C is neither, so the one who
    # plays first from C on (C, D, A, B) comes first: A (ruling P6). Then C-D (upper): D's. No
    # creature on A-D. Then C-B (lower): B's second creature (furthest), then C's and B's first
    # at the Bridge, C's first since C is active.
    assert ordered == [0, 8, 24, 10, 16, 9]


def test_first_turn_mana_follows_the_mode_table() -> None:
    state = _four_player_state()
    state.first_player = C
    got = []
    for player in (C, D, A, B):
        state.players[player].turns = 1
        phase_1(state, player)
        got.append(state.players[player].mana)
    # 6, 7, 8 for the first three players, then the regular rule: 8 cards + the Stronghold.
    assert got == [6, 7, 8, 9]
    state.players[C].turns = 2
    phase_1(state, C)
    assert state.players[C].mana == 9


def test_the_duel_and_the_four_player_modes_are_playable() -> None:
    assert playable_mode("duel") is DUEL_MODE
    assert playable_mode("solo") is MODES["solo"]
    assert playable_mode("free_for_all") is MODES["free_for_all"]
    assert playable_mode("teams") is MODES["teams"]
    assert MODES["teams"].teammates(A) == (A, C) and MODES["teams"].teammates(D) == (B, D)
    assert playable_mode("coop") is MODES["coop"]
    assert MODES["coop"].teammates(A) == (A, C) and MODES["coop"].teammates(B) == (B, D)
    with pytest.raises(NotSupported, match="mode 'chess' is not supported yet"):
        new_game(precon_decks(), 1, Options(mode="chess"))


@pytest.mark.parametrize(
    ("mode", "loser", "source_player", "returns"),
    [
        # The Duel: the other player wins, whatever destroyed the Fort (even one's own card).
        ("duel", B, A, (1, -1)),
        ("duel", B, B, (1, -1)),
        ("duel", A, -1, (-1, 1)),
        # Free-For-All: the player controlling the card that destroyed the Fort wins.
        ("free_for_all", A, D, (-1, -1, -1, 1)),
        ("free_for_all", C, B, (-1, 1, -1, -1)),
        # Teams: the source's team wins, both partners.
        ("teams", B, C, (1, -1, 1, -1)),
        # No enemy source (Exhaustion, one's own card): the other teams win.
        ("free_for_all", A, -1, (-1, 1, 1, 1)),
        ("teams", B, D, (1, -1, 1, -1)),
    ],
)
def test_the_win_rule_gives_returns_per_seat(
    mode: str, loser: int, source_player: int, returns: tuple[int, ...]
) -> None:
    if mode == "duel":
        state = new_game(precon_decks(), 1, Options(log=True))
    else:
        state = _four_player_state(mode)
        state.log = []
    source = 5 if source_player >= 0 else NO_CARD
    with pytest.raises(GameOver):
        lose(state, loser, "lost_fort", source, source_player)
    assert state.outcome is not None
    assert state.returns() == returns
    assert state.phase == OVER
    assert (state.outcome.loser, state.outcome.source, state.outcome.source_player) == (
        loser,
        source,
        source_player,
    )
    assert state.outcome.winners() == tuple(p for p, r in enumerate(returns) if r == 1)
    assert state.log is not None and state.log[-1].code == "lost_fort"


def test_returns_are_zero_until_the_game_ends() -> None:
    state = new_game(precon_decks(), 1)
    assert (state.outcome, state.returns()) == (None, (0, 0))


FORT_FALLS = {
    "cards": {
        "Ogre": {"type": "creature", "cost": 4, "attack": 3, "hp": 3},
        "Imp": {"type": "creature", "cost": 1, "attack": 1, "hp": 1, "abilities": ["cursed"]},
        "Leech": {
            "type": "creature", "cost": 5, "attack": 1, "hp": 1, "abilities": ["price_of_blood"]
        },
    },
    "state": {
        "active": "A",
        "players": {
            "A": {"hand": ["Leech", "STRONGHOLD", "Imp"], "lines": {"top": ["Ogre"]}},
            "B": {"hand": ["Imp", "STRONGHOLD", "Ogre"], "stronghold": "fort"},
        },
    },
    "expect": {},
}  # fmt: skip


def test_the_card_that_destroyed_the_fort_is_in_the_result_and_the_events() -> None:
    state = build_state(parse(FORT_FALLS))
    state.log = []
    ogre = state.players[A].lines[0][0].card
    apply(state, ASSAULT_ACTION)
    assert state.outcome is not None
    outcome = state.outcome
    assert (outcome.loser, outcome.reason, outcome.source, outcome.source_player) == (
        B,
        "lost_fort",
        ogre,
        A,
    )
    assert state.returns() == (1, -1)
    damage, lost = state.log[-2:]
    assert damage.to_json() == {
        "code": "stronghold_damage",
        "args": {"player": B, "amount": 3, "hp": 0, "source": ogre, "source_player": A},
    }
    assert dict(lost.args)["source"] == ogre
    assert english_log(state)[-1] == (
        "B loses: the Fort reached the rightmost position of the hand. A wins."
    )


def test_price_of_blood_losing_names_ones_own_card() -> None:
    state = build_state(parse(FORT_FALLS))
    # A plays Leech (5 Mana) with none: 5 damage to A's Bastion of 1 hit point, then its Fort.
    state.players[A].fort = True
    leech = state.setup.names.index("Leech")
    apply(state, (2, leech, 1))
    assert state.outcome is not None
    assert (state.outcome.loser, state.outcome.source, state.outcome.source_player) == (A, leech, A)
    assert state.returns() == (-1, 1)


def test_every_hook_is_dispatched_through_a_table() -> None:
    registered = {(hook, code) for code in REGISTRY for hook in registry.registered_hooks(code)}
    assert len({hook for hook, _ in registered}) == 20
    # Blackmail acts in Phase 1 for the Solo AI only (its hand player's handler adds nothing).
    assert len(registered) == 29
    assert registered == registry.dispatched_hooks()


CURSED_PAWN = {
    "cards": {
        "Hammer": {"type": "creature", "cost": 1, "attack": 3, "hp": 4},
        "Pawn": {"type": "creature", "cost": 1, "attack": 1, "hp": 2, "abilities": ["cursed"]},
        "Filler": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
    },
    "state": {
        "active": "A",
        "players": {
            "A": {"hand": ["STRONGHOLD", "Filler"], "lines": {"top": ["Hammer"]}},
            "B": {"hand": ["STRONGHOLD", "Filler"], "lines": {"top": ["Pawn"]}},
        },
    },
    "expect": {},
}  # fmt: skip


def _pawn_returns_to(mode: Mode) -> list[str]:
    state = build_state(parse(CURSED_PAWN))
    state.setup = GameSetup(state.setup.decks, state.setup.options, mode)
    state.log = []
    apply(state, ASSAULT_ACTION)
    return [render(e, state.setup.names) for e in state.log if e.code.startswith("returns_")]


def test_a_controller_kind_gets_its_own_variant_of_a_handler() -> None:
    # B seated as the automaton (its Kingdom is a hand here: only the dispatch is under test).
    automaton_b = Mode("test", DUEL, (Seat(HAND, 0), Seat(AUTOMATON, 1)), (6,), OTHER_TEAMS, False)
    printed = ["Pawn returns to the left of B's hand."]
    assert _pawn_returns_to(DUEL_MODE) == printed
    # Without a variant of its own, the automaton's cards use the printed ability.
    assert _pawn_returns_to(automaton_b) == printed

    @registry.handler("return", "cursed", AUTOMATON)
    def ignores_cursed(state: GameState, card: int, dest: int) -> bool:
        return False

    try:
        assert _pawn_returns_to(automaton_b) == ["Pawn returns to the right of B's hand."]
        # The hand player's cards keep the printed ability.
        assert _pawn_returns_to(DUEL_MODE) == printed
    finally:
        registry.unregister("return", "cursed", AUTOMATON)
    assert _pawn_returns_to(automaton_b) == printed
    with pytest.raises(KeyError):
        registry.unregister("return", "cursed", HAND)
