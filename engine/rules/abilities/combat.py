"""Abilities that shape an attack or a damage instance.

Assault steps 2-7 (attack clearance, targets, Sprint, damage calculation, dealing damage) and their
Summoning counterparts (targets of an Incantation or a Backlash, damage calculation and dealing).
"""

from __future__ import annotations

from typing import Final

from engine.rules import board
from engine.rules.abilities.registry import handler, hook_table
from engine.rules.events import emit
from engine.rules.state import Creature, GameState


@handler("clearance", "rage")
def rage(state: GameState, creature: Creature) -> bool:
    """RAGE: may attack enemy creatures the turn it enters play (never the Stronghold then)."""
    return True


@handler("over_creatures", "aerial")
def aerial(state: GameState, creature: Creature) -> bool:
    """AERIAL: on the upper line it ignores enemy creatures and attacks the Stronghold."""
    return state.setup.topology.upper[creature.lane]


@handler("spares_stronghold", "defender")
def defender(state: GameState, creature: Creature) -> bool:
    """DEFENDER: attacks enemy creatures but never the enemy Stronghold."""
    return True


@handler("extra_targets", "splash")
def splash(state: GameState, side: int, lane: int, index: int, targets: list[Creature]) -> None:
    """SPLASH: also the creature in the same position on the neighbouring line."""
    other = state.players[side].lines[state.setup.topology.neighbour[lane]]
    if index < len(other):
        targets.append(other[index])


@handler("extra_targets", "perforation")
def perforation(
    state: GameState, side: int, lane: int, index: int, targets: list[Creature]
) -> None:
    """PERFORATION: also the creature behind the target on the same line (never a Stronghold)."""
    line = state.players[side].lines[lane]
    if index + 1 < len(line):
        targets.append(line[index + 1])


@handler("before_damage", "sprint")
def sprint(state: GameState, creature: Creature) -> None:
    """SPRINT: move next to the Bridge; +1 damage per creature moved over until Phase 3 ends."""
    creature.bonus += board.move_to_bridge(state, creature)


@handler("damage", "vulnerability")
def vulnerability(state: GameState, creature: Creature | None, amount: int, target_hp: int) -> int:
    """VULNERABILITY: the attack value is the target's hit points minus 1 (AV ignored).

    ``amount`` arrives as attack value + Sprint bonus; the bonus is kept on top of X. An
    Incantation (``creature`` None) deals X.
    """
    bonus = creature.bonus if creature is not None else 0
    return max(0, target_hp - 1) + bonus


@handler("damage", "aquatic")
def aquatic(state: GameState, creature: Creature | None, amount: int, target_hp: int) -> int:
    """AQUATIC: double damage while adjacent to the Bridge (Sprint's bonus doubled too)."""
    if (
        creature is not None
        and creature.lane >= 0
        and state.players[creature.owner].lines[creature.lane][0] is creature
    ):
        return amount * 2
    return amount


@handler("prevention", "indestructible")
def indestructible(state: GameState, target: Creature, amount: int, spell: bool) -> int:
    """INDESTRUCTIBLE: no damage or effect from Incantations and Backlash (still a valid target)."""
    return 0 if spell else amount


@handler("prevention", "protection")
def protection(state: GameState, target: Creature, amount: int, spell: bool) -> int:
    """PROTECTION: each turn, the first source of at least 1 damage to the owner is reduced to 0."""
    if target.protection_used:
        return amount
    target.protection_used = True
    if state.log is not None:
        emit(state.log, "protection", card=target.card, amount=amount)
    return 0


CLEARANCE: Final = hook_table("clearance", ("rage",))
OVER_CREATURES: Final = hook_table("over_creatures", ("aerial",))
SPARES_STRONGHOLD: Final = hook_table("spares_stronghold", ("defender",))
EXTRA_TARGETS: Final = hook_table("extra_targets", ("splash", "perforation"))
BEFORE_DAMAGE: Final = hook_table("before_damage", ("sprint",))
# Step 6 in order: Vulnerability replaces the attack value, then Aquatic doubles everything.
DAMAGE: Final = hook_table("damage", ("vulnerability", "aquatic"))
PREVENTION: Final = hook_table("prevention", ("indestructible", "protection"))
