"""Abilities that change what a card costs or which cards can be played (Phase 2)."""

from __future__ import annotations

from engine.rules import stronghold
from engine.rules.abilities.registry import BLACKMAIL, handler
from engine.rules.state import GameState

# Phase 2: only the 4 leftmost cards of the hand (Stronghold not counted) can be played.
WINDOW = 4


@handler("cost", "lucidity")
def lucidity(state: GameState, player: int, index: int, cost: int) -> int:
    """LUCIDITY: costs 2 less while it is the leftmost Creature or Incantation card in hand."""
    return max(0, cost - 2) if index == 0 else cost


@handler("payment", "price_of_blood")
def price_of_blood(state: GameState, player: int, missing: int) -> None:
    """PRICE OF BLOOD: each missing Mana is 1 damage to one's own Stronghold, one at a time.

    Instances of 1 matter: once the Bastion falls, the remaining instances hit the Fort.
    """
    if state.log is not None and missing:
        state.log.append(f"Price of Blood: {missing} missing Mana paid with the Stronghold.")
    for _ in range(missing):
        stronghold.damage(state, player, 1)


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


def available_count(state: GameState, player: int) -> int:
    """How many leftmost cards of the hand can be played now (rule phase-2-available-cards)."""
    available = min(WINDOW, len(state.players[player].hand))
    if state.setup.in_game & BLACKMAIL:
        available = blackmail(state, player, available)
    return available
