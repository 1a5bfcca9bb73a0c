"""Grimoire solver: time to prove each starter-book puzzle (median, maximum) and the search speed
in nodes per second, on the book and on one wide position searched to the end (no solution).

Pure engine (no database); the engine is the compiled one when it is built (`make engine`)."""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.rules import native
from engine.rules.scenario import build_state, parse
from engine.rules.solver import Goal, goal_from_json, solve
from grimoire.book import book_entries

RUNS = 3

# Four cheap creatures and two incantations (which return to the hand: they can be cast again)
# against six creatures: every order of play is a position to search, and no play destroys four.
WIDE = {
    "cards": {
        **{f"C{i}": {"type": "creature", "cost": 1, "attack": 1, "hp": 2} for i in range(4)},
        "Zap": {"type": "incantation", "cost": 1, "attack": 1},
        "Bolt": {"type": "incantation", "cost": 2, "attack": 2},
        **{f"P{i}": {"type": "creature", "cost": 1, "attack": 0, "hp": 4} for i in range(6)},
        "F1": {"type": "creature", "cost": 1, "attack": 1, "hp": 1},
    },
    "state": {
        "active": "A",
        "players": {
            "A": {"hand": ["C0", "C1", "Zap", "Bolt", "C2", "C3", "STRONGHOLD", "F1"], "mana": 5},
            "B": {
                "hand": ["STRONGHOLD", "F1"],
                "lines": {"top": ["P0", "P1", "P2"], "bottom": ["P3", "P4", "P5"]},
            },
        },
    },
    "expect": {},
}


def main() -> None:
    print(f"engine {native.STATUS}")
    times: list[float] = []
    nodes = 0
    for entry in book_entries():
        state = build_state(parse({**entry["scenario"], "expect": {}}))
        goal = goal_from_json(entry["goal"])
        best = float("inf")
        for _ in range(RUNS):
            started = time.perf_counter()
            report = solve(state, goal)
            best = min(best, time.perf_counter() - started)
        assert report.proved, entry["key"]
        times.append(best)
        nodes += report.nodes
    total = sum(times)
    print(
        f"starter book: {len(times)} puzzles, proof time median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
        f"{nodes} nodes, {nodes / total:,.0f} nodes/s"
    )
    state = build_state(parse(WIDE))
    started = time.perf_counter()
    report = solve(state, Goal("destroy_creatures", count=4), max_nodes=1_000_000)
    seconds = time.perf_counter() - started
    print(
        f"wide position: {report.nodes} nodes, complete={report.complete}, "
        f"{seconds:.2f} s, {report.nodes / seconds:,.0f} nodes/s"
    )


if __name__ == "__main__":
    main()
