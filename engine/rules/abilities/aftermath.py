"""Abilities that act after damage was dealt (Assault steps 8-20, Summoning steps 10-19)."""

from __future__ import annotations

from engine.rules import board, champion, stronghold
from engine.rules.abilities.costs import available_count
from engine.rules.abilities.registry import CURSED, MERCENARY, REINFORCEMENT, handler
from engine.rules.damage import Resolution
from engine.rules.state import PLAYER_NAMES, Creature, GameState, PlayerState

REINFORCEMENT_MAX_COST = 4


@handler("damaged", "enchain")
def release_enchained(state: GameState, creature: Creature) -> None:
    """ENCHAIN: once the owner suffered at least 1 damage, the card under it goes back to the
    rightmost position of the hand it was taken from."""
    for card, owner in creature.chained:
        stronghold.put_right(state.players[owner], card)
        if state.log is not None:
            state.log.append(
                f"{state.setup.names[card]} is released to {PLAYER_NAMES[owner]}'s hand."
            )
    creature.chained = ()


@handler("return", "mercenary")
def mercenary(state: GameState, holder: int) -> int:
    """MERCENARY: returns to the rightmost position of the enemy's hand instead of its own."""
    return state.setup.topology.opponent(holder)


@handler("return", "cursed")
def cursed(state: GameState, pl: PlayerState, card: int) -> None:
    """CURSED: returns to the leftmost position of the hand instead of the rightmost."""
    stronghold.put_left(pl, card)


def return_card(state: GameState, card: int, holder: int, mask: int) -> int:
    """Put ``card`` back in a hand, applying Mercenary then Cursed; returns whose hand.

    Mercenary changes whose hand, Cursed which end of it: with both, the enemy's leftmost position.
    A Champion goes to no hand (-1): it is exhausted, whatever its Mercenary or Cursed (the
    Champion module prevails over the base rules).
    """
    if state.setup.champion_owner[card] >= 0:
        champion.exhaust(state, card)
        return -1
    dest = mercenary(state, holder) if mask & MERCENARY else holder
    pl = state.players[dest]
    if mask & CURSED:
        cursed(state, pl, card)
    else:
        stronghold.put_right(pl, card)
    if state.log is not None:
        side = "left" if mask & CURSED else "right"
        state.log.append(
            f"{state.setup.names[card]} returns to the {side} of {PLAYER_NAMES[dest]}'s hand."
        )
    return dest


@handler("returned", "reinforcement")
def reinforcement(state: GameState, player: int) -> int:
    """REINFORCEMENT: the hand index of the leftmost available creature costing 4 or less without
    Reinforcement, or -1. "Available" = the cards that could be played now (4 leftmost, minus
    Blackmail); the printed cost counts, since it is played without paying.
    """
    hand = state.players[player].hand
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
def regeneration(state: GameState, player: int, hits: int) -> None:
    """REGENERATION: each target the owner dealt damage to shifts its Stronghold one to the left."""
    for _ in range(hits):
        stronghold.heal(state, player)


@handler("after_damage", "sharpening")
def sharpening(state: GameState, res: Resolution, destroyed: list[Creature]) -> None:
    """SHARPENING: the excess damage of the first kill of the turn goes to the Stronghold of the
    destroyed creature's owner, one instance per Stronghold even if several creatures died."""
    excess: dict[int, int] = {}
    for creature in destroyed:
        excess[creature.owner] = excess.get(creature.owner, 0) + creature.damage - creature.hp
    for owner, amount in excess.items():
        if amount > 0:
            if state.log is not None:
                state.log.append(f"Sharpening: {amount} excess damage to the Stronghold.")
            if state.stats is not None and owner != res.player:
                state.stats.stronghold_damage[res.card] += amount
            stronghold.damage(state, owner, amount)


@handler("survived", "vanish")
def vanish(state: GameState, creature: Creature) -> None:
    """VANISH: damaged but not destroyed, the owner moves furthest from the Bridge."""
    board.move_to_back(state, creature)


@handler("again", "berserk")
def berserk(state: GameState, attacker: Creature, destroyed_enemy: bool) -> bool:
    """BERSERK: after destroying at least one enemy creature, attack again (if still in play)."""
    return destroyed_enemy and attacker.lane >= 0


@handler("again", "instinct")
def instinct(state: GameState, creature: Creature) -> bool:
    """INSTINCT: damaged by a creature without being destroyed, strike back once that creature's
    attacks are all resolved: still in play then."""
    return creature.lane >= 0
