"""Damage instances: prevention (Indestructible, Protection), marking damage, Stronghold hits.

A :class:`Resolution` records what one source did during one pass of an activation order: which
creatures it damaged (Enchain, destruction, Vanish, Instinct) and how many of its damage instances
dealt at least 1 damage (Regeneration).
"""

from __future__ import annotations

from typing import Final

from engine.rules.abilities.combat import DAMAGE, PREVENTION
from engine.rules.abilities.registry import AQUATIC, INDESTRUCTIBLE, PROTECTION, VULNERABILITY
from engine.rules.events import emit
from engine.rules.state import Creature, GameState

PREVENTION_MASK: Final = INDESTRUCTIBLE | PROTECTION
DAMAGE_MASK: Final = VULNERABILITY | AQUATIC


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


def amounts(state: GameState, res: Resolution, base: int, targets: list[Creature]) -> list[int]:
    """Damage calculation (Assault step 6, Summoning step 8): what ``res`` deals each target, from
    the attack value ``base`` (Vulnerability, then Aquatic)."""
    mask = res.mask
    if not mask & DAMAGE_MASK:
        return [base] * len(targets)
    modifiers = DAMAGE.by_controller[state.setup.controllers[res.player]]
    out = []
    for target in targets:
        amount = base
        for bit, modify in modifiers:
            if mask & bit:
                amount = modify(state, res.creature, amount, target.hp - target.damage)
        out.append(amount)
    return out


def stronghold_amount(state: GameState, res: Resolution, base: int, player: int) -> int:
    """Damage calculation for an attack on ``player``'s Stronghold (the Kingdom may limit what an
    attack inflicts: Solo's resistance)."""
    kingdom = state.players[player]
    amount = base
    mask = res.mask
    if mask & DAMAGE_MASK:
        hp = kingdom.vulnerability_hp()
        for bit, modify in DAMAGE.by_controller[state.setup.controllers[res.player]]:
            if mask & bit:
                amount = modify(state, res.creature, amount, hp)
    return kingdom.attack_damage(amount)


def hit(state: GameState, res: Resolution, target: Creature, amount: int, spell: bool) -> int:
    """Deal ``amount`` to ``target`` after prevention; ``spell``: from an Incantation or Backlash.

    Returns the damage actually marked.
    """
    if amount <= 0:
        return 0
    eff = target.eff
    if eff & PREVENTION_MASK:
        for bit, prevent in PREVENTION.by_controller[state.setup.controllers[target.owner]]:
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
        emit(
            state.log,
            "damage",
            card=target.card,
            player=target.owner,
            amount=amount,
            damage=target.damage,
            hp=target.hp,
            source=res.card,
            source_player=res.player,
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
        state.players[player].damage(state, amount, res.card, res.player)
