"""Abilities of Phase 1: Mana Regeneration."""

from __future__ import annotations

from typing import Final

from engine.rules.abilities.registry import handler, hook_table
from engine.rules.state import Creature, GameState


@handler("phase_1", "catalyst")
def catalyst(state: GameState, creature: Creature) -> int:
    """CATALYST: +2 Mana in Phase 1 while the owner is in play (no upper limit)."""
    return 2


PHASE_1: Final = hook_table("phase_1", ("catalyst",))
