"""Play computer players against each other on a box and print the win rates.

    python -m engine.chaos.play [--agents greedy,random] [--games 100] [--seed 0] [--box FILE.csv]
    python -m engine.chaos.play --mode prologue --agents greedy

The box is the site's example set (``data/chaos/cards.csv``, set EX) unless ``--box`` names a CSV
file of the same shape (every card of it, or ``--set CODE``'s). Each game's seed is derived from
``--seed`` and its index; seats alternate who is dealt the Emissaries 1 (and plays first)
(``engine.chaos.batch``: the site's test batches play the same games).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from engine.chaos.agents import AGENTS
from engine.chaos.batch import play_batch, wilson
from engine.chaos.cards import box_from_cards, example_box, read_cards_csv
from engine.chaos.errors import InputError
from engine.chaos.modes import MODES


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.chaos.play", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--mode", default="duel", choices=list(MODES))
    parser.add_argument(
        "--agents", default="greedy,greedy", help="AGENT_A,AGENT_B (one in the Prologue)"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--box", type=Path, help="a CSV of cards (default: the example set)")
    parser.add_argument("--set", dest="set_code", help="only this set of --box")
    args = parser.parse_args(argv)
    seats = MODES[args.mode].seats
    names = [name.strip() for name in args.agents.split(",")]
    if len(names) == 1 and seats == 2:
        names = names * 2
    if len(names) != seats:
        _fail(f"--agents takes {seats} agent(s) for --mode {args.mode}")
    for name in names:
        if name not in AGENTS:
            _fail(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
    if args.games < 1:
        _fail("--games must be at least 1")
    try:
        box = (
            example_box()
            if args.box is None
            else box_from_cards(read_cards_csv(args.box, args.set_code), str(args.box))
        )
    except InputError as exc:
        _fail(str(exc))
    totals = play_batch(box, names, args.games, args.seed, args.mode)
    print(
        f"{args.games} games, mode {args.mode}, seed {args.seed}, "
        f"{totals.mean_turns():.1f} turns per game"
    )
    for seat, name in enumerate(names):
        won = totals.wins[seat]
        low, high = wilson(won, args.games)
        print(
            f"{'AB'[seat]} {name:<7} {won:5d} wins  {100 * won / args.games:5.1f}%  "
            f"95% CI {100 * low:5.1f}% - {100 * high:5.1f}%"
        )
    outcome = "lost" if seats == 1 else "without a winner"
    print(f"{outcome} (turn limit): {totals.unfinished}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
