"""Abilities that act when a card is played (Summoning order steps 5-7) and Symbiote's placement."""

from __future__ import annotations

from typing import Final

from engine.rules.abilities.combat import DAMAGE, EXTRA_TARGETS
from engine.rules.abilities.registry import AQUATIC, SYMBIOTE, handler, hook_table
from engine.rules.damage import Resolution, hit_many
from engine.rules.events import emit
from engine.rules.kingdom import OWN, hand_of
from engine.rules.state import Creature, GameState


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
        emit(state.log, "immolation", card=bearer.card)
    if state.stats is not None and player != bearer.owner:
        state.stats.stronghold_damage[bearer.card] += 1
    state.players[player].damage(state, 1, bearer.card, bearer.owner)


@handler("on_play", "backlash")
def backlash(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """BACKLASH: damage to the enemy creature closest to the Bridge on the same line, equal to the
    cards left of one's Stronghold. Combines with Splash, Perforation, Aquatic, Regeneration and
    Sharpening (French text); not with Vulnerability, which only replaces an attack value.
    """
    amount = state.players[res.player].backlash_amount()
    enemy, lane = enemy_half(state, res.player, side)
    line = state.players[enemy].lines[lane]
    if not amount or not line:
        return
    mask = res.mask
    controller = state.setup.controllers[res.player]
    targets = [line[0]]
    for bit, extra in EXTRA_TARGETS.by_controller[controller]:
        if mask & bit:
            extra(state, enemy, lane, 0, targets)
    if mask & AQUATIC:
        # Aquatic is the second handler of the damage hook (after Vulnerability).
        amount = DAMAGE.of(controller, 1)(state, res.creature, amount, 0)
    if state.log is not None:
        emit(state.log, "backlash", card=res.card, amount=amount)
    hit_many(state, res, targets, [amount] * len(targets), True)


@handler("on_play", "counter_order")
def counter_order(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """COUNTER-ORDER: one's leftmost Creature or Incantation card goes to the rightmost position.

    A card taken from left of the Stronghold and put right of it gives back 1 hit point.
    """
    kingdom = hand_of(state, res.player)
    if not kingdom.hand:
        return
    card = kingdom.take(0)
    kingdom.receive(card, OWN)
    if state.log is not None:
        emit(state.log, "counter_order", card=card, player=res.player)


@handler("on_play", "enchain")
def enchain(state: GameState, res: Resolution, side: tuple[int, int]) -> None:
    """ENCHAIN: take the leftmost Creature or Incantation card of the hand of the enemy facing
    the owner's line (the AI's: the top card of its deck pile), face down under the owner
    (released when the owner suffers at least 1 damage, see aftermath).
    """
    creature = res.creature
    # Enchain is creature-only (cards.py refuses it on an Incantation); an enemy with an empty
    # hand has already lost.
    assert creature is not None
    enemy = state.setup.topology.facing_player(res.player, creature.lane)
    kingdom = state.players[enemy]
    card = kingdom.surrender_first()
    creature.chained += ((card, enemy),)
    if state.log is not None:
        emit(state.log, "enchain", card=card, player=enemy)
    kingdom.check(state, res.card, res.player)


@handler("placement", "symbiote")
def symbiote(state: GameState, player: int) -> list[Creature]:
    """SYMBIOTE: may enter play on top of a creature of its Kingdom that has no Symbiote."""
    return [c for line in state.players[player].lines for c in line if not c.eff & SYMBIOTE]


# Steps 6-7, in the rulebook's order; Enchain's capture is a "when played" effect the Summoning
# order does not list, resolved right after Counter-order (docs/rulings.md).
ON_PLAY: Final = hook_table("on_play", ("backlash", "counter_order", "enchain"))
LINE_PLAY: Final = hook_table("line_play", ("immolation",))
PLACEMENT: Final = hook_table("placement", ("symbiote",))
