"""Kingdoms: what a seat has on its side of the table, and the Stronghold rules written once.

A Kingdom holds the seat's lines, its Mana, its Champion and its Stronghold. How the Stronghold
counts its hit points depends on who plays the seat:

- :class:`HandKingdom` (Duel, 4 players): the Stronghold is a card in the hand, ``sh`` cards from
  its left end; its hit points are the cards to its right, Phase 1 gives the hand + 1 Mana.
- :class:`AutomatonKingdom` (Solo and Co-op's AI): the Stronghold lies under the deck pile; its
  hit points are the cards of the pile, damage moves them to the discard pile, the Bastion
  revealed turns to the Fort with the discard shuffled into a new pile, the Fort revealed loses.

The rules call the Stronghold methods (damage, regeneration, a card returning, the game-end check
after cards left, Phase 1's Mana) without knowing which kind they hold; the compiled engine
dispatches them natively. What only a hand has (the 4 leftmost cards, Lucidity's leftmost card,
Counter-order, Enchain's taking, Exhaustion) stays with the hand: :func:`hand_of` gives it.

Every damage instance and every loss names its source: the card (NO_CARD: none, as for
Exhaustion or a card leaving the hand) and the player controlling it, which the 4-player win rule
reads (:func:`lose`).
"""

from __future__ import annotations

from typing import Final, cast

from engine.rules.errors import GameOver
from engine.rules.events import emit
from engine.rules.modes import SOURCE_TEAM
from engine.rules.state import NO_CARD, OVER, Creature, GameState, Outcome

# Where a card comes back to a Kingdom (Kingdom.receive): its own card destroyed or used (a hand:
# rightmost; the AI: its discard pile); a Cursed card (a hand: leftmost; the AI: the top of its
# deck pile); a card given by another Kingdom or released (Mercenary, Enchain: a hand: rightmost;
# the AI: the top of its deck pile).
OWN: Final = 0
CURSED_END: Final = 1
GIVEN: Final = 2


class Kingdom:
    """One seat's side of the table (see the module docstring); the Stronghold rules are the
    methods each kind defines."""

    __slots__ = (
        "champion",
        "champion_exhausted",
        "fort",
        "lines",
        "mana",
        "removed",
        "seat",
        "turns",
    )

    def __init__(self, seat: int, lanes: int) -> None:
        self.seat = seat
        self.fort = False
        # lines[lane] lists the creatures from the Bridge outward (index 0 is adjacent to it).
        self.lines: list[list[Creature]] = [[] for _ in range(lanes)]
        self.mana = 0
        self.removed: list[int] = []
        self.turns = 0
        # The card id of the player's Champion while it is outside the Kingdoms (ready or
        # exhausted); NO_CARD while it is in play, or without a Champion.
        self.champion = NO_CARD
        # Turned sideways after its destruction: it cannot be summoned until readied.
        self.champion_exhausted = False

    def _copy_into(self, other: Kingdom) -> None:
        other.fort = self.fort
        other.lines = [[c.copy() for c in line] for line in self.lines]
        other.mana = self.mana
        other.removed = self.removed[:]
        other.turns = self.turns
        other.champion = self.champion
        other.champion_exhausted = self.champion_exhausted

    def _same(self, other: Kingdom) -> bool:
        return (
            self.seat == other.seat
            and self.fort == other.fort
            and [[c.key() for c in line] for line in self.lines]
            == [[c.key() for c in line] for line in other.lines]
            and self.mana == other.mana
            and self.removed == other.removed
            and self.turns == other.turns
            and self.champion == other.champion
            and self.champion_exhausted == other.champion_exhausted
        )

    def copy(self) -> Kingdom:
        raise NotImplementedError

    def hit_points(self) -> int:
        raise NotImplementedError

    def damage(self, state: GameState, amount: int, source: int, source_player: int) -> None:
        """One instance of ``amount`` damage to the Stronghold from card ``source`` controlled by
        ``source_player``."""
        raise NotImplementedError

    def heal(self, state: GameState) -> None:
        """Regeneration: one hit point back."""
        raise NotImplementedError

    def receive(self, card: int, where: int) -> None:
        """A card of the game comes back to this Kingdom (``where``: OWN, CURSED_END, GIVEN)."""
        raise NotImplementedError

    def received(self, where: int) -> str:
        """The event code of :meth:`receive` (where the card went)."""
        raise NotImplementedError

    def surrender_first(self) -> int:
        """Enchain takes this Kingdom's first card: a hand's leftmost, the AI's top card (the
        caller puts it under the Enchain bearer, then calls :meth:`check`)."""
        raise NotImplementedError

    def backlash_amount(self) -> int:
        """Backlash's damage: the cards left of the Stronghold."""
        raise NotImplementedError

    def vulnerability_hp(self) -> int:
        """The hit points Vulnerability reads when it attacks this Stronghold (X = this - 1)."""
        raise NotImplementedError

    def attack_damage(self, amount: int) -> int:
        """What an attack of ``amount`` on this Stronghold inflicts (Solo's resistance)."""
        raise NotImplementedError

    def check(self, state: GameState, source: int, source_player: int) -> None:
        """The Stronghold rules after cards left the Kingdom (or the Stronghold moved)."""
        raise NotImplementedError

    def phase_1_mana(self, state: GameState) -> int:
        """The Mana Phase 1 gives, before abilities (the first turns' table aside)."""
        raise NotImplementedError

    __hash__ = None  # type: ignore[assignment]


class HandKingdom(Kingdom):
    """A hand player's Kingdom: the Stronghold is in the hand (rules stronghold and game-end)."""

    __slots__ = ("hand", "sh")

    def __init__(self, seat: int, hand: list[int], lanes: int) -> None:
        super().__init__(seat, lanes)
        # Cards in hand from left to right, without the Stronghold.
        self.hand = hand
        # Position of the Stronghold: how many cards are to its left. Its hit points are the cards
        # to its right, ``len(hand) - sh``.
        self.sh = 0

    def copy(self) -> HandKingdom:
        # No lanes to build: _copy_into copies the lines.
        kingdom = HandKingdom(self.seat, self.hand[:], 0)
        kingdom.sh = self.sh
        self._copy_into(kingdom)
        return kingdom

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandKingdom):
            return NotImplemented
        return self.hand == other.hand and self.sh == other.sh and self._same(other)

    def hit_points(self) -> int:
        return len(self.hand) - self.sh

    def damage(self, state: GameState, amount: int, source: int, source_player: int) -> None:
        """Shift the Stronghold ``amount`` positions right."""
        if amount <= 0:
            return
        sh = self.sh + amount
        size = len(self.hand)
        self.sh = sh if sh < size else size
        if state.log is not None:
            emit(
                state.log,
                "stronghold_damage",
                player=self.seat,
                amount=amount,
                hp=len(self.hand) - self.sh,
                source=source,
                source_player=source_player,
            )
        if sh >= size:
            self.check(state, source, source_player)

    def heal(self, state: GameState) -> None:
        """Shift the Stronghold one position left; a Fort already leftmost turns back to its
        Bastion, second rightmost in the hand."""
        if self.sh > 0:
            self.sh -= 1
        elif self.fort:
            self.fort = False
            self.sh = len(self.hand) - 1
        else:
            return
        if state.log is not None:
            emit(state.log, "regenerates", player=self.seat, hp=len(self.hand) - self.sh)

    def receive(self, card: int, where: int) -> None:
        """Rightmost (one more hit point), or leftmost for Cursed (no hit point)."""
        if where == CURSED_END:
            self.hand.insert(0, card)
            self.sh += 1
        else:
            self.hand.append(card)

    def received(self, where: int) -> str:
        return "returns_left" if where == CURSED_END else "returns_right"

    def surrender_first(self) -> int:
        return self.take(0)

    def backlash_amount(self) -> int:
        return self.sh

    def vulnerability_hp(self) -> int:
        return len(self.hand) - self.sh

    def attack_damage(self, amount: int) -> int:
        return amount

    def check(self, state: GameState, source: int, source_player: int) -> None:
        if not self.hand:
            lose(state, self.seat, "lost_empty_hand", source, source_player)
        if self.sh >= len(self.hand):
            if self.fort:
                lose(state, self.seat, "lost_fort", source, source_player)
            # The Bastion is destroyed: Fort side up, back to the leftmost position; excess is lost.
            self.fort = True
            self.sh = 0
            if state.log is not None:
                emit(state.log, "bastion_destroyed", player=self.seat)

    def phase_1_mana(self, state: GameState) -> int:
        """The cards in hand, Stronghold included."""
        return len(self.hand) + 1

    # ---- hand-only --------------------------------------------------------------------------

    def take(self, index: int) -> int:
        """Take the card at ``index`` out of the hand (a card right of the Stronghold costs 1 HP).

        The caller puts the card in its new zone, then calls :meth:`check`, so that a game ending
        on this very card still has every card in exactly one zone.
        """
        card = self.hand.pop(index)
        if index < self.sh:
            self.sh -= 1
        return card


class AutomatonKingdom(Kingdom):
    """The Solo/Co-op AI's Kingdom: a deck pile with the Stronghold under it, and a discard pile.

    ``pile[-1]`` is the top card. The Mana of Phase 1 is Quick Play's by default (6, plus 1 per
    creature its enemies have in play); Custom Play changes ``fixed_mana`` and ``mana_per_enemy``.
    """

    __slots__ = ("discard", "fixed_mana", "mana_per_enemy", "pile", "resistance")

    def __init__(self, seat: int, pile: list[int], lanes: int) -> None:
        super().__init__(seat, lanes)
        self.pile = pile
        self.discard: list[int] = []
        self.fixed_mana = 6
        self.mana_per_enemy = 1
        # Custom Play: each attack on the deck pile inflicts only 1 damage.
        self.resistance = False

    def copy(self) -> AutomatonKingdom:
        kingdom = AutomatonKingdom(self.seat, self.pile[:], 0)
        kingdom.discard = self.discard[:]
        kingdom.fixed_mana = self.fixed_mana
        kingdom.mana_per_enemy = self.mana_per_enemy
        kingdom.resistance = self.resistance
        self._copy_into(kingdom)
        return kingdom

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AutomatonKingdom):
            return NotImplemented
        return (
            self.pile == other.pile
            and self.discard == other.discard
            and self.fixed_mana == other.fixed_mana
            and self.mana_per_enemy == other.mana_per_enemy
            and self.resistance == other.resistance
            and self._same(other)
        )

    def hit_points(self) -> int:
        return len(self.pile)

    def damage(self, state: GameState, amount: int, source: int, source_player: int) -> None:
        """Move ``amount`` cards from the top of the pile to the discard pile; damage beyond the
        pile is lost, as a Bastion's excess is (docs/rulings.md)."""
        if amount <= 0:
            return
        pile = self.pile
        moved = amount if amount < len(pile) else len(pile)
        for _ in range(moved):
            self.discard.append(pile.pop())
        if state.log is not None:
            emit(
                state.log,
                "stronghold_damage",
                player=self.seat,
                amount=amount,
                hp=len(pile),
                source=source,
                source_player=source_player,
            )
        if not pile:
            self.check(state, source, source_player)

    def heal(self, state: GameState) -> None:
        """The last discarded card goes back on top of the pile (none: nothing happens)."""
        if not self.discard:
            return
        self.pile.append(self.discard.pop())
        if state.log is not None:
            emit(state.log, "regenerates", player=self.seat, hp=len(self.pile))

    def receive(self, card: int, where: int) -> None:
        """Its destroyed creatures and used Incantations go to the discard pile; a Cursed card
        (rule solo-cursed), a Mercenary or a card released by Enchain (rules solo-mercenary,
        solo-enchain) goes on top of the deck pile: one more hit point."""
        if where == OWN:
            self.discard.append(card)
        else:
            self.pile.append(card)

    def received(self, where: int) -> str:
        return "returns_discard" if where == OWN else "returns_pile"

    def surrender_first(self) -> int:
        """The top card of the deck pile (docs/rulings.md, SO15)."""
        return self.pile.pop()

    def backlash_amount(self) -> int:
        """No card lies left of a Stronghold under a deck pile (docs/rulings.md, SO16)."""
        return 0

    def vulnerability_hp(self) -> int:
        """Vulnerability attacks the AI's Bastion or Fort with 0 (rule solo-vulnerability): X is
        read from 1 hit point."""
        return 1

    def attack_damage(self, amount: int) -> int:
        """Custom Play's resistance: each attack on the deck pile inflicts only 1 damage."""
        if self.resistance and amount > 1:
            return 1
        return amount

    def check(self, state: GameState, source: int, source_player: int) -> None:
        if self.pile:
            return
        if self.fort:
            lose(state, self.seat, "lost_pile", source, source_player)
        # The Bastion is revealed: Fort side up, the shuffled discard pile is the new deck pile.
        self.fort = True
        self.pile = self.discard
        self.discard = []
        state.rng.shuffle(self.pile)
        if state.log is not None:
            emit(state.log, "pile_reshuffled", player=self.seat, hp=len(self.pile))
        if not self.pile:
            lose(state, self.seat, "lost_pile", source, source_player)

    def phase_1_mana(self, state: GameState) -> int:
        enemies = 0
        for p, kingdom in enumerate(state.players):
            if state.setup.mode.seats[p].team != state.setup.mode.seats[self.seat].team:
                enemies += sum(len(line) for line in kingdom.lines)
        return self.fixed_mana + self.mana_per_enemy * enemies


def hand_of(state: GameState, player: int) -> HandKingdom:
    """``player``'s Kingdom, which the caller knows to be a hand player's (Phase 2 of a hand
    player, Counter-order, Enchain, Exhaustion)."""
    return cast(HandKingdom, state.players[player])


def lose(state: GameState, loser: int, code: str, source: int, source_player: int) -> None:
    """End the game at once: ``loser``'s Stronghold fell (rule game-end), by card ``source``
    controlled by ``source_player`` (NO_CARD, -1: no card).

    The mode's win rule decides who wins: the other teams (Duel), or the team controlling the
    source (4 players: "the enemy who owns the card that destroyed the Fort"; with no enemy
    source, the other teams).
    """
    mode = state.setup.mode
    seats = mode.seats
    losing = seats[loser].team
    winning = -1
    if mode.win_rule == SOURCE_TEAM and source_player >= 0:
        team = seats[source_player].team
        if team != losing:
            winning = team
    results = []
    for seat in seats:
        if winning >= 0:
            results.append(1 if seat.team == winning else -1)
        else:
            results.append(-1 if seat.team == losing else 1)
    returns = tuple(results)
    state.outcome = Outcome(returns, loser, code, source, source_player)
    state.phase = OVER
    if state.log is not None:
        emit(
            state.log,
            code,
            loser=loser,
            winner=returns.index(1),
            source=source,
            source_player=source_player,
        )
    raise GameOver
