"""What the games of a batch count: each game's outcome, the batch's totals, their statistics.

A game's statistics (each deck's result, length, how it ended, the cards played, how early,
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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.batches.seeding import (
    DECK_PILE_EMPTIED,
    EMPTY_HAND_BASTION,
    EMPTY_HAND_FORT,
    END_REASONS,
    FORT_DESTROYED,
    TURN_LIMIT,
    deck_in_seat,
)
from engine.rules import MODES, PLAYER_NAMES, GameState
from engine.rules import TURN_LIMIT as TURN_LIMIT_TURNS
from engine.rules.play import wilson

# A card first played in one of its player's first EARLY_TURNS turns was played early: the turns
# a Duel's opening takes (the first player's 6 Mana, then the build-up before the Assaults bite).
EARLY_TURNS = 3


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


def game_outcome(state: GameState, index: int, rotation: int) -> GameOutcome:
    """Game ``index`` of a batch as it ended in ``state`` (played with its statistics), by deck
    (``rotation``: BatchSpec.rotation)."""
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


def histogram(turns: dict[int, int], max_bars: int = 30) -> list[tuple[int, int, int]]:
    """Games by length in at most ``max_bars`` equal ranges of turns: (first, last, games).

    Games stopped at the turn limit are left out (they are the draws, counted on their own): one
    of them would otherwise stretch the axis to 200 turns.
    """
    finished = {t: n for t, n in turns.items() if t <= TURN_LIMIT_TURNS}
    if not finished:
        return []
    low, high = min(finished), max(finished)
    width = max(1, math.ceil((high - low + 1) / max_bars))
    bars = []
    for start in range(low, high + 1, width):
        end = start + width - 1
        bars.append((start, end, sum(n for t, n in finished.items() if start <= t <= end)))
    return bars
