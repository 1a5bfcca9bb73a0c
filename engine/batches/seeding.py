"""Which game is which in a batch: the seeds of its games, its chunks, who sits where.

Pure Python over the rules engine (no Django), so a chunk plays the same games in a Celery worker,
in the in-process thread pool, in a benchmark or in a unit test. A batch enters N decks (deck A,
B, ... in the order asked for), one per seat of its mode's table (a Duel: 2):

- game ``index`` of a batch is fully determined by (batch seed, index): its shuffle seed and its
  agents' seeds are derived from those two numbers only, so the totals are the same whatever the
  chunking, the number of workers or the retries;
- in Solo and Co-op the decks keep their seats (the players' decks, the AI's deck piles) and the
  mode's set-up fixes who plays first, so nothing rotates; in the other modes the decks rotate
  one seat per game: deck A sits in seat A (who always plays first) in game 0, deck B in game 1,
  and so on (a Duel swaps seats every other game), so the first-player advantage is measured
  instead of favouring one deck; rotating keeps every deck's neighbours, hence the 4-player
  modes' teams (seats A and C, B and D);
- a Draft batch (``BatchSpec.draft``) enters drafters instead of decks: each game first drafts
  its decks from the pool (``engine.rules.drafts``, the Draft format) with a seed derived the
  same way, each entrant drafting from the seat it then plays in (so the first pick rotates too).

The decks of each mode are dealt, and the games played to their end, by the engine's game object
(``engine.rules.game``); what a game counts is ``engine.batches.totals``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.rules import (
    AGENTS,
    DRAFT_PROCEDURES,
    DRAFTERS,
    MODES,
    Agent,
    AiOptions,
    CardDef,
    Game,
    InputError,
    Options,
    champion_from_json,
    drafted_table,
    run_draft,
    table_decks,
)
from engine.rules import AUTOMATON as AUTOMATON_CONTROLLER

# The letters of a batch's decks, in the order they were entered (a mode has at most 4 seats).
DECK_LETTERS = ("a", "b", "c", "d")
# How a game ended, from the loser's Stronghold (rule game-end) — or the turn limit.
FORT_DESTROYED = "fort_destroyed"
EMPTY_HAND_BASTION = "empty_hand_bastion"
EMPTY_HAND_FORT = "empty_hand_fort"
# Solo: the AI's deck pile emptied with its Fort revealed (rule solo-game-end).
DECK_PILE_EMPTIED = "deck_pile_emptied"
TURN_LIMIT = "turn_limit"
END_REASONS = (FORT_DESTROYED, EMPTY_HAND_BASTION, EMPTY_HAND_FORT, TURN_LIMIT)
SOLO_END_REASONS = (*END_REASONS[:-1], DECK_PILE_EMPTIED, TURN_LIMIT)
# How a game of any mode may end (a replay's `end` in the API).
ALL_END_REASONS = tuple(dict.fromkeys((*END_REASONS, *SOLO_END_REASONS)))
SOLO = "solo"
COOP = "coop"
# The modes whose AI seats are the rulebook's automaton: the seats never rotate (the mode's set-up
# says who plays first) and the batch takes the AI's parameters.
AI_MODES: Final = frozenset(
    name
    for name, mode in MODES.items()
    if any(seat.controller == AUTOMATON_CONTROLLER for seat in mode.seats)
)
# The agent name of Solo's AI seat: the rulebook's automaton, which makes no choice of its own.
AUTOMATON = "automaton"
# Independent random streams of one game: its shuffle (0), then deck N's agent (N + 1).
_GAME_STREAM = 0
# Co-op: how the AI's 48 cards are divided into its two deck piles (coop.split_ai_cards).
_AI_SPLIT_STREAM = -100


def derived_seed(batch_seed: int, index: int, stream: int = _GAME_STREAM) -> int:
    """A 63-bit seed for game ``index`` of a batch (``stream``: the game, or one deck's agent).

    A hash rather than ``batch_seed + index``: neighbouring batches must not share games.
    """
    digest = hashlib.blake2b(
        f"{batch_seed}:{index}:{stream}".encode(), digest_size=8, person=b"cod-sim"
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def _agent_stream(deck: int) -> int:
    return deck + 1


# A Draft batch's streams: the draft's shuffle, and each entrant's drafter.
_DRAFT_STREAM = -1


def _drafter_stream(deck: int) -> int:
    return -2 - deck


# Chunks: a batch's games are cut into chunks of ``size`` games, except the last TAPER chunks'
# worth, cut into half-size chunks: when the queue runs dry, the workers still playing finish
# sooner, so less time is spent with idle workers at the end of a batch. Chunks of fewer than
# 2 x MIN_TAPERED games, and batches of fewer than TAPER + 1 chunks, are cut evenly.
TAPER = 2
MIN_TAPERED = 10


def _chunking(games: int, size: int) -> tuple[int, int]:
    """(number of full-size chunks before the tail, size of the tail's chunks)."""
    if size < 2 * MIN_TAPERED or games < (TAPER + 1) * size:
        return 0, size
    return (games - TAPER * size) // size, size // 2


def chunk_count(games: int, size: int) -> int:
    """How many chunks a batch of ``games`` with chunks of ``size`` has."""
    full, tail = _chunking(games, size)
    return full + -(-(games - full * size) // tail)


def chunk_span(games: int, size: int, index: int) -> tuple[int, int]:
    """(first game, number of games) of chunk ``index``."""
    full, tail = _chunking(games, size)
    if index < full:
        return index * size, size
    first = full * size + (index - full) * tail
    return first, min(tail, games - first)


def deck_in_seat(index: int, seat: int, decks: int) -> int:
    """Which of the batch's ``decks`` decks (0: A) sits in ``seat`` in game ``index``; seat 0
    plays first. One seat further each game: with 2 decks, the seats swap every other game."""
    return (seat + index) % decks


def deck_seats(index: int, decks: int) -> tuple[int, ...]:
    """The seat of each deck (in deck order) in game ``index``."""
    seats = [0] * decks
    for seat in range(decks):
        seats[deck_in_seat(index, seat, decks)] = seat
    return tuple(seats)


def player_seats(mode: str) -> tuple[int, ...]:
    """The seats of ``mode``'s players, whose decks a batch enters (or who draft them): all but
    Solo's and Co-op's automata, whose deck piles the batch makes."""
    return tuple(
        seat for seat, row in enumerate(MODES[mode].seats) if row.controller != AUTOMATON_CONTROLLER
    )


def end_reasons(mode: str) -> tuple[str, ...]:
    """How the games of ``mode`` may end."""
    return SOLO_END_REASONS if mode in AI_MODES else END_REASONS


@dataclass(frozen=True)
class DraftSpec:
    """A Draft batch's pool and each entrant's drafter (``engine.rules.drafters.DRAFTERS``)."""

    pool: tuple[CardDef, ...]
    drafters: tuple[str, ...]
    procedure: str = "duel"


@dataclass(frozen=True)
class BatchSpec:
    """What defines every game of a batch: the decks (with their Champions), agents, options;
    a Draft batch has no decks but a ``draft``, which deals each game's.

    Solo: the player's deck then the AI's deck pile, the player's agent then ``AUTOMATON``, and
    the AI's parameters in ``ai``. Co-op: in seat order the first player's deck, the AI's cards,
    the second player's deck and the AI's cards again (``AUTOMATON`` at B and D): each game divides
    the AI's cards into the two AIs' deck piles (``coop.split_ai_cards``, its own random stream);
    a Co-op Draft batch's drafters are the two players' (the AI drafts nothing)."""

    seed: int
    decks: tuple[tuple[CardDef, ...], ...]
    # One agent name per deck (per entrant of a Draft batch).
    agents: tuple[str, ...]
    exhaustion: bool = False
    # One Champion (or None) per deck, with the Champion module on; None: module off.
    champions: tuple[CardDef | None, ...] | None = None
    mode: str = "duel"
    ai: AiOptions | None = None
    draft: DraftSpec | None = None
    # The seating of each rotation, built once so the engine's set-up cache is hit.
    _seatings: tuple[list[tuple[CardDef, ...]], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        count = len(self.agents)
        if self.draft is not None:
            if self.decks or self.champions is not None:
                raise InputError("a Draft batch drafts its decks: it takes no decks nor Champions")
            # The players' drafters only (the AI's piles are what they give away).
            drafting = len(self.drafting_decks)
            if len(self.draft.drafters) != drafting:
                raise InputError(f"expected one drafter per drafting seat ({drafting})")
            procedure = DRAFT_PROCEDURES.get(self.mode)
            if self.draft.procedure != procedure:
                raise InputError(f"the {self.mode} mode drafts with the {procedure} procedure")
            unknown = sorted(set(self.draft.drafters) - set(DRAFTERS))
            if unknown:
                raise InputError(f"unknown drafter {unknown[0]!r}")
            object.__setattr__(self, "_seatings", ())
            return
        if len(self.decks) != count:
            raise InputError(f"expected one agent per deck ({len(self.decks)}), not {count}")
        if self.champions is not None and len(self.champions) != count:
            raise InputError(f"expected one Champion (or none) per deck ({count})")
        if (self.mode in AI_MODES) != (self.ai is not None):
            raise InputError("the AI's parameters go with the Solo and Co-op modes, and only there")
        coop_seats = len(MODES[COOP].seats)
        if self.mode == COOP and (count != coop_seats or self.decks[1] != self.decks[3]):
            raise InputError("a Co-op batch seats deck A, the AI's cards, deck C, the AI's cards")
        seatings = tuple(
            [self.decks[deck_in_seat(index, seat, count)] for seat in range(count)]
            for index in range(count)
        )
        object.__setattr__(self, "_seatings", seatings)

    @property
    def end_reasons(self) -> tuple[str, ...]:
        """How this batch's games may end (the totals count each, from 0)."""
        return end_reasons(self.mode)

    def rotation(self, index: int) -> int:
        """How far the decks have rotated in game ``index`` (Solo and Co-op: never)."""
        return 0 if self.mode in AI_MODES else index

    @property
    def drafting_decks(self) -> tuple[int, ...]:
        """The decks (or entrants) of the players, who draft in a Draft batch: all but the AIs."""
        return tuple(deck for deck, agent in enumerate(self.agents) if agent != AUTOMATON)

    @classmethod
    def from_json(
        cls,
        *,
        seed: int,
        decks: Sequence[Sequence[dict[str, Any]]],
        agents: Sequence[str],
        exhaustion: bool = False,
        champions: Sequence[dict[str, Any] | None] | None = None,
        mode: str = "duel",
        ai: dict[str, Any] | None = None,
        draft_pool: Sequence[dict[str, Any]] | None = None,
        drafters: Sequence[str] = (),
    ) -> BatchSpec:
        """A spec from the engine card JSON a batch stores (``InputError`` if it is not valid);
        ``draft_pool`` and ``drafters`` make it a Draft batch (``decks`` then empty)."""
        played = tuple(
            tuple(
                CardDef.from_json(card, f"deck {DECK_LETTERS[d].upper()} card {i}")
                for i, card in enumerate(deck)
            )
            for d, deck in enumerate(decks)
        )
        chosen = None
        if champions is not None:
            chosen = tuple(
                None
                if one is None
                else champion_from_json(one, f"champion {DECK_LETTERS[d].upper()}")
                for d, one in enumerate(champions)
            )
        options = None if ai is None else AiOptions.from_json(ai)
        draft = None
        if draft_pool is not None:
            pool = tuple(
                CardDef.from_json(card, f"draft pool card {i}") for i, card in enumerate(draft_pool)
            )
            draft = DraftSpec(pool, tuple(drafters), DRAFT_PROCEDURES.get(mode, ""))
        return cls(seed, played, tuple(agents), exhaustion, chosen, mode, ai=options, draft=draft)

    @property
    def entrants(self) -> int:
        """How many decks (or drafters) the batch entered: one per seat of its table."""
        return len(self.agents)

    @property
    def options(self) -> Options:
        champions = self.champions is not None
        return Options(
            exhaustion=self.exhaustion,
            # Solo's and Co-op's set-up says who plays first (the player, or the AI with ai_first).
            first_player=None if self.mode in AI_MODES else 0,
            mode=self.mode,
            champions=champions,
            ai=self.ai,
        )

    def seating(self, index: int) -> Sequence[Sequence[CardDef]]:
        """The decks of game ``index`` by seat, as the game object deals the mode's (a Draft
        batch drafts them first)."""
        if self.draft is None:
            seating = self._seatings[self.rotation(index) % len(self.decks)]
            if self.mode == COOP:
                return table_decks(self.mode, seating, self._split(index))
            return seating
        # Each drafter drafts from the seat its deck then plays in (Solo and Co-op: its own).
        entrants = self.drafting_decks
        count, turn = len(entrants), self.rotation(index)
        drafters = []
        for seat in range(count):
            entrant = deck_in_seat(turn, seat, count)
            seed = derived_seed(self.seed, index, _drafter_stream(entrants[entrant]))
            drafters.append(DRAFTERS[self.draft.drafters[entrant]](seed))
        drafted = run_draft(
            self.draft.procedure,
            self.draft.pool,
            derived_seed(self.seed, index, _DRAFT_STREAM),
            drafters,
        )
        return drafted_table(self.mode, drafted, self._split(index))

    def _split(self, index: int) -> int:
        """Co-op: the seed that divides game ``index``'s AI cards into the two deck piles."""
        return derived_seed(self.seed, index, _AI_SPLIT_STREAM)

    def seat_champions(self, index: int) -> list[CardDef | None] | None:
        if self.champions is None:
            return None
        count, turn = self.entrants, self.rotation(index)
        return [self.champions[deck_in_seat(turn, seat, count)] for seat in range(count)]

    def agents_for(self, index: int) -> list[Agent | None]:
        """The agents of game ``index`` by seat; each deck keeps its agent and random stream
        (None: Solo's automaton, which never chooses)."""
        count, turn = self.entrants, self.rotation(index)
        agents: list[Agent | None] = []
        for seat in range(count):
            deck = deck_in_seat(turn, seat, count)
            name = self.agents[deck]
            seed = derived_seed(self.seed, index, _agent_stream(deck))
            agents.append(None if name == AUTOMATON else AGENTS[name](seed))
        return agents

    def game(self, index: int, log: bool = False, stats: bool = False) -> Game:
        """Game ``index`` set up, waiting in the first player's Phase 2 (``log``: with the
        set-up's events; ``stats``: collecting the per-game statistics)."""
        options = replace(self.options, log=log, stats=stats) if log or stats else self.options
        return Game.start(
            self.seating(index), derived_seed(self.seed, index), options, self.seat_champions(index)
        )
