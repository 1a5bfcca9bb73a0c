"""The learned agents (issue 30): their strength against the strong agent at their cost, and the
time of a 10,000-game Duel batch played by the default agent.

    python bench/learned_bench.py [--games N] [--batch-games G] [--workers W] [--skip-batch]
                                  [--batch-agent NAME]

1. ``learned`` and ``learned_deep`` against ``strong``: N games each (default 256), half on the 16
   ordered pairs of preconstructed decks and half on a seeded corpus of random Constructed decks
   (engine/rules/corpus.py, seed 11), every deal played twice with the seats swapped. Prints the
   win rate with its 95% Wilson interval and each agent's CPU ms per decision, measured in the
   same games (every decision, and those with more than one legal action). Goals: >= 50% and
   <= 1/10 of strong's time per decision.
2. A G-game Duel batch (default 10,000; preconstructed decks 1 and 2) with no AI chosen, so
   played by ``engine.services.agent_for(G)`` (the Duel's strongest at every size), cut by the
   batch's own chunking (``services.chunk_size_for``, ``simulation.chunk_span``) and played by W
   worker processes (default 2) each running ``simulation.play_game`` over its chunks, which is
   what a Celery worker's ``chunk_run`` does for each chunk (less its database writes, ~15 ms a
   chunk). Prints the wall time and the CPU time of the workers. Goal: <= 60 s with 2 processes
   at 10,000 games. ``--batch-agent`` plays it with that agent instead (e.g. a cheaper one, to
   compare).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")

from engine.rules import native  # noqa: E402
from engine.rules.actions import Action, legal_actions  # noqa: E402
from engine.rules.agents import AGENTS, Agent, play_game  # noqa: E402
from engine.rules.cards import load_catalogue  # noqa: E402
from engine.rules.corpus import Match, constructed_matches, preconstructed_matches  # noqa: E402
from engine.rules.play import wilson  # noqa: E402
from engine.rules.state import GameState, Options  # noqa: E402
from engine.simulation import BatchSpec  # noqa: E402

WIN_GOAL = 0.5
TIME_GOAL = 0.1
BATCH_GOAL_SECONDS = 60.0


class Timed:
    """An agent adding up its CPU time, over every decision and over real choices."""

    def __init__(self, agent: Agent, clock: list[float]) -> None:
        self.agent = agent
        self.name = agent.name
        self.clock = clock  # [seconds, decisions, seconds on choices, choices]

    def choose(self, state: GameState) -> Action:
        choice = len(legal_actions(state)) > 1
        start = time.process_time()
        action = self.agent.choose(state)
        spent = time.process_time() - start
        self.clock[0] += spent
        self.clock[1] += 1
        if choice:
            self.clock[2] += spent
            self.clock[3] += 1
        return action


def corpus(games: int) -> list[Match]:
    """games / 2 deals: half preconstructed pairs, half random Constructed pairs."""
    catalogue = load_catalogue()
    deals = games // 2
    precon = preconstructed_matches(catalogue, -(-deals // 32), 11)[: deals // 2]
    return precon + constructed_matches(catalogue, deals - len(precon), 11)


def against_strong(hero: str, games: int) -> None:
    wins = draws = 0
    clocks = {hero: [0.0, 0, 0.0, 0], "strong": [0.0, 0, 0.0, 0]}
    for number, match in enumerate(corpus(games)):
        for seat in (0, 1):
            ours = Timed(AGENTS[hero](match.seed * 2 + seat), clocks[hero])
            theirs = Timed(AGENTS["strong"](match.seed * 2 + 1 - seat), clocks["strong"])
            agents: list[Agent] = [ours, theirs] if seat == 0 else [theirs, ours]
            result = play_game(match.decks, match.seed, agents, Options())
            wins += result.returns[seat] == 1
            draws += 1 not in result.returns
        if (number + 1) % 16 == 0:
            print(f"  {hero}: {2 * (number + 1)} games, {wins} won", flush=True)
    played = 2 * len(corpus(games))
    low, high = wilson(wins, played)

    def ms(name: str) -> tuple[float, float]:
        clock = clocks[name]
        return 1000 * clock[0] / max(1, clock[1]), 1000 * clock[2] / max(1, clock[3])

    (ours_all, ours_choice), (strong_all, strong_choice) = ms(hero), ms("strong")
    ratio = ours_all / strong_all
    print(
        f"{hero} vs strong: {wins}/{played} = {100 * wins / played:.1f}% "
        f"(95% {100 * low:.1f} - {100 * high:.1f}), draws {draws}; "
        f"{hero} {ours_all:.3f} ms/decision ({ours_choice:.3f} on choices), strong "
        f"{strong_all:.2f} ms/decision ({strong_choice:.2f} on choices): 1/{1 / ratio:.0f} of "
        f"strong's time; goals >= {100 * WIN_GOAL:.0f}% "
        f"{'met' if wins / played >= WIN_GOAL else 'MISSED'}, <= 1/10 "
        f"{'met' if ratio <= TIME_GOAL else 'MISSED'}",
        flush=True,
    )


def _play_chunks(args: tuple[BatchSpec, list[tuple[int, int]]]) -> tuple[float, int]:
    from engine.simulation import play_game as play_batch_game

    spec, spans = args
    start = time.process_time()
    played = 0
    for first, count in spans:
        for index in range(first, first + count):
            play_batch_game(spec, index)
            played += 1
    return time.process_time() - start, played


def batch(games: int, workers: int, agent: str | None = None) -> None:
    import django

    django.setup()
    from engine import services, simulation

    chosen = agent is None
    if agent is None:
        agent = services.agent_for(games)
    size = services.chunk_size_for(games, [agent, agent])
    catalogue = load_catalogue()
    decks = (tuple(catalogue.precon(1)), tuple(catalogue.precon(2)))
    spec = BatchSpec(30, decks, (agent, agent))
    chunks = [
        simulation.chunk_span(games, size, i) for i in range(simulation.chunk_count(games, size))
    ]
    # Chunks are taken in order by whichever worker is free, as from the Celery queue.
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(_play_chunks, [(spec, [span]) for span in chunks], chunksize=1)
    wall = time.perf_counter() - start
    cpu = sum(seconds for seconds, _ in results)
    played = sum(count for _, count in results)
    print(
        f"{played:,}-game Duel batch by {'the default agent' if chosen else 'the agent asked'} "
        f"({agent}, {len(chunks)} chunks of "
        f"{size}) on {workers} processes: {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"({1000 * cpu / played:.2f} ms a game); goal <= {BATCH_GOAL_SECONDS:.0f} s "
        f"{'met' if wall <= BATCH_GOAL_SECONDS else 'MISSED'} (load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--agents", default="learned,learned_deep")
    parser.add_argument("--batch-games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-batch", action="store_true")
    parser.add_argument("--batch-agent", help="the batch's agent (default: agent_for's)")
    args = parser.parse_args()
    print(f"engine: {native.STATUS}")
    for hero in args.agents.split(","):
        if hero:
            against_strong(hero, args.games)
    if not args.skip_batch:
        batch(args.batch_games, args.workers, args.batch_agent)
    return 0


if __name__ == "__main__":
    sys.exit(main())
