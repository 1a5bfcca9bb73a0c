"""Abilities that change what a card costs or which cards can be played (Phase 2)."""

from __future__ import annotations

from typing import Final

from engine.rules.abilities.registry import BLACKMAIL, LUCIDITY, handler, hook_table
from engine.rules.events import emit
from engine.rules.kingdom import hand_of
from engine.rules.state import GameState

# Phase 2: only the 4 leftmost cards of the hand (Stronghold not counted) can be played.
WINDOW: Final = 4


@handler("cost", "lucidity")
def lucidity(state: GameState, player: int, index: int, cost: int) -> int:
    """LUCIDITY: costs 2 less while it is the leftmost Creature or Incantation card in hand."""
    return max(0, cost - 2) if index == 0 else cost


@handler("payment", "price_of_blood")
def price_of_blood(state: GameState, player: int, card: int, missing: int) -> None:
    """PRICE OF BLOOD: each missing Mana of ``card`` is 1 damage to one's own Stronghold, one at
    a time.

    Instances of 1 matter: once the Bastion falls, the remaining instances hit the Fort.
    """
    if state.log is not None and missing:
        emit(state.log, "price_of_blood", amount=missing)
    kingdom = state.players[player]
    for _ in range(missing):
        kingdom.damage(state, 1, card, player)


@handler("window", "blackmail")
def blackmail(state: GameState, player: int, available: int) -> int:
    """BLACKMAIL: the rightmost available card cannot be played, never fewer than 1 card.

    Each bearer in play blocks one more card (docs/rulings.md, "Blackmail with two bearers").
    """
    bearers = 0
    for line in state.players[player].lines:
        for creature in line:
            if creature.eff & BLACKMAIL:
                bearers += 1
    if bearers and available > 1:
        return max(1, available - bearers)
    return available


COST: Final = hook_table("cost", ("lucidity",))
PAYMENT: Final = hook_table("payment", ("price_of_blood",))
WINDOW_HOOK: Final = hook_table("window", ("blackmail",))


def available_count(state: GameState, player: int) -> int:
    """How many leftmost cards of the hand can be played now (rule phase-2-available-cards)."""
    size = len(hand_of(state, player).hand)
    available = size if size < WINDOW else WINDOW
    if state.setup.in_game & BLACKMAIL:
        available = WINDOW_HOOK.of(state.setup.controllers[player])(state, player, available)
    return available


def card_cost(state: GameState, player: int, index: int, card: int) -> int:
    """What the card at ``index`` of ``player``'s hand costs now (Lucidity)."""
    setup = state.setup
    cost = setup.cost[card]
    if setup.mask[card] & LUCIDITY:
        cost = COST.of(setup.controllers[player])(state, player, index, cost)
    return cost
