"""Simulated games of a batch: which game is which, how one is played, what it counts.

Pure Python over the rules engine (no Django), so a chunk plays the same games in a Celery worker,
in the in-process thread pool, in a benchmark or in a unit test. A batch enters N decks (deck A,
B, ... in the order asked for), one per seat of its mode's table (a Duel: 2):

- game ``index`` of a batch is fully determined by (batch seed, index): its shuffle seed and its
  agents' seeds are derived from those two numbers only, so the totals are the same whatever the
  chunking, the number of workers or the retries;
- the decks rotate one seat per game: deck A sits in seat A (who always plays first) in game 0,
  deck B in game 1, and so on (a Duel swaps seats every other game), so the first-player
  advantage is measured instead of favouring one deck; rotating keeps every deck's neighbours,
  hence the 4-player modes' teams (seats A and C, B and D);
- a game's statistics (each deck's result, length, how it ended, the cards played and the damage
  they dealt) come from the engine's outcome (``GameState.returns()``: teammates share their
  result) and its per-game statistics (``Options(stats=True)``, see ``engine.rules.stats`` for
  what counts as damage dealt), never from the event log's wording.

Totals are plain integer counts (:class:`Totals`): merging chunks is adding them up.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.rules import replay as replays
from engine.rules.actions import apply, to_json
from engine.rules.agents import AGENTS, Agent
from engine.rules.cards import CardDef
from engine.rules.champion import champion_from_json
from engine.rules.errors import InputError
from engine.rules.events import Arg
from engine.rules.kingdom import hand_of
from engine.rules.play import wilson
from engine.rules.state import PLAYER_NAMES, GameState, Options
from engine.rules.turn import new_game

# The letters of a batch's decks, in the order they were entered (a mode has at most 4 seats).
DECK_LETTERS = ("a", "b", "c", "d")
# A game still running after this many turns (or actions) is a draw, as in engine.rules.play.
MAX_TURNS = 200
MAX_ACTIONS = 5000
# How a game ended, from the loser's Stronghold (rule game-end) — or the turn limit.
FORT_DESTROYED = "fort_destroyed"
EMPTY_HAND_BASTION = "empty_hand_bastion"
EMPTY_HAND_FORT = "empty_hand_fort"
TURN_LIMIT = "turn_limit"
END_REASONS = (FORT_DESTROYED, EMPTY_HAND_BASTION, EMPTY_HAND_FORT, TURN_LIMIT)
# Independent random streams of one game: its shuffle (0), then deck N's agent (N + 1).
_GAME_STREAM = 0


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


@dataclass(frozen=True)
class BatchSpec:
    """What defines every game of a batch: the decks (with their Champions), agents, options."""

    seed: int
    decks: tuple[tuple[CardDef, ...], ...]
    # One agent name per deck.
    agents: tuple[str, ...]
    exhaustion: bool = False
    # One Champion (or None) per deck, with the Champion module on; None: module off.
    champions: tuple[CardDef | None, ...] | None = None
    mode: str = "duel"
    # The seating of each rotation, built once so the engine's set-up cache is hit.
    _seatings: tuple[list[tuple[CardDef, ...]], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        count = len(self.decks)
        if len(self.agents) != count:
            raise InputError(f"expected one agent per deck ({count}), not {len(self.agents)}")
        if self.champions is not None and len(self.champions) != count:
            raise InputError(f"expected one Champion (or none) per deck ({count})")
        seatings = tuple(
            [self.decks[deck_in_seat(index, seat, count)] for seat in range(count)]
            for index in range(count)
        )
        object.__setattr__(self, "_seatings", seatings)

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
    ) -> BatchSpec:
        """A spec from the engine card JSON a batch stores (``InputError`` if it is not valid)."""
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
        return cls(seed, played, tuple(agents), exhaustion, chosen, mode)

    @property
    def options(self) -> Options:
        champions = self.champions is not None
        return Options(
            exhaustion=self.exhaustion, first_player=0, mode=self.mode, champions=champions
        )

    def seating(self, index: int) -> list[tuple[CardDef, ...]]:
        return self._seatings[index % len(self.decks)]

    def seat_champions(self, index: int) -> list[CardDef | None] | None:
        if self.champions is None:
            return None
        count = len(self.decks)
        return [self.champions[deck_in_seat(index, seat, count)] for seat in range(count)]

    def agents_for(self, index: int) -> list[Agent]:
        """The agents of game ``index`` by seat; each deck keeps its agent and random stream."""
        count = len(self.decks)
        agents = []
        for seat in range(count):
            deck = deck_in_seat(index, seat, count)
            seed = derived_seed(self.seed, index, _agent_stream(deck))
            agents.append(AGENTS[self.agents[deck]](seed))
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
    # names of the cards played in this game.
    damage: tuple[dict[str, int], ...]
    played: tuple[frozenset[str], ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The decks that won (none: a draw)."""
        return tuple(deck for deck, result in enumerate(self.returns) if result > 0)


def play_game(spec: BatchSpec, index: int) -> GameOutcome:
    """Play game ``index`` of the batch from scratch."""
    state = spec.start(index, stats=True)
    agents = spec.agents_for(index)
    count = 0
    while state.outcome is None and state.turn <= MAX_TURNS and count < MAX_ACTIONS:
        apply(state, agents[state.active].choose(state))
        count += 1
    return _outcome(state, index)


def _outcome(state: GameState, index: int) -> GameOutcome:
    setup = state.setup
    stats = state.stats
    assert stats is not None
    count = len(state.players)
    returns = [0] * count
    for seat, result in enumerate(state.returns()):
        returns[deck_in_seat(index, seat, count)] = result
    damage: list[dict[str, int]] = [{} for _ in range(count)]
    played: list[set[str]] = [set() for _ in range(count)]
    for card, name in enumerate(setup.names):
        deck = deck_in_seat(index, setup.origin[card], count)
        damage[deck][name] = stats.damage(card)
        if stats.played[card]:
            played[deck].add(name)
    return GameOutcome(
        index=index,
        returns=tuple(returns),
        first=deck_in_seat(index, state.first_player, count),
        turns=state.turn,
        end=_end_reason(state),
        damage=tuple(damage),
        played=tuple(frozenset(names) for names in played),
    )


def _end_reason(state: GameState) -> str:
    outcome = state.outcome
    if outcome is None:
        return TURN_LIMIT
    if outcome.reason == "lost_fort":
        return FORT_DESTROYED
    # The other loss of a hand player (Solo's emptied deck pile comes with its mode, issue 15).
    assert outcome.reason == "lost_empty_hand", outcome.reason
    return EMPTY_HAND_FORT if state.players[outcome.loser].fort else EMPTY_HAND_BASTION


# Totals -------------------------------------------------------------------------------------


def _card_row() -> dict[str, int]:
    return {"played": 0, "wins": 0, "damage": 0}


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
    # Per deck, per card name: games where it was played, wins of its deck in those, damage.
    cards: list[dict[str, dict[str, int]]]

    @classmethod
    def empty(cls, decks: int) -> Totals:
        """No game yet, for a batch of ``decks`` decks."""
        return cls(
            games=0,
            wins=[0] * decks,
            draws=0,
            first_games=[0] * decks,
            first_wins=[0] * decks,
            turns={},
            ends=dict.fromkeys(END_REASONS, 0),
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
            cards=[{name: dict(row) for name, row in rows.items()} for rows in data["cards"]],
        )


def play_games(spec: BatchSpec, first: int, count: int) -> Totals:
    """The totals of games ``first`` … ``first + count - 1``."""
    totals = Totals.empty(len(spec.decks))
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
class Summary:
    games: int
    draws: int
    first_player: Rate
    turns: dict[int, int]
    mean_turns: float | None
    ends: dict[str, int]
    # One per deck, in deck order.
    decks: tuple[DeckResult, ...]


def summarise(totals: Totals, deck_names: Sequence[Sequence[str]] | None = None) -> Summary:
    """Rates and intervals from counts; ``deck_names`` orders each deck's card rows (cards the
    games never reached still get a row)."""
    games = totals.games
    results = []
    for deck in range(len(totals.wins)):
        rows = totals.cards[deck]
        named = deck_names[deck] if deck_names is not None else ()
        order = [*named, *sorted(set(rows) - set(named))]
        stats = []
        for name in order:
            row = rows.get(name) or _card_row()
            stats.append(
                CardStats(name, row["played"], Rate.of(row["wins"], row["played"]), row["damage"])
            )
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
    )


# Replays ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CreatureView:
    name: str
    attack: int
    hp: int
    damage: int
    symbiote: str | None
    new: bool


@dataclass(frozen=True)
class PlayerView:
    seat: str  # "A", "B"...
    deck: int  # the batch's deck in this seat (0: deck A)
    # The hand left to right, the Stronghold at ``stronghold_at`` (cards to its left).
    hand: tuple[str, ...]
    stronghold_at: int
    fort: bool
    hp: int
    mana: int
    lines: tuple[tuple[CreatureView, ...], ...]  # top, bottom; from the Bridge outward
    # The Champion waiting outside the Kingdoms (Champion module), and whether it is ready.
    champion: str | None
    champion_ready: bool


# An event of the engine's log as plain data (code, arguments: cards by card id, players by
# seat, lines by lane), which caches and pickles; the web app renders it in the page's language.
EventData = tuple[str, tuple[tuple[str, Arg], ...]]


@dataclass(frozen=True)
class Frame:
    """The position at the start of a turn (after Phase 1), then what happened in that turn."""

    turn: int
    active: int  # seat
    players: tuple[PlayerView, ...]
    actions: tuple[Any, ...]  # readable (scenario format)
    events: tuple[EventData, ...]


@dataclass(frozen=True)
class ReplayedGame:
    outcome: GameOutcome
    replay: dict[str, Any]  # the engine's replay JSON
    frames: tuple[Frame, ...]  # the last one is the final position (no actions)
    seat_agents: tuple[str, ...]  # the AI of each seat
    names: tuple[str, ...]  # the engine's card names by card id (English), for the events

    @property
    def index(self) -> int:
        return self.outcome.index

    @property
    def deck_seats(self) -> tuple[str, ...]:
        """The seat each deck sat in, in deck order."""
        return tuple(
            PLAYER_NAMES[seat] for seat in deck_seats(self.index, len(self.outcome.returns))
        )

    @property
    def first(self) -> str:
        return DECK_LETTERS[self.outcome.first]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(DECK_LETTERS[deck] for deck in self.outcome.winners)

    @property
    def agents(self) -> dict[str, str]:
        return {PLAYER_NAMES[seat]: agent for seat, agent in enumerate(self.seat_agents)}


def replay_game(spec: BatchSpec, index: int) -> ReplayedGame:
    """Game ``index`` played again from its seeds, with its replay and one frame per turn."""
    state = spec.start(index, log=True, stats=True)
    log = state.log
    assert log is not None
    events: list[EventData] = []
    agents = spec.agents_for(index)
    named: list[Any] = []  # every action, as the replay names it
    frames: list[Frame] = []
    events.extend((event.code, event.args) for event in log)
    view, turn, active = _players_view(state, index), state.turn, state.active
    start = mark = 0  # where the current turn's actions and events begin
    while state.outcome is None and state.turn <= MAX_TURNS and len(named) < MAX_ACTIONS:
        action = agents[state.active].choose(state)
        named.append(to_json(state, action))
        apply(state, action)
        events.extend((event.code, event.args) for event in log[len(events) :])
        if state.turn != turn or state.outcome is not None:
            frames.append(Frame(turn, active, view, tuple(named[start:]), tuple(events[mark:])))
            view, turn, active = _players_view(state, index), state.turn, state.active
            start, mark = len(named), len(events)
    if len(named) > start:
        frames.append(Frame(turn, active, view, tuple(named[start:]), tuple(events[mark:])))
    frames.append(Frame(state.turn, state.active, _players_view(state, index), (), ()))
    replay = replays.recorded(
        spec.seating(index),
        derived_seed(spec.seed, index),
        spec.options,
        named,
        state,
        spec.seat_champions(index),
    )
    count = len(spec.decks)
    seat_agents = tuple(spec.agents[deck_in_seat(index, seat, count)] for seat in range(count))
    return ReplayedGame(
        _outcome(state, index), replay.to_json(), tuple(frames), seat_agents, state.setup.names
    )


def _players_view(state: GameState, index: int) -> tuple[PlayerView, ...]:
    names = state.setup.names
    count = len(state.players)
    views = []
    for seat in range(count):
        pl = hand_of(state, seat)
        lines = tuple(
            tuple(
                CreatureView(
                    names[c.card],
                    c.attack,
                    c.hp,
                    c.damage,
                    names[c.symbiote] if c.symbiote >= 0 else None,
                    c.new,
                )
                for c in line
            )
            for line in pl.lines
        )
        views.append(
            PlayerView(
                seat=PLAYER_NAMES[seat],
                deck=deck_in_seat(index, seat, count),
                hand=tuple(names[card] for card in pl.hand),
                stronghold_at=pl.sh,
                fort=pl.fort,
                hp=pl.hit_points(),
                mana=pl.mana,
                lines=lines,
                champion=names[pl.champion] if pl.champion >= 0 else None,
                champion_ready=pl.champion >= 0 and not pl.champion_exhausted,
            )
        )
    return tuple(views)


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
