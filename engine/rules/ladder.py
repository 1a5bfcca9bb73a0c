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
import itertools
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
from engine.rules.agents import AGENTS, Agent, GameResult, play_game
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, Catalogue, load_catalogue
from engine.rules.corpus import PRECONSTRUCTED, preconstructed_matches
from engine.rules.game import table_decks
from engine.rules.modes import AUTOMATON as AUTOMATON_SEAT
from engine.rules.modes import MODES
from engine.rules.play import wilson
from engine.rules.solo import preconstructed
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
    the games it plays (one ``_Timed`` per agent seat and game), under its ladder name (two
    settings of one agent class share their class's ``name``)."""

    def __init__(self, agent: Agent, clock: dict[str, list[float]], name: str) -> None:
        self.agent = agent
        self.name = name
        self.clock = clock.setdefault(name, [0.0, 0.0, 0.0])
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


# The modes a ladder is played in; Solo and Co-op pit each agent against the automaton at these
# levels of the difficulty table (whose parameters the caller gives: the web app's table is data).
LADDER_MODES = ("duel", "solo", "coop", "free_for_all", "teams")
AUTOMATON_LEVELS = (1, 5, 10)
AUTOMATON_PREFIX = "automaton-"
# Co-op's AI plays 48 cards: the two preconstructed decks the players do not hold, and these many
# other catalogue cards drawn by each game's seed.
_COOP_EXTRA = 32


@dataclass(frozen=True)
class Fixture:
    """One game of a ladder: decks in seat order, shuffle seed, options, and per seat the side
    that plays it (0: the pair's first, 1: its second; automata play their own seats)."""

    decks: tuple[tuple[CardDef, ...], ...]
    seed: int
    options: Options
    sides: tuple[int, ...]


def automaton(level: int) -> str:
    """The name an automaton level goes by in a ladder."""
    return f"{AUTOMATON_PREFIX}{level}"


def fixtures(
    mode: str, catalogue: Catalogue, games: int, seed: int, ai: AiOptions | None = None
) -> list[Fixture]:
    """The games a pair plays in ``mode``, ``games`` rounds of them. Duel: the 16 ordered pairs
    of preconstructed decks, each side once in seat A; Free-For-All and Team Play: the 4
    preconstructed decks in their 4 rotations around the table, each side once in seats A and C;
    Solo (``ai``: the automaton's parameters): each preconstructed deck against the 3 others as
    the AI's pile; Co-op: each pair of preconstructed decks, the AI's 48 cards the other two
    decks and 32 catalogue cards."""
    decks = {number: tuple(catalogue.precon(number)) for number in PRECONSTRUCTED}
    out: list[Fixture] = []
    if mode == "duel":
        for match in preconstructed_matches(catalogue, games, seed):
            for side in (0, 1):
                out.append(Fixture(match.decks, match.seed, Options(), (side, 1 - side)))
    elif mode in ("free_for_all", "teams"):
        for game in range(games):
            for turn in range(4):
                table = tuple(decks[PRECONSTRUCTED[(turn + i) % 4]] for i in range(4))
                game_seed = seed * 1_000_003 + 4 * game + turn
                for side in (0, 1):
                    sides = (side, 1 - side, side, 1 - side)
                    out.append(Fixture(table, game_seed, Options(mode=mode), sides))
    elif mode == "solo":
        for game in range(games):
            for number in PRECONSTRUCTED:
                player, pile = preconstructed(catalogue, number)
                game_seed = seed * 1_000_003 + 4 * game + number
                options = Options(mode="solo", ai=ai)
                out.append(Fixture((tuple(player), tuple(pile)), game_seed, options, (0, 1)))
    elif mode == "coop":
        pool = [
            entry.card
            for entry in catalogue.cards
            if entry.card.type in ("creature", "incantation")
            and all(entry.card not in deck for deck in decks.values())
        ]
        for game in range(games):
            for first, second in itertools.combinations(PRECONSTRUCTED, 2):
                game_seed = seed * 1_000_003 + 16 * game + 4 * first + second
                others = [
                    card for n in PRECONSTRUCTED if n not in (first, second) for card in decks[n]
                ]
                drawn = random.Random(game_seed).sample(pool, _COOP_EXTRA)
                ai_cards = others + drawn
                seated = table_decks(
                    "coop", [decks[first], ai_cards, decks[second], ai_cards], game_seed
                )
                options = Options(mode="coop", ai=ai)
                out.append(Fixture(tuple(map(tuple, seated)), game_seed, options, (0, 1, 0, 1)))
    else:
        raise ValueError(f"no ladder for mode {mode!r}")
    return out


def _score(result: GameResult, fixture: Fixture) -> float:
    """Side 0's result: 1 when a seat of side 0 won, 0 when one of side 1 did, 0.5 a draw."""
    for seat, value in enumerate(result.returns):
        if value > 0:
            return 1.0 if fixture.sides[seat] == 0 else 0.0
    return 0.5


def round_robin(
    names: Sequence[str],
    seed: int,
    games: int,
    factories: dict[str, Callable[[int], Agent]] | None = None,
    clock: dict[str, list[float]] | None = None,
    mode: str = "duel",
    levels: dict[int, AiOptions] | None = None,
) -> list[PairResult]:
    """Every pair of ``names`` on ``games`` rounds of the mode's :func:`fixtures` (Solo and
    Co-op: every agent against the automaton at each of ``levels``); ``clock`` (if given)
    collects per agent [seconds choosing, decisions, seats played], and under RULES_CLOCK
    [seconds of the games besides the choices, 0, games]."""
    makers = factories if factories is not None else AGENTS
    catalogue = load_catalogue()
    timing: dict[str, list[float]] = clock if clock is not None else {}
    pairings: list[tuple[str, str, list[Fixture]]] = []
    if mode in ("solo", "coop"):
        for level, ai in sorted((levels or {}).items()):
            table = fixtures(mode, catalogue, games, seed, ai)
            pairings.extend((name, automaton(level), table) for name in names)
    else:
        table = fixtures(mode, catalogue, games, seed)
        pairings.extend((a, b, table) for i, a in enumerate(names) for b in names[i + 1 :])
    results = []
    for a, b, table in pairings:
        scores = []
        for fixture in table:
            agents: list[Agent] = []
            timed: list[_Timed] = []
            for seat, side in enumerate(fixture.sides):
                name = (a, b)[side]
                if name.startswith(AUTOMATON_PREFIX):
                    agents.append(_AUTOMATON)
                    continue
                agent = _Timed(makers[name](fixture.seed * 4 + seat), timing, name)
                agents.append(agent)
                timed.append(agent)
            start = time.process_time()
            result = play_game(fixture.decks, fixture.seed, agents, fixture.options)
            rules = timing.setdefault(RULES_CLOCK, [0.0, 0.0, 0.0])
            rules[0] += time.process_time() - start - sum(agent.spent for agent in timed)
            rules[2] += 1
            scores.append(_score(result, fixture))
        results.append(PairResult(a, b, scores))
    return results


class _Automaton:
    """The seat of Solo's and Co-op's AI, which plays its turns inside ``apply``."""

    name = "automaton"

    def choose(self, state: GameState) -> Action:
        raise AssertionError("the automaton was asked to choose")


_AUTOMATON = _Automaton()


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
    mode: str = "duel",
) -> dict[str, Any]:
    """The ladder of one mode as a JSON-ready mapping: agents strongest first (Solo and Co-op: the
    automaton's levels apart, as ``opponents``), then the pairs."""
    everyone = list(dict.fromkeys([*names, *(p.b for p in results)]))
    rated = ratings(everyone, results, seed)

    def row(name: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": name,
            "elo": round(rated[name][0], 1),
            "elo_low": round(rated[name][1], 1),
            "elo_high": round(rated[name][2], 1),
        }
        if name in clock:
            data["ms_per_decision"] = round(1000 * clock[name][0] / max(1.0, clock[name][1]), 3)
            data["ms_per_game"] = round(1000 * clock[name][0] / max(1.0, clock[name][2]), 3)
        return data

    by_strength = sorted(everyone, key=lambda n: -rated[n][0])
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
    seats = MODES[mode].seats
    return {
        "mode": mode,
        "seed": seed,
        "games_per_deck_pair": games,
        # The seats an agent plays in a game of the mode (the others are automata).
        "seats": sum(1 for seat in seats if seat.controller != AUTOMATON_SEAT),
        "rules_ms_per_game": round(1000 * rules[0] / max(1.0, rules[2]), 3) if rules else None,
        "agents": [row(name) for name in by_strength if name in names],
        "opponents": [row(name) for name in by_strength if name not in names],
        "pairs": pairs,
    }


def render(ladder: dict[str, Any]) -> str:
    lines = [f"Ladder, {ladder.get('mode', 'duel')}, seed {ladder['seed']}:"]
    for rank, agent in enumerate(ladder["agents"], 1):
        lines.append(
            f"{rank}. {agent['name']:<12} Elo {agent['elo']:7.1f}  "
            f"95% {agent['elo_low']:7.1f} - {agent['elo_high']:7.1f}  "
            f"{agent['ms_per_decision']:.3f} ms/decision  {agent['ms_per_game']:.2f} ms/game"
        )
    for opponent in ladder.get("opponents", []):
        lines.append(
            f"   {opponent['name']:<12} Elo {opponent['elo']:7.1f}  "
            f"95% {opponent['elo_low']:7.1f} - {opponent['elo_high']:7.1f}"
        )
    for pair in ladder["pairs"]:
        lines.append(
            f"{pair['a']:>12} vs {pair['b']:<12} {pair['a_wins']:4d}-{pair['b_wins']:<4d} "
            f"draws {pair['draws']:3d}  {100 * pair['a_win_rate']:5.1f}% "
            f"(95% {100 * pair['a_win_rate_low']:.1f} - {100 * pair['a_win_rate_high']:.1f})"
        )
    return "\n".join(lines)


def ladder(
    names: Sequence[str],
    seed: int,
    games: int,
    mode: str = "duel",
    levels: dict[int, AiOptions] | None = None,
) -> dict[str, Any]:
    clock: dict[str, list[float]] = {}
    results = round_robin(names, seed, games, clock=clock, mode=mode, levels=levels)
    return report(names, results, seed, games, clock, mode)


def ladders(
    names: Sequence[str],
    seed: int,
    games: dict[str, int],
    levels: dict[int, AiOptions],
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The ladder file: one ladder per mode of ``games`` (rounds of fixtures per mode)."""
    out = []
    for mode, rounds in games.items():
        result = ladder(names, seed, rounds, mode, levels)
        if log is not None:
            log(render(result))
        out.append(result)
    return {"modes": out}


def parse_levels(text: str) -> dict[int, AiOptions]:
    """``{"1": {...AiOptions JSON...}, ...}`` as a mapping of levels to parameters."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("--ai-levels: expected a JSON mapping of levels to AI parameters")
    return {int(level): AiOptions.from_json(options) for level, options in data.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.rules.ladder", description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1, help="rounds of fixtures per pair")
    parser.add_argument("--agents", default=",".join(AGENTS), help="comma-separated agents")
    parser.add_argument(
        "--modes", default="duel", help=f"comma-separated, among {', '.join(LADDER_MODES)}"
    )
    parser.add_argument(
        "--ai-levels",
        default="{}",
        help='Solo and Co-op: the automaton\'s parameters per level, {"1": {"fixed_mana": 7}}',
    )
    parser.add_argument("--json", help="write the ladder to this file")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.agents.split(",")]
    for name in names:
        if name not in AGENTS:
            parser.error(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
    modes = [mode.strip() for mode in args.modes.split(",")]
    for mode in modes:
        if mode not in LADDER_MODES:
            parser.error(f"unknown mode {mode!r} (choose from {', '.join(LADDER_MODES)})")
    levels = parse_levels(args.ai_levels)
    if any(mode in ("solo", "coop") for mode in modes) and not levels:
        parser.error("Solo and Co-op ladders need --ai-levels")
    if len(names) < 2 or args.games < 1:
        parser.error("a ladder needs two agents and at least one game")
    if modes == ["duel"]:
        result = ladder(names, args.seed, args.games)
        print(render(result))
    else:
        result = ladders(names, args.seed, dict.fromkeys(modes, args.games), levels, print)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
