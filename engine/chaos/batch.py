"""A batch of seeded games between two computer players on one box, and its totals.

Game ``i`` of a batch of seed ``s`` is played from the seed ``s * 1_000_003 + i`` with the seats
taking turns at being dealt the Emissaries ① (so neither always plays first): any game can be
played again alone from the batch's seed and its index (``batch_game``), which is how a batch's
games are replayed without being stored. The totals keep a few games worth watching by index.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.chaos.actions import Action, apply
from engine.chaos.agents import AGENTS
from engine.chaos.cards import Box
from engine.chaos.errors import InputError
from engine.chaos.modes import MODES
from engine.chaos.state import OVER, ChaosState, Options
from engine.chaos.turn import new_game

SEED_STRIDE: Final = 1_000_003

# Games worth watching, each kind in its order: [index, turns, winner (-1: none)].
NOTABLE: Final[dict[str, Callable[[list[int]], tuple[int, ...]]]] = {
    "shortest": lambda game: (game[1], game[0]),
    "longest": lambda game: (-game[1], game[0]),
    "unfinished": lambda game: (game[0],),
}
NOTABLE_PER_KIND: Final = 5


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seed(seed: int, index: int) -> int:
    return seed * SEED_STRIDE + index


def game_options(mode: str, index: int) -> Options:
    return Options(mode=mode, first_player=index % MODES[mode].seats)


@dataclass
class BatchTotals:
    """What a batch's games add up to, by seat (A, B)."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    # Games that reached the site's turn limit (rule site-turn-limit).
    unfinished: int = 0
    first_player_wins: int = 0
    turns: Counter[int] = field(default_factory=Counter)
    # A few games worth watching by kind of NOTABLE, each [index, turns, winner (-1: none)].
    notable: dict[str, list[list[int]]] = field(default_factory=dict)

    def add(self, other: BatchTotals) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.unfinished += other.unfinished
        self.first_player_wins += other.first_player_wins
        self.turns.update(other.turns)
        for kind, games in other.notable.items():
            self._keep(kind, games)

    def count(self, game: BatchGame) -> None:
        """One more game of the batch."""
        self.games += 1
        self.turns[game.turns] += 1
        winner = -1 if game.winner is None else game.winner
        if game.winner is None:
            self.unfinished += 1
        else:
            self.wins[game.winner] += 1
            self.first_player_wins += game.winner == game.options.first_player
        for kind in NOTABLE:
            if kind != "unfinished" or game.winner is None:
                self._keep(kind, [[game.index, game.turns, winner]])

    def _keep(self, kind: str, games: list[list[int]]) -> None:
        """The NOTABLE_PER_KIND first games of ``kind`` in its order, whatever order the games
        came in."""
        kept = sorted([*self.notable.get(kind, []), *games], key=NOTABLE[kind])
        self.notable[kind] = kept[:NOTABLE_PER_KIND]

    def mean_turns(self) -> float:
        return sum(t * n for t, n in self.turns.items()) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": list(self.wins),
            "unfinished": self.unfinished,
            "first_player_wins": self.first_player_wins,
            "turns": {str(turns): count for turns, count in sorted(self.turns.items())},
            "notable": {kind: self.notable[kind] for kind in NOTABLE if kind in self.notable},
        }

    @classmethod
    def from_json(cls, data: Any) -> BatchTotals:
        if not isinstance(data, dict):
            raise InputError("totals: expected a mapping")
        return cls(
            games=int(data["games"]),
            wins=[int(w) for w in data["wins"]],
            unfinished=int(data["unfinished"]),
            first_player_wins=int(data["first_player_wins"]),
            turns=Counter({int(t): int(n) for t, n in data["turns"].items()}),
            # In NOTABLE's order (a jsonb column keeps none); batches played before notable games
            # were kept have none.
            notable={
                kind: [[int(number) for number in game] for game in data["notable"][kind]]
                for kind in NOTABLE
                if kind in data.get("notable", {})
            },
        )


@dataclass
class BatchGame:
    """Game ``index`` of a batch, played again: its options, actions and end."""

    index: int
    seed: int
    options: Options
    actions: list[Action]
    state: ChaosState

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @property
    def turns(self) -> int:
        return self.state.turn


def _check_agents(agents: Sequence[str]) -> None:
    for name in agents:
        if name not in AGENTS:
            raise InputError(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")


def batch_game(
    box: Box, agents: Sequence[str], seed: int, index: int, mode: str = "duel"
) -> BatchGame:
    """Game ``index`` of the batch of ``seed`` (each agent by its name), with its actions."""
    _check_agents(agents)
    number = game_seed(seed, index)
    players = [AGENTS[name](number * 2 + i) for i, name in enumerate(agents)]
    options = game_options(mode, index)
    state = new_game(box, number, options)
    actions: list[Action] = []
    while state.phase != OVER:
        action = players[state.to_move].choose(state)
        apply(state, action)
        actions.append(action)
    return BatchGame(index, number, options, actions, state)


def play_batch(
    box: Box,
    agents: Sequence[str],
    games: int,
    seed: int,
    mode: str = "duel",
    first: int = 0,
) -> BatchTotals:
    """Games ``first`` to ``first + games - 1`` of the batch (each agent by its name)."""
    _check_agents(agents)
    totals = BatchTotals()
    for index in range(first, first + games):
        totals.count(batch_game(box, agents, seed, index, mode))
    return totals
