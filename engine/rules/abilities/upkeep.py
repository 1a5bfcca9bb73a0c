"""Abilities of Phase 1: Mana Regeneration."""

from __future__ import annotations

from typing import Final

from engine.rules.abilities.registry import handler, hook_table
from engine.rules.state import Creature, GameState


@handler("phase_1", "catalyst")
def catalyst(state: GameState, creature: Creature) -> int:
    """CATALYST: +2 Mana in Phase 1 while the owner is in play (no upper limit)."""
    return 2


@handler("phase_1", "blackmail")
def blackmail(state: GameState, creature: Creature) -> int:
    """BLACKMAIL limits a hand player's available cards (engine.rules.abilities.costs), not
    their Mana: nothing here. The Solo AI, which has no hand, loses 1 Mana instead
    (engine.rules.solo)."""
    return 0


PHASE_1: Final = hook_table("phase_1", ("catalyst", "blackmail"))
