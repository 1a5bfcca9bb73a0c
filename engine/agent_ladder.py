"""How strong each computer player is in each game mode and what its games cost, as the strength
ladders measured.

The figures are data, not code: ``engine/agent_ladder.json`` is the file the ladders write, one
ladder per mode (Duel, Solo and Co-op against the automaton's levels, Free-For-All, Team Play),

    python manage.py agent_ladder

(each agent's Elo with its 95% interval, and its time per decision and per game on the machine
that ran it; run it again on the compiled engine after changing an agent or the rules). Pure
Python, no Django: the services choose a batch's agent with it, the selectors show an agent's
standing.

A game's cost, in CPU time: the rules' own time (the same whoever plays, the automata's turns
included) plus each agent seat's choices (the ladder's per-game time is one seat's).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

LADDER_FILE = Path(__file__).with_name("agent_ladder.json")
DUEL = "duel"


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
    mode: str = "duel"
    # The seats agents play in a game of the mode (Solo: 1, Co-op: 2, the automata aside).
    seats: int = 2
    # Solo and Co-op: the automaton's levels the agents were rated against, strongest first.
    opponents: tuple[AgentStanding, ...] = ()

    def of(self, name: str) -> AgentStanding | None:
        return next((agent for agent in self.agents if agent.name == name), None)

    def batch_seconds(self, agent: AgentStanding, games: int, seats: int | None = None) -> float:
        """CPU seconds of ``games`` games where ``agent`` plays all ``seats`` seats (default:
        every agent seat of the mode)."""
        played = self.seats if seats is None else seats
        return games * (self.rules_ms_per_game + played * agent.ms_per_game) / 1000

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


def _standings(rows: object) -> tuple[AgentStanding, ...]:
    assert isinstance(rows, list)
    return tuple(
        AgentStanding(
            name=row["name"],
            rank=rank,
            elo=row["elo"],
            elo_low=row["elo_low"],
            elo_high=row["elo_high"],
            ms_per_game=row.get("ms_per_game", 0.0),
        )
        for rank, row in enumerate(rows, 1)
    )


def ladder_from_json(data: dict[str, object]) -> Ladder:
    """A Ladder from one mode's entry of the JSON the ladder command writes (its agents come
    strongest first)."""
    seed, games, rules = data["seed"], data["games_per_deck_pair"], data["rules_ms_per_game"]
    assert isinstance(seed, int) and isinstance(games, int) and isinstance(rules, float)
    mode, seats = data.get("mode", DUEL), data.get("seats", 2)
    assert isinstance(mode, str) and isinstance(seats, int)
    return Ladder(
        seed=seed,
        games_per_deck_pair=games,
        rules_ms_per_game=rules,
        agents=_standings(data["agents"]),
        mode=mode,
        seats=seats,
        opponents=_standings(data.get("opponents", [])),
    )


def ladders_from_json(data: dict[str, object]) -> dict[str, Ladder]:
    """Each mode's Ladder from the ladder file."""
    modes = data["modes"]
    assert isinstance(modes, list)
    return {ladder.mode: ladder for ladder in map(ladder_from_json, modes)}


@functools.cache
def current_ladders() -> dict[str, Ladder]:
    """The ladders of ``LADDER_FILE`` by mode, read once per process."""
    return ladders_from_json(json.loads(LADDER_FILE.read_text(encoding="utf-8")))


def current_ladder(mode: str = DUEL) -> Ladder:
    """The ladder of ``mode`` (the Duel's for a mode the file does not rate)."""
    ladders = current_ladders()
    return ladders.get(mode) or ladders[DUEL]
