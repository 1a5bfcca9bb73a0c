"""Per-game statistics (engine.rules.stats): what each card was played and dealt, exactly."""

from __future__ import annotations

from typing import Any

from engine.rules.actions import apply, from_json
from engine.rules.agents import GreedyAgent
from engine.rules.scenario import build_state, parse
from engine.rules.state import PLAYER_NAMES, GameState, Options
from engine.rules.stats import GameStats
from engine.rules.turn import new_game

from .support import precon_decks


def _played_out(scenario: dict[str, Any]) -> GameState:
    """The scenario's position with the statistics on, after its actions."""
    state = build_state(parse({**scenario, "expect": {}}))
    state.stats = GameStats(len(state.setup.cards))
    for action in scenario["actions"]:
        apply(state, from_json(state, action))
    return state


def _rows(state: GameState) -> dict[str, tuple[int, int, int]]:
    """``"A Name": (played, damage to creatures, damage to Strongholds)`` for every card with a
    non-zero count; the letter is the deck the card was built into."""
    stats = state.stats
    assert stats is not None
    setup = state.setup
    rows = {}
    for card, name in enumerate(setup.names):
        row = (stats.played[card], stats.creature_damage[card], stats.stronghold_damage[card])
        if any(row):
            rows[f"{PLAYER_NAMES[setup.origin[card]]} {name}"] = row
    return rows


def test_off_by_default_and_sized_by_the_cards_when_on() -> None:
    decks = precon_decks(1, 2)
    assert new_game(decks, 1).stats is None
    assert new_game(decks, 1).copy().stats is None
    state = new_game(decks, 1, Options(stats=True))
    assert state.stats is not None
    assert state.stats.played == [0] * 16
    assert state.stats.creature_damage == [0] * 16
    assert state.stats.stronghold_damage == [0] * 16
    # A record, not a rule: the options and the positions compare equal with or without it.
    assert Options(stats=True) == Options()
    assert state == new_game(decks, 1)


def test_a_copy_counts_on_its_own_and_equality_ignores_the_counts() -> None:
    decks = precon_decks(3, 4)
    state = new_game(decks, 7, Options(stats=True))
    trial = state.copy()
    assert trial == state and trial.stats is not state.stats
    greedy = GreedyAgent()
    while trial.outcome is None:
        apply(trial, greedy.choose(trial))
    assert trial.stats is not None and state.stats is not None
    assert sum(trial.stats.played) > 0
    assert sum(state.stats.played) == 0
    other = trial.copy()
    other.stats = None
    assert other == trial


def test_attacks_with_splash_count_each_creature_hit() -> None:
    state = _played_out(
        {
            "cards": {
                "Left": {"type": "creature", "cost": 1, "attack": 1, "hp": 2},
                "Lamp": {"type": "creature", "cost": 3, "attack": 1, "hp": 2,
                         "abilities": ["aura:splash"]},
                "Right": {"type": "creature", "cost": 1, "attack": 1, "hp": 2},
                "T": {"type": "creature", "cost": 6, "attack": 0, "hp": 9},
                "U": {"type": "creature", "cost": 6, "attack": 0, "hp": 9},
                "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Ant"],
                          "lines": {"top": ["Left", "Lamp", "Right"], "bottom": []}},
                    "B": {"hand": ["STRONGHOLD", "Yak"], "lines": {"top": ["T"], "bottom": ["U"]}},
                },
            },
            "actions": ["assault"],
        }
    )  # fmt: skip
    # Lamp's Aura gives Splash to Left and Right (not to itself): they hit T and U, Lamp only T.
    assert _rows(state) == {"A Left": (0, 2, 0), "A Lamp": (0, 1, 0), "A Right": (0, 2, 0)}


def test_an_incantation_and_a_stronghold_hit() -> None:
    state = _played_out(
        {
            "cards": {
                "Ogre": {"type": "creature", "cost": 1, "attack": 3, "hp": 4},
                "Bolt": {"type": "incantation", "cost": 1, "attack": 2},
                "Wall": {"type": "creature", "cost": 1, "attack": 0, "hp": 5},
                "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Bat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Cat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Dog": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Elk": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Bolt", "Ant"], "mana": 3,
                          "lines": {"top": ["Ogre"], "bottom": []}},
                    "B": {"hand": ["STRONGHOLD", "Bat", "Cat", "Dog", "Elk"],
                          "lines": {"top": [], "bottom": ["Wall"]}},
                },
            },
            "actions": [{"play": "Bolt", "target": {"player": "B", "card": "Wall"}}, "assault"],
        }
    )  # fmt: skip
    assert _rows(state) == {"A Ogre": (0, 0, 3), "A Bolt": (1, 2, 0)}


def test_price_of_blood_and_immolation_count_for_the_bearer_of_the_other_side_only() -> None:
    state = _played_out(
        {
            "cards": {
                "Pyre": {"type": "creature", "cost": 2, "attack": 0, "hp": 3,
                         "abilities": ["immolation"]},
                "Torch": {"type": "creature", "cost": 2, "attack": 0, "hp": 3,
                          "abilities": ["immolation"]},
                "Blood": {"type": "creature", "cost": 3, "attack": 1, "hp": 1,
                          "abilities": ["price_of_blood"]},
                "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Bat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Cat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Dog": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Eel": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Blood", "Ant", "Bat", "Cat", "Dog", "Eel"],
                          "mana": 1, "lines": {"top": ["Torch"], "bottom": []}},
                    "B": {"hand": ["STRONGHOLD", "Yak"], "lines": {"top": ["Pyre"], "bottom": []}},
                },
            },
            "actions": [{"play": "Blood", "line": "top"}],
        }
    )  # fmt: skip
    # A suffers 2 (Price of Blood, its own card, paid while Blood is still in hand, which then
    # leaves from left of the Stronghold: 2 - 1), then 1 per Immolation bearer on the line: its
    # own Torch (not dealt) and B's Pyre (dealt by Pyre).
    assert state.players[0].sh == 2 - 1 + 2
    assert _rows(state) == {"A Blood": (1, 0, 0), "B Pyre": (0, 0, 1)}


def test_a_symbiote_deals_its_backlash_and_the_stack_attacks_as_its_host() -> None:
    state = _played_out(
        {
            "cards": {
                "Host": {"type": "creature", "cost": 1, "attack": 2, "hp": 3},
                "Sym": {"type": "creature", "cost": 1, "attack": 1, "hp": 1,
                        "abilities": ["symbiote", "backlash"]},
                "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Bat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Wall": {"type": "creature", "cost": 1, "attack": 0, "hp": 9},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Zed": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["Ant", "STRONGHOLD", "Sym", "Bat"], "mana": 1,
                          "lines": {"top": ["Host"], "bottom": []}},
                    "B": {"hand": ["STRONGHOLD", "Yak", "Zed"],
                          "lines": {"top": ["Wall"], "bottom": []}},
                },
            },
            "actions": [{"play": "Sym", "onto": "Host"}, "assault"],
        }
    )  # fmt: skip
    # Backlash: 1 (one card left of A's Stronghold) by Sym; the stack (2 + 1) attacks as Host.
    assert state.players[1].lines[0][0].damage == 4
    assert _rows(state) == {"A Host": (0, 3, 0), "A Sym": (1, 1, 0)}


def test_a_champion_is_played_and_deals_damage_like_a_card() -> None:
    state = _played_out(
        {
            "cards": {
                "Hero": {"type": "champion", "cost": 3, "attack": 3, "hp": 3},
                "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Bat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Zed": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Elk": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Fox": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "options": {"champions": True},
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Ant", "Bat"], "mana": 3,
                          "champion": {"card": "Hero"}},
                    "B": {"hand": ["STRONGHOLD", "Yak", "Zed", "Elk", "Fox"]},
                },
            },
            # New this turn, Hero attacks B's Stronghold two turns later.
            "actions": [{"play": "Hero", "line": "top"}, "end_turn", "end_turn", "assault"],
        }
    )  # fmt: skip
    assert state.players[1].sh == 3
    assert _rows(state) == {"A Hero": (1, 0, 3)}


def test_sharpening_after_a_reinforcement_counts_for_the_attacker() -> None:
    state = _played_out(
        {
            "cards": {
                "Blade": {"type": "creature", "cost": 3, "attack": 5, "hp": 3,
                          "abilities": ["sharpening"]},
                "Ant": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Guard": {"type": "creature", "cost": 2, "attack": 0, "hp": 2,
                          "abilities": ["reinforcement"]},
                "Pup": {"type": "creature", "cost": 1, "attack": 0, "hp": 1},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Zed": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Elk": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Fox": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Ant"], "lines": {"top": ["Blade"]}},
                    "B": {"hand": ["STRONGHOLD", "Pup", "Yak", "Zed", "Elk", "Fox"],
                          "lines": {"top": ["Guard"]}},
                },
            },
            "actions": ["assault"],
        }
    )  # fmt: skip
    # Blade marks all its 5 damage on Guard (2 hp); B's Reinforcement plays Pup, then the 3
    # excess damage hits B's Stronghold: Blade's too.
    assert [c.card for c in state.players[1].lines[0]] == [state.setup.names.index("Pup")]
    assert state.players[1].sh == 3
    assert _rows(state) == {"A Blade": (0, 5, 3), "B Pup": (1, 0, 0)}


def test_prevented_and_self_inflicted_damage_is_not_dealt() -> None:
    state = _played_out(
        {
            "cards": {
                "Bolt": {"type": "incantation", "cost": 1, "attack": 2},
                "Zap": {"type": "incantation", "cost": 1, "attack": 1, "abilities": ["splash"]},
                "Ogre": {"type": "creature", "cost": 1, "attack": 2, "hp": 4},
                "Ant": {"type": "creature", "cost": 1, "attack": 0, "hp": 1},
                "Bee": {"type": "creature", "cost": 1, "attack": 0, "hp": 3},
                "Cat": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
                "Shield": {"type": "creature", "cost": 1, "attack": 0, "hp": 3,
                           "abilities": ["protection"]},
                "Rock": {"type": "creature", "cost": 1, "attack": 0, "hp": 3,
                         "abilities": ["indestructible"]},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Bolt", "Zap", "Cat"], "mana": 3,
                          "lines": {"top": ["Ogre"], "bottom": ["Ant", "Bee"]}},
                    "B": {"hand": ["STRONGHOLD", "Yak"],
                          "lines": {"top": ["Shield"], "bottom": ["Rock"]}},
                },
            },
            "actions": [
                {"play": "Bolt", "target": {"player": "B", "card": "Shield"}},
                {"play": "Zap", "target": {"player": "A", "card": "Ant"}},
                "assault",
            ],
        }
    )  # fmt: skip
    # Bolt: absorbed by Protection (its first source this turn). Zap on A's own Ant, splashing
    # A's own Ogre: marked, not dealt. Ogre then hits Shield for real: 2 (Bee, 0 attack: nothing).
    assert state.players[1].lines[0][0].damage == 2
    assert state.players[0].lines[0][0].damage == 1
    assert _rows(state) == {"A Bolt": (1, 0, 0), "A Zap": (1, 0, 0), "A Ogre": (0, 2, 0)}
    # Rock is Indestructible: an Incantation marks nothing on it.
    again = _played_out(
        {
            "cards": {
                "Bolt": {"type": "incantation", "cost": 1, "attack": 2},
                "Ant": {"type": "creature", "cost": 1, "attack": 0, "hp": 1},
                "Rock": {"type": "creature", "cost": 1, "attack": 0, "hp": 3,
                         "abilities": ["indestructible"]},
                "Yak": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
            },
            "state": {
                "active": "A",
                "players": {
                    "A": {"hand": ["STRONGHOLD", "Bolt", "Ant"], "mana": 1},
                    "B": {"hand": ["STRONGHOLD", "Yak"], "lines": {"bottom": ["Rock"]}},
                },
            },
            "actions": [{"play": "Bolt", "target": {"player": "B", "card": "Rock"}}],
        }
    )  # fmt: skip
    assert _rows(again) == {"A Bolt": (1, 0, 0)}
