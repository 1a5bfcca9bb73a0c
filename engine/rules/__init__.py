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
- ``game``: a ``Game`` from its set-up to its end (every mode's decks dealt, the computer seats
  played until a person must act, the end at the mode's turn limit): the one loop every caller uses.
- ``observation``: what a seat (or a spectator) sees of a position, as frozen dataclasses
  (``observe``): the one view every page, the API and the agents' readers take.
- ``events``: the event log and the refusals are codes with arguments (cards by id, players by
  seat) and one English template table; the web app renders the same codes in its languages.
- One copy of each rule: no shortcut paths. The module constants are ``Final`` so that the compiled
  engine reads them as C statics, which is what makes the single general path fast.

The same sources run compiled when ``make engine`` built them (engine.rules.native).

The public API is ``__all__``: the rest of the project imports ``engine.rules`` itself (an
import-linter contract), never its modules, but for the tools a game never loads, public modules
of their own: ``native`` (the build and the digest), ``scenario`` (the scenario files),
``solver``, ``ladder``, ``corpus`` and ``play`` (the command-line player, run as a module). What
a seat sees is ``observe``'s ``Observation``; its JSON is ``seat_view`` (``view``).
"""

from engine.rules import native

native.activate(__path__)

# ruff: noqa: E402 - the compiled modules are looked up only once activate() chose them.

from engine.rules.abilities.registry import AURA_PREFIX
from engine.rules.actions import (
    ASSAULT_ACTION,
    CAST,
    END_TURN,
    END_TURN_ACTION,
    PLAY,
    PLAY_ONTO,
    STRONGHOLD_TOKEN,
    Action,
    apply,
    from_json,
    legal_actions,
    to_json,
)
from engine.rules.agents import (
    AGENTS,
    Agent,
    GreedyAgent,
    LookaheadAgent,
    RandomAgent,
    StrongAgent,
    card_worth,
)
from engine.rules.ai_options import (
    EDITION_2021_ABILITIES,
    EDITIONS,
    FIXED_MANA_RANGE,
    GIVEN_ABILITIES,
    MANA_PER_CREATURE_CHOICES,
    AiOptions,
)
from engine.rules.cards import INCANTATION, CardDef, load_catalogue, validate_deck
from engine.rules.champion import champion_from_json
from engine.rules.coop import coop_decks, drafted_decks
from engine.rules.drafters import DRAFTERS, PriceDrafter, run_draft
from engine.rules.drafts import (
    PROCEDURES,
    Draft,
    Pending,
    hand_origin,
    left_of,
    new_draft,
    pending,
    pending_for,
    pick,
    restore,
    right_of,
)
from engine.rules.errors import IllegalAction, InputError, NotSupported, ReplayError, RulesError
from engine.rules.events import (
    CARD_ARGS,
    EVENTS,
    LANE_ARGS,
    LINE_NAMES,
    PLAYER_NAMES,
    REFUSALS,
    SEAT_ARGS,
    Arg,
    Event,
    fields,
    render,
)
from engine.rules.game import (
    ACTION_LIMIT,
    DRAFT_PROCEDURES,
    REVEAL,
    Chooser,
    Game,
    drafted_table,
    readable,
    table_decks,
)
from engine.rules.modes import AUTOMATON, MODES, TURN_LIMIT, Mode
from engine.rules.native import engine_digest
from engine.rules.observation import (
    SPECTATOR,
    CardSeen,
    CreatureSeen,
    LineSeen,
    Observation,
    OutcomeSeen,
    SeatSeen,
    observe,
)
from engine.rules.replay import record, recorded
from engine.rules.solo import preconstructed
from engine.rules.state import OVER, RULES_VERSION, SUMMONING, GameState, Options, Outcome
from engine.rules.turn import new_game
from engine.rules.view import (
    ACTION_KINDS,
    CARD_KEYS,
    action_from_json,
    action_json,
    public_cards,
    seat_events,
    seat_view,
)

__all__ = [
    "ACTION_KINDS",
    "ACTION_LIMIT",
    "AGENTS",
    "ASSAULT_ACTION",
    "AURA_PREFIX",
    "AUTOMATON",
    "CARD_ARGS",
    "CARD_KEYS",
    "CAST",
    "DRAFTERS",
    "DRAFT_PROCEDURES",
    "EDITIONS",
    "EDITION_2021_ABILITIES",
    "END_TURN",
    "END_TURN_ACTION",
    "EVENTS",
    "FIXED_MANA_RANGE",
    "GIVEN_ABILITIES",
    "INCANTATION",
    "LANE_ARGS",
    "LINE_NAMES",
    "MANA_PER_CREATURE_CHOICES",
    "MODES",
    "OVER",
    "PLAY",
    "PLAYER_NAMES",
    "PLAY_ONTO",
    "PROCEDURES",
    "REFUSALS",
    "REVEAL",
    "RULES_VERSION",
    "SEAT_ARGS",
    "SPECTATOR",
    "STRONGHOLD_TOKEN",
    "SUMMONING",
    "TURN_LIMIT",
    "Action",
    "Agent",
    "AiOptions",
    "Arg",
    "CardDef",
    "CardSeen",
    "Chooser",
    "CreatureSeen",
    "Draft",
    "Event",
    "Game",
    "GameState",
    "GreedyAgent",
    "IllegalAction",
    "InputError",
    "LineSeen",
    "LookaheadAgent",
    "Mode",
    "NotSupported",
    "Observation",
    "Options",
    "Outcome",
    "OutcomeSeen",
    "Pending",
    "PriceDrafter",
    "RandomAgent",
    "ReplayError",
    "RulesError",
    "SeatSeen",
    "StrongAgent",
    "action_from_json",
    "action_json",
    "apply",
    "card_worth",
    "champion_from_json",
    "coop_decks",
    "drafted_decks",
    "drafted_table",
    "engine_digest",
    "fields",
    "from_json",
    "hand_origin",
    "left_of",
    "legal_actions",
    "load_catalogue",
    "new_draft",
    "new_game",
    "observe",
    "pending",
    "pending_for",
    "pick",
    "preconstructed",
    "public_cards",
    "readable",
    "record",
    "recorded",
    "render",
    "restore",
    "right_of",
    "run_draft",
    "seat_events",
    "seat_view",
    "table_decks",
    "to_json",
    "validate_deck",
]
