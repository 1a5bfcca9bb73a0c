"""Duel of Chaos engine benchmark: games per second on one core, logging off.

    python bench/chaos_bench.py [--games N] [--repeat R] [--search-games S]

The site's example set (data/chaos/cards.csv, set EX): random vs random, greedy vs greedy and
greedy vs random over the same N seeded games (the seats alternate who plays first), then search
vs greedy over S games (the search agent's own speed) and the Prologue with greedy. Prints
games/s (CPU time of this process, best of R runs), average turns and actions per game, the
games without a winner at the site's turn limit (rule site-turn-limit) and the first seat's wins.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.chaos.agents import AGENTS, play_game
from engine.chaos.cards import Box, example_box
from engine.chaos.state import Options


def run(
    box: Box, names: tuple[str, ...], games: int, mode: str = "duel"
) -> tuple[float, int, int, int, int]:
    """(seconds, turns, actions, games without a winner, wins of the first seat)."""
    turns = actions = unfinished = first_wins = 0
    start = time.process_time()
    for seed in range(games):
        agents = [AGENTS[name](seed * 2 + i) for i, name in enumerate(names)]
        options = Options(mode=mode, first_player=seed % len(names))
        result = play_game(box, seed, agents, options)
        turns += result.turns
        actions += result.actions
        unfinished += result.winner is None
        first_wins += result.winner == 0
    return time.process_time() - start, turns, actions, unfinished, first_wins


def report(
    label: str, box: Box, names: tuple[str, ...], games: int, repeat: int, mode: str = "duel"
) -> None:
    best = None
    for _ in range(repeat):
        figures = run(box, names, games, mode)
        if best is None or figures[0] < best[0]:
            best = figures
    assert best is not None
    seconds, turns, actions, unfinished, first_wins = best
    print(
        f"{label:<22} {games / seconds:8.1f} games/s  {turns / games:5.1f} turns  "
        f"{actions / games:6.1f} actions  {unfinished:4d} at the limit  "
        f"A wins {100 * first_wins / games:5.1f}%"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--search-games", type=int, default=40)
    args = parser.parse_args()
    box = example_box()
    print(f"Duel of Chaos, example set, {args.games} games (best of {args.repeat})")
    report("random vs random", box, ("random", "random"), args.games, args.repeat)
    report("greedy vs greedy", box, ("greedy", "greedy"), args.games, args.repeat)
    report("greedy vs random", box, ("greedy", "random"), args.games, args.repeat)
    report("prologue, greedy", box, ("greedy",), args.games, args.repeat, "prologue")
    report("search vs greedy", box, ("search", "greedy"), args.search_games, 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
