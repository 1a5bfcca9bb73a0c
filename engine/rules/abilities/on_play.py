"""Abilities that act when a card is played (Summoning order steps 5-7) and Symbiote's placement."""

from __future__ import annotations

from engine.rules import stronghold
from engine.rules.abilities import combat
from engine.rules.abilities.registry import AQUATIC, PERFORATION, SPLASH, SYMBIOTE, handler
from engine.rules.damage import Resolution, hit_many
from engine.rules.state import PLAYER_NAMES, Creature, GameState


def enemy_half(state: GameState, player: int, side: tuple[int, int]) -> tuple[int, int]:
    """The half of the line through ``side`` that belongs to ``player``'s enemy."""
    owner, lane = side
    if owner != player:
        return side
    return state.setup.topology.facing[player][lane]


@handler("line_play", "immolation")
def immolation(state: GameState, player: int, bearer: Creature) -> None:
    """IMMOLATION: whoever plays a card on the bearer's line suffers 1 Stronghold damage."""
    if state.log is not None:
        state.log.append(f"Immolation of {state.setup.names[bearer.card]}.")
    if state.stats is not None and player != bearer.owner:
        state.stats.stronghold_damage[bearer.card] += 1
    stronghold.damage(state, player, 1)


@handler("on_play", "backlash")
def backlash(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """BACKLASH: damage to the enemy creature closest to the Bridge on the same line, equal to the
    cards left of one's Stronghold. Combines with Splash, Perforation, Aquatic, Regeneration and
    Sharpening (French text); not with Vulnerability, which only replaces an attack value.
    """
    amount = state.players[res.player].sh
    enemy, lane = enemy_half(state, res.player, side)
    line = state.players[enemy].lines[lane]
    if not amount or not line:
        return
    mask = res.mask
    targets = [line[0]]
    if mask & SPLASH:
        combat.splash(state, enemy, lane, 0, targets)
    if mask & PERFORATION:
        combat.perforation(state, enemy, lane, 0, targets)
    if mask & AQUATIC and res.creature is not None:
        amount = combat.aquatic(state, res.creature, amount, 0)
    if state.log is not None:
        state.log.append(f"Backlash of {state.setup.names[res.card]}: {amount} damage.")
    hit_many(state, res, targets, [amount] * len(targets), True)


@handler("on_play", "counter_order")
def counter_order(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """COUNTER-ORDER: one's leftmost Creature or Incantation card goes to the rightmost position.

    A card taken from left of the Stronghold and put right of it gives back 1 hit point.
    """
    pl = state.players[res.player]
    if not pl.hand:
        return
    card = stronghold.take(pl, 0)
    stronghold.put_right(pl, card)
    if state.log is not None:
        state.log.append(
            f"Counter-order: {state.setup.names[card]} moves to the right of "
            f"{PLAYER_NAMES[res.player]}'s hand."
        )


@handler("on_play", "enchain")
def enchain(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """ENCHAIN: take the leftmost Creature or Incantation card of the enemy's hand, face down under
    the owner (released when the owner suffers at least 1 damage, see aftermath).
    """
    creature = res.creature
    # Enchain is creature-only (cards.py refuses it on an Incantation); an enemy with an empty
    # hand has already lost.
    assert creature is not None
    enemy = state.setup.topology.opponent(res.player)
    pl = state.players[enemy]
    card = stronghold.take(pl, 0)
    creature.chained += ((card, enemy),)
    if state.log is not None:
        state.log.append(
            f"Enchain: {state.setup.names[card]} is taken from {PLAYER_NAMES[enemy]}'s hand."
        )
    stronghold.check(state, enemy)


@handler("placement", "symbiote")
def symbiote_hosts(state: GameState, player: int) -> list[Creature]:
    """SYMBIOTE: may enter play on top of a creature of its Kingdom that has no Symbiote."""
    return [c for line in state.players[player].lines for c in line if not c.eff & SYMBIOTE]
