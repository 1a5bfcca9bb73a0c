"""Playing a card, following the rulebook's activation order of the Summoning phase, and the
after-damage steps both activation orders share (destruction, Reinforcement, Regeneration,
Sharpening, Vanish).
"""

from __future__ import annotations

from engine.rules import board, champion, fast_paths, stronghold
from engine.rules.abilities import on_play
from engine.rules.abilities.aftermath import (
    regeneration,
    reinforcement,
    release_enchained,
    return_card,
    sharpening,
    vanish,
)
from engine.rules.abilities.combat import perforation, splash
from engine.rules.abilities.costs import lucidity, price_of_blood
from engine.rules.abilities.registry import (
    BACKLASH,
    COUNTER_ORDER,
    ENCHAIN,
    IMMOLATION,
    LUCIDITY,
    PERFORATION,
    REGENERATION,
    REINFORCEMENT,
    SHARPENING,
    SPLASH,
    VANISH,
    VULNERABILITY,
    hook_table,
)
from engine.rules.damage import Resolution, hit_many
from engine.rules.state import LINE_NAMES, NO_CARD, PLAYER_NAMES, Creature, GameState, new_creature

# The ``index`` of play_card that summons the player's Champion instead of a card of the hand.
CHAMPION_INDEX = -1

# Steps 6-7, in the rulebook's order; Enchain's capture is a "when played" effect the Summoning
# order does not list, resolved right after Counter-order (docs/rulings.md).
ON_PLAY = hook_table("on_play", ("backlash", "counter_order", "enchain"))
ON_PLAY_MASK = BACKLASH | COUNTER_ORDER | ENCHAIN


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
    pl = state.players[player]
    card = pl.hand[index] if index >= 0 else pl.champion
    mask = setup.mask[card]
    if not free:
        # 1. Mana cost payment / Lucidity (a Champion: its reduced cost, never Lucidity's)
        if index < 0:
            cost = champion.summon_cost(state, player)
        else:
            cost = setup.cost[card]
            if mask & LUCIDITY:
                cost = lucidity(state, player, index, cost)
        missing = cost - pl.mana
        if missing > 0:
            pl.mana = 0
            # 2. Price of Blood: the rest of the cost is paid with the Stronghold
            price_of_blood(state, player, missing)
        else:
            pl.mana -= cost
    # 3. The card comes out of its owner's hand (a Champion: from near the play area)
    if index >= 0:
        # stronghold.take, in line
        del pl.hand[index]
        if index < pl.sh:
            pl.sh -= 1
    else:
        pl.champion = NO_CARD
    if state.stats is not None:
        state.stats.played[card] += 1
    entering: Creature | None = None
    if setup.creature[card]:
        if host is None:
            creature = new_creature(setup, card, player, lane)
            # board.place, in line
            pl.lines[lane].append(creature)
            state.auras_dirty |= 1 << (player * board.MAX_LANES + lane)
            entering = creature
        else:
            creature = host
            host.add_symbiote(setup, card)
            board.mark(state, host)
        if state.log is not None:
            where = f"onto {setup.names[host.card]}" if host else f"on the {LINE_NAMES[lane]} line"
            state.log.append(f"{PLAYER_NAMES[player]} plays {setup.names[card]} {where}.")
        if setup.any_champion:
            # Played (step 3): a card of exactly an exhausted Champion's Mana cost readies it.
            champion.ready(state, setup.cost[card])
        # The creature left the hand for good: the Stronghold rules apply now (an Incantation
        # comes back at step 16, and its caster is checked after that); nothing to do while
        # the Stronghold has a card to its right.
        if pl.sh >= len(pl.hand):
            stronghold.check(state, player)
        if not mask & ON_PLAY_MASK and not setup.in_game & IMMOLATION:
            # Nothing can act when this creature enters play: only the Auras update is left.
            if state.auras_dirty:
                board.refresh(state)
            return
        side = (player, creature.lane)
        res = Resolution(player, card, creature, creature.eff)
        targets: list[Creature] = []
    else:
        assert target is not None
        creature = None
        state.resolving.append(card)
        side = (target.owner, target.lane)
        res = Resolution(player, card, None, mask)
        if state.log is not None:
            state.log.append(
                f"{PLAYER_NAMES[player]} casts {setup.names[card]} on "
                f"{setup.names[target.card]} ({PLAYER_NAMES[target.owner]})."
            )
        if setup.any_champion:
            champion.ready(state, setup.cost[card])
        # 4. Target(s) identification: Splash / Perforation
        index_on_line = state.players[target.owner].lines[target.lane].index(target)
        targets = [target]
        if mask & SPLASH:
            splash(state, target.owner, target.lane, index_on_line, targets)
        if mask & PERFORATION:
            perforation(state, target.owner, target.lane, index_on_line, targets)
        if (
            fast_paths.ENABLED
            and not mask & fast_paths.SLOW_SPELL
            and fast_paths.plain_incantation(state, player, card, targets)
        ):
            stronghold.check(state, player)
            return
    # 5. Immolation
    if setup.in_game & IMMOLATION:
        _immolation(state, player, side, entering)
    # 6-7. Backlash, Counter-order (and Enchain's capture)
    if mask & ON_PLAY_MASK:
        for bit, effect in ON_PLAY:
            if mask & bit:
                effect(state, res, side)
    if creature is None:
        # 8-9. Damage calculation / Vulnerability, dealing damage / Protection / Indestructible
        attack = setup.attack[card]
        if mask & VULNERABILITY:
            amounts = [max(0, t.hp - t.damage - 1) for t in targets]
        else:
            amounts = [attack] * len(targets)
        hit_many(state, res, targets, amounts, True)
        aftermath(state, res, card)
        stronghold.check(state, player)
    else:
        aftermath(state, res, -1)


def _immolation(
    state: GameState, player: int, side: tuple[int, int], entering: Creature | None
) -> None:
    """Each Immolation bearer on the line of the played card costs its player 1 damage."""
    owner, lane = side
    halves = [(owner, lane), state.setup.topology.facing[owner][lane]]
    bearers = [
        c
        for q, ln in halves
        for c in state.players[q].lines[ln]
        if c.eff & IMMOLATION and c is not entering
    ]
    for bearer in board.board_order(state, bearers):
        on_play.immolation(state, player, bearer)


def aftermath(state: GameState, res: Resolution, spell: int) -> list[Creature]:
    """Steps after damage was dealt; returns the creatures destroyed (for Berserk).

    ``spell`` is the Incantation being resolved (it returns to hand at step 16), or -1.
    """
    setup = state.setup
    damaged = res.damaged
    if not damaged and not res.hits and spell < 0:
        # Nothing was damaged: only the Auras update of step 13 is left to do.
        board.refresh(state)
        return []
    destroyed: list[Creature] = []
    ordered = board.board_order(state, damaged) if len(damaged) > 1 else damaged
    if damaged:
        # Enchain: a bearer that suffered at least 1 damage releases its card (Assault step 8).
        for creature in ordered:
            if creature.chained:
                release_enchained(state, creature)
        # Destroyed creatures return to hand / Mercenary / Cursed, in the rulebook's order.
        reinforcing: list[tuple[int, int]] = []
        for creature in ordered:
            if creature.damage >= creature.hp:
                destroyed.append(creature)
                lane = _destroy(state, creature)
                if lane >= 0:
                    reinforcing.append((creature.owner, lane))
        # Reinforcement
        for owner, lane in reinforcing:
            index = reinforcement(state, owner)
            if index >= 0:
                if state.log is not None:
                    state.log.append(f"Reinforcement of {PLAYER_NAMES[owner]}:")
                play_card(state, owner, index, lane=lane, free=True)
    # Shifting (implicit in the lists) and Auras update
    board.refresh(state)
    mask = res.source_mask()
    # Regeneration
    if mask & REGENERATION and res.hits:
        regeneration(state, res.player, res.hits)
    # Sharpening: only the first kill of the turn
    if mask & SHARPENING and destroyed:
        source = res.creature
        if source is not None:
            if not source.sharpened:
                source.sharpened = True
                sharpening(state, res, destroyed)
        elif res.card not in state.spent_sharpening:
            state.spent_sharpening.add(res.card)
            sharpening(state, res, destroyed)
    # Incantation returns in hand / Mercenary (Incantation) / Cursed (Incantation)
    if spell >= 0:
        state.resolving.remove(spell)
        return_card(state, spell, res.player, setup.mask[spell])
    # Vanish
    if damaged and setup.in_game & VANISH:
        for creature in ordered:
            if creature.lane >= 0 and creature.eff & VANISH:
                vanish(state, creature)
        board.refresh(state)
    return destroyed


def _destroy(state: GameState, creature: Creature) -> int:
    """Remove a destroyed creature and return its cards.

    Returns the lane where its Reinforcement plays a creature, or -1 if it does not trigger.
    """
    setup = state.setup
    holder = creature.owner
    if state.log is not None:
        state.log.append(f"{setup.names[creature.card]} ({PLAYER_NAMES[holder]}) is destroyed.")
    lane = creature.lane
    board.remove(state, creature)
    eff = creature.eff
    if creature.symbiote >= 0:
        # Both cards return, the Symbiote first; each card's own Mercenary/Cursed decides where,
        # abilities granted by an Aura apply to both.
        granted = eff & ~creature.base
        home = False
        for card in (creature.symbiote, creature.card):
            home |= return_card(state, card, holder, setup.mask[card] | granted) == holder
    else:
        home = return_card(state, creature.card, holder, eff) == holder
    return lane if home and eff & REINFORCEMENT else -1
