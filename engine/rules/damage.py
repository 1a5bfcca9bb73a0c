"""Damage instances: prevention (Indestructible, Protection), marking damage, Stronghold hits.

A :class:`Resolution` records what one source did during one pass of an activation order: which
creatures it damaged (Enchain, destruction, Vanish, Instinct) and how many of its damage instances
dealt at least 1 damage (Regeneration).
"""

from __future__ import annotations

from engine.rules import stronghold
from engine.rules.abilities import combat  # noqa: F401 - registers the prevention handlers
from engine.rules.abilities.registry import INDESTRUCTIBLE, PROTECTION, hook_table
from engine.rules.state import PLAYER_NAMES, Creature, GameState

PREVENTION = hook_table("prevention", ("indestructible", "protection"))
PREVENTION_MASK = INDESTRUCTIBLE | PROTECTION


class Resolution:
    """One source's damage during one pass of an activation order."""

    __slots__ = ("card", "creature", "damaged", "hits", "mask", "player")

    def __init__(self, player: int, card: int, creature: Creature | None, mask: int) -> None:
        # The player whose card deals the damage (Regeneration heals them).
        self.player = player
        self.card = card
        # The attacking or entering creature; None for an Incantation.
        self.creature = creature
        # The source's abilities when it dealt damage (a creature may leave play before step 14).
        self.mask = mask
        self.damaged: list[Creature] = []
        # Targets (creatures or Strongholds) dealt at least 1 damage: one Regeneration each.
        self.hits = 0

    def source_mask(self) -> int:
        creature = self.creature
        if creature is not None and creature.lane >= 0:
            return creature.eff
        return self.mask


def hit(state: GameState, res: Resolution, target: Creature, amount: int, spell: bool) -> int:
    """Deal ``amount`` to ``target`` after prevention; ``spell``: from an Incantation or Backlash.

    Returns the damage actually marked.
    """
    if amount <= 0:
        return 0
    eff = target.eff
    if eff & PREVENTION_MASK:
        for bit, prevent in PREVENTION:
            if eff & bit:
                amount = prevent(state, target, amount, spell)
                if not amount:
                    return 0
    target.damage += amount
    if target not in res.damaged:
        res.damaged.append(target)
    if state.stats is not None and target.owner != res.player:
        state.stats.creature_damage[res.card] += amount
    if state.log is not None:
        state.log.append(
            f"{state.setup.names[target.card]} ({PLAYER_NAMES[target.owner]}) takes {amount} "
            f"damage ({target.damage}/{target.hp})."
        )
    return amount


def hit_many(
    state: GameState, res: Resolution, targets: list[Creature], amounts: list[int], spell: bool
) -> None:
    """One damage instance on several creatures at once (Splash, Perforation)."""
    for i in range(len(targets)):
        if hit(state, res, targets[i], amounts[i], spell):
            res.hits += 1


def hit_stronghold(state: GameState, res: Resolution, player: int, amount: int) -> None:
    if amount > 0:
        res.hits += 1
        if state.stats is not None and player != res.player:
            state.stats.stronghold_damage[res.card] += amount
        stronghold.damage(state, player, amount)
