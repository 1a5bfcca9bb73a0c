"""Simulated games of a batch: which game is which, how one is played, what it counts.

Pure Python over the rules engine (no Django), so a chunk plays the same games in a Celery worker,
in the in-process thread pool, in a benchmark or in a unit test:

- game ``index`` of a batch is fully determined by (batch seed, index): its shuffle seed and its
  agents' seeds are derived from those two numbers only, so the totals are the same whatever the
  chunking, the number of workers or the retries;
- seats swap every other game: deck A sits in seat A (who always plays first) in even games and in
  seat B in odd games, so the first-player advantage is measured instead of favouring one deck;
- a game's statistics (winner, length, how it ended, the cards played and the damage they dealt)
  come from the position and the engine's per-game statistics (``Options(stats=True)``, see
  ``engine.rules.stats`` for what counts as damage dealt), never from the event log's wording.

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
from engine.rules.events import render
from engine.rules.kingdom import hand_of
from engine.rules.play import wilson
from engine.rules.state import PLAYER_NAMES, GameState, Options
from engine.rules.turn import new_game

DECKS = ("a", "b")
# A game still running after this many turns (or actions) is a draw, as in engine.rules.play.
MAX_TURNS = 200
MAX_ACTIONS = 5000
# How a game ended, from the loser's Stronghold (rule game-end) — or the turn limit.
FORT_DESTROYED = "fort_destroyed"
EMPTY_HAND_BASTION = "empty_hand_bastion"
EMPTY_HAND_FORT = "empty_hand_fort"
TURN_LIMIT = "turn_limit"
END_REASONS = (FORT_DESTROYED, EMPTY_HAND_BASTION, EMPTY_HAND_FORT, TURN_LIMIT)
# Independent random streams of one game: its shuffle, then each deck's agent.
_GAME_STREAM, _AGENT_STREAMS = 0, (1, 2)


def derived_seed(batch_seed: int, index: int, stream: int = _GAME_STREAM) -> int:
    """A 63-bit seed for game ``index`` of a batch (``stream``: the game, or one deck's agent).

    A hash rather than ``batch_seed + index``: neighbouring batches must not share games.
    """
    digest = hashlib.blake2b(
        f"{batch_seed}:{index}:{stream}".encode(), digest_size=8, person=b"cod-sim"
    ).digest()
    return int.from_bytes(digest, "big") >> 1


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


def deck_in_seat(index: int, seat: int) -> int:
    """Which deck (0: A, 1: B) sits in ``seat`` in game ``index``; seat 0 plays first."""
    return seat if index % 2 == 0 else 1 - seat


@dataclass(frozen=True)
class BatchSpec:
    """What defines every game of a batch: the decks (with their Champions), agents, options."""

    seed: int
    decks: tuple[tuple[CardDef, ...], tuple[CardDef, ...]]
    agents: tuple[str, str]
    exhaustion: bool = False
    # One Champion (or None) per deck, with the Champion module on; None: module off.
    champions: tuple[CardDef | None, CardDef | None] | None = None
    # The seatings of even and odd games, built once so the engine's set-up cache is hit.
    _seatings: tuple[list[tuple[CardDef, ...]], list[tuple[CardDef, ...]]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        a, b = self.decks
        object.__setattr__(self, "_seatings", ([a, b], [b, a]))

    @classmethod
    def from_json(
        cls,
        *,
        seed: int,
        decks: Sequence[Sequence[dict[str, Any]]],
        agents: Sequence[str],
        exhaustion: bool = False,
        champions: Sequence[dict[str, Any] | None] | None = None,
    ) -> BatchSpec:
        """A spec from the engine card JSON a batch stores (``InputError`` if it is not valid)."""
        deck_a, deck_b = (
            tuple(
                CardDef.from_json(card, f"deck {DECKS[d].upper()} card {i}")
                for i, card in enumerate(deck)
            )
            for d, deck in enumerate(decks)
        )
        chosen = None
        if champions is not None:
            champion_a, champion_b = (
                None if one is None else champion_from_json(one, f"champion {DECKS[d].upper()}")
                for d, one in enumerate(champions)
            )
            chosen = (champion_a, champion_b)
        return cls(seed, (deck_a, deck_b), (agents[0], agents[1]), exhaustion, chosen)

    @property
    def options(self) -> Options:
        champions = self.champions is not None
        return Options(exhaustion=self.exhaustion, first_player=0, champions=champions)

    def seating(self, index: int) -> list[tuple[CardDef, ...]]:
        return self._seatings[index % 2]

    def seat_champions(self, index: int) -> list[CardDef | None] | None:
        if self.champions is None:
            return None
        return [self.champions[deck_in_seat(index, seat)] for seat in (0, 1)]

    def agents_for(self, index: int) -> list[Agent]:
        """The agents of game ``index`` by seat; each deck keeps its agent and random stream."""
        agents = []
        for seat in (0, 1):
            deck = deck_in_seat(index, seat)
            seed = derived_seed(self.seed, index, _AGENT_STREAMS[deck])
            agents.append(AGENTS[self.agents[deck]](seed))
        return agents

    def start(self, index: int, log: bool = False, stats: bool = False) -> GameState:
        """Game ``index`` set up, waiting in the first player's Phase 2 (``log``: with the
        set-up's event log lines; ``stats``: collecting the per-game statistics)."""
        options = replace(self.options, log=log, stats=stats) if log or stats else self.options
        return new_game(
            self.seating(index), derived_seed(self.seed, index), options, self.seat_champions(index)
        )


@dataclass(frozen=True)
class GameOutcome:
    index: int
    winner: int  # the winning deck, 0 (A) or 1 (B); -1: a draw at the turn limit
    first: int  # the deck that played first
    turns: int
    end: str  # one of END_REASONS
    # Per deck: {card name: damage dealt} for every card of the deck (Champion included), and the
    # names of the cards played in this game.
    damage: tuple[dict[str, int], dict[str, int]]
    played: tuple[frozenset[str], frozenset[str]]


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
    winner = -1 if state.outcome is None else deck_in_seat(index, state.outcome.winners()[0])
    damage: tuple[dict[str, int], dict[str, int]] = ({}, {})
    played: tuple[set[str], set[str]] = (set(), set())
    for card, name in enumerate(setup.names):
        deck = deck_in_seat(index, setup.origin[card])
        damage[deck][name] = stats.damage(card)
        if stats.played[card]:
            played[deck].add(name)
    return GameOutcome(
        index=index,
        winner=winner,
        first=deck_in_seat(index, state.first_player),
        turns=state.turn,
        end=_end_reason(state),
        damage=damage,
        played=(frozenset(played[0]), frozenset(played[1])),
    )


def _end_reason(state: GameState) -> str:
    if state.outcome is None:
        return TURN_LIMIT
    loser = hand_of(state, state.outcome.loser)
    if loser.hand:
        return FORT_DESTROYED
    return EMPTY_HAND_FORT if loser.fort else EMPTY_HAND_BASTION


# Totals -------------------------------------------------------------------------------------


def _card_row() -> dict[str, int]:
    return {"played": 0, "wins": 0, "damage": 0}


@dataclass
class Totals:
    """Counts over some games of a batch; adding two Totals is merging their games."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    # Games each deck played first, and won when it did.
    first_games: list[int] = field(default_factory=lambda: [0, 0])
    first_wins: list[int] = field(default_factory=lambda: [0, 0])
    turns: dict[int, int] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=lambda: dict.fromkeys(END_REASONS, 0))
    # Per deck, per card name: games where it was played, wins of its deck in those, damage.
    cards: list[dict[str, dict[str, int]]] = field(default_factory=lambda: [{}, {}])

    def add(self, game: GameOutcome) -> None:
        self.games += 1
        if game.winner < 0:
            self.draws += 1
        else:
            self.wins[game.winner] += 1
        self.first_games[game.first] += 1
        if game.winner == game.first:
            self.first_wins[game.first] += 1
        self.turns[game.turns] = self.turns.get(game.turns, 0) + 1
        self.ends[game.end] += 1
        for deck in (0, 1):
            rows = self.cards[deck]
            for name, amount in game.damage[deck].items():
                row = rows.get(name)
                if row is None:
                    row = rows[name] = _card_row()
                row["damage"] += amount
                if name in game.played[deck]:
                    row["played"] += 1
                    if game.winner == deck:
                        row["wins"] += 1

    def merge(self, other: Totals) -> None:
        self.games += other.games
        self.draws += other.draws
        for deck in (0, 1):
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
    totals = Totals()
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
    when_second: Rate
    cards: tuple[CardStats, ...]


@dataclass(frozen=True)
class Summary:
    games: int
    wins: tuple[Rate, Rate]
    draws: int
    first_player: Rate
    # Per deck: its win rate when it played first, and when it played second.
    when_first: tuple[Rate, Rate]
    when_second: tuple[Rate, Rate]
    turns: dict[int, int]
    mean_turns: float | None
    ends: dict[str, int]
    cards: tuple[tuple[CardStats, ...], tuple[CardStats, ...]]

    def deck(self, deck: int) -> DeckResult:
        """Deck A's (0) or deck B's (1) results."""
        return DeckResult(
            self.wins[deck], self.when_first[deck], self.when_second[deck], self.cards[deck]
        )


def summarise(totals: Totals, deck_names: Sequence[Sequence[str]] = ((), ())) -> Summary:
    """Rates and intervals from counts; ``deck_names`` orders each deck's card rows (cards the
    games never reached still get a row)."""
    games = totals.games
    cards = []
    for deck in (0, 1):
        rows = totals.cards[deck]
        order = [*deck_names[deck], *sorted(set(rows) - set(deck_names[deck]))]
        stats = []
        for name in order:
            row = rows.get(name) or _card_row()
            stats.append(
                CardStats(name, row["played"], Rate.of(row["wins"], row["played"]), row["damage"])
            )
        cards.append(tuple(stats))
    second_games = [totals.first_games[1], totals.first_games[0]]
    # A deck's wins when second: its wins minus those when first.
    second_wins = [totals.wins[d] - totals.first_wins[d] for d in (0, 1)]
    mean = sum(t * n for t, n in totals.turns.items()) / games if games else None
    return Summary(
        games=games,
        wins=(Rate.of(totals.wins[0], games), Rate.of(totals.wins[1], games)),
        draws=totals.draws,
        first_player=Rate.of(sum(totals.first_wins), games),
        when_first=(
            Rate.of(totals.first_wins[0], totals.first_games[0]),
            Rate.of(totals.first_wins[1], totals.first_games[1]),
        ),
        when_second=(
            Rate.of(second_wins[0], second_games[0]),
            Rate.of(second_wins[1], second_games[1]),
        ),
        turns=dict(sorted(totals.turns.items())),
        mean_turns=mean,
        ends=dict(totals.ends),
        cards=(cards[0], cards[1]),
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
    seat: str  # "A" or "B"
    deck: int  # 0: deck A of the batch, 1: deck B
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


@dataclass(frozen=True)
class Frame:
    """The position at the start of a turn (after Phase 1), then what happened in that turn."""

    turn: int
    active: int  # seat
    players: tuple[PlayerView, PlayerView]
    actions: tuple[Any, ...]  # readable (scenario format)
    events: tuple[str, ...]  # the engine's event log, English


@dataclass(frozen=True)
class ReplayedGame:
    outcome: GameOutcome
    replay: dict[str, Any]  # the engine's replay JSON
    frames: tuple[Frame, ...]  # the last one is the final position (no actions)
    seat_agents: tuple[str, str]  # the AI of each seat

    @property
    def index(self) -> int:
        return self.outcome.index

    @property
    def deck_a_seat(self) -> str:
        return PLAYER_NAMES[deck_in_seat(self.index, 0)]

    @property
    def first(self) -> str:
        return DECKS[self.outcome.first]

    @property
    def winner(self) -> str | None:
        return DECKS[self.outcome.winner] if self.outcome.winner >= 0 else None

    @property
    def agents(self) -> dict[str, str]:
        return {PLAYER_NAMES[seat]: agent for seat, agent in enumerate(self.seat_agents)}


def replay_game(spec: BatchSpec, index: int) -> ReplayedGame:
    """Game ``index`` played again from its seeds, with its replay and one frame per turn."""
    state = spec.start(index, log=True, stats=True)
    events = state.log
    assert events is not None
    names = state.setup.names
    # The frames show the event log in English (the engine's rendering); rendering the codes
    # with gettext in the page's language is the Django side's follow-up.
    lines: list[str] = []
    agents = spec.agents_for(index)
    named: list[Any] = []  # every action, as the replay names it
    frames: list[Frame] = []
    lines.extend(render(event, names) for event in events)
    view, turn, active = _players_view(state, index), state.turn, state.active
    start = mark = 0  # where the current turn's actions and log lines begin
    while state.outcome is None and state.turn <= MAX_TURNS and len(named) < MAX_ACTIONS:
        action = agents[state.active].choose(state)
        named.append(to_json(state, action))
        apply(state, action)
        lines.extend(render(event, names) for event in events[len(lines) :])
        if state.turn != turn or state.outcome is not None:
            frames.append(Frame(turn, active, view, tuple(named[start:]), tuple(lines[mark:])))
            view, turn, active = _players_view(state, index), state.turn, state.active
            start, mark = len(named), len(lines)
    if len(named) > start:
        frames.append(Frame(turn, active, view, tuple(named[start:]), tuple(lines[mark:])))
    frames.append(Frame(state.turn, state.active, _players_view(state, index), (), ()))
    replay = replays.recorded(
        spec.seating(index),
        derived_seed(spec.seed, index),
        spec.options,
        named,
        state,
        spec.seat_champions(index),
    )
    seat_agents = (spec.agents[deck_in_seat(index, 0)], spec.agents[deck_in_seat(index, 1)])
    return ReplayedGame(_outcome(state, index), replay.to_json(), tuple(frames), seat_agents)


def _players_view(state: GameState, index: int) -> tuple[PlayerView, PlayerView]:
    names = state.setup.names
    views = []
    for seat in range(len(state.players)):
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
                deck=deck_in_seat(index, seat),
                hand=tuple(names[card] for card in pl.hand),
                stronghold_at=pl.sh,
                fort=pl.fort,
                hp=len(pl.hand) - pl.sh,
                mana=pl.mana,
                lines=lines,
                champion=names[pl.champion] if pl.champion >= 0 else None,
                champion_ready=pl.champion >= 0 and not pl.champion_exhausted,
            )
        )
    return views[0], views[1]


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
