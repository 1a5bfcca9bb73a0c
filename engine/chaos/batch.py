"""A batch of seeded games between two computer players on one box, and its totals.

Game ``i`` of a batch of seed ``s`` is ``play_game(box, s * 1_000_003 + i, …)`` with the seats
taking turns at being dealt the Emissaries ① (so neither always plays first): any game can be
played again alone from the batch's seed and its index (``game_options``, ``game_seed``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from engine.chaos.agents import AGENTS, play_game
from engine.chaos.cards import Box
from engine.chaos.errors import InputError
from engine.chaos.modes import MODES
from engine.chaos.state import Options

SEED_STRIDE: Final = 1_000_003


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

    def add(self, other: BatchTotals) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.unfinished += other.unfinished
        self.first_player_wins += other.first_player_wins
        self.turns.update(other.turns)

    def mean_turns(self) -> float:
        return sum(t * n for t, n in self.turns.items()) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": list(self.wins),
            "unfinished": self.unfinished,
            "first_player_wins": self.first_player_wins,
            "turns": {str(turns): count for turns, count in sorted(self.turns.items())},
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
        )


def play_batch(
    box: Box,
    agents: Sequence[str],
    games: int,
    seed: int,
    mode: str = "duel",
    first: int = 0,
) -> BatchTotals:
    """Games ``first`` to ``first + games - 1`` of the batch (each agent by its name)."""
    for name in agents:
        if name not in AGENTS:
            raise InputError(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
    totals = BatchTotals()
    for index in range(first, first + games):
        number = game_seed(seed, index)
        players = [AGENTS[name](number * 2 + i) for i, name in enumerate(agents)]
        options = game_options(mode, index)
        result = play_game(box, number, players, options)
        totals.games += 1
        totals.turns[result.turns] += 1
        if result.winner is None:
            totals.unfinished += 1
        else:
            totals.wins[result.winner] += 1
            totals.first_player_wins += result.winner == options.first_player
    return totals
