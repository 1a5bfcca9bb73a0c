"""The game position: immutable set-up shared by all copies, and the mutable per-game state.

Lines belong to a player and face an opponent's line (``engine.rules.modes.Topology``), so the
four-Kingdom modes give each player two lines facing two different neighbours. Each seat's side of
the table is a Kingdom (``engine.rules.kingdom``). A creature on a line is a :class:`Creature`; a
Symbiote stacked on a host is the same object with ``symbiote`` set.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef
from engine.rules.errors import InputError
from engine.rules.events import LINE_NAMES, PLAYER_NAMES, Event
from engine.rules.modes import AUTOMATON, DUEL_MODE, Mode
from engine.rules.stats import GameStats

if TYPE_CHECKING:
    from engine.rules.kingdom import Kingdom

RULES_VERSION: Final = "cod-2022.1"

__all__ = ["LINE_NAMES", "PLAYER_NAMES"]

# Phases a state can rest in between actions (Phase 1 and the start of turn are automatic).
SUMMONING: Final = 2
ASSAULT_DONE: Final = 3
OVER: Final = 4

NO_CARD: Final = -1
QUICK_PLAY: Final = AiOptions()


@dataclass(frozen=True, slots=True)
class Options:
    exhaustion: bool = False
    # The event log records a game; it is not a rule, so it does not make two games differ.
    log: bool = field(default=False, compare=False)
    # So are the per-game statistics (engine.rules.stats).
    stats: bool = field(default=False, compare=False)
    # None: a coin toss with the game's RNG decides.
    first_player: int | None = None
    mode: str = "duel"
    champions: bool = False
    # Solo: the AI's parameters (None: Quick Play's); refused in the other modes.
    ai: AiOptions | None = None
    # The seats in their order of play (ruling P2); None: seat order, A, B, C, D.
    turn_order: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"exhaustion": self.exhaustion}
        if self.first_player is not None:
            data["first_player"] = PLAYER_NAMES[self.first_player]
        if self.mode != "duel":
            data["mode"] = self.mode
        if self.champions:
            data["champions"] = True
        if self.ai is not None:
            data["ai"] = self.ai.to_json()
        if self.turn_order is not None:
            data["turn_order"] = [PLAYER_NAMES[seat] for seat in self.turn_order]
        return data

    def ai_options(self) -> AiOptions:
        """The Solo AI's parameters (Quick Play's when none were given)."""
        return self.ai if self.ai is not None else QUICK_PLAY

    @classmethod
    def from_json(cls, data: Any, where: str = "options") -> Options:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InputError(f"{where}: expected a mapping")
        allowed = {"exhaustion", "first_player", "mode", "champions", "log", "ai", "turn_order"}
        for key in data:
            if key not in allowed:
                raise InputError(f"{where}: unknown key {key!r}")
        for key in ("exhaustion", "champions", "log"):
            if key in data and not isinstance(data[key], bool):
                raise InputError(f"{where}.{key}: expected true or false")
        first = data.get("first_player")
        if first is not None and first not in PLAYER_NAMES:
            raise InputError(f"{where}.first_player: expected a player letter, 'A' to 'D'")
        mode = data.get("mode", "duel")
        if not isinstance(mode, str):
            raise InputError(f"{where}.mode: expected a string")
        order = data.get("turn_order")
        if order is not None and (
            not isinstance(order, list) or any(seat not in PLAYER_NAMES for seat in order)
        ):
            raise InputError(f"{where}.turn_order: expected a list of player letters")
        return cls(
            exhaustion=data.get("exhaustion", False),
            log=data.get("log", False),
            first_player=None if first is None else PLAYER_NAMES.index(first),
            mode=mode,
            champions=data.get("champions", False),
            ai=AiOptions.from_json(data["ai"], f"{where}.ai") if "ai" in data else None,
            turn_order=None if order is None else tuple(PLAYER_NAMES.index(s) for s in order),
        )


class GameSetup:
    """What never changes during a game: the cards (by card id), options and mode.

    Card ids index flat tuples so the hot path reads ``setup.attack[cid]`` instead of walking
    objects. The deck cards come first (all of A's, then B's), then the Champions (Champion
    module), which are cards of the game without being in a deck. Shared, never copied.
    """

    __slots__ = (
        "any_aura",
        "any_champion",
        "attack",
        "aura",
        "cards",
        "champion_id",
        "champion_owner",
        "champions",
        "controllers",
        "cost",
        "creature",
        "decks",
        "given",
        "hp",
        "in_game",
        "lane_ids",
        "mask",
        "mode",
        "names",
        "next_seat",
        "options",
        "origin",
        "team",
        "topology",
        "turn_position",
    )

    def __init__(
        self,
        decks: Sequence[Sequence[CardDef]],
        options: Options,
        mode: Mode = DUEL_MODE,
        champions: Sequence[CardDef | None] | None = None,
    ) -> None:
        self.decks = tuple(tuple(deck) for deck in decks)
        # One Champion (or None) per player; all None without the Champion module.
        self.champions: tuple[CardDef | None, ...] = (
            tuple(champions) if champions is not None else (None,) * len(self.decks)
        )
        cards = [card for deck in self.decks for card in deck]
        origin = [p for p, deck in enumerate(self.decks) for _ in deck]
        champion_id = []
        for p, champion in enumerate(self.champions):
            if champion is None:
                champion_id.append(NO_CARD)
            else:
                champion_id.append(len(cards))
                cards.append(champion)
                origin.append(p)
        # champion_id[player]: the card id of that player's Champion (NO_CARD: none);
        # champion_owner[card]: the player whose Champion the card is (-1: a deck card).
        self.champion_id: tuple[int, ...] = tuple(champion_id)
        self.any_champion = any(card != NO_CARD for card in champion_id)
        owner = [-1] * len(cards)
        for p, card in enumerate(champion_id):
            if card != NO_CARD:
                owner[card] = p
        self.champion_owner: tuple[int, ...] = tuple(owner)
        self.cards: tuple[CardDef, ...] = tuple(cards)
        self.origin: tuple[int, ...] = tuple(origin)
        self.names = tuple(c.name for c in cards)
        self.attack = tuple(c.attack for c in cards)
        self.hp = tuple(c.hp for c in cards)
        self.cost = tuple(c.cost for c in cards)
        # Printed abilities only: Custom Play's given abilities follow control, not the deck a
        # card came from (rule solo-given-abilities, ruling SO12): ``given[seat]`` is added to
        # every creature (and Symbiote) entering play for that seat, by ``new_creature``.
        self.mask = tuple(c.mask for c in cards)
        ai_given = options.ai.ability_mask() if options.ai is not None else 0
        self.given: tuple[int, ...] = tuple(
            ai_given if seat.controller == AUTOMATON else 0 for seat in mode.seats
        )
        self.aura = tuple(c.aura_mask for c in cards)
        self.creature = tuple(c.is_creature for c in cards)
        # Every ability bit that can appear in this game, printed or granted: a test against it
        # skips whole steps of the activation orders for decks that cannot use them.
        in_game = 0
        for card_mask, card_def in zip(self.mask, cards, strict=True):
            in_game |= card_mask | card_def.aura_mask
        for seat_given in self.given:
            in_game |= seat_given
        self.in_game = in_game
        self.any_aura = any(c.aura_mask for c in cards)
        self.options = options
        self.mode = mode
        # Per seat, its controller kind: which variant of the ability handlers its cards use.
        self.controllers = tuple(seat.controller for seat in mode.seats)
        # Per seat, its team: partners share one (Team Play), every other seat is an enemy.
        self.team = tuple(seat.team for seat in mode.seats)
        self.topology = mode.topology
        self.lane_ids = tuple(range(mode.topology.lanes))
        seats = len(mode.seats)
        order = options.turn_order or tuple(range(seats))
        if sorted(order) != list(range(seats)):
            names = [PLAYER_NAMES[seat] for seat in order]
            raise InputError(f"turn_order {names}: expected each of the {seats} seats once")
        # next_seat[seat]: who plays after ``seat``; turn_position[seat]: its rank in the order.
        following = [0] * len(order)
        position = [0] * len(order)
        for rank, seat in enumerate(order):
            following[seat] = order[(rank + 1) % len(order)]
            position[seat] = rank
        self.next_seat: tuple[int, ...] = tuple(following)
        self.turn_position: tuple[int, ...] = tuple(position)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameSetup):
            return NotImplemented
        return (
            self.decks == other.decks
            and self.champions == other.champions
            and self.options == other.options
            and self.mode == other.mode
        )

    __hash__ = None  # type: ignore[assignment]


class Creature:
    """A creature in play (with its Symbiote, if one is stacked on it)."""

    __slots__ = (
        "attack",
        "attacked",
        "aura",
        "base",
        "bonus",
        "card",
        "chained",
        "damage",
        "eff",
        "hp",
        "lane",
        "new",
        "owner",
        "protection_used",
        "sharpened",
        "symbiote",
    )

    def __init__(
        self, card: int, owner: int, lane: int, attack: int, hp: int, base: int, aura: int
    ) -> None:
        self.card = card
        self.symbiote = NO_CARD
        self.owner = owner
        self.lane = lane
        self.attack = attack
        self.hp = hp
        self.base = base
        self.aura = aura
        # Effective abilities: printed ones plus those granted by adjacent Auras.
        self.eff = base
        self.damage = 0
        self.new = True
        self.protection_used = False
        self.sharpened = False
        # Number of the turn in which it last attacked in its controller's Assault (0: never).
        self.attacked = 0
        # Sprint's bonus, kept until the end of Phase 3.
        self.bonus = 0
        # Enchained cards under this creature: (card id, player whose hand it came from).
        self.chained: tuple[tuple[int, int], ...] = ()

    def add_symbiote(self, setup: GameSetup, card: int) -> None:
        self.symbiote = card
        self.attack += setup.attack[card]
        self.hp += setup.hp[card]
        # A Symbiote merged onto a creature takes that creature's controller's given abilities.
        mask = setup.mask[card] | setup.given[self.owner]
        self.base |= mask
        self.aura |= setup.aura[card]
        self.eff |= mask

    def copy(self) -> Creature:
        c = Creature(self.card, self.owner, self.lane, self.attack, self.hp, self.base, self.aura)
        c.symbiote = self.symbiote
        c.eff = self.eff
        c.damage = self.damage
        c.new = self.new
        c.protection_used = self.protection_used
        c.sharpened = self.sharpened
        c.attacked = self.attacked
        c.bonus = self.bonus
        c.chained = self.chained
        return c

    def key(self) -> tuple[Any, ...]:
        """Every field, to compare positions. Creatures themselves compare by identity, which
        keeps ``list.index``/``remove`` on lines fast."""
        return (
            self.attack,
            self.attacked,
            self.aura,
            self.base,
            self.bonus,
            self.card,
            self.chained,
            self.damage,
            self.eff,
            self.hp,
            self.lane,
            self.new,
            self.owner,
            self.protection_used,
            self.sharpened,
            self.symbiote,
        )

    def __repr__(self) -> str:
        return f"Creature(card={self.card}, owner={self.owner}, damage={self.damage})"


def new_creature(setup: GameSetup, card: int, owner: int, lane: int) -> Creature:
    """``card`` entering play for ``owner`` on ``lane``: as printed, with the abilities Custom
    Play gives every creature of ``owner`` if it is the Solo AI (whoever's deck the card came
    from)."""
    mask = setup.mask[card] | setup.given[owner]
    return Creature(card, owner, lane, setup.attack[card], setup.hp[card], mask, setup.aura[card])


class Outcome:
    """How a game ended (rule game-end), OpenSpiel's ``returns()`` in ``returns``. Immutable."""

    __slots__ = ("loser", "reason", "returns", "source", "source_player")

    def __init__(
        self, returns: tuple[int, ...], loser: int, reason: str, source: int, source_player: int
    ) -> None:
        # Per seat: 1 won, -1 lost, 0 a draw; the seats of a team share their result.
        self.returns = returns
        # The seat whose Stronghold fell, and how (an event code: lost_fort, lost_empty_hand...).
        self.loser = loser
        self.reason = reason
        # The card that destroyed it (NO_CARD: none, e.g. Exhaustion) and the player controlling it.
        self.source = source
        self.source_player = source_player

    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, result in enumerate(self.returns) if result > 0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcome):
            return NotImplemented
        return (self.returns, self.loser, self.reason, self.source, self.source_player) == (
            other.returns,
            other.loser,
            other.reason,
            other.source,
            other.source_player,
        )

    def __repr__(self) -> str:
        return (
            f"Outcome(returns={self.returns}, loser={self.loser}, reason={self.reason!r}, "
            f"source={self.source}, source_player={self.source_player})"
        )

    __hash__ = None  # type: ignore[assignment]


class GameState:
    """A whole game position. Mutated in place by ``apply``; ``copy()`` is cheap (no deepcopy)."""

    __slots__ = (
        "_rng",
        "_rng_state",
        "active",
        "auras_dirty",
        "first_player",
        "log",
        "outcome",
        "phase",
        "players",
        "resolving",
        "setup",
        "spent_sharpening",
        "stats",
        "turn",
    )

    def __init__(
        self,
        setup: GameSetup,
        rng: random.Random | tuple[Any, ...] | int,
        log: bool = False,
        stats: bool = False,
    ) -> None:
        self.setup = setup
        self.players: list[Kingdom] = []
        self.active = 0
        self.first_player = 0
        self.phase = SUMMONING
        # None while the game goes on.
        self.outcome: Outcome | None = None
        # Turns begun by both players together (the event log numbers turns with it).
        self.turn = 0
        # The random stream (the property ``rng``): a Random, its state, or the seed of a new
        # one. A copy does not copy it: it shares the stream's state as a tuple, or the seed
        # (``_rng_state``), made into a Random only when the copy draws from it. Why: in a Duel
        # nothing draws after the set-up, and copying the Mersenne Twister's 625 words for each
        # of the search agents' copies took about three quarters of their time.
        self._rng: random.Random | None = None
        # The stream's state or seed when known without asking ``_rng`` (None: ask it); kept
        # until someone takes ``rng``, who may draw from it.
        self._rng_state: tuple[Any, ...] | int | None = None
        if isinstance(rng, random.Random):
            self._rng = rng
        else:
            self._rng_state = rng
        self.log: list[Event] | None = [] if log else None
        self.stats: GameStats | None = GameStats(len(setup.cards)) if stats else None
        # Lines where creatures moved, entered or left play: their Auras must be updated (bits
        # set by engine.rules.board.mark).
        self.auras_dirty = 0
        # Incantations whose Sharpening already fired this turn (creatures keep their own flag).
        self.spent_sharpening: set[int] = set()
        # Incantations out of the hand while their effect resolves (step 3 to step 16).
        self.resolving: list[int] = []

    def returns(self) -> tuple[int, ...]:
        """Per seat: 1 won, -1 lost, 0 not decided (a game still going, or stopped as a draw)."""
        if self.outcome is None:
            return (0,) * len(self.players)
        return self.outcome.returns

    @property
    def rng(self) -> random.Random:
        """The game's random stream. Draw from it at once: a reference kept across a ``copy``
        and drawn from later would leave the copies made after it a stale state."""
        rng = self._rng
        if rng is None:
            state = self._rng_state
            if isinstance(state, int):
                rng = random.Random(state)
            else:
                assert state is not None
                # Seeded with a constant: an unseeded Random reads the OS entropy pool, for a
                # state that setstate replaces at once.
                rng = random.Random(0)
                rng.setstate(state)
            self._rng = rng
        self._rng_state = None
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        self._rng_state = None

    def reseed(self, seed: int) -> None:
        """Give the position a new random stream, ``random.Random(seed)``'s (made when drawn
        from)."""
        self._rng = None
        self._rng_state = seed

    def _shared_rng(self) -> tuple[Any, ...] | int:
        """The random stream's state, or its seed if nothing drew from it since, for a copy to
        share without drawing from it."""
        state = self._rng_state
        if state is None:
            assert self._rng is not None
            state = self._rng.getstate()
            self._rng_state = state
        return state

    def rng_state(self) -> tuple[Any, ...]:
        """The random stream's state (``random.Random.getstate``), without drawing from it."""
        state = self._shared_rng()
        if isinstance(state, int):
            return random.Random(state).getstate()
        return state

    def copy(self, records: bool = True) -> GameState:
        """A copy to play on. ``records=False``: without the event log and the statistics, which
        no rule reads (a search's copy: they only cost it time)."""
        s = GameState(self.setup, self._shared_rng())
        s.players = [p.copy() for p in self.players]
        s.active = self.active
        s.first_player = self.first_player
        s.phase = self.phase
        s.outcome = self.outcome
        s.turn = self.turn
        if records:
            s.log = None if self.log is None else self.log[:]
            s.stats = None if self.stats is None else self.stats.copy()
        s.auras_dirty = self.auras_dirty
        s.spent_sharpening = set(self.spent_sharpening)
        s.resolving = self.resolving[:]
        return s

    def __eq__(self, other: object) -> bool:
        """Same position and same RNG state; the event log and the statistics are records, not
        part of it."""
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self.setup == other.setup
            and self.players == other.players
            and self.active == other.active
            and self.first_player == other.first_player
            and self.phase == other.phase
            and self.outcome == other.outcome
            and self.turn == other.turn
            and self.spent_sharpening == other.spent_sharpening
            and self.resolving == other.resolving
            and self.rng_state() == other.rng_state()
        )

    __hash__ = None  # type: ignore[assignment]
