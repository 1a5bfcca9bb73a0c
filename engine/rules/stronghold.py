"""Hand and Stronghold arithmetic (rules stronghold and game-end).

The Stronghold is not stored in the hand list: ``sh`` is the number of cards to its left, so
its hit points are ``len(hand) - sh`` and a player's Mana in Phase 1 is ``len(hand) + 1``. Every
change of the hand goes through these functions so the Bastion/Fort rules are in one place.
"""

from __future__ import annotations

from engine.rules.errors import GameOver
from engine.rules.state import OVER, PLAYER_NAMES, GameState, PlayerState


def hit_points(pl: PlayerState) -> int:
    return len(pl.hand) - pl.sh


def lose(state: GameState, loser: int, reason: str) -> None:
    """End the game at once: the opponent of ``loser`` wins (rule game-end)."""
    state.winner = state.setup.topology.opponent(loser)
    state.phase = OVER
    if state.log is not None:
        state.log.append(
            f"{PLAYER_NAMES[loser]} loses: {reason}. {PLAYER_NAMES[state.winner]} wins."
        )
    raise GameOver


def check(state: GameState, player: int) -> None:
    """Apply the Stronghold rules after the hand shrank or the Stronghold moved right."""
    pl = state.players[player]
    if not pl.hand:
        lose(state, player, "only the Stronghold is left in hand")
    if pl.sh >= len(pl.hand):
        if pl.fort:
            lose(state, player, "the Fort reached the rightmost position of the hand")
        # The Bastion is destroyed: Fort side up, back to the leftmost position; excess is lost.
        pl.fort = True
        pl.sh = 0
        if state.log is not None:
            state.log.append(f"{PLAYER_NAMES[player]}'s Bastion is destroyed: the Fort is up.")


def damage(state: GameState, player: int, amount: int) -> None:
    """One instance of ``amount`` damage to the Stronghold: shift it that many positions right."""
    if amount <= 0:
        return
    pl = state.players[player]
    sh = pl.sh + amount
    size = len(pl.hand)
    pl.sh = sh if sh < size else size
    if state.log is not None:
        state.log.append(
            f"{PLAYER_NAMES[player]}'s Stronghold takes {amount} damage "
            f"({len(pl.hand) - pl.sh} HP left)."
        )
    if sh >= size:
        check(state, player)


def heal(state: GameState, player: int) -> None:
    """Regeneration: shift the Stronghold one position left.

    A Fort already leftmost turns back to its Bastion, second rightmost in the hand.
    """
    pl = state.players[player]
    if pl.sh > 0:
        pl.sh -= 1
    elif pl.fort:
        pl.fort = False
        pl.sh = len(pl.hand) - 1
    else:
        return
    if state.log is not None:
        state.log.append(
            f"{PLAYER_NAMES[player]}'s Stronghold regenerates ({len(pl.hand) - pl.sh} HP)."
        )


def take(pl: PlayerState, index: int) -> int:
    """Take the card at ``index`` out of the hand (a card right of the Stronghold costs 1 HP).

    The caller puts the card in its new zone, then calls :func:`check`, so that a game ending on
    this very card still has every card in exactly one zone.
    """
    card = pl.hand.pop(index)
    if index < pl.sh:
        pl.sh -= 1
    return card


def put_right(pl: PlayerState, card: int) -> None:
    """A card returns to the rightmost position: one more hit point."""
    pl.hand.append(card)


def put_left(pl: PlayerState, card: int) -> None:
    """A card returns to the leftmost position (Cursed): left of the Stronghold, no hit point."""
    pl.hand.insert(0, card)
    pl.sh += 1
