"""The Duel of Chaos rules engine: pure Python, deterministic, no Django (docs/chaos/README.md).

Step interface, as ``engine.rules``: ``new_game(box, seed, options)`` sets a game up and waits for
the first decision; ``legal_actions(state)`` lists the choices of ``state.to_move``;
``apply(state, action, seat=None)`` performs one in place (``state.copy()`` when the original must
be kept); ``seat_view(state, seat)`` is what a seat may see; ``state.returns()`` each seat's
result once the game is over.
"""

from engine.chaos.actions import Action, apply, from_json, legal_actions, to_json
from engine.chaos.cards import Box, ChaosCardDef, card_from_fields, card_problems, example_box
from engine.chaos.errors import ChaosError, IllegalAction, InputError
from engine.chaos.state import RULES_VERSION, ChaosState, Options
from engine.chaos.turn import new_game
from engine.chaos.view import SPECTATOR, seat_events, seat_view

__all__ = [
    "RULES_VERSION",
    "SPECTATOR",
    "Action",
    "Box",
    "ChaosCardDef",
    "ChaosError",
    "ChaosState",
    "IllegalAction",
    "InputError",
    "Options",
    "apply",
    "card_from_fields",
    "card_problems",
    "example_box",
    "from_json",
    "legal_actions",
    "new_game",
    "seat_events",
    "seat_view",
    "to_json",
]
