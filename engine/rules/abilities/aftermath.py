"""Abilities that act after damage was dealt (Assault steps 8-20, Summoning steps 10-19)."""

from __future__ import annotations

from typing import Final

from engine.rules import board, champion
from engine.rules.abilities.costs import available_count
from engine.rules.abilities.registry import CURSED, MERCENARY, REINFORCEMENT, handler, hook_table
from engine.rules.damage import Resolution
from engine.rules.events import emit
from engine.rules.kingdom import CURSED_END, GIVEN, OWN, hand_of
from engine.rules.state import Creature, GameState

REINFORCEMENT_MAX_COST: Final = 4


@handler("damaged", "enchain")
def release_enchained(state: GameState, creature: Creature) -> None:
    """ENCHAIN: once the owner suffered at least 1 damage, the card under it goes back to the
    rightmost position of the hand it was taken from (the AI's: the top of its deck pile)."""
    for card, owner in creature.chained:
        state.players[owner].receive(card, GIVEN)
        if state.log is not None:
            emit(state.log, "released", card=card, player=owner)
    creature.chained = ()


@handler("return", "mercenary")
def mercenary(state: GameState, holder: int, owner: int, lane: int) -> int:
    """MERCENARY: returns to the rightmost position of the enemy's hand instead of its own: the
    enemy on the line where it was (``owner``, ``lane``: the half of the line it was on, or the
    one an Incantation targeted). An Incantation aimed at a partner's creature goes to the enemy
    facing that partner's half (ruling P8)."""
    seats = state.setup.mode.seats
    if seats[owner].team != seats[holder].team:
        return owner
    return state.setup.topology.facing_player(owner, lane)


@handler("return", "cursed")
def cursed(state: GameState, card: int, dest: int) -> bool:
    """CURSED: returns to the leftmost position of the hand instead of the rightmost."""
    return True


RETURN: Final = hook_table("return", ("mercenary", "cursed"))
DAMAGED: Final = hook_table("damaged", ("enchain",))


def return_card(
    state: GameState, card: int, holder: int, mask: int, side_owner: int, side_lane: int
) -> int:
    """Put ``card`` back in a Kingdom, applying Mercenary then Cursed; returns whose.

    ``side_owner``, ``side_lane``: the half of the line the card was on (an Incantation: the one
    it targeted), for Mercenary's enemy.

    Mercenary changes whose Kingdom, Cursed which end of the hand: with both, the enemy's leftmost
    position. A Champion goes to no Kingdom (-1): it is exhausted, whatever its Mercenary or
    Cursed (the Champion module prevails over the base rules).
    """
    if state.setup.champion_owner[card] >= 0:
        champion.exhaust(state, card)
        return -1
    dest = holder
    where = OWN
    if mask & (MERCENARY | CURSED):
        handlers = RETURN.by_controller[state.setup.controllers[holder]]
        if mask & MERCENARY:
            dest = handlers[0][1](state, holder, side_owner, side_lane)
            if dest != holder:
                where = GIVEN
        if mask & CURSED and handlers[1][1](state, card, dest):
            where = CURSED_END
    kingdom = state.players[dest]
    kingdom.receive(card, where)
    if state.log is not None:
        emit(state.log, kingdom.received(where), card=card, player=dest)
    return dest


@handler("returned", "reinforcement")
def reinforcement(state: GameState, player: int, lane: int, card: int) -> int:
    """REINFORCEMENT: the hand index of the leftmost available creature costing 4 or less without
    Reinforcement, or -1. "Available" = the cards that could be played now (4 leftmost, minus
    Blackmail); the printed cost counts, since it is played without paying.
    """
    hand = hand_of(state, player).hand
    setup = state.setup
    for index in range(available_count(state, player)):
        card = hand[index]
        if (
            setup.creature[card]
            and setup.cost[card] <= REINFORCEMENT_MAX_COST
            and not setup.mask[card] & REINFORCEMENT
        ):
            return index
    return -1


@handler("after_damage", "regeneration")
def regeneration(state: GameState, res: Resolution, destroyed: list[Creature]) -> None:
    """REGENERATION: each target the owner dealt damage to shifts its Stronghold one to the left."""
    kingdom = state.players[res.player]
    for _ in range(res.hits):
        kingdom.heal(state)


@handler("after_damage", "sharpening")
def sharpening(state: GameState, res: Resolution, destroyed: list[Creature]) -> None:
    """SHARPENING: the excess damage of the first kill of the turn goes to the Stronghold of the
    destroyed creature's owner, one instance per Stronghold even if several creatures died.
    Only the first kill of the turn: the source (a creature, else the Incantation) keeps track."""
    if not destroyed:
        return
    source = res.creature
    if source is not None:
        if source.sharpened:
            return
        source.sharpened = True
    elif res.card in state.spent_sharpening:
        return
    else:
        state.spent_sharpening.add(res.card)
    excess: dict[int, int] = {}
    for creature in destroyed:
        excess[creature.owner] = excess.get(creature.owner, 0) + creature.damage - creature.hp
    for owner, amount in excess.items():
        if amount > 0:
            if state.log is not None:
                emit(state.log, "sharpening", amount=amount)
            if state.stats is not None and owner != res.player:
                state.stats.stronghold_damage[res.card] += amount
            state.players[owner].damage(state, amount, res.card, res.player)


@handler("survived", "vanish")
def vanish(state: GameState, creature: Creature) -> None:
    """VANISH: damaged but not destroyed, the owner moves furthest from the Bridge."""
    board.move_to_back(state, creature)


@handler("again", "berserk")
def berserk(state: GameState, attacker: Creature, destroyed_enemy: bool) -> bool:
    """BERSERK: after destroying at least one enemy creature, attack again (if still in play)."""
    return destroyed_enemy and attacker.lane >= 0


@handler("again", "instinct")
def instinct(state: GameState, creature: Creature, destroyed_enemy: bool) -> bool:
    """INSTINCT: damaged by a creature without being destroyed, strike back once that creature's
    attacks are all resolved: still in play then."""
    return creature.lane >= 0


RETURNED: Final = hook_table("returned", ("reinforcement",))
AFTER_DAMAGE: Final = hook_table("after_damage", ("regeneration", "sharpening"))
SURVIVED: Final = hook_table("survived", ("vanish",))
AGAIN: Final = hook_table("again", ("berserk", "instinct"))
