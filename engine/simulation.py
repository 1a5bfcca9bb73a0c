"""Simulated games of a batch: which game is which, how one is played, what it counts.

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
  same way, each entrant drafting from the seat it then plays in (so the first pick rotates too);
- a game's statistics (each deck's result, length, how it ended, the cards played, how early,
  and the damage they dealt) come from the engine's outcome (``GameState.returns()``: teammates
  share their result) and its per-game statistics (``Options(stats=True)``, see
  ``engine.rules.stats`` for what counts as damage dealt), never from the event log's wording.

Totals are plain integer counts (:class:`Totals`): merging chunks is adding them up.

Per-card insight (as HSReplay gives for its game): a deck's win rate in the games where a card was
played and in those where it was not, and when it was first played **early** (in one of its
player's first :data:`EARLY_TURNS` turns) or **late** (after). Only the played and played-early
games and wins are counted; the rest follows from the deck's games and wins.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.rules import replay as replays
from engine.rules.actions import END_TURN, apply, to_json
from engine.rules.agents import AGENTS, Agent
from engine.rules.ai_options import AiOptions
from engine.rules.assault import assault
from engine.rules.cards import CardDef
from engine.rules.champion import champion_from_json
from engine.rules.coop import coop_decks, drafted_decks
from engine.rules.drafters import DRAFTERS, run_draft
from engine.rules.errors import GameOver, InputError
from engine.rules.events import Arg
from engine.rules.modes import AUTOMATON as AUTOMATON_CONTROLLER
from engine.rules.modes import MODES
from engine.rules.observation import SPECTATOR, Observation, observe
from engine.rules.play import wilson
from engine.rules.solo import automaton_of, automaton_reveal, automaton_reveals_more
from engine.rules.state import PLAYER_NAMES, SUMMONING, GameState, Options
from engine.rules.turn import end_turn, new_game

# The letters of a batch's decks, in the order they were entered (a mode has at most 4 seats).
DECK_LETTERS = ("a", "b", "c", "d")
# A game still running after this many turns (or actions) is a draw, as in engine.rules.play.
MAX_TURNS = 200
MAX_ACTIONS = 5000
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
# The Draft procedure (engine.rules.drafts.PROCEDURES) that deals a Draft batch's decks, by mode.
DRAFT_PROCEDURES: Final = {
    "duel": "duel",
    SOLO: "solo",
    "free_for_all": "four_players",
    "teams": "four_players",
    COOP: "coop",
}
# The agent name of Solo's AI seat: the rulebook's automaton, which makes no choice of its own.
AUTOMATON = "automaton"
# A card first played in one of its player's first EARLY_TURNS turns was played early: the turns
# a Duel's opening takes (the first player's 6 Mana, then the build-up before the Assaults bite).
EARLY_TURNS = 3
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

    def seating(self, index: int) -> list[tuple[CardDef, ...]]:
        """The decks of game ``index`` by seat (a Draft batch drafts them first)."""
        if self.draft is None:
            seating = self._seatings[self.rotation(index) % len(self.decks)]
            if self.mode == COOP:
                first, ai, second = seating[:3]
                return [tuple(deck) for deck in coop_decks(first, second, ai, self._split(index))]
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
        if self.mode == SOLO:
            # The player's 8 cards, then the AI's pile: the 24 cards it was given.
            return [drafted.decks[0], drafted.ai_pile]
        if self.mode == COOP:
            # The players' 8 cards at A and C, the AI's 48 divided between B and D.
            return [tuple(deck) for deck in drafted_decks(drafted, self._split(index))]
        return list(drafted.decks)

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

    def start(self, index: int, log: bool = False, stats: bool = False) -> GameState:
        """Game ``index`` set up, waiting in the first player's Phase 2 (``log``: with the
        set-up's events; ``stats``: collecting the per-game statistics)."""
        options = replace(self.options, log=log, stats=stats) if log or stats else self.options
        return new_game(
            self.seating(index), derived_seed(self.seed, index), options, self.seat_champions(index)
        )


@dataclass(frozen=True)
class GameOutcome:
    index: int
    # Per deck: 1 won, -1 lost (teammates share their result), 0 a draw at the turn limit.
    returns: tuple[int, ...]
    first: int  # the deck that played first
    turns: int
    end: str  # one of END_REASONS
    # Per deck: {card name: damage dealt} for every card of the deck (Champion included), and the
    # names of the cards played in this game, and of those first played early (EARLY_TURNS).
    damage: tuple[dict[str, int], ...]
    played: tuple[frozenset[str], ...]
    early: tuple[frozenset[str], ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The decks that won (none: a draw)."""
        return tuple(deck for deck, result in enumerate(self.returns) if result > 0)


def _choose(agent: Agent | None, state: GameState) -> Any:
    # Solo's automaton plays its turns inside apply(): its seat never has a choice to make.
    assert agent is not None, "the automaton was asked to choose"
    return agent.choose(state)


def play_game(spec: BatchSpec, index: int) -> GameOutcome:
    """Play game ``index`` of the batch from scratch."""
    state = spec.start(index, stats=True)
    agents = spec.agents_for(index)
    count = 0
    while state.outcome is None and state.turn <= MAX_TURNS and count < MAX_ACTIONS:
        apply(state, _choose(agents[state.active], state))
        count += 1
    return _outcome(state, index, spec.rotation(index))


def _outcome(state: GameState, index: int, rotation: int) -> GameOutcome:
    setup = state.setup
    stats = state.stats
    assert stats is not None
    count = len(state.players)
    returns = [0] * count
    for seat, result in enumerate(state.returns()):
        returns[deck_in_seat(rotation, seat, count)] = result
    damage: list[dict[str, int]] = [{} for _ in range(count)]
    played: list[set[str]] = [set() for _ in range(count)]
    early: list[set[str]] = [set() for _ in range(count)]
    for card, name in enumerate(setup.names):
        deck = deck_in_seat(rotation, setup.origin[card], count)
        damage[deck][name] = stats.damage(card)
        if stats.played[card]:
            played[deck].add(name)
            if stats.first_turn[card] <= EARLY_TURNS:
                early[deck].add(name)
    return GameOutcome(
        index=index,
        returns=tuple(returns),
        first=deck_in_seat(rotation, state.first_player, count),
        turns=state.turn,
        end=_end_reason(state),
        damage=tuple(damage),
        played=tuple(frozenset(names) for names in played),
        early=tuple(frozenset(names) for names in early),
    )


def _end_reason(state: GameState) -> str:
    outcome = state.outcome
    if outcome is None:
        return TURN_LIMIT
    if outcome.reason == "lost_fort":
        return FORT_DESTROYED
    if outcome.reason == "lost_pile":
        return DECK_PILE_EMPTIED
    # The other loss of a hand player.
    assert outcome.reason == "lost_empty_hand", outcome.reason
    return EMPTY_HAND_FORT if state.players[outcome.loser].fort else EMPTY_HAND_BASTION


# Totals -------------------------------------------------------------------------------------


def _card_row() -> dict[str, int]:
    return {"played": 0, "wins": 0, "damage": 0, "early": 0, "early_wins": 0}


# Games worth watching, by kind, each kind in its order ([index, turns] pairs): deck A's losses
# and the draws from the first game on, the shortest and the longest games.
NOTABLE: Final[dict[str, Callable[[list[int]], tuple[int, int]]]] = {
    "losses": lambda game: (game[0], 0),
    "draws": lambda game: (game[0], 0),
    "shortest": lambda game: (game[1], game[0]),
    "longest": lambda game: (-game[1], game[0]),
}
NOTABLE_PER_KIND: Final = 5


def _notable_kinds(game: GameOutcome) -> list[str]:
    kinds = ["shortest", "longest"]
    if not game.winners:
        kinds.append("draws")
    elif game.returns[0] < 0:
        kinds.append("losses")
    return kinds


@dataclass
class Totals:
    """Counts over some games of a batch, lists indexed by deck; adding two Totals is merging
    their games."""

    games: int
    wins: list[int]
    # Games no deck won (stopped at the turn limit).
    draws: int
    # Games each deck played first, and won when it did.
    first_games: list[int]
    first_wins: list[int]
    turns: dict[int, int]
    ends: dict[str, int]
    # Per deck, per card name: games where it was played, wins of its deck in those, damage,
    # games where it was first played early and wins in those (totals stored before the early
    # counts existed read as 0 there).
    cards: list[dict[str, dict[str, int]]]
    # A few games worth watching, as [index, turns], by NOTABLE kind (`notable_games`).
    notable: dict[str, list[list[int]]] = field(default_factory=dict)

    @classmethod
    def empty(cls, decks: int, ends: Sequence[str] = END_REASONS) -> Totals:
        """No game yet, for a batch of ``decks`` decks whose games end in one of ``ends``."""
        return cls(
            games=0,
            wins=[0] * decks,
            draws=0,
            first_games=[0] * decks,
            first_wins=[0] * decks,
            turns={},
            ends=dict.fromkeys(ends, 0),
            cards=[{} for _ in range(decks)],
        )

    def add(self, game: GameOutcome) -> None:
        self.games += 1
        returns = game.returns
        if not game.winners:
            self.draws += 1
        self.first_games[game.first] += 1
        if returns[game.first] > 0:
            self.first_wins[game.first] += 1
        self.turns[game.turns] = self.turns.get(game.turns, 0) + 1
        self.ends[game.end] += 1
        for deck, result in enumerate(returns):
            won = result > 0
            if won:
                self.wins[deck] += 1
            rows = self.cards[deck]
            for name, amount in game.damage[deck].items():
                row = rows.get(name)
                if row is None:
                    row = rows[name] = _card_row()
                row["damage"] += amount
                if name in game.played[deck]:
                    row["played"] += 1
                    if won:
                        row["wins"] += 1
                    if name in game.early[deck]:
                        row["early"] += 1
                        if won:
                            row["early_wins"] += 1
        for kind in _notable_kinds(game):
            self._keep_notable(kind, [[game.index, game.turns]])

    def _keep_notable(self, kind: str, games: list[list[int]]) -> None:
        """Keeps the NOTABLE_PER_KIND first games of ``kind`` in its order, whatever order the
        games (or the chunks) came in, so that merged totals equal those of one run."""
        kept = sorted([*self.notable.get(kind, []), *games], key=NOTABLE[kind])
        self.notable[kind] = kept[:NOTABLE_PER_KIND]

    def merge(self, other: Totals) -> None:
        self.games += other.games
        self.draws += other.draws
        for deck in range(len(self.wins)):
            self.wins[deck] += other.wins[deck]
            self.first_games[deck] += other.first_games[deck]
            self.first_wins[deck] += other.first_wins[deck]
            rows = self.cards[deck]
            for name, theirs in other.cards[deck].items():
                row = rows.setdefault(name, _card_row())
                for key, value in theirs.items():
                    row[key] += value
        for turns, count in other.turns.items():
            self.turns[turns] = self.turns.get(turns, 0) + count
        for reason, count in other.ends.items():
            self.ends[reason] = self.ends.get(reason, 0) + count
        for kind, games in other.notable.items():
            self._keep_notable(kind, games)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "first_games": list(self.first_games),
            "first_wins": list(self.first_wins),
            # JSON keys are strings; sorted so equal totals store equal documents.
            "turns": {str(turns): self.turns[turns] for turns in sorted(self.turns)},
            "ends": dict(self.ends),
            "cards": [{name: dict(rows[name]) for name in sorted(rows)} for rows in self.cards],
            "notable": {kind: self.notable[kind] for kind in NOTABLE if kind in self.notable},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Totals:
        return cls(
            games=data["games"],
            wins=list(data["wins"]),
            draws=data["draws"],
            first_games=list(data["first_games"]),
            first_wins=list(data["first_wins"]),
            turns={int(turns): count for turns, count in data["turns"].items()},
            ends=dict(data["ends"]),
            cards=[
                {name: {**_card_row(), **row} for name, row in rows.items()}
                for rows in data["cards"]
            ],
            # Batches played before notable games were kept have none.
            notable={
                kind: [list(one) for one in games]
                for kind, games in data.get("notable", {}).items()
            },
        )


def play_games(spec: BatchSpec, first: int, count: int) -> Totals:
    """The totals of games ``first`` … ``first + count - 1``."""
    totals = Totals.empty(spec.entrants, spec.end_reasons)
    for index in range(first, first + count):
        totals.add(play_game(spec, index))
    return totals


# Reading totals -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    """``hits`` out of ``games`` with its 95% Wilson score interval."""

    hits: int
    games: int
    low: float
    high: float

    @classmethod
    def of(cls, hits: int, games: int) -> Rate:
        low, high = wilson(hits, games)
        return cls(hits, games, low, high)

    @property
    def value(self) -> float | None:
        return self.hits / self.games if self.games else None


@dataclass(frozen=True)
class CardStats:
    name: str
    games_played: int
    win_rate_when_played: Rate
    damage: int
    # The deck's win rate in the games where the card was not played, and in those where it was
    # first played early or late (EARLY_TURNS).
    win_rate_when_not_played: Rate
    win_rate_when_early: Rate
    win_rate_when_late: Rate

    @property
    def damage_per_game_played(self) -> float | None:
        return self.damage / self.games_played if self.games_played else None


@dataclass(frozen=True)
class DeckResult:
    """One deck's part of a Summary."""

    wins: Rate
    when_first: Rate
    # When another deck played first (in a Duel: when it played second).
    when_second: Rate
    cards: tuple[CardStats, ...]


@dataclass(frozen=True)
class TeamResult:
    """A team of partners' part of a Summary (Team Play): they share every result."""

    decks: tuple[str, ...]  # the partners' deck letters, "A", "C"
    wins: Rate


@dataclass(frozen=True)
class Summary:
    games: int
    draws: int
    first_player: Rate
    turns: dict[int, int]
    mean_turns: float | None
    ends: dict[str, int]
    # One per deck, in deck order.
    decks: tuple[DeckResult, ...]
    # Games worth watching by kind (`NOTABLE`): (index, turns), in that kind's order.
    notable: dict[str, tuple[tuple[int, int], ...]]
    # One per team of several decks (Team Play), in the order of their first deck; else empty.
    teams: tuple[TeamResult, ...] = ()


def card_stats(name: str, row: dict[str, int], games: int, deck_wins: int) -> CardStats:
    """A card's figures from its row of a deck's Totals and that deck's games and wins."""
    played, wins, early, early_wins = row["played"], row["wins"], row["early"], row["early_wins"]
    return CardStats(
        name,
        played,
        Rate.of(wins, played),
        row["damage"],
        win_rate_when_not_played=Rate.of(deck_wins - wins, games - played),
        win_rate_when_early=Rate.of(early_wins, early),
        win_rate_when_late=Rate.of(wins - early_wins, played - early),
    )


def summarise(
    totals: Totals, deck_names: Sequence[Sequence[str]] | None = None, mode: str = "duel"
) -> Summary:
    """Rates and intervals from counts; ``deck_names`` orders each deck's card rows (cards the
    games never reached still get a row); ``mode``: the batch's, for its teams of partners."""
    games = totals.games
    results = []
    for deck in range(len(totals.wins)):
        rows = totals.cards[deck]
        named = deck_names[deck] if deck_names is not None else ()
        order = [*named, *sorted(set(rows) - set(named))]
        stats = [
            card_stats(name, rows.get(name) or _card_row(), games, totals.wins[deck])
            for name in order
        ]
        first_games, first_wins = totals.first_games[deck], totals.first_wins[deck]
        results.append(
            DeckResult(
                wins=Rate.of(totals.wins[deck], games),
                when_first=Rate.of(first_wins, first_games),
                # Every game has one first player: the deck's other games, and its other wins.
                when_second=Rate.of(totals.wins[deck] - first_wins, games - first_games),
                cards=tuple(stats),
            )
        )
    mean = sum(t * n for t, n in totals.turns.items()) / games if games else None
    return Summary(
        games=games,
        draws=totals.draws,
        first_player=Rate.of(sum(totals.first_wins), games),
        turns=dict(sorted(totals.turns.items())),
        mean_turns=mean,
        ends=dict(totals.ends),
        decks=tuple(results),
        notable={
            kind: tuple((index, turns) for index, turns in totals.notable.get(kind, []))
            for kind in NOTABLE
        },
        teams=_team_results(totals, mode),
    )


def _team_results(totals: Totals, mode: str) -> tuple[TeamResult, ...]:
    """The results of each team of partners. Decks sit in the seats of their letter in game 0
    and the rotation keeps partners together (module docstring), so a deck's team is its seat's;
    partners share every result, so the team won what its first deck won. A mode this engine
    does not know (a batch stored by another version) has no teams to show."""
    known = MODES.get(mode)
    teams: dict[int, list[int]] = {}
    for deck, seat in enumerate(known.seats if known is not None else ()):
        teams.setdefault(seat.team, []).append(deck)
    return tuple(
        TeamResult(
            tuple(PLAYER_NAMES[deck] for deck in decks),
            Rate.of(totals.wins[decks[0]], totals.games),
        )
        for decks in teams.values()
        if len(decks) > 1
    )


# Replays ------------------------------------------------------------------------------------


# An event of the engine's log as plain data (code, arguments: cards by card id, players by
# seat, lines by lane), which caches and pickles; the web app renders it in the page's language.
EventData = tuple[str, tuple[tuple[str, Arg], ...]]


@dataclass(frozen=True)
class Frame:
    """The position at the start of a turn (after Phase 1), then what happened in that turn."""

    turn: int
    active: int  # seat
    players: Observation  # every hand shown (engine.rules.observation)
    actions: tuple[Any, ...]  # readable (scenario format)
    events: tuple[EventData, ...]
    # The steps within the turn: the position after each action, and how many of the turn's
    # events had happened by then.
    steps: tuple[Observation, ...] = ()
    step_events: tuple[int, ...] = ()

    def position(self, step: int) -> Observation:
        """The seats at ``step``: 0 the start of the turn, k just after its k-th action."""
        return self.steps[step - 1] if step else self.players

    def events_of(self, step: int) -> tuple[EventData, ...]:
        """Step 0: the whole turn's events; a later step: those its own action caused."""
        if not step:
            return self.events
        begin = self.step_events[step - 2] if step > 1 else 0
        return self.events[begin : self.step_events[step - 1]]


@dataclass(frozen=True)
class ReplayedGame:
    outcome: GameOutcome
    replay: dict[str, Any]  # the engine's replay JSON
    frames: tuple[Frame, ...]  # the last one is the final position (no actions)
    seat_agents: tuple[str, ...]  # the AI of each seat
    names: tuple[str, ...]  # the engine's card names by card id (English), for the events
    rotation: int  # how far the decks had rotated (BatchSpec.rotation: Solo and Co-op never)

    @property
    def index(self) -> int:
        return self.outcome.index

    @property
    def deck_seats(self) -> tuple[str, ...]:
        """The seat each deck sat in, in deck order."""
        return tuple(
            PLAYER_NAMES[seat] for seat in deck_seats(self.rotation, len(self.outcome.returns))
        )

    @property
    def seat_decks(self) -> tuple[int, ...]:
        """The deck in each seat (0: deck A), in seat order."""
        count = len(self.outcome.returns)
        return tuple(deck_in_seat(self.rotation, seat, count) for seat in range(count))

    @property
    def first(self) -> str:
        return DECK_LETTERS[self.outcome.first]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(DECK_LETTERS[deck] for deck in self.outcome.winners)

    @property
    def agents(self) -> dict[str, str]:
        return {PLAYER_NAMES[seat]: agent for seat, agent in enumerate(self.seat_agents)}


def replay_frames(
    state: GameState, choose: Callable[[GameState], Any]
) -> tuple[tuple[Frame, ...], list[Any]]:
    """The frames of a game played from ``state`` (started with its log), each action the one
    ``choose`` gives for the position (agents choosing, or a game's stored actions in order)
    until the game ends or ``choose`` gives None: one frame per turn and the final position; and
    every action as the replay names it. Solo's AI's steps are never chosen: the engine plays
    them inside the player's END_TURN, and the frames show them one by one."""
    log = state.log
    assert log is not None
    events: list[EventData] = []
    named: list[Any] = []  # every action, as the replay names it
    # What the viewer lists: the actions, and Solo's AI's steps (engine.rules.solo) in between.
    shown: list[Any] = []
    frames: list[Frame] = []
    events.extend((event.code, event.args) for event in log)
    view, turn, active = players_view(state), state.turn, state.active
    start = mark = 0  # where the current turn's actions and events begin
    steps: list[Observation] = []
    step_events: list[int] = []

    def close_turn() -> Frame:
        return Frame(
            turn,
            active,
            view,
            tuple(shown[start:]),
            tuple(events[mark:]),
            tuple(steps),
            tuple(step_events),
        )

    def step(shown_action: Any) -> None:
        nonlocal view, turn, active, start, mark, steps, step_events
        shown.append(shown_action)
        events.extend((event.code, event.args) for event in log[len(events) :])
        steps.append(players_view(state))
        step_events.append(len(events) - mark)
        if state.turn != turn or state.outcome is not None:
            frames.append(close_turn())
            view, turn, active = steps[-1], state.turn, state.active
            start, mark = len(shown), len(events)
            steps, step_events = [], []

    while state.outcome is None and state.turn <= MAX_TURNS and len(named) < MAX_ACTIONS:
        action = choose(state)
        if action is None:
            break
        named.append(to_json(state, action))
        if action[0] == END_TURN and _automaton_next(state):
            _end_turn_before_automaton(state)
            step(named[-1])
            for shown_action in _automaton_turn(state):
                step(shown_action)
        else:
            apply(state, action)
            step(named[-1])
    if len(shown) > start:
        frames.append(close_turn())
    frames.append(Frame(state.turn, state.active, players_view(state), (), ()))
    return tuple(frames), named


def replay_game(spec: BatchSpec, index: int) -> ReplayedGame:
    """Game ``index`` played again from its seeds, with its replay and one frame per turn."""
    state = spec.start(index, log=True, stats=True)
    agents = spec.agents_for(index)
    rotation = spec.rotation(index)
    frames, named = replay_frames(
        state, lambda position: _choose(agents[position.active], position)
    )
    replay = replays.recorded(
        spec.seating(index),
        derived_seed(spec.seed, index),
        spec.options,
        named,
        state,
        spec.seat_champions(index),
    )
    count = spec.entrants
    seat_agents = tuple(spec.agents[deck_in_seat(rotation, seat, count)] for seat in range(count))
    return ReplayedGame(
        _outcome(state, index, rotation),
        replay.to_json(),
        frames,
        seat_agents,
        state.setup.names,
        rotation,
    )


def _automaton_next(state: GameState) -> bool:
    setup = state.setup
    return setup.controllers[setup.next_seat[state.active]] == AUTOMATON_CONTROLLER


def _end_turn_before_automaton(state: GameState) -> None:
    """The player's end of turn as ``apply`` plays it, except that the AI's turn that follows
    stops after its Phase 1: ``_automaton_turn`` plays the rest one step at a time."""
    try:
        if state.phase == SUMMONING:
            assault(state)
        end_turn(state, phase_2=False)
    except GameOver:
        pass


def _automaton_turn(state: GameState) -> Iterator[Any]:
    """The rest of Solo's AI's turn, as the engine's ``start_turn`` plays it at once, one step
    at a time (each yielded once done): each card revealed in Phase 2 (``{"reveal": card,
    "line": "top"|"bottom"}``), then its Phase 3 and the end of its turn."""
    if state.outcome is not None:
        return
    player = state.active
    kingdom = automaton_of(state, player)
    names = state.setup.names
    reveals = value = 0
    shown: Any = "end_turn"
    try:
        while automaton_reveals_more(state, player, reveals, value):
            shown = {"reveal": names[kingdom.pile[-1]], "line": _LINE_NAMES[reveals % 2]}
            value += automaton_reveal(state, player, reveals)
            reveals += 1
            yield shown
        shown = "assault"
        assault(state)
        yield shown
        shown = "end_turn"
        end_turn(state)
    except GameOver:
        pass  # the step that ended the game is the last one
    yield shown


# The lines as the scenario format names them: Solo's AI reveals onto the upper one first.
_LINE_NAMES: Final = ("top", "bottom")


def players_view(state: GameState) -> Observation:
    """Every seat of ``state`` as a replay shows it: every hand face up."""
    return observe(state, SPECTATOR, all_hands=True)


def histogram(turns: dict[int, int], max_bars: int = 30) -> list[tuple[int, int, int]]:
    """Games by length in at most ``max_bars`` equal ranges of turns: (first, last, games).

    Games stopped at the turn limit are left out (they are the draws, counted on their own): one
    of them would otherwise stretch the axis to 200 turns.
    """
    finished = {t: n for t, n in turns.items() if t <= MAX_TURNS}
    if not finished:
        return []
    low, high = min(finished), max(finished)
    width = max(1, math.ceil((high - low + 1) / max_bars))
    bars = []
    for start in range(low, high + 1, width):
        end = start + width - 1
        bars.append((start, end, sum(n for t, n in finished.items() if start <= t <= end)))
    return bars
