"""Creatures on the lines: placing, moving, removing, Auras, and the rulebook's resolution order.

Lines are Python lists from the Bridge outward, so removing a creature closes up the line at once
(the "shifting of the Creatures to fill the spots left empty" steps of both activation orders).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.rules.state import Creature, GameState

# Lines whose Auras must be updated are bits ``owner * MAX_LANES + lane`` of state.auras_dirty.
MAX_LANES: Final = 4


def mark(state: GameState, creature: Creature) -> None:
    """The line of ``creature`` changed: its Auras need the next "Auras update" step."""
    state.auras_dirty |= 1 << (creature.owner * MAX_LANES + creature.lane)


def remove(state: GameState, creature: Creature) -> None:
    state.auras_dirty |= 1 << (creature.owner * MAX_LANES + creature.lane)
    state.players[creature.owner].lines[creature.lane].remove(creature)
    creature.lane = -1


def move_to_bridge(state: GameState, creature: Creature) -> int:
    """Move next to the Bridge (Sprint); returns how many creatures it moved over."""
    line = state.players[creature.owner].lines[creature.lane]
    index = line.index(creature)
    if index:
        del line[index]
        line.insert(0, creature)
        mark(state, creature)
    return index


def move_to_back(state: GameState, creature: Creature) -> None:
    """Move to the furthest position from the Bridge (Vanish)."""
    line = state.players[creature.owner].lines[creature.lane]
    if line[-1] is not creature:
        line.remove(creature)
        line.append(creature)
        mark(state, creature)


def _update_line(line: list[Creature]) -> None:
    """Aura: adjacent creatures on the same line get the paired abilities, the bearer does not."""
    left = 0
    last = len(line) - 1
    for i, c in enumerate(line):
        granted = left
        if i < last:
            granted |= line[i + 1].aura
        c.eff = c.base | granted
        left = c.aura


def update_auras(state: GameState) -> None:
    """Recompute every line's Auras."""
    state.auras_dirty = 0
    for pl in state.players:
        for line in pl.lines:
            _update_line(line)


def refresh(state: GameState) -> None:
    """An "Auras update" step of the activation orders: update the lines that changed."""
    dirty = state.auras_dirty
    if dirty:
        state.auras_dirty = 0
        if state.setup.any_aura:
            players = state.players
            side = 0
            while dirty:
                if dirty & 1:
                    _update_line(players[side // MAX_LANES].lines[side % MAX_LANES])
                dirty >>= 1
                side += 1


def board_order(state: GameState, creatures: Iterable[Creature]) -> list[Creature]:
    """``creatures`` in the rulebook's order for simultaneous effects.

    Upper line first, then lower line; on a line from the furthest from the Bridge to the closest,
    the two Kingdoms' halves interleaved by distance (at equal distance, the creature of the
    player who plays first from the active player on, in the order of play: the active player's
    in a Duel, see docs/rulings.md and ruling P6).
    """
    chosen = [c for c in creatures if c.lane >= 0]
    if len(chosen) < 2:
        return chosen
    setup = state.setup
    line_number = setup.topology.line_number
    position = setup.turn_position
    players = state.players
    seats = len(position)
    active_position = position[state.active]
    keyed = [
        (
            line_number[c.owner][c.lane],
            -players[c.owner].lines[c.lane].index(c),
            (position[c.owner] - active_position) % seats,
            i,
        )
        for i, c in enumerate(chosen)
    ]
    keyed.sort()
    return [chosen[k[3]] for k in keyed]
