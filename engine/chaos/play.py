"""Play computer players against each other on a box and print the win rates.

    python -m engine.chaos.play [--agents greedy,random] [--games 100] [--seed 0] [--box FILE.csv]
    python -m engine.chaos.play --mode prologue --agents greedy

The box is the site's example set (``data/chaos/cards.csv``, set EX) unless ``--box`` names a CSV
file of the same shape (every card of it, or ``--set CODE``'s). Each game's seed is derived from
``--seed`` and its index; seats alternate who is dealt the Emissaries 1 (and plays first).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from engine.chaos.agents import AGENTS, play_game
from engine.chaos.cards import box_from_cards, example_box, read_cards_csv
from engine.chaos.errors import InputError
from engine.chaos.modes import MODES
from engine.chaos.state import Options


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


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
    wins = [0] * seats
    draws = turns = 0
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        # The seats take turns at being dealt the Emissaries 1, so neither always begins.
        options = Options(mode=args.mode, first_player=game % seats)
        agents = [AGENTS[name](seed * 2 + i) for i, name in enumerate(names)]
        result = play_game(box, seed, agents, options)
        turns += result.turns
        if result.winner is None:
            draws += 1
        else:
            wins[result.winner] += 1
    print(
        f"{args.games} games, mode {args.mode}, seed {args.seed}, "
        f"{turns / args.games:.1f} turns per game"
    )
    for seat, name in enumerate(names):
        low, high = wilson(wins[seat], args.games)
        label = "AB"[seat]
        print(
            f"{label} {name:<7} {wins[seat]:5d} wins  {100 * wins[seat] / args.games:5.1f}%  "
            f"95% CI {100 * low:5.1f}% - {100 * high:5.1f}%"
        )
    outcome = "lost" if seats == 1 else "without a winner"
    print(f"{outcome} (turn limit): {draws}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
