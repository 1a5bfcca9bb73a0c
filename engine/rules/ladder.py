"""The strength ladder: a round-robin tournament of the computer players, rated by Elo.

    python -m engine.rules.ladder [--seed 1] [--games 1] [--agents random,greedy,...] [--json FILE]

Every pair of agents plays every ordered pair of the 4 preconstructed decks (the 4 mirrors and the
12 crossed pairs) ``--games`` times, each game twice with the seats swapped (the same decks and
seed, each agent once as A): 32 games per pair and ``--games``. Prints the ratings with their 95%
intervals and the per-pair win rates, and writes them as JSON with ``--json``, with each agent's
cost: milliseconds per decision and per game (the time one agent spends choosing for its own side
of a game), and the rules' own time per game, whoever plays (``rules_ms_per_game``);
``engine/agent_ladder.json``, which the web app reads, is this file.

Ratings: the Bradley-Terry model fitted by maximum likelihood (Hunter's MM iterations), a draw
counting half a win to each side, plus one virtual draw per pair so that an agent that wins every
game still gets a finite rating; on the Elo scale (400 points: 10 to 1 odds), the mean of the
agents at 1500. The intervals are the 2.5th and 97.5th percentiles of the ratings of 200
bootstrap resamples of each pair's games (seeded: the same figures every run).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.rules.actions import Action
from engine.rules.agents import AGENTS, Agent, play_game
from engine.rules.cards import load_catalogue
from engine.rules.corpus import preconstructed_matches
from engine.rules.play import wilson
from engine.rules.state import GameState, Options

ELO_MEAN = 1500.0
BOOTSTRAP = 200
# The clock's entry for the time a game takes besides its agents' choices: the rules' own.
RULES_CLOCK = "(rules)"


@dataclass
class PairResult:
    """The games of agent ``a`` against agent ``b``: each game's result for ``a`` (1, 0.5, 0)."""

    a: str
    b: str
    scores: list[float]

    @property
    def a_wins(self) -> int:
        return sum(score == 1.0 for score in self.scores)

    @property
    def draws(self) -> int:
        return sum(score == 0.5 for score in self.scores)

    @property
    def b_wins(self) -> int:
        return len(self.scores) - self.a_wins - self.draws


class _Timed:
    """An agent that adds up the time it spends choosing (the ms per decision of the ladder) and
    the games it plays (one ``_Timed`` per agent and game)."""

    def __init__(self, agent: Agent, clock: dict[str, list[float]]) -> None:
        self.agent = agent
        self.name = agent.name
        self.clock = clock.setdefault(agent.name, [0.0, 0.0, 0.0])
        self.clock[2] += 1
        self.spent = 0.0  # in this game

    def choose(self, state: GameState) -> Action:
        start = time.process_time()
        action = self.agent.choose(state)
        spent = time.process_time() - start
        self.spent += spent
        self.clock[0] += spent
        self.clock[1] += 1
        return action


def round_robin(
    names: Sequence[str],
    seed: int,
    games: int,
    factories: dict[str, Callable[[int], Agent]] | None = None,
    clock: dict[str, list[float]] | None = None,
) -> list[PairResult]:
    """Every pair of ``names`` on every ordered pair of preconstructed decks, ``games`` seeds,
    with seat swap; ``clock`` (if given) collects per agent [seconds choosing, decisions, games],
    and under RULES_CLOCK [seconds of the games besides the choices, 0, games]."""
    makers = factories if factories is not None else AGENTS
    matches = preconstructed_matches(load_catalogue(), games, seed)
    timing: dict[str, list[float]] = clock if clock is not None else {}
    results = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            scores = []
            for match in matches:
                for seat in (0, 1):
                    hero = _Timed(makers[a](match.seed * 2 + seat), timing)
                    other = _Timed(makers[b](match.seed * 2 + 1 - seat), timing)
                    agents: list[Agent] = [hero, other] if seat == 0 else [other, hero]
                    start = time.process_time()
                    result = play_game(match.decks, match.seed, agents, Options())
                    rules = timing.setdefault(RULES_CLOCK, [0.0, 0.0, 0.0])
                    rules[0] += time.process_time() - start - hero.spent - other.spent
                    rules[2] += 1
                    scores.append((result.returns[seat] + 1) / 2)
            results.append(PairResult(a, b, scores))
    return results


def bradley_terry(names: Sequence[str], wins: dict[tuple[str, str], float]) -> dict[str, float]:
    """Elo ratings from ``wins[(a, b)]``, the games ``a`` won against ``b`` (halves for draws),
    with one virtual draw per pair (see the module docstring)."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    w = [[0.0] * n for _ in range(n)]
    for (a, b), won in wins.items():
        w[index[a]][index[b]] += won
    for i in range(n):
        for j in range(n):
            if i != j:
                w[i][j] += 0.5
    strength = [1.0] * n
    for _ in range(10_000):
        new = []
        for i in range(n):
            total_wins = sum(w[i][j] for j in range(n) if j != i)
            denominator = sum(
                (w[i][j] + w[j][i]) / (strength[i] + strength[j]) for j in range(n) if j != i
            )
            new.append(total_wins / denominator)
        mean_log = sum(math.log(s) for s in new) / n
        new = [s / math.exp(mean_log) for s in new]
        change = max(abs(x - y) for x, y in zip(new, strength, strict=True))
        strength = new
        if change < 1e-12:
            break
    return {name: ELO_MEAN + 400 * math.log10(strength[index[name]]) for name in names}


def _wins(results: Sequence[PairResult]) -> dict[tuple[str, str], float]:
    wins: dict[tuple[str, str], float] = {}
    for pair in results:
        score = sum(pair.scores)
        wins[(pair.a, pair.b)] = wins.get((pair.a, pair.b), 0.0) + score
        wins[(pair.b, pair.a)] = wins.get((pair.b, pair.a), 0.0) + len(pair.scores) - score
    return wins


def ratings(
    names: Sequence[str], results: Sequence[PairResult], seed: int = 0
) -> dict[str, tuple[float, float, float]]:
    """Per agent (Elo, low, high): the fit and its 95% bootstrap interval."""
    elo = bradley_terry(names, _wins(results))
    rng = random.Random(f"ladder-bootstrap-{seed}")
    samples: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(BOOTSTRAP):
        resampled = [
            PairResult(p.a, p.b, [rng.choice(p.scores) for _ in p.scores]) for p in results
        ]
        for name, value in bradley_terry(names, _wins(resampled)).items():
            samples[name].append(value)
    out = {}
    for name in names:
        values = sorted(samples[name])
        low = values[int(0.025 * (len(values) - 1))]
        high = values[math.ceil(0.975 * (len(values) - 1))]
        out[name] = (elo[name], low, high)
    return out


def report(
    names: Sequence[str],
    results: Sequence[PairResult],
    seed: int,
    games: int,
    clock: dict[str, list[float]],
) -> dict[str, Any]:
    """The ladder as a JSON-ready mapping: agents strongest first, then the pairs."""
    rated = ratings(names, results, seed)
    agents = [
        {
            "name": name,
            "elo": round(rated[name][0], 1),
            "elo_low": round(rated[name][1], 1),
            "elo_high": round(rated[name][2], 1),
            "ms_per_decision": round(1000 * clock[name][0] / max(1.0, clock[name][1]), 3)
            if name in clock
            else None,
            "ms_per_game": round(1000 * clock[name][0] / max(1.0, clock[name][2]), 3)
            if name in clock
            else None,
        }
        for name in sorted(names, key=lambda n: -rated[n][0])
    ]
    pairs = []
    for pair in results:
        count = len(pair.scores)
        low, high = wilson(pair.a_wins, count)
        pairs.append(
            {
                "a": pair.a,
                "b": pair.b,
                "games": count,
                "a_wins": pair.a_wins,
                "b_wins": pair.b_wins,
                "draws": pair.draws,
                "a_win_rate": round(pair.a_wins / count, 4),
                "a_win_rate_low": round(low, 4),
                "a_win_rate_high": round(high, 4),
            }
        )
    rules = clock.get(RULES_CLOCK)
    return {
        "seed": seed,
        "games_per_deck_pair": games,
        "rules_ms_per_game": round(1000 * rules[0] / max(1.0, rules[2]), 3) if rules else None,
        "agents": agents,
        "pairs": pairs,
    }


def render(ladder: dict[str, Any]) -> str:
    lines = [f"Ladder, seed {ladder['seed']}:"]
    for rank, agent in enumerate(ladder["agents"], 1):
        lines.append(
            f"{rank}. {agent['name']:<10} Elo {agent['elo']:7.1f}  "
            f"95% {agent['elo_low']:7.1f} - {agent['elo_high']:7.1f}  "
            f"{agent['ms_per_decision']:.2f} ms/decision  {agent['ms_per_game']:.1f} ms/game"
        )
    for pair in ladder["pairs"]:
        lines.append(
            f"{pair['a']:>10} vs {pair['b']:<10} {pair['a_wins']:4d}-{pair['b_wins']:<4d} "
            f"draws {pair['draws']:3d}  {100 * pair['a_win_rate']:5.1f}% "
            f"(95% {100 * pair['a_win_rate_low']:.1f} - {100 * pair['a_win_rate_high']:.1f})"
        )
    return "\n".join(lines)


def ladder(names: Sequence[str], seed: int, games: int) -> dict[str, Any]:
    clock: dict[str, list[float]] = {}
    results = round_robin(names, seed, games, clock=clock)
    return report(names, results, seed, games, clock)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.rules.ladder", description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1, help="seeds per ordered deck pair")
    parser.add_argument("--agents", default=",".join(AGENTS), help="comma-separated agents")
    parser.add_argument("--json", help="write the ladder to this file")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.agents.split(",")]
    for name in names:
        if name not in AGENTS:
            parser.error(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
    if len(names) < 2 or args.games < 1:
        parser.error("a ladder needs two agents and at least one game")
    result = ladder(names, args.seed, args.games)
    print(render(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
