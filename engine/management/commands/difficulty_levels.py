"""`manage.py difficulty_levels`: measure Solo's difficulty levels, and choose each level's default
parameters so that every level is harder than the one below (issue 28 item 7; docs/rulings.md,
"Default parameters of each level"; engine migration 0017).

A parameter set is measured, not guessed: the agent a difficulty curve plays (`--agent`, default
the batch rule's `services.agent_for`: lookahead) plays each of the 4 preconstructed decks against
the Solo AI with those parameters, `--games` games per deck, from one `--seed`. Every set plays the
same games (the same shuffles and agent seeds, as a curve's levels do), so two sets differ by the
AI only and a fall from one to the other is seldom noise.

    manage.py difficulty_levels                    # the table's default levels as they are
    manage.py difficulty_levels --choose           # choose a chain of default sets, then check it

`--choose` builds the levels from Quick Play up. A level's candidates are the level below's
parameters with one parameter of the table added, or one replaced by another, whose points (the
table's, as the admin holds them) add up to the level exactly; the Champion (the player's choice,
which needs a Champion deck) is never one. Each candidate is measured; among those that no deck
wins more often than the level below, the chosen one has the mean win rate nearest an even fall
from Quick Play's to 0 at the last level (so the levels spread over the whole range instead of
reaching 0% early); if none qualifies, the one whose worst rise is smallest. The chain is then
played again with `--check-games` games per deck and printed with each rate's 95% interval, and
as the `LEVELS` of a data migration. It prints every measurement, so that the ruling can say how
the defaults were chosen. `--jobs` plays the games in that many processes.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.adapters.difficulty import difficulty_ai_options, difficulty_levels
from engine.models import DifficultyOption, DifficultyParameter
from engine.rules import AGENTS, AiOptions, load_catalogue, native, preconstructed
from engine.rules.corpus import PRECONSTRUCTED
from engine.rules.play import wilson
from engine.selectors import difficulty_problems
from engine.services import agent_for
from engine.simulation import AUTOMATON, SOLO, BatchSpec, play_games

Wins = tuple[int, ...]


def deck_wins(ai: dict[str, Any], deck: int, games: int, seed: int, agent: str) -> int:
    """Games won by ``agent`` playing preconstructed deck ``deck`` against the AI ``ai``."""
    player, pile = preconstructed(load_catalogue(), deck)
    spec = BatchSpec(
        seed=seed,
        decks=(tuple(player), tuple(pile)),
        agents=(agent, AUTOMATON),
        mode=SOLO,
        ai=AiOptions.from_json(ai),
    )
    return play_games(spec, 0, games).wins[0]


class Measure:
    """Wins per preconstructed deck of parameter sets, each set measured once."""

    def __init__(self, games: int, seed: int, agent: str, jobs: int) -> None:
        self.games, self.seed, self.agent = games, seed, agent
        self.pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
        self.known: dict[tuple[str, ...], Wins] = {}

    def __call__(self, sets: Sequence[Sequence[DifficultyParameter]]) -> list[Wins]:
        wanted = [_key(one) for one in sets]
        todo = {key: one for key, one in zip(wanted, sets, strict=True) if key not in self.known}
        work = [
            (difficulty_ai_options(one), deck, self.games, self.seed, self.agent)
            for one in todo.values()
            for deck in PRECONSTRUCTED
        ]
        if self.pool is None:
            results = [deck_wins(*args) for args in work]
        else:
            results = list(self.pool.map(deck_wins, *zip(*work, strict=True)))
        decks = len(PRECONSTRUCTED)
        for index, key in enumerate(todo):
            self.known[key] = tuple(results[index * decks : (index + 1) * decks])
        return [self.known[key] for key in wanted]


def _key(parameters: Sequence[DifficultyParameter]) -> tuple[str, ...]:
    return tuple(sorted(parameter.code for parameter in parameters))


def _ordered(parameters: Sequence[DifficultyParameter]) -> list[DifficultyParameter]:
    return sorted(parameters, key=lambda parameter: (parameter.position, parameter.code))


def candidates(
    below: Sequence[DifficultyParameter], rows: Sequence[DifficultyParameter], budget: int
) -> list[list[DifficultyParameter]]:
    """The sets of exactly ``budget`` points made from ``below`` by adding one row of ``rows``
    or replacing one of its parameters by another row."""
    out: dict[tuple[str, ...], list[DifficultyParameter]] = {}
    held = {parameter.code for parameter in below}
    others = [row for row in rows if row.code not in held]
    made = [[*below, row] for row in others]
    made += [
        [*(kept for kept in below if kept.code != gone.code), row]
        for gone, row in itertools.product(below, others)
    ]
    for chosen in made:
        if not difficulty_problems(parameters=chosen, budget=budget):
            out.setdefault(_key(chosen), _ordered(chosen))
    return list(out.values())


def choose_next(
    found: Sequence[tuple[list[DifficultyParameter], Wins]], below: Wins, target: float
) -> int:
    """The index of the chosen candidate (see the module's docstring)."""

    def rise(wins: Wins) -> int:
        return max(0, *(mine - theirs for mine, theirs in zip(wins, below, strict=True)))

    def distance(wins: Wins) -> float:
        return abs(sum(wins) / len(wins) - target)

    return min(range(len(found)), key=lambda i: (rise(found[i][1]), distance(found[i][1])))


class Command(BaseCommand):
    help = "Measure the Solo difficulty levels' win rates; --choose picks ordered defaults."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=50, help="games per deck and set")
        parser.add_argument("--check-games", type=int, default=200, help="--choose's check")
        parser.add_argument("--seed", type=int, default=515)
        parser.add_argument("--agent", help="default: services.agent_for(games, 'solo')")
        parser.add_argument("--choose", action="store_true")
        parser.add_argument("--jobs", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        games, seed = options["games"], options["seed"]
        agent = options["agent"] or agent_for(games, SOLO)
        if agent not in AGENTS or games < 1:
            raise CommandError(f"unknown agent {agent!r} or no games")
        self.stdout.write(
            f"engine: {native.STATUS}; agent {agent}; seed {seed}; {games} games per deck "
            f"(decks {', '.join(map(str, PRECONSTRUCTED))})"
        )
        started = time.perf_counter()
        measure = Measure(games, seed, agent, options["jobs"])
        if options["choose"]:
            chain = self.choose(measure)
            check = Measure(options["check_games"], seed, agent, options["jobs"])
            self.stdout.write(f"\nthe chosen chain, {check.games} games per deck:")
            self.table(chain, check(chain), check.games)
            self.stdout.write("\nLEVELS = {")
            for level, chosen in enumerate(chain, 1):
                self.stdout.write(f"    {level}: {[parameter.code for parameter in chosen]!r},")
            self.stdout.write("}")
        else:
            levels = [_ordered(list(row.parameters.all())) for row in difficulty_levels()]
            self.table(levels, measure(levels), games)
        self.stdout.write(f"{time.perf_counter() - started:.0f} s (wall clock)")

    def choose(self, measure: Measure) -> list[list[DifficultyParameter]]:
        rows = [
            row
            for row in DifficultyParameter.objects.all()
            if row.points > 0 and row.option != DifficultyOption.CHAMPION
        ]
        top = max(row.level for row in difficulty_levels())
        below: list[DifficultyParameter] = []
        (below_wins,) = measure([below])
        start = sum(below_wins) / len(below_wins)
        self.stdout.write(f"Quick Play: {below_wins}")
        chain = []
        for level in range(1, top + 1):
            target = start * (top - level) / top
            found = candidates(below, rows, level)
            if not found:
                raise CommandError(f"no parameter set of {level} points follows {_key(below)}")
            measured = list(zip(found, measure(found), strict=True))
            best = choose_next(measured, below_wins, target)
            self.stdout.write(f"\nlevel {level} (target mean {target:.1f} wins):")
            for index, (chosen, wins) in enumerate(measured):
                mark = "*" if index == best else " "
                codes = " + ".join(parameter.code for parameter in chosen)
                self.stdout.write(f" {mark} {wins!s:<22} {sum(wins) / len(wins):6.1f}  {codes}")
            below, below_wins = measured[best]
            chain.append(below)
        return chain

    def table(
        self, levels: Sequence[Sequence[DifficultyParameter]], wins: Sequence[Wins], games: int
    ) -> None:
        decks = "".join(f"   deck {deck} (95% interval) " for deck in PRECONSTRUCTED)
        self.stdout.write(f"level{decks}  parameters")
        for level, (chosen, row) in enumerate(zip(levels, wins, strict=True), 1):
            cells = ""
            for won in row:
                low, high = wilson(won, games)
                cells += f"   {won / games:5.1%} ({low:5.1%}-{high:5.1%})"
            codes = " + ".join(parameter.code for parameter in chosen)
            self.stdout.write(f"{level:5}{cells}  {codes}")
