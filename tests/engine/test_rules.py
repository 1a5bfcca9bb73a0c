"""The step interface: set-up, legal actions, illegal actions, determinism, copies, the log."""

from __future__ import annotations

import random
import re

import pytest

from engine.rules import (
    ASSAULT_ACTION,
    END_TURN_ACTION,
    InputError,
    NotSupported,
    Options,
    apply,
    from_json,
    legal_actions,
    new_game,
    to_json,
)
from engine.rules.actions import CAST, PLAY
from engine.rules.scenario import build_state, parse
from engine.rules.state import ASSAULT_DONE, OVER, SUMMONING

from .support import check_invariants, english_log, hands, precon_decks, refused


def _names(state, player: int) -> list[str]:
    return [state.setup.names[c] for c in hands(state)[player].hand]


def test_set_up_is_deterministic() -> None:
    state = new_game(precon_decks(), 7, Options(log=True))
    assert (state.first_player, state.active, state.phase) == (1, 1, SUMMONING)
    assert _names(state, 0) == [
        "Annihilation",
        "Boom!",
        "Carapace",
        "Revenant",
        "Baron",
        "Troll",
        "Brute",
        "Partisan",
    ]
    assert _names(state, 1) == [
        "Lieutenant",
        "Alpha",
        "Combustion",
        "Scribe",
        "Shaman",
        "Microctopus",
        "Ogre",
        "Abomination",
    ]
    # Stronghold leftmost, Bastion up: 8 hit points each; the first player has 6 Mana.
    assert [(p.sh, p.fort, p.hit_points()) for p in hands(state)] == [(0, False, 8)] * 2
    assert state.players[1].mana == 6
    assert english_log(state) == [
        "Set-up: B plays first.",
        "Turn 1: B (their turn 1).",
        "Phase 1: B has 6 Mana.",
    ]
    assert new_game(precon_decks(), 7) == new_game(precon_decks(), 7)
    assert new_game(precon_decks(), 7) != new_game(precon_decks(), 8)


def test_first_legal_actions() -> None:
    state = new_game(precon_decks(), 7)
    actions = legal_actions(state)
    # Combustion (an Incantation) has no creature to target yet; no card costs more than 6.
    assert [to_json(state, a) for a in actions] == [
        "assault",
        {"play": "Lieutenant", "line": "top"},
        {"play": "Lieutenant", "line": "bottom"},
        {"play": "Alpha", "line": "top"},
        {"play": "Alpha", "line": "bottom"},
        {"play": "Scribe", "line": "top"},
        {"play": "Scribe", "line": "bottom"},
    ]
    assert actions[1] == (PLAY, state.players[1].hand[0], 0)
    assert all(from_json(state, to_json(state, a)) == a for a in actions)


def test_second_player_first_turn_has_9_mana_and_targets_appear() -> None:
    state = new_game(precon_decks(), 7)
    apply(state, from_json(state, {"play": "Alpha", "line": "top"}))
    apply(state, ASSAULT_ACTION)
    assert state.phase == ASSAULT_DONE
    assert legal_actions(state) == [END_TURN_ACTION]
    apply(state, END_TURN_ACTION)
    assert (state.active, state.players[0].mana) == (0, 9)
    casts = [to_json(state, a) for a in legal_actions(state) if a[0] == CAST]
    assert casts == [
        {"play": "Annihilation", "target": {"player": "B", "card": "Alpha"}},
        {"play": "Boom!", "target": {"player": "B", "card": "Alpha"}},
    ]


SCENARIO = {
    "cards": {
        "Zap": {"type": "incantation", "cost": 1, "attack": 2},
        "Ogre": {"type": "creature", "cost": 4, "attack": 2, "hp": 5},
        "Thug": {"type": "creature", "cost": 1, "attack": 0, "hp": 3, "abilities": ["blackmail"]},
        "Fam": {"type": "creature", "cost": 1, "attack": 1, "hp": 1, "abilities": ["symbiote"]},
        "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
        "Bat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
        "Cat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
        "Elk": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
    },
    "state": {
        "active": "A",
        "players": {
            "A": {
                "hand": ["STRONGHOLD", "Ogre", "Zap", "Ant", "Bat", "Cat"],
                "mana": 3,
                "lines": {"top": ["Thug"], "bottom": []},
            },
            "B": {"hand": ["STRONGHOLD", "Elk"], "lines": {"top": ["Ogre"], "bottom": []}},
        },
    },
    "expect": {},
}


@pytest.mark.parametrize(
    ("data", "rule", "english", "code"),
    [
        (
            {"play": "Cat", "line": "top"},
            "phase-2-available-cards",
            "Cat is not among the 4 leftmost cards of your hand.",
            "not_available",
        ),
        (
            {"play": "Bat", "line": "top"},
            "ability-blackmail",
            "Blackmail: Bat is the rightmost available card and cannot be played.",
            "blackmailed",
        ),
        (
            {"play": "Ogre", "line": "top"},
            "phase-2-mana-cost",
            "Ogre costs 4 Mana and you have 3 left.",
            "too_expensive",
        ),
        (
            {"play": "Zap", "target": {"player": "B", "card": "STRONGHOLD"}},
            "incantation",
            "An Incantation can never target a Stronghold.",
            "stronghold_target",
        ),
        (
            {"play": "Zap", "line": "top"},
            "incantation",
            "Zap is an Incantation: it needs a target creature.",
            "needs_target",
        ),
        (
            {"play": "Ant", "target": {"player": "B", "card": "Ogre"}},
            "creature-placement",
            "Ant is a creature: it is placed on a line, not aimed at a target.",
            "creature_aimed",
        ),
        (
            {"play": "Ant", "onto": "Thug"},
            "ability-symbiote",
            "Ant has no Symbiote: it cannot be placed on another creature.",
            "no_symbiote",
        ),
        (
            {"play": "Elk", "line": "top"},
            "phase-2-summoning",
            "Elk is not in your hand.",
            "not_in_hand",
        ),
    ],
)
def test_illegal_actions_cite_the_rule_with_a_code(
    data: dict, rule: str, english: str, code: str
) -> None:
    error = refused(build_state(parse(SCENARIO)), data)
    assert (error.rule_id, error.message_en, error.code) == (rule, english, code)
    assert str(error) == f"{english} (rule {rule})"
    assert all(type(value) in (int, str) for _, value in error.arguments)


def test_turn_structure_errors() -> None:
    state = build_state(parse(SCENARIO))
    apply(state, ASSAULT_ACTION)
    error = refused(state, "assault")
    assert (error.rule_id, error.message_en) == (
        "turn-structure",
        "The Assault was already resolved this turn; only the end of turn is left.",
    )
    error = refused(state, {"play": "Ogre", "line": "top"})
    assert (error.rule_id, error.message_en) == (
        "phase-2-summoning",
        "Cards are played only during Phase 2: Summoning.",
    )


def test_game_over_refuses_everything() -> None:
    state = build_state(parse(SCENARIO))
    # B's Fort with 1 hit point, and A's Ogre already in play on B's empty bottom line.
    state.players[1].fort = True
    ogre = state.players[1].lines[0].pop()
    ogre.owner, ogre.lane = 0, 1
    state.players[0].lines[1].append(ogre)
    apply(state, ASSAULT_ACTION)
    assert state.outcome is not None
    assert (state.outcome.winners(), state.phase, legal_actions(state)) == ((0,), OVER, [])
    error = refused(state, "end_turn")
    assert (error.rule_id, error.message_en, error.code, error.arguments) == (
        "game-end",
        "The game is over.",
        "game_over",
        (),
    )


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ((9, 1, 1), "not an action: (9, 1, 1)"),
        ([2, 1, 0], "not an action: [2, 1, 0]"),
        ((2, "x", 0), "not an action: (2, 'x', 0)"),
    ],
)
def test_malformed_actions(action: object, message: str) -> None:
    state = new_game(precon_decks(), 1)
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        apply(state, action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("pass", "expected 'assault', 'end_turn' or a mapping with 'play', not 'pass'"),
        ({"play": "Ant"}, "a play needs exactly one of 'line', 'onto' or 'target'"),
        ({"play": "Ant", "line": "middle"}, "'line' must be 'top' or 'bottom', not 'middle'"),
        ({"play": "Ant", "lane": "top"}, "unknown key 'lane' in action"),
    ],
)
def test_malformed_readable_actions(data: object, message: str) -> None:
    state = build_state(parse(SCENARIO))
    with pytest.raises(InputError) as raised:
        from_json(state, data)
    assert str(raised.value) == message


def test_new_game_input_errors() -> None:
    decks = precon_decks()
    with pytest.raises(InputError, match=r"^deck B: 7 cards; a deck holds exactly 8"):
        new_game([decks[0], decks[1][:7]], 1)
    with pytest.raises(InputError, match=r"^the seed must be a whole number, not '1'$"):
        new_game(decks, "1")  # type: ignore[arg-type]
    with pytest.raises(
        NotSupported,
        match=(
            r"^mode 'chess' is not supported yet "
            r"\(only 'duel', 'solo', 'free_for_all', 'teams', 'coop'\)$"
        ),
    ):
        new_game(decks, 1, Options(mode="chess"))


def test_copy_is_equal_and_independent() -> None:
    state = new_game(precon_decks(), 3)
    apply(state, legal_actions(state)[1])
    copy = state.copy()
    assert copy == state
    apply(copy, ASSAULT_ACTION)
    assert copy != state
    assert state.phase == SUMMONING
    check_invariants(state)
    check_invariants(copy)


def test_a_copy_has_the_same_random_stream_and_draws_on_its_own() -> None:
    state = new_game(precon_decks(), 3, Options(log=True, stats=True))
    expected = random.Random()
    expected.setstate(state.rng.getstate())
    first = state.copy()
    second = first.copy()
    values = [expected.random() for _ in range(4)]
    # Each copy draws the stream from where its original stood, and moves on its own.
    assert [first.rng.random() for _ in range(3)] == values[:3]
    assert second.rng.random() == values[0]
    assert first.copy().rng.random() == values[3]
    assert state.copy().rng.random() == values[0]
    assert state.rng.random() == values[0]
    # A search's copy leaves the records behind, and is the same position.
    search = state.copy(records=False)
    assert search.log is None and search.stats is None
    assert state.log and state.stats is not None
    assert search == state
    # A new stream, made only when drawn from, and shared by the copies until then.
    search.reseed(5)
    assert search.rng_state() == random.Random(5).getstate()
    assert search.copy().rng.random() == search.rng.random() == random.Random(5).random()


def test_end_of_turn_heals_and_resets() -> None:
    state = build_state(
        parse(
            {
                **SCENARIO,
                "state": {
                    "active": "A",
                    "players": {
                        "A": {
                            "hand": ["STRONGHOLD", "Ant"],
                            "lines": {
                                "top": [
                                    {
                                        "card": "Thug",
                                        "damage": 2,
                                        "new": True,
                                        "protection_used": True,
                                    }
                                ]
                            },
                        },
                        "B": {"hand": ["STRONGHOLD", "Elk"], "lines": {"top": [], "bottom": []}},
                    },
                },
            }
        )
    )
    apply(state, END_TURN_ACTION)
    thug = state.players[0].lines[0][0]
    assert (thug.damage, thug.new, thug.protection_used) == (0, False, False)
    assert (state.active, state.players[0].mana, state.players[1].mana) == (1, 0, 2)


def test_event_log_one_line_per_event() -> None:
    data = {
        "cards": {
            "Hammer": {
                "type": "creature",
                "cost": 4,
                "attack": 3,
                "hp": 4,
                "abilities": ["splash"],
            },
            "Pawn": {"type": "creature", "cost": 1, "attack": 1, "hp": 2},
            "Rock": {"type": "creature", "cost": 2, "attack": 0, "hp": 5},
            "Filler": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
        },
        "state": {
            "active": "A",
            "players": {
                "A": {"hand": ["STRONGHOLD", "Filler"], "lines": {"top": ["Hammer"]}},
                "B": {
                    "hand": ["STRONGHOLD", "Filler"],
                    "lines": {"top": ["Pawn"], "bottom": ["Rock"]},
                },
            },
        },
        "expect": {},
    }
    state = build_state(parse(data))
    state.log = []
    apply(state, ASSAULT_ACTION)
    apply(state, END_TURN_ACTION)
    assert english_log(state) == [
        "A assaults.",
        "Hammer (A) attacks Pawn.",
        "Pawn (B) takes 3 damage (3/2).",
        "Rock (B) takes 3 damage (3/5).",
        "Pawn (B) is destroyed.",
        "Pawn returns to the right of B's hand.",
        "Turn 3: B (their turn 2).",
        "Phase 1: B has 3 Mana.",
    ]
