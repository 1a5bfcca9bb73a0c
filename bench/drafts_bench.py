"""Drafts benchmark: whole drafts per second on one core (engine.rules.drafts and drafters).

    python bench/drafts_bench.py [--drafts N] [--repeat R]

Each of the four procedures with price drafters (the Duel and Solo Drafts and the 4-player Draft
from the Initiation Pack, the Co-op Draft from expansions 01 and 02), then the Draft format with
a simulated drafter against a price one, which plays its greedy games; prints drafts/s (CPU time
of this process, best of R runs) and, for the simulated drafter, the games it played per draft.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rules import native
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.drafters import PriceDrafter, SimulatedDrafter, run_draft
from engine.rules.drafts import PROCEDURES, catalogue_pool

POOLS = {"duel": "00", "solo": "00", "four_players": "00", "coop": "01,02"}


def timed(procedure: str, pool: list[CardDef], drafts: int, simulated: bool) -> float:
    """CPU seconds for ``drafts`` seeded drafts of ``procedure``."""
    seats = PROCEDURES[procedure].seats
    start = time.process_time()
    for seed in range(drafts):
        drafters = [
            SimulatedDrafter(seed) if simulated and seat == 0 else PriceDrafter(seed + seat)
            for seat in range(seats)
        ]
        run_draft(procedure, pool, seed, drafters)
    return time.process_time() - start


def games_per_draft(pool: list[CardDef], drafts: int) -> float:
    """How many greedy games the simulated drafter plays in a Draft format draft, on average."""
    played = 0
    for seed in range(drafts):
        drafter = SimulatedDrafter(seed)
        run_draft("duel", pool, seed, [drafter, PriceDrafter(seed + 1)])
        played += drafter.games_played
    return played / drafts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drafts", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    catalogue = load_catalogue()
    print(f"engine: {native.STATUS}")
    for procedure, sets in POOLS.items():
        pool = catalogue_pool(catalogue, sets)
        best = min(timed(procedure, pool, args.drafts, False) for _ in range(args.repeat))
        rate = args.drafts / best
        print(f"{procedure:<13} price drafters    {rate:9.0f} drafts/s  (pool {sets})")
    simulated = max(1, args.drafts // 100)
    pool = catalogue_pool(catalogue, "00")
    best = min(timed("duel", pool, simulated, True) for _ in range(args.repeat))
    print(
        f"duel          simulated vs price {simulated / best:9.1f} drafts/s  "
        f"({games_per_draft(pool, simulated):.0f} greedy games per draft)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
