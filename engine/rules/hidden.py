"""What a seat cannot see, and a deal of it: the determinization of the search agents.

The rules' hidden information is the order of the hands (and the Solo AI's face-down deck pile):
a seat sees its own hand, only the backs of the others, and every card that leaves a hand for the
table. A search that must not read the enemy's hand deals the cards it has never seen out of that
hand anew among their places (sorted first, so the deal never depends on their real order), as a
player imagining the enemy's hand would; the deck lists are known to both sides.
"""

from __future__ import annotations

import random

from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.state import GameState


class HiddenCards:
    """What a seat knows of the cards out of its sight, for the game being played (a game: one
    GameState played on in place, as for the agents' memory): which cards have been seen out of
    the hands, which it can then place when they come back; the others are where the set-up's
    shuffle put them, unknown to it."""

    def __init__(self) -> None:
        self._game: GameState | None = None
        self._turn = -1
        self._seen: set[int] = set()

    def observe(self, state: GameState) -> None:
        """Record the cards out of every hand now (on the table, used, removed)."""
        if state is not self._game or state.turn < self._turn:
            self._game = state
            self._seen = set()
        self._turn = state.turn
        in_hand: set[int] = set()
        for pl in state.players:
            if isinstance(pl, HandKingdom):
                in_hand.update(pl.hand)
        seen = self._seen
        for card in range(len(state.setup.cards)):
            if card not in in_hand:
                seen.add(card)

    def deal(self, state: GameState, player: int, rng: random.Random) -> GameState:
        """A copy of ``state`` as ``player`` may imagine it: the other seats' never-seen hand
        cards dealt anew among their places, the automata's piles shuffled, a new random stream."""
        trial = state.copy(records=False)
        trial.reseed(rng.getrandbits(32))
        seen = self._seen
        for p, pl in enumerate(trial.players):
            if p == player:
                continue
            if isinstance(pl, HandKingdom):
                hand = pl.hand
                places = [i for i in range(len(hand)) if hand[i] not in seen]
                hidden = sorted([hand[i] for i in places])
                rng.shuffle(hidden)
                for k in range(len(places)):
                    hand[places[k]] = hidden[k]
            elif isinstance(pl, AutomatonKingdom):
                pile = sorted(pl.pile)
                rng.shuffle(pile)
                pl.pile = pile
        return trial


__all__ = ["HiddenCards"]
