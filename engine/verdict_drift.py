"""How far each agent's verdicts drift from the strongest agent's: deck A's win rate, pair by pair.

    python -m engine.verdict_drift [--reference AGENT] [--agents a,b] [--games 200] [--seed 1] \\
        [--constructed 50] [--json engine/verdict_drift.json]

The pairs: the 16 ordered pairs of preconstructed decks and ``--constructed`` pairs of random
Constructed decks (``engine.rules.corpus``, seeded). Each agent plays ``--games`` games of each
pair exactly as a Duel batch does (``engine.simulation``: the same seeds, the decks swapping seats
every other game), so every agent plays the same shuffles; an agent's drift on a pair is its win
rate for deck A minus the reference agent's. The file says, per agent, on what share of the pairs
the two differ by at most ``TOLERANCE`` and how far they differ at most and on average; the batch
page reads it (``engine.selectors``) to say how far the verdicts of the AI that played are known
to drift. Pure Python, no Django.

Part of the difference is the games' own noise: with ``g`` games a pair, two agents of exactly the
same play would still differ by about ``1.4 * 0.5 / sqrt(g)`` (one standard deviation) when their
games diverge; the file records ``games_per_pair`` for that reason.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.rules import CardDef, load_catalogue
from engine.rules.corpus import constructed_matches, preconstructed_matches
from engine.simulation import BatchSpec, play_game

DRIFT_FILE = Path(__file__).with_name("verdict_drift.json")
# The verdicts an agent gives agree with the reference's on a pair when deck A's win rates differ
# by at most this much.
TOLERANCE = 0.05


@dataclass(frozen=True)
class Drift:
    """One agent's drift from the reference agent over the measured pairs."""

    agent: str
    reference: str
    pairs: int
    within: int  # pairs where the two win rates differ by at most `tolerance`
    tolerance: float
    mean: float  # mean absolute difference
    largest: float
    games_per_pair: int

    @property
    def share_within(self) -> float:
        return self.within / self.pairs if self.pairs else 0.0


def drift_pairs(
    constructed: int, seed: int
) -> list[tuple[str, tuple[tuple[CardDef, ...], tuple[CardDef, ...]]]]:
    """The measured pairs (label, (deck A, deck B)): 16 preconstructed, then Constructed."""
    catalogue = load_catalogue()
    matches = preconstructed_matches(catalogue, 1, seed)
    matches += constructed_matches(catalogue, constructed, seed)
    return [(match.label, match.decks) for match in matches]


def win_rate(
    decks: tuple[tuple[CardDef, ...], tuple[CardDef, ...]], agent: str, games: int, seed: int
) -> float:
    """Deck A's win rate over ``games`` games of a Duel batch of ``seed`` (draws count half)."""
    spec = BatchSpec(seed, decks, (agent, agent))
    score = 0.0
    for index in range(games):
        returns = play_game(spec, index).returns
        score += 1.0 if returns[0] > 0 else 0.5 if returns[0] == 0 else 0.0
    return score / games


def measure(
    agents: Sequence[str],
    reference: str,
    games: int,
    seed: int,
    constructed: int,
    log: Callable[[str], None] | None = None,
    done: dict[str, dict[str, float]] | None = None,
    part: tuple[int, int] = (0, 1),
) -> dict[str, Any]:
    """The drift file's content (see the module docstring). ``done``: the pairs already
    measured, by label (a run resumed); ``part`` (i, n): measure only every n-th pair from the
    i-th (a share of the work for one of n processes; the summary then covers those)."""
    rows: list[dict[str, Any]] = []
    measured: list[dict[str, float]] = []
    index, parts = part
    for number, (label, decks) in enumerate(drift_pairs(constructed, seed)):
        if number % parts != index:
            continue
        rates = (done or {}).get(label)
        if rates is None:
            batch_seed = seed * 1_000_003 + number
            rates = {
                name: round(win_rate(decks, name, games, batch_seed), 4)
                for name in [reference, *agents]
            }
            if log is not None:
                log(json.dumps({"pair": label, **rates}))
        measured.append(rates)
        rows.append({"pair": label, **rates})
    summary = []
    for name in agents:
        # Rounded like the table, so the file's figures follow from its table.
        gaps = [round(abs(rates[name] - rates[reference]), 4) for rates in measured]
        summary.append(
            {
                "agent": name,
                "pairs": len(gaps),
                "within": sum(gap <= TOLERANCE for gap in gaps),
                "mean": round(sum(gaps) / len(gaps), 4),
                "largest": round(max(gaps), 4),
            }
        )
    return {
        "reference": reference,
        "games_per_pair": games,
        "seed": seed,
        "tolerance": TOLERANCE,
        "noise": round(math.sqrt(2) * 0.5 / math.sqrt(games), 4),
        "agents": summary,
        "table": rows,
    }


def drifts_from_json(data: dict[str, Any]) -> dict[str, Drift]:
    return {
        row["agent"]: Drift(
            agent=row["agent"],
            reference=data["reference"],
            pairs=row["pairs"],
            within=row["within"],
            tolerance=data["tolerance"],
            mean=row["mean"],
            largest=row["largest"],
            games_per_pair=data["games_per_pair"],
        )
        for row in data["agents"]
    }


@functools.cache
def current_drifts() -> dict[str, Drift]:
    """The drifts of ``DRIFT_FILE`` by agent, read once per process (none without the file)."""
    if not DRIFT_FILE.is_file():
        return {}
    return drifts_from_json(json.loads(DRIFT_FILE.read_text(encoding="utf-8")))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.verdict_drift")
    parser.add_argument("--reference", default="learned_deep")
    parser.add_argument("--agents", default="learned,lookahead,greedy")
    parser.add_argument("--games", type=int, default=200, help="games per pair and agent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--constructed", type=int, default=50)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--rows",
        type=Path,
        help="keep each pair's figures in this file as they come (JSON lines): a run resumes "
        "from it, and runs with --part share the work",
    )
    parser.add_argument("--part", default="0/1", help="I/N: every N-th pair from the I-th")
    args = parser.parse_args(argv)
    agents = [name.strip() for name in args.agents.split(",") if name.strip()]
    index, parts = (int(value) for value in args.part.split("/"))
    done: dict[str, dict[str, float]] = {}
    log: Callable[[str], None] = print
    if args.rows:
        if args.rows.is_file():
            for line in args.rows.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                done[row.pop("pair")] = row
        rows_file = args.rows

        def log(line: str) -> None:
            print(line, flush=True)
            with rows_file.open("a", encoding="utf-8") as out:
                out.write(line + "\n")

    result = measure(
        agents, args.reference, args.games, args.seed, args.constructed, log, done, (index, parts)
    )
    for row in result["agents"]:
        print(
            f"{row['agent']:<12} within {100 * TOLERANCE:.0f} points of {args.reference} on "
            f"{row['within']}/{row['pairs']} pairs, mean {100 * row['mean']:.1f} points, "
            f"largest {100 * row['largest']:.1f}"
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
