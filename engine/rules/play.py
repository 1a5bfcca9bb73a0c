"""Play computer agents against each other and print the win rates with 95% Wilson intervals.

    python -m engine.rules.play --deck-a 1 --deck-b "Baron,Brute,..." --agents greedy,lookahead \\
        --games 100 --seed 1 [--champion-a Titan --champion-b champion.json]

A deck is a preconstructed deck number (1-4), comma-separated card names (English or French, case
and accents ignored) or a JSON file holding a list of card names or card definitions (a mutated
deck). A Champion (Champion module, on when one is given) is a creature name of the catalogue
(played as a Champion) or a JSON file holding one Champion definition. Bad input is reported in
one line on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from engine.rules.agents import AGENTS, play_game
from engine.rules.cards import CardDef, Catalogue, load_catalogue, validate_deck
from engine.rules.champion import champion_from_json, stand_in
from engine.rules.errors import InputError
from engine.rules.state import Options
from engine.rules.turn import new_game

Z_95 = 1.959964


def wilson(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def read_deck(spec: str, catalogue: Catalogue, label: str) -> tuple[list[CardDef], str]:
    """A deck and a short description of it, from a ``--deck-*`` argument."""
    try:
        return _read_deck(spec, catalogue, label)
    except InputError as exc:
        message = str(exc)
        raise InputError(message if message.startswith(label) else f"{label}: {message}") from None


def _read_deck(spec: str, catalogue: Catalogue, label: str) -> tuple[list[CardDef], str]:
    if spec.endswith(".json"):
        data = _load_json(spec)
        if not isinstance(data, list):
            raise InputError(f"{label}: {spec} must hold a list of cards")
        deck = [
            catalogue.find(item) if isinstance(item, str) else CardDef.from_json(item, f"card {i}")
            for i, item in enumerate(data)
        ]
        description = spec
    else:
        deck = catalogue.parse_deck(spec)
        stripped = spec.strip()
        description = f"preconstructed deck {stripped}" if stripped.isdigit() else "custom"
    validate_deck(deck, label)
    return deck, description


def read_champion(spec: str, catalogue: Catalogue, label: str) -> CardDef:
    """A Champion from a ``--champion-*`` argument: a catalogue creature name or a JSON file."""
    try:
        if spec.endswith(".json"):
            return champion_from_json(_load_json(spec), spec)
        return stand_in(catalogue.find(spec))
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None


def _load_json(spec: str) -> Any:
    """The JSON document in file ``spec`` (the callers add which argument named it)."""
    try:
        return json.loads(Path(spec).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read {spec} ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{spec} is not valid JSON ({exc.msg})") from None


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        _fail(message)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m engine.rules.play", description=__doc__.splitlines()[0])
    parser.add_argument("--deck-a", required=True, help="deck of player A")
    parser.add_argument("--deck-b", required=True, help="deck of player B")
    parser.add_argument("--agents", default="greedy,greedy", help="AGENT_A,AGENT_B")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exhaustion", action="store_true", help="play with the Exhaustion module")
    parser.add_argument("--champion-a", help="Champion of player A (Champion module)")
    parser.add_argument("--champion-b", help="Champion of player B (Champion module)")
    parser.add_argument("--max-turns", type=int, default=200, help="a longer game is a draw")
    args = parser.parse_args(argv)

    names = [n.strip() for n in args.agents.split(",")]
    if len(names) != 2:
        _fail(f"--agents takes two agents separated by a comma, not {args.agents!r}")
    for name in names:
        if name not in AGENTS:
            _fail(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
    if args.games < 1:
        _fail("--games must be at least 1")
    catalogue = load_catalogue()
    try:
        deck_a, about_a = read_deck(args.deck_a, catalogue, "--deck-a")
        deck_b, about_b = read_deck(args.deck_b, catalogue, "--deck-b")
        champions = [
            None if spec is None else read_champion(spec, catalogue, label)
            for spec, label in (
                (args.champion_a, "--champion-a"),
                (args.champion_b, "--champion-b"),
            )
        ]
    except InputError as exc:
        _fail(str(exc))
    with_champions = any(champion is not None for champion in champions)
    if with_champions:
        about_a, about_b = (
            about if champion is None else f"{about}, Champion {champion.name}"
            for about, champion in zip((about_a, about_b), champions, strict=True)
        )
    options = Options(exhaustion=args.exhaustion, champions=with_champions)
    try:
        new_game([deck_a, deck_b], args.seed, options, champions if with_champions else None)
    except InputError as exc:
        _fail(str(exc))
    wins = [0, 0]
    draws = 0
    turns = 0
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        agents = [AGENTS[name](seed * 2 + i) for i, name in enumerate(names)]
        result = play_game(
            [deck_a, deck_b],
            seed,
            agents,
            options,
            max_turns=args.max_turns,
            champions=champions if with_champions else None,
        )
        turns += result.turns
        if 1 in result.returns:
            wins[result.returns.index(1)] += 1
        else:
            draws += 1

    print(f"A: {names[0]} with {about_a}")
    print(f"B: {names[1]} with {about_b}")
    exhaustion = "on" if args.exhaustion else "off"
    print(
        f"{args.games} games, seed {args.seed}, Exhaustion {exhaustion}, "
        f"{turns / args.games:.1f} turns per game"
    )
    for player, name in (("A", names[0]), ("B", names[1])):
        won = wins[0 if player == "A" else 1]
        low, high = wilson(won, args.games)
        print(
            f"{player} {name:<9} {won:5d} wins  {100 * won / args.games:5.1f}%  "
            f"95% CI {100 * low:5.1f}% - {100 * high:5.1f}%"
        )
    print(f"draws (over {args.max_turns} turns): {draws}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
