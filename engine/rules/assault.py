"""Phase 3: Assault, following the rulebook's activation order of the Assault phase.

1 Auras verification, 2 attack clearance, 3 targets, 4 Sprint, 5 Auras update, 6 damage calculation,
7 dealing damage, 8-18 in :func:`engine.rules.summoning.aftermath`, 19 Berserk, 20 Instinct.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.rules import board
from engine.rules.abilities.aftermath import AGAIN
from engine.rules.abilities.combat import (
    BEFORE_DAMAGE,
    CLEARANCE,
    EXTRA_TARGETS,
    OVER_CREATURES,
    SPARES_STRONGHOLD,
)
from engine.rules.abilities.registry import (
    AERIAL,
    BERSERK,
    DEFENDER,
    INSTINCT,
    PERFORATION,
    RAGE,
    SPLASH,
    SPRINT,
)
from engine.rules.damage import Resolution, amounts, hit_many, hit_stronghold, stronghold_amount
from engine.rules.errors import EngineLoop
from engine.rules.events import emit
from engine.rules.state import ASSAULT_DONE, Creature, GameState
from engine.rules.summoning import aftermath

CLEARANCE_MASK: Final = RAGE
EXTRA_TARGETS_MASK: Final = SPLASH | PERFORATION

# Far above any real chain of Berserk and Instinct attacks; reaching it is an engine bug.
MAX_ATTACKS_PER_ASSAULT: Final = 10_000


def assault(state: GameState) -> None:
    """Resolve the whole Phase 3 of the active player."""
    player = state.active
    lines = state.players[player].lines
    # 1. Auras verification
    if state.auras_dirty:
        board.refresh(state)
    # Attacks left before the Assault is declared a loop (a one-element list: shared by the
    # nested Instinct answers).
    budget = [MAX_ATTACKS_PER_ASSAULT]
    if state.log is not None:
        emit(state.log, "assault", player=player)
    turn = state.turn
    while True:
        attacker = _next_attacker(lines, turn)
        if attacker is None:
            break
        attacker.attacked = turn
        # 2. Attack clearance: in play since the last turn, or Rage
        if attacker.new and not (attacker.eff & CLEARANCE_MASK and _cleared(state, attacker)):
            continue
        _attack_in_full(state, attacker, budget)
    if state.setup.in_game & SPRINT:
        # Sprint's bonus lasts until the end of Phase 3.
        for pl in state.players:
            for line in pl.lines:
                for creature in line:
                    creature.bonus = 0
    state.phase = ASSAULT_DONE


def _next_attacker(lines: list[list[Creature]], turn: int) -> Creature | None:
    """The next creature to attack: upper line then lower, furthest from the Bridge first.

    Looked up again after every attack because lines change (destruction, Sprint, Vanish,
    Reinforcement); a creature attacks once per Assault (``attacked`` holds the number of the
    turn of its last Assault attack), whatever moved.
    """
    for line in lines:
        for creature in reversed(line):
            if creature.attacked != turn:
                return creature
    return None


def _cleared(state: GameState, creature: Creature) -> bool:
    eff = creature.eff
    # A loop rather than any() over a generator: this runs for every new creature with Rage.
    for bit, allows in CLEARANCE.by_controller[state.setup.controllers[creature.owner]]:
        if eff & bit and allows(state, creature):
            return True
    return False


def _attack_in_full(state: GameState, attacker: Creature, budget: list[int]) -> None:
    """One creature's attack, its Berserk attacks, then the Instinct answers it provoked."""
    # The creatures damaged by these attacks, for Instinct (None: no Instinct in this game).
    struck: list[Creature] | None = [] if state.setup.in_game & INSTINCT else None
    while True:
        budget[0] -= 1
        if budget[0] < 0:
            raise EngineLoop("the Assault did not end within its attack budget")
        outcome = _attack(state, attacker)
        if outcome is None:
            break
        if struck is not None:
            for creature in outcome[0]:
                if creature not in struck:
                    struck.append(creature)
        # 19. Berserk (back to step 3)
        if not (
            attacker.eff & BERSERK
            and AGAIN.of(state.setup.controllers[attacker.owner], 0)(state, attacker, outcome[1])
        ):
            break
    if not struck:
        return
    # 20. Instinct (back to step 3), once all the attacks of this creature are resolved
    for creature in board.board_order(state, struck):
        if creature.eff & INSTINCT and AGAIN.of(state.setup.controllers[creature.owner], 1)(
            state, creature, False
        ):
            if state.log is not None:
                emit(state.log, "instinct", card=creature.card)
            _attack_in_full(state, creature, budget)


def _attack(state: GameState, attacker: Creature) -> tuple[Sequence[Creature], bool] | None:
    """Steps 3-18 of one attack: the creatures it damaged and whether it destroyed an enemy
    creature; None if the creature has nothing it may attack."""
    setup = state.setup
    player = attacker.owner
    enemy, enemy_lane = setup.topology.facing[player][attacker.lane]
    enemy_line = state.players[enemy].lines[enemy_lane]
    eff = attacker.eff
    controller = setup.controllers[player]
    # 3. Target(s) identification: Defender / Aerial / Splash / Perforation
    over = eff & AERIAL and OVER_CREATURES.of(controller)(state, attacker)
    targets: list[Creature] | None
    if over or not enemy_line:
        # A creature that entered play this turn (Rage) never attacks the Stronghold.
        if attacker.new or (eff & DEFENDER and SPARES_STRONGHOLD.of(controller)(state, attacker)):
            return None
        targets = None
    else:
        targets = [enemy_line[0]]
        if eff & EXTRA_TARGETS_MASK:
            for bit, extra in EXTRA_TARGETS.by_controller[controller]:
                if eff & bit:
                    extra(state, enemy, enemy_lane, 0, targets)
    # 4. Sprint
    if eff & SPRINT:
        BEFORE_DAMAGE.of(controller)(state, attacker)
    # 5. Auras update
    if state.auras_dirty:
        board.refresh(state)
        eff = attacker.eff
    res = Resolution(player, attacker.card, attacker, eff)
    base = attacker.attack + attacker.bonus
    # 6-7. Damage calculation / Vulnerability / Aquatic, then dealing damage / Protection
    if targets is None:
        if state.log is not None:
            emit(state.log, "attack_stronghold", card=attacker.card, player=player)
        hit_stronghold(state, res, enemy, stronghold_amount(state, res, base, enemy))
    else:
        if state.log is not None:
            emit(state.log, "attack", card=attacker.card, player=player, target=targets[0].card)
        hit_many(state, res, targets, amounts(state, res, base, targets), False)
    # 8-18. Enchain, destruction, Reinforcement, Regeneration, Sharpening, Vanish
    destroyed = aftermath(state, res, -1)
    for creature in destroyed:
        if creature.owner != player:
            return res.damaged, True
    return res.damaged, False
