"""The one adapter through which the Play app reaches the engine app (import-linter: Play imports
of the engine only this module, the pure `engine.rules` and `engine.chaos`, and the display
package `engine.display`).

What a table needs of the engine app: the decks a seat may bring and the computer's decks
(`engine.adapters.decks`), a Draft table's pool (`engine.adapters.pools`), the Solo AI's levels
(`engine.adapters.difficulty`), the Duel of Chaos box (`engine.adapters.chaos`), the strength
ladder that orders the computer players (`engine.agent_ladder`), and the replay frames and the
draft procedures the test games use (`engine.simulation`), so a finished table replays as a
test game does.
"""

from engine.adapters.chaos import chaos_box, chaos_set_resolve
from engine.adapters.decks import (
    COOP_AI_CARDS,
    PRECONSTRUCTED_NUMBERS,
    DeckChoice,
    ResolvedDeck,
    check_playable,
    coop_ai_deck_resolve,
    coop_invited_partner_check,
    simulation_deck_resolve,
    solo_ai_deck_resolve,
)
from engine.adapters.difficulty import difficulty_level_options
from engine.adapters.pools import draft_pool_resolve
from engine.agent_ladder import current_ladder
from engine.simulation import DRAFT_PROCEDURES, Frame, replay_frames

__all__ = [
    "COOP_AI_CARDS",
    "DRAFT_PROCEDURES",
    "PRECONSTRUCTED_NUMBERS",
    "DeckChoice",
    "Frame",
    "ResolvedDeck",
    "chaos_box",
    "chaos_set_resolve",
    "check_playable",
    "coop_ai_deck_resolve",
    "coop_invited_partner_check",
    "current_ladder",
    "difficulty_level_options",
    "draft_pool_resolve",
    "replay_frames",
    "simulation_deck_resolve",
    "solo_ai_deck_resolve",
]
