"""The Clash of Decks rules engine: pure Python, deterministic, no Django.

Step interface: ``new_game(decks, seed, options, champions=None)`` gives a position waiting for
the first player's Phase 2 action (``champions``: one Champion definition or None per player, with
``Options(champions=True)``; ``champion_from_json`` reads one); ``legal_actions(state)`` lists
every choice; ``apply(state, action)`` performs one in place (``state.copy()`` is cheap when the
original must be kept).

How the engine is cut, and why (so Solo, Co-op and the 4-player modes are data, not copies):

- ``solo``: the Solo mode's automaton (its set-up, its automatic turn, its exceptions to the
  abilities); ``ai_options.AiOptions`` holds Custom Play's parameters (``Options(ai=...)``).
- ``modes``: a Mode is the table (Topology: who faces whom on which line), the seats with their
  controller kind (a hand player, or Solo's automaton) and team, the first-turn Mana table and the
  win rule. The rules read ``setup.mode``; nothing assumes two players.
- ``kingdom``: each seat's Kingdom owns its Stronghold rules (damage, regeneration, a card
  returning, the game-end check, Phase 1's Mana), one class per kind of Kingdom; hand-only rules
  (the 4 leftmost cards, Lucidity, Counter-order, Enchain, Exhaustion) take the hand Kingdom.
- Every Stronghold damage instance and every loss carries its source (card and controller); a
  finished game has an ``Outcome`` whose ``returns`` give each seat +1, -1 or 0 (OpenSpiel's
  ``returns()``), teams sharing theirs.
- ``abilities``: each special ability is a set of handlers registered per hook; the activation
  orders call them only through the hooks' tables, per controller kind, so an exception for the
  automaton is one more registration.
- ``events``: the event log and the refusals are codes with arguments (cards by id, players by
  seat) and one English template table; the web app renders the same codes in its languages.
- One copy of each rule: no shortcut paths. The module constants are ``Final`` so that the compiled
  engine reads them as C statics, which is what makes the single general path fast.

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
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.champion import champion_from_json
from engine.rules.errors import IllegalAction, InputError, NotSupported, ReplayError, RulesError
from engine.rules.events import EVENTS, REFUSALS, Event, render
from engine.rules.modes import MODES, Mode
from engine.rules.state import RULES_VERSION, GameState, Options, Outcome
from engine.rules.turn import new_game

__all__ = [
    "ASSAULT_ACTION",
    "END_TURN_ACTION",
    "EVENTS",
    "MODES",
    "REFUSALS",
    "RULES_VERSION",
    "Action",
    "AiOptions",
    "CardDef",
    "Event",
    "GameState",
    "IllegalAction",
    "InputError",
    "Mode",
    "NotSupported",
    "Options",
    "Outcome",
    "ReplayError",
    "RulesError",
    "apply",
    "champion_from_json",
    "from_json",
    "legal_actions",
    "load_catalogue",
    "new_game",
    "render",
    "to_json",
]
