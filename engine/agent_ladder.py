"""How strong each computer player is and what its games cost, as the strength ladder measured.

The figures are data, not code: ``engine/agent_ladder.json`` is the file the ladder writes,

    python -m engine.rules.ladder --agents random,greedy,lookahead,strong --games 4 \\
        --json engine/agent_ladder.json

(each agent's Elo with its 95% interval, and its time per decision and per game on the machine
that ran it; run it again on the compiled engine after changing an agent). Pure Python, no
Django: the services choose a batch's agent with it, the selectors show an agent's standing.

A game's cost, in CPU time: the rules' own time (the same whoever plays) plus each seat's agent's
choices (the ladder's per-game time is one side's).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

LADDER_FILE = Path(__file__).with_name("agent_ladder.json")


@dataclass(frozen=True)
class AgentStanding:
    name: str
    rank: int  # 1: the strongest of the ladder
    elo: float
    elo_low: float
    elo_high: float
    ms_per_game: float  # the time one side's choices take in a game


@dataclass(frozen=True)
class Ladder:
    seed: int
    games_per_deck_pair: int
    rules_ms_per_game: float
    # Strongest first.
    agents: tuple[AgentStanding, ...]

    def of(self, name: str) -> AgentStanding | None:
        return next((agent for agent in self.agents if agent.name == name), None)

    def batch_seconds(self, agent: AgentStanding, games: int, seats: int = 2) -> float:
        """CPU seconds of ``games`` games where ``agent`` plays all ``seats`` seats."""
        return games * (self.rules_ms_per_game + seats * agent.ms_per_game) / 1000

    def strongest_within(self, names: Iterable[str], games: int, seconds: float) -> str:
        """The strongest of ``names`` whose ``games`` games take at most ``seconds`` of CPU; the
        cheapest of them if none does."""
        known = [agent for agent in self.agents if agent.name in set(names)]
        if not known:
            raise ValueError("the ladder rates none of these agents")
        for agent in known:
            if self.batch_seconds(agent, games) <= seconds:
                return agent.name
        return min(known, key=lambda agent: agent.ms_per_game).name


def ladder_from_json(data: dict[str, object]) -> Ladder:
    """A Ladder from the JSON the ladder command writes (its agents come strongest first)."""
    rows = data["agents"]
    assert isinstance(rows, list)
    seed, games, rules = data["seed"], data["games_per_deck_pair"], data["rules_ms_per_game"]
    assert isinstance(seed, int) and isinstance(games, int) and isinstance(rules, float)
    return Ladder(
        seed=seed,
        games_per_deck_pair=games,
        rules_ms_per_game=rules,
        agents=tuple(
            AgentStanding(
                name=row["name"],
                rank=rank,
                elo=row["elo"],
                elo_low=row["elo_low"],
                elo_high=row["elo_high"],
                ms_per_game=row["ms_per_game"],
            )
            for rank, row in enumerate(rows, 1)
        ),
    )


@functools.cache
def current_ladder() -> Ladder:
    """The ladder of ``LADDER_FILE``, read once per process."""
    return ladder_from_json(json.loads(LADDER_FILE.read_text(encoding="utf-8")))
