"""Playing a card, following the rulebook's activation order of the Summoning phase, and the
after-damage steps both activation orders share (destruction, Reinforcement, Regeneration,
Sharpening, Vanish).
"""

from __future__ import annotations

from typing import Final

from engine.rules import board, champion
from engine.rules.abilities.aftermath import (
    AFTER_DAMAGE,
    DAMAGED,
    RETURNED,
    SURVIVED,
    return_card,
)
from engine.rules.abilities.combat import EXTRA_TARGETS
from engine.rules.abilities.costs import PAYMENT, card_cost
from engine.rules.abilities.on_play import LINE_PLAY, ON_PLAY
from engine.rules.abilities.registry import (
    BACKLASH,
    COUNTER_ORDER,
    ENCHAIN,
    IMMOLATION,
    PERFORATION,
    REGENERATION,
    REINFORCEMENT,
    SHARPENING,
    SPLASH,
    VANISH,
)
from engine.rules.damage import Resolution, amounts, hit_many
from engine.rules.events import emit
from engine.rules.kingdom import hand_of
from engine.rules.state import NO_CARD, Creature, GameState, new_creature

# The ``index`` of play_card that summons the player's Champion instead of a card of the hand.
CHAMPION_INDEX: Final = -1

ON_PLAY_MASK: Final = BACKLASH | COUNTER_ORDER | ENCHAIN
EXTRA_TARGETS_MASK: Final = SPLASH | PERFORATION
AFTER_DAMAGE_MASK: Final = REGENERATION | SHARPENING


def play_card(
    state: GameState,
    player: int,
    index: int,
    lane: int = -1,
    host: Creature | None = None,
    target: Creature | None = None,
    free: bool = False,
) -> None:
    """Play the card at ``index`` of ``player``'s hand (already checked legal); ``index``
    :data:`CHAMPION_INDEX` summons the player's Champion from outside the Kingdoms.

    A creature goes on ``lane`` (behind the player's creatures) or onto ``host`` (Symbiote); an
    Incantation hits ``target``. ``free``: played by Reinforcement, without paying.
    """
    setup = state.setup
    kingdom = hand_of(state, player)
    card = kingdom.hand[index] if index >= 0 else kingdom.champion
    if not free:
        # 1. Mana cost payment / Lucidity (a Champion: its reduced cost, never Lucidity's)
        if index < 0:
            cost = champion.summon_cost(state, player)
        else:
            cost = card_cost(state, player, index, card)
        missing = cost - kingdom.mana
        if missing > 0:
            kingdom.mana = 0
            # 2. Price of Blood: the rest of the cost is paid with the Stronghold
            PAYMENT.of(setup.controllers[player])(state, player, card, missing)
        else:
            kingdom.mana -= cost
    # 3. The card comes out of its owner's hand (a Champion: from near the play area)
    if index >= 0:
        kingdom.take(index)
    else:
        kingdom.champion = NO_CARD
    enter_play(state, player, card, lane, host, target)


def enter_play(
    state: GameState,
    player: int,
    card: int,
    lane: int,
    host: Creature | None,
    target: Creature | None,
) -> None:
    """Steps 3 to 19 of the Summoning order once ``card`` left where it was (a hand, or the
    Solo AI's deck pile: engine.rules.solo) and was paid for."""
    setup = state.setup
    kingdom = state.players[player]
    mask = setup.mask[card]
    stats = state.stats
    if stats is not None:
        stats.played[card] += 1
        if not stats.first_turn[card]:
            stats.first_turn[card] = state.players[player].turns
    entering: Creature | None = None
    if setup.creature[card]:
        if host is None:
            creature = new_creature(setup, card, player, lane)
            kingdom.lines[lane].append(creature)
            board.mark(state, creature)
            entering = creature
        else:
            creature = host
            host.add_symbiote(setup, card)
            board.mark(state, host)
        if state.log is not None:
            if host is None:
                emit(state.log, "play_line", player=player, card=card, line=lane)
            else:
                emit(state.log, "play_onto", player=player, card=card, host=host.card)
        if setup.any_champion:
            # Played (step 3): a card of exactly an exhausted Champion's Mana cost readies it.
            champion.ready(state, setup.cost[card])
        # The creature left the hand for good: the Stronghold rules apply now (an Incantation
        # comes back at step 16, and its caster is checked after that); nothing to do while
        # the Stronghold has a card to its right.
        if kingdom.hit_points() <= 0:
            kingdom.check(state, card, player)
        if not mask & ON_PLAY_MASK and not setup.in_game & IMMOLATION:
            # Nothing can act when this creature enters play: only the Auras update is left.
            if state.auras_dirty:
                board.refresh(state)
            return
        side_owner, side_lane = player, creature.lane
        res = Resolution(player, card, creature, creature.eff)
        targets: list[Creature] = []
    else:
        assert target is not None
        creature = None
        state.resolving.append(card)
        side_owner, side_lane = target.owner, target.lane
        res = Resolution(player, card, None, mask)
        if state.log is not None:
            emit(
                state.log, "cast", player=player, card=card, target=target.card, owner=target.owner
            )
        if setup.any_champion:
            champion.ready(state, setup.cost[card])
        # 4. Target(s) identification: Splash / Perforation
        targets = [target]
        if mask & EXTRA_TARGETS_MASK:
            index_on_line = state.players[target.owner].lines[target.lane].index(target)
            for bit, extra in EXTRA_TARGETS.by_controller[setup.controllers[player]]:
                if mask & bit:
                    extra(state, target.owner, target.lane, index_on_line, targets)
    # 5. Immolation
    if setup.in_game & IMMOLATION:
        _immolation(state, player, side_owner, side_lane, entering)
    # 6-7. Backlash, Counter-order (and Enchain's capture)
    if mask & ON_PLAY_MASK:
        side = (side_owner, side_lane)
        for bit, effect in ON_PLAY.by_controller[setup.controllers[player]]:
            if mask & bit:
                effect(state, res, side)
    if creature is None:
        # 8-9. Damage calculation / Vulnerability, dealing damage / Protection / Indestructible
        hit_many(state, res, targets, amounts(state, res, setup.attack[card], targets), True)
        aftermath(state, res, card, side_owner, side_lane)
        kingdom.check(state, card, player)
    else:
        aftermath(state, res, -1, side_owner, side_lane)


def _immolation(
    state: GameState, player: int, owner: int, lane: int, entering: Creature | None
) -> None:
    """Each Immolation bearer on the line of the played card costs its player 1 damage."""
    halves = [(owner, lane), state.setup.topology.facing[owner][lane]]
    bearers = [
        c
        for q, ln in halves
        for c in state.players[q].lines[ln]
        if c.eff & IMMOLATION and c is not entering
    ]
    controllers = state.setup.controllers
    for bearer in board.board_order(state, bearers):
        LINE_PLAY.of(controllers[bearer.owner])(state, player, bearer)


def aftermath(
    state: GameState, res: Resolution, spell: int, side_owner: int = -1, side_lane: int = -1
) -> list[Creature]:
    """Steps after damage was dealt; returns the creatures destroyed (for Berserk).

    ``spell`` is the Incantation being resolved (it returns to hand at step 16, the half of the
    line ``side_owner``, ``side_lane`` it targeted tells Mercenary's enemy), or -1.
    """
    setup = state.setup
    controllers = setup.controllers
    damaged = res.damaged
    if not damaged and not res.hits and spell < 0:
        # Nothing was damaged: only the Auras update of step 13 is left to do.
        board.refresh(state)
        return []
    destroyed: list[Creature] = []
    ordered = board.board_order(state, damaged) if len(damaged) > 1 else damaged
    if damaged:
        if setup.in_game & ENCHAIN:
            # Enchain: a bearer that suffered at least 1 damage releases its card (Assault step 8).
            for creature in ordered:
                if creature.chained:
                    DAMAGED.of(controllers[creature.owner])(state, creature)
        # Destroyed creatures return to hand / Mercenary / Cursed, in the rulebook's order.
        reinforcing: list[tuple[int, int, int]] | None = None
        for creature in ordered:
            if creature.damage >= creature.hp:
                destroyed.append(creature)
                lane = _destroy(state, creature)
                if lane >= 0:
                    if reinforcing is None:
                        reinforcing = []
                    reinforcing.append((creature.owner, lane, creature.card))
        # Reinforcement
        if reinforcing is not None:
            for owner, lane, card in reinforcing:
                index = RETURNED.of(controllers[owner])(state, owner, lane, card)
                if index >= 0:
                    if state.log is not None:
                        emit(state.log, "reinforcement", player=owner)
                    play_card(state, owner, index, lane=lane, free=True)
    # Shifting (implicit in the lists) and Auras update
    board.refresh(state)
    mask = res.source_mask()
    # Regeneration, then Sharpening (only the first kill of the turn)
    if mask & AFTER_DAMAGE_MASK:
        for bit, after in AFTER_DAMAGE.by_controller[controllers[res.player]]:
            if mask & bit:
                after(state, res, destroyed)
    # Incantation returns in hand / Mercenary (Incantation) / Cursed (Incantation)
    if spell >= 0:
        state.resolving.remove(spell)
        return_card(state, spell, res.player, setup.mask[spell], side_owner, side_lane)
    # Vanish
    if damaged and setup.in_game & VANISH:
        for creature in ordered:
            if creature.lane >= 0 and creature.eff & VANISH:
                SURVIVED.of(controllers[creature.owner])(state, creature)
        board.refresh(state)
    return destroyed


def _destroy(state: GameState, creature: Creature) -> int:
    """Remove a destroyed creature and return its cards.

    Returns the lane where its Reinforcement plays a creature, or -1 if it does not trigger.
    """
    setup = state.setup
    holder = creature.owner
    if state.log is not None:
        emit(state.log, "destroyed", card=creature.card, player=holder)
    lane = creature.lane
    board.remove(state, creature)
    eff = creature.eff
    if creature.symbiote >= 0:
        # Both cards return, the Symbiote first; each card's own Mercenary/Cursed decides where,
        # abilities granted by an Aura apply to both.
        granted = eff & ~creature.base
        home = False
        for card in (creature.symbiote, creature.card):
            mask = setup.mask[card] | granted
            home |= return_card(state, card, holder, mask, holder, lane) == holder
    else:
        home = return_card(state, creature.card, holder, eff, holder, lane) == holder
    return lane if home and eff & REINFORCEMENT else -1
