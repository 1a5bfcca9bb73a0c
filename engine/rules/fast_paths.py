"""Shortcuts through the activation orders for the common case where no ability can act.

Each function is the general path (``assault._attack``, ``summoning.play_card`` + ``aftermath``)
minus the steps that cannot fire for the cards involved; it returns None when a card needs the
general path. They exist for speed only: the tests play the same games with ``ENABLED = False`` and
compare positions and event logs.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules import board, stronghold
from engine.rules.abilities import combat
from engine.rules.abilities.aftermath import return_card
from engine.rules.abilities.registry import (
    AQUATIC,
    BACKLASH,
    COUNTER_ORDER,
    IMMOLATION,
    INDESTRUCTIBLE,
    INSTINCT,
    PROTECTION,
    REGENERATION,
    REINFORCEMENT,
    SHARPENING,
    VANISH,
    VULNERABILITY,
)
from engine.rules.state import PLAYER_NAMES, Creature, GameState

ENABLED = True
# An attacker with one of these abilities, an Incantation with one of SLOW_SPELL, or a target
# with one of SLOW_TARGET (or an enchained card, or a Symbiote) takes the general path.
SLOW_ATTACKER = VULNERABILITY | AQUATIC | REGENERATION | SHARPENING
SLOW_SPELL = VULNERABILITY | BACKLASH | COUNTER_ORDER | REGENERATION | SHARPENING
SLOW_TARGET = VANISH | INSTINCT | REINFORCEMENT
_NOTHING: tuple[Creature, ...] = ()
# What plain_attack returns: (creatures it damaged that Instinct could answer: none on this path,
# whether it destroyed an enemy creature).
_KILL: tuple[Sequence[Creature], bool] = (_NOTHING, True)
_NO_KILL: tuple[Sequence[Creature], bool] = (_NOTHING, False)


def plain_attack(
    state: GameState, attacker: Creature, enemy: int, targets: list[Creature] | None
) -> tuple[Sequence[Creature], bool] | None:
    """Assault steps 6-18 when only Protection and the return to hand can act."""
    amount = attacker.attack + attacker.bonus
    log = state.log
    if targets is None:
        if log is not None:
            log.append(
                f"{state.setup.names[attacker.card]} ({PLAYER_NAMES[attacker.owner]}) attacks "
                "the Stronghold."
            )
        if state.stats is not None and amount > 0:
            state.stats.stronghold_damage[attacker.card] += amount
        stronghold.damage(state, enemy, amount)
        return _NO_KILL
    for target in targets:
        if target.eff & SLOW_TARGET or target.chained or target.symbiote >= 0:
            return None
    if log is not None:
        names = state.setup.names
        log.append(
            f"{names[attacker.card]} ({PLAYER_NAMES[attacker.owner]}) attacks "
            f"{names[targets[0].card]}."
        )
    if _deal(state, targets, amount, False, attacker.card, attacker.owner):
        return _KILL
    return _NO_KILL


def plain_incantation(state: GameState, player: int, card: int, targets: list[Creature]) -> bool:
    """Summoning steps 5-19 of an Incantation no ability of which can act; False when the
    general path is needed (nothing was changed then)."""
    if state.setup.in_game & IMMOLATION:
        return False
    for target in targets:
        if target.eff & SLOW_TARGET or target.chained or target.symbiote >= 0:
            return False
    _deal(state, targets, state.setup.attack[card], True, card, player)
    state.resolving.remove(card)
    return_card(state, card, player, state.setup.mask[card])
    return True


def _deal(
    state: GameState, targets: list[Creature], amount: int, spell: bool, source: int, player: int
) -> bool:
    """One damage instance of card ``source``, controlled by ``player``, on ``targets``, then the
    destroyed ones return to hand; whether a creature was destroyed."""
    if amount <= 0:
        return False
    log = state.log
    stats = state.stats
    dead: list[Creature] | None = None
    for target in targets:
        eff = target.eff
        if spell and eff & INDESTRUCTIBLE:
            continue
        if eff & PROTECTION and not target.protection_used:
            combat.protection(state, target, amount, spell)
            continue
        target.damage += amount
        if stats is not None and target.owner != player:
            stats.creature_damage[source] += amount
        if log is not None:
            log.append(
                f"{state.setup.names[target.card]} ({PLAYER_NAMES[target.owner]}) takes {amount} "
                f"damage ({target.damage}/{target.hp})."
            )
        if target.damage >= target.hp:
            if dead is None:
                dead = [target]
            else:
                dead.append(target)
    if dead is None:
        return False
    if len(dead) > 1:
        dead = board.board_order(state, dead)
    for target in dead:
        if log is not None:
            log.append(
                f"{state.setup.names[target.card]} ({PLAYER_NAMES[target.owner]}) is destroyed."
            )
        board.remove(state, target)
        return_card(state, target.card, target.owner, target.eff)
    if state.auras_dirty:
        board.refresh(state)
    return True
