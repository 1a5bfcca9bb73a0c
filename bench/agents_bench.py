"""Computer players benchmark (issue 14): stall rates, the strong agent's win rates and time per
decision, and the strength ladder on two seeds.

    python bench/agents_bench.py [--stall-every K] [--games N] [--ladder-games G] [--json DIR]

1. Stall rates: every agent against itself on the seeded no-stall corpus (engine/rules/corpus.py:
   the 16 preconstructed pairs 4 times and 200 random Constructed decks; ``--stall-every K``
   plays every K-th game only), with and without Exhaustion; the goal is < 0.5% still running at
   the 200-turn limit.
2. The strong agent against greedy and lookahead: N games on the preconstructed pairs with seat
   swap, win rate with its 95% Wilson interval (goals: >= 70% and >= 60%), and the ms per
   decision of each agent (one core, every decision counted, forced ones included).
3. The ladder (python -m engine.rules.ladder) with seeds 1 and 2: Elo with 95% intervals,
   per-pair win rates, and whether the two seeds order the agents the same way; ``--json DIR``
   writes ladder-seed1.json and ladder-seed2.json there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.rules import native
from engine.rules.actions import Action, legal_actions
from engine.rules.agents import AGENTS, Agent, play_game
from engine.rules.cards import load_catalogue
from engine.rules.corpus import preconstructed_matches, stall_corpus
from engine.rules.ladder import ladder, render
from engine.rules.play import wilson
from engine.rules.state import GameState, Options


class Timed:
    """An agent that adds up the CPU time it spends choosing, over all its decisions and over
    those with more than one legal action (the ones a search works on)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.decisions = 0
        self.choice_seconds = 0.0
        self.choices = 0

    def choose(self, state: GameState) -> Action:
        choice = len(legal_actions(state)) > 1
        start = time.process_time()
        action = self.agent.choose(state)
        spent = time.process_time() - start
        self.seconds += spent
        self.decisions += 1
        if choice:
            self.choice_seconds += spent
            self.choices += 1
        return action


def stall_rates(every: int) -> None:
    corpus = stall_corpus(load_catalogue())[::every]
    for name in AGENTS:
        for exhaustion in (False, True):
            start = time.process_time()
            draws = []
            for match in corpus:
                agents = [AGENTS[name](match.seed * 2 + seat) for seat in (0, 1)]
                result = play_game(match.decks, match.seed, agents, Options(exhaustion=exhaustion))
                if 1 not in result.returns:
                    draws.append(match.label)
            print(
                f"stalls {name:<10} Exhaustion {'on ' if exhaustion else 'off'}: "
                f"{len(draws)}/{len(corpus)} = {100 * len(draws) / len(corpus):.2f}% "
                f"({time.process_time() - start:.0f} s) {' '.join(draws[:5])}",
                flush=True,
            )


def strong_against(opponent: str, games: int) -> None:
    matches = preconstructed_matches(load_catalogue(), (games + 31) // 32, 11)
    wins = draws = 0
    hero_time = [0.0, 0, 0.0, 0]
    other_time = [0.0, 0]
    for game in range(games):
        match = matches[(game // 2) % len(matches)]
        seat = game % 2
        hero = Timed(AGENTS["strong"](match.seed * 2 + seat))
        other = Timed(AGENTS[opponent](match.seed * 2 + 1 - seat))
        agents: list[Agent] = [hero, other] if seat == 0 else [other, hero]
        result = play_game(match.decks, match.seed, agents, Options())
        wins += result.returns[seat] == 1
        draws += 1 not in result.returns
        hero_time[0] += hero.seconds
        hero_time[1] += hero.decisions
        hero_time[2] += hero.choice_seconds
        hero_time[3] += hero.choices
        other_time[0] += other.seconds
        other_time[1] += other.decisions
    low, high = wilson(wins, games)
    print(
        f"strong vs {opponent:<9}: {wins}/{games} = {100 * wins / games:.1f}% "
        f"(95% {100 * low:.1f} - {100 * high:.1f}), draws {draws}; "
        f"strong {1000 * hero_time[0] / hero_time[1]:.1f} ms/decision "
        f"({1000 * hero_time[2] / hero_time[3]:.1f} ms when it has a choice), "
        f"{opponent} {1000 * other_time[0] / other_time[1]:.2f} ms/decision",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stall-every", type=int, default=1)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--ladder-games", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"engine: {native.STATUS}")
    stall_rates(args.stall_every)
    for opponent in ("greedy", "lookahead"):
        strong_against(opponent, args.games)
    orders = []
    for seed in (1, 2):
        result = ladder(list(AGENTS), seed, args.ladder_games)
        print(render(result), flush=True)
        orders.append([agent["name"] for agent in result["agents"]])
        if args.json:
            args.json.mkdir(parents=True, exist_ok=True)
            path = args.json / f"ladder-seed{seed}.json"
            path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    same = "the same" if orders[0] == orders[1] else "DIFFERENT"
    print(f"ladder order, seeds 1 and 2: {same} ({' > '.join(orders[0])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
