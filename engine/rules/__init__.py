"""The Clash of Decks rules engine: pure Python, deterministic, no Django.

Step interface: ``new_game(decks, seed, options, champions=None)`` gives a position waiting for
the first player's Phase 2 action (``champions``: one Champion definition or None per player, with
``Options(champions=True)``; ``champion_from_json`` reads one); ``legal_actions(state)`` lists
every choice; ``apply(state, action)`` performs one in place (``state.copy()`` is cheap when the
original must be kept).

The same sources run compiled when ``make engine`` built them (engine.rules.native).
"""

from engine.rules import native

native.activate(__path__)

# ruff: noqa: E402 - the compiled modules are looked up only once activate() chose them.

from engine.rules.actions import (
    ASSAULT_ACTION,
    END_TURN_ACTION,
    Action,
    apply,
    from_json,
    legal_actions,
    to_json,
)
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.champion import champion_from_json
from engine.rules.errors import IllegalAction, InputError, NotSupported, ReplayError, RulesError
from engine.rules.state import RULES_VERSION, GameState, Options
from engine.rules.turn import new_game

__all__ = [
    "ASSAULT_ACTION",
    "END_TURN_ACTION",
    "RULES_VERSION",
    "Action",
    "CardDef",
    "GameState",
    "IllegalAction",
    "InputError",
    "NotSupported",
    "Options",
    "ReplayError",
    "RulesError",
    "apply",
    "champion_from_json",
    "from_json",
    "legal_actions",
    "load_catalogue",
    "new_game",
    "to_json",
]
