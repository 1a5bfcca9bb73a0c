"""Rules-engine benchmark: games per second on one core, logging off.

    python bench/engine_bench.py [--games N] [--repeat R] [--profile]

Greedy vs greedy and random vs random over every pairing of the four preconstructed decks (the
same N seeded games each time), then greedy vs greedy with a Champion each (Champion module: a
catalogue creature outside the preconstructed decks per deck), then Solo: greedy against the
automaton (Quick Play, each preconstructed deck against the 3 others), whose goal is at least the
Duel's greedy-vs-greedy games/s of the same run, then four greedy players in Free-For-All with
the four decks (seats rotated game after game), whose games/s are printed as a share of the
Duel's greedy games/s of the same run (issue 16's goal: at least a third), and Co-op: two greedy
partners against two automata (Quick Play, four set-ups drafted by price from expansions 01 and
02 before the clock starts); prints games/s (CPU
time of this process, best of R runs, so other work on the machine disturbs it less), average
turns and actions per game. A game still running
after 200 turns (a greedy stalemate) is a draw, as in ``python -m engine.rules.play``.
``--profile`` prints the cProfile top functions of one greedy run instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rules import Game, native
from engine.rules.agents import Agent, GreedyAgent, RandomAgent
from engine.rules.cards import CardDef, Catalogue, load_catalogue
from engine.rules.champion import stand_in
from engine.rules.coop import drafted_decks
from engine.rules.drafters import DRAFTERS, run_draft
from engine.rules.drafts import catalogue_pool
from engine.rules.solo import preconstructed
from engine.rules.state import GameState, Options
from engine.rules.turn import new_game


def run(
    decks: list[list[CardDef]],
    make_agents: Callable[[int], list[Agent]],
    games: int,
    champions: list[CardDef] | None = None,
) -> tuple[float, int, int, int]:
    """Play ``games`` seeded games round-robin over the deck pairings (deck i with Champion i if
    ``champions``); (seconds, turns, actions, draws)."""
    options = Options(champions=champions is not None)
    pairs = [(a, b) for a in range(len(decks)) for b in range(len(decks))]
    turns = actions = draws = 0
    start = time.process_time()
    for game in range(games):
        a, b = pairs[game % len(pairs)]
        agents: list[Agent] = make_agents(game)
        chosen = None if champions is None else [champions[a], champions[b]]
        state = new_game([decks[a], decks[b]], game, options, chosen)
        actions += _finish(state, agents)
        turns += state.turn
        draws += state.outcome is None
    return time.process_time() - start, turns, actions, draws


def _finish(state: GameState, agents: Sequence[Agent]) -> int:
    """Play ``state`` out as batches and tables do (the game object, a draw past its mode's
    turn limit); the number of actions."""
    return Game(state).advance(agents)


def run_free_for_all(decks: list[list[CardDef]], games: int) -> tuple[float, int, int, int]:
    """``games`` seeded Free-For-All games of four greedy players, the four decks rotated over
    the seats; (seconds, turns, actions, draws)."""
    options = Options(mode="free_for_all")
    agents = [GreedyAgent() for _ in range(4)]
    rotations = [decks[shift:] + decks[:shift] for shift in range(len(decks))]
    turns = actions = draws = 0
    start = time.process_time()
    for game in range(games):
        state = new_game(rotations[game % len(rotations)], game, options)
        actions += _finish(state, agents)
        turns += state.turn
        draws += state.outcome is None
    return time.process_time() - start, turns, actions, draws


def run_automata(
    deck_sets: Sequence[Sequence[list[CardDef]]], agent: Agent, games: int, options: Options
) -> tuple[float, int, int, int]:
    """``games`` seeded Solo or Co-op games (``options.mode``) of ``agent`` in every player seat
    against the automata, round-robin over ``deck_sets`` (each game's decks and AI piles in seat
    order); (seconds, turns, actions, draws)."""
    turns = actions = draws = 0
    start = time.process_time()
    for game in range(games):
        state = new_game(deck_sets[game % len(deck_sets)], game, options)
        # The automata's turns run inside apply(): only the players choose.
        actions += _finish(state, [agent] * len(state.players))
        turns += state.turn
        draws += state.outcome is None
    return time.process_time() - start, turns, actions, draws


def report(label: str, games: int, runs: list[tuple[float, int, int, int]]) -> None:
    elapsed, turns, actions, draws = min(runs)
    print(
        f"{label:<20} {games / elapsed:7.0f} games/s  ({games} games in {elapsed:.2f} s CPU, "
        f"best of {len(runs)})  {turns / games:5.1f} turns/game  {actions / games:5.1f} "
        f"actions/game  {draws} draws (past the turn limit)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per benchmark")
    parser.add_argument("--repeat", type=int, default=3, help="runs per benchmark (best kept)")
    parser.add_argument("--profile", action="store_true", help="cProfile the greedy run")
    args = parser.parse_args()
    catalogue = load_catalogue()
    decks = [catalogue.precon(n) for n in (1, 2, 3, 4)]
    greedy = GreedyAgent()

    def greedy_agents(_: int) -> list[Agent]:
        return [greedy, greedy]

    def random_agents(seed: int) -> list[Agent]:
        return [RandomAgent(seed), RandomAgent(seed + 1)]

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(decks, greedy_agents, args.games)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    print(
        f"Python {sys.version.split()[0]}, engine {native.STATUS}, one core, event log off, "
        "preconstructed decks 1-4"
    )
    duel_seconds = 0.0
    for label, agents in (("greedy vs greedy", greedy_agents), ("random vs random", random_agents)):
        runs = [run(decks, agents, args.games) for _ in range(args.repeat)]
        report(label, args.games, runs)
        if agents is greedy_agents:
            duel_seconds = min(runs)[0]
    champions = bench_champions(catalogue, decks)
    runs = [run(decks, greedy_agents, args.games, champions) for _ in range(args.repeat)]
    report("greedy, Champions", args.games, runs)
    solo_decks = [preconstructed(catalogue, n) for n in (1, 2, 3, 4)]
    solo = Options(mode="solo")
    runs = [run_automata(solo_decks, greedy, args.games, solo) for _ in range(args.repeat)]
    report("greedy vs AI, Solo", args.games, runs)
    coop = Options(mode="coop")
    coop_decks = coop_deck_sets(catalogue)
    runs = [run_automata(coop_decks, greedy, args.games, coop) for _ in range(args.repeat)]
    report("greedy pair vs 2 AIs", args.games, runs)
    runs = [run_free_for_all(decks, args.games) for _ in range(args.repeat)]
    report("greedy, 4-player FFA", args.games, runs)
    print(
        f"4-player FFA greedy: {duel_seconds / min(runs)[0]:.2f} of the Duel's greedy games/s "
        "(goal: at least 0.33)"
    )


def coop_deck_sets(catalogue: Catalogue) -> list[list[list[CardDef]]]:
    """Four Co-op set-ups, drafted (before the clock starts) by price from expansions 01 and 02:
    the players' decks and the two AI piles of 24 (ruling CO7)."""
    pool = catalogue_pool(catalogue, "01,02")
    return [
        drafted_decks(run_draft("coop", pool, seed, [DRAFTERS["price"](0)] * 2), seed)
        for seed in range(4)
    ]


def bench_champions(catalogue: Catalogue, decks: list[list[CardDef]]) -> list[CardDef]:
    """Per deck, the first catalogue creature of Mana cost 3, 4, 5, 6 in no preconstructed deck,
    designated as a Champion."""
    used = {card.name for deck in decks for card in deck}
    champions = []
    for cost in (3, 4, 5, 6):
        card = next(
            entry.card
            for entry in catalogue.cards
            if entry.card.type == "creature"
            and entry.card.cost == cost
            and entry.card.name not in used
        )
        champions.append(stand_in(card))
    return champions


if __name__ == "__main__":
    main()
