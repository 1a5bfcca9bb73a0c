"""The position: the set-up shared by all copies, the players' zones, the Domain and what waits.

Every card of a game has a card id, an index into ``setup.cards``; zones are lists of card ids,
a deck listed from its top. The position always rests on a :class:`Decision`: whose it is (the
active player's, or the other's when a reaction or an effect of the active player makes them
choose in the middle of the turn) and of what kind. An effect being resolved is a stack of
:class:`Frame` s (``engine.chaos.resolve``) held in the state, so a position can be copied at any
point (the search agent does) and a game replays from its seed and its actions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final

from engine.chaos.cards import Box, ChaosCardDef
from engine.chaos.effects import Node
from engine.chaos.events import Event
from engine.chaos.modes import Mode

RULES_VERSION: Final = "doc-2024.1"

# Phases a position can rest in (Verification and the end of turn are automatic).
COMBO: Final = 1
RECRUITMENT: Final = 3
OVER: Final = 5
PHASE_NAMES: Final = {COMBO: "combo", RECRUITMENT: "recruitment", OVER: "over"}

# Decision kinds.
MAIN: Final = 0  # the active player's phase action (play, use, recruit, end)
PICK: Final = 1  # a card among ``options``
YES_NO: Final = 2
OPTION: Final = 3  # an option of "choose", by index
ANNOUNCE: Final = 4  # a set of clans (bit masks)
ORDER: Final = 5  # which of several simultaneous reactions resolves next
KIND_NAMES: Final = ("main", "pick", "yes_no", "option", "announce", "order")

NO_CARD: Final = -1


@dataclass(frozen=True, slots=True)
class Options:
    mode: str = "duel"
    # None: a random deal decides who gets the Emissaries 1 (and plays first).
    first_player: int | None = None
    # The site's turn limit (rule site-turn-limit); None: the mode's.
    turn_limit: int | None = None
    # The event log records a game; it is not a rule, so it does not make two games differ.
    log: bool = field(default=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"mode": self.mode}
        if self.first_player is not None:
            data["first_player"] = "AB"[self.first_player]
        if self.turn_limit is not None:
            data["turn_limit"] = self.turn_limit
        return data


class Setup:
    """What never changes during a game: the cards by card id, the mode and the options."""

    __slots__ = (
        "box",
        "cards",
        "clan",
        "cost",
        "first_seat",
        "mode",
        "names",
        "options",
        "play",
        "reaction",
        "reaction_on",
        "reaction_opponent",
        "turn_limit",
    )

    def __init__(
        self, cards: list[ChaosCardDef], mode: Mode, options: Options, box: Box | None
    ) -> None:
        self.cards: tuple[ChaosCardDef, ...] = tuple(cards)
        self.box = box
        self.mode = mode
        self.options = options
        self.turn_limit = options.turn_limit if options.turn_limit is not None else mode.turn_limit
        self.names: tuple[str, ...] = tuple(card.name for card in cards)
        self.clan: tuple[int, ...] = tuple(card.clan_bit for card in cards)
        self.cost: tuple[int, ...] = tuple(card.cost for card in cards)
        self.play: tuple[Node | None, ...] = tuple(card.play for card in cards)
        self.reaction: tuple[Node | None, ...] = tuple(card.reaction for card in cards)
        self.reaction_on: tuple[str, ...] = tuple(card.reaction_on for card in cards)
        self.reaction_opponent: tuple[bool, ...] = tuple(
            card.reaction_opponent_turn for card in cards
        )
        self.first_seat = 0


class Player:
    """One player's zones (card ids) and what their turn has used up."""

    __slots__ = (
        "awakened",
        "bonus",
        "deck",
        "discard",
        "hand",
        "played",
        "recruited",
        "spent",
        "turns",
        "used",
    )

    def __init__(self) -> None:
        self.deck: list[int] = []  # top first
        self.hand: list[int] = []
        self.played: list[int] = []  # the play zone: cards played this turn (resources)
        self.recruited: list[
            int
        ] = []  # the play zone: recruited this turn (no effect, no resource)
        self.discard: list[int] = []
        self.bonus = 0  # resources given by effects this turn
        self.spent = 0
        self.awakened = False  # the Awakening was used this turn
        self.used: list[int] = []  # Interventions used this turn
        self.turns = 0

    def copy(self) -> Player:
        other = Player()
        other.deck = self.deck.copy()
        other.hand = self.hand.copy()
        other.played = self.played.copy()
        other.recruited = self.recruited.copy()
        other.discard = self.discard.copy()
        other.bonus = self.bonus
        other.spent = self.spent
        other.awakened = self.awakened
        other.used = self.used.copy()
        other.turns = self.turns
        return other

    def resources(self) -> int:
        """What is left to recruit with: the cards played this turn, plus effects, minus spent."""
        return len(self.played) + self.bonus - self.spent

    def owned(self) -> int:
        """Every card of the player's game (the Void is out of it)."""
        return (
            len(self.deck)
            + len(self.hand)
            + len(self.played)
            + len(self.recruited)
            + len(self.discard)
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Player) and all(
            getattr(self, name) == getattr(other, name) for name in Player.__slots__
        )

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the position waits for: ``seat`` must choose, among ``options`` (card ids, option
    indexes or clan masks, by kind; empty for MAIN, whose actions come from the phase).
    ``reason`` says what the choice is for (the view shows it), ``source`` the card whose effect
    asks."""

    kind: int
    seat: int
    reason: str
    options: tuple[int, ...] = ()
    source: int = NO_CARD


class Frame:
    """One part of an effect being resolved (or a batch of reactions waiting): see resolve."""

    __slots__ = ("cards", "node", "ok", "owner", "placed", "source", "stage", "value")

    def __init__(self, node: Node | None, owner: int, source: int) -> None:
        self.node = node  # None: a batch of reactions (``cards``)
        self.owner = owner
        self.source = source
        self.stage = 0
        self.ok = True
        self.value = 0
        self.cards: list[int] = []
        self.placed: list[int] = []

    def copy(self) -> Frame:
        other = Frame(self.node, self.owner, self.source)
        other.stage = self.stage
        other.ok = self.ok
        other.value = self.value
        other.cards = self.cards.copy()
        other.placed = self.placed.copy()
        return other

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Frame) and all(
            getattr(self, name) == getattr(other, name) for name in Frame.__slots__
        )

    __hash__ = None  # type: ignore[assignment]


class ChaosState:
    """A game position. ``active``: whose turn it is; ``to_move``: who decides now."""

    __slots__ = (
        "active",
        "answer",
        "decision",
        "domain",
        "frames",
        "interventions",
        "last_ok",
        "log",
        "owner",
        "phase",
        "pile",
        "players",
        "rng",
        "setup",
        "triggers",
        "turn",
        "void",
        "winner",
    )

    def __init__(self, setup: Setup, seed: int) -> None:
        self.setup = setup
        self.players = [Player() for _ in range(setup.mode.seats)]
        # The seat whose zones hold each card (a Domain card belongs to whoever recruits it).
        self.owner: list[int] = [NO_CARD] * len(setup.cards)
        self.domain: list[list[int]] = []  # slots, each a stack: its last card is available
        self.pile: list[int] = []  # the Domain pile, top first
        self.void: list[int] = []
        self.interventions: list[int] = []  # active, beside the Domain, in the order they came
        self.active = 0
        self.turn = 0  # turns begun, all players together
        self.phase = COMBO
        self.frames: list[Frame] = []
        self.triggers: list[int] = []  # cards whose reaction waits to be offered
        self.decision: Decision | None = None
        self.answer: int | None = None
        self.last_ok = True
        self.winner: int | None = None  # with phase OVER: None is a game without a winner
        self.rng = random.Random(seed)
        self.log: list[Event] | None = [] if setup.options.log else None

    @property
    def to_move(self) -> int:
        """The seat that decides now (-1 when the game is over)."""
        return self.decision.seat if self.decision is not None else -1

    def copy(self) -> ChaosState:
        other = ChaosState.__new__(ChaosState)
        other.setup = self.setup
        other.players = [player.copy() for player in self.players]
        other.owner = self.owner.copy()
        other.domain = [slot.copy() for slot in self.domain]
        other.pile = self.pile.copy()
        other.void = self.void.copy()
        other.interventions = self.interventions.copy()
        other.active = self.active
        other.turn = self.turn
        other.phase = self.phase
        other.frames = [frame.copy() for frame in self.frames]
        other.triggers = self.triggers.copy()
        other.decision = self.decision
        other.answer = self.answer
        other.last_ok = self.last_ok
        other.winner = self.winner
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.log = None if self.log is None else self.log.copy()
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChaosState):
            return False
        return (
            all(
                getattr(self, name) == getattr(other, name)
                for name in ChaosState.__slots__
                if name not in ("rng", "log", "setup")
            )
            and self.rng.getstate() == other.rng.getstate()
        )

    __hash__ = None  # type: ignore[assignment]

    def returns(self) -> tuple[int, ...]:
        """Each seat's result once the game is over: +1 a win, -1 a loss, 0 no winner."""
        if self.phase != OVER:
            return (0,) * len(self.players)
        if len(self.players) == 1:
            return (1 if self.winner == 0 else -1,)
        if self.winner is None:
            return (0, 0)
        return tuple(1 if seat == self.winner else -1 for seat in range(len(self.players)))

    def other(self, seat: int) -> int:
        """The opponent of ``seat`` (NO_CARD alone in the Prologue)."""
        return NO_CARD if len(self.players) == 1 else 1 - seat
