"""Play computer agents against each other and print the win rates with 95% Wilson intervals.

    python -m engine.rules.play --deck-a 1 --deck-b "Baron,Brute,..." --agents greedy,lookahead \\
        --games 100 --seed 1 [--champion-a Titan --champion-b champion.json]
    python -m engine.rules.play --mode free_for_all|teams --deck-a 1 --deck-b 2 --deck-c 3 \\
        --deck-d 4 [--agents greedy,random,greedy,random]

With four players (Free-For-All, Team Play: partners A and C, B and D) each seat plays its own
deck and the win rates are given per seat, and per team in Team Play.

    python -m engine.rules.play --draft 00 --drafters price,simulated --games 100 --seed 1
    python -m engine.rules.play --mode solo --deck-a 1 --agents greedy \\
        [--deck-b 2,3,4] [--ai '{"fixed_mana": 8, "resistance": true}']

A deck is a preconstructed deck number (1-4), comma-separated card names (English or French, case
and accents ignored) or a JSON file holding a list of card names or card definitions (a mutated
deck). With ``--draft POOL`` (expansion codes: "00" the Initiation Pack, "01" Treachery…) each
game's two decks are drafted from the pool first (the Draft format, engine.rules.drafts), by the
computer drafters of ``--drafters``, from the game's seed; deck A is the first drafter's. A
Champion (Champion module, on when one is given) is a creature name of the catalogue (played as a
Champion) or a JSON file holding one Champion definition. Bad input is reported in
one line on stderr with exit code 2.

Solo (``--mode solo``): one agent plays deck A against the rulebook's automaton. The AI's cards are
the 3 other preconstructed decks (Preconstructed set-up: ``--deck-a`` a number), or ``--deck-b``:
preconstructed deck numbers separated by commas, or a JSON file holding a list of cards.
``--ai`` gives the Custom Play parameters (``AiOptions``'s JSON form, or a JSON file of it).

    python -m engine.rules.play --mode coop --draft 01,02 [--drafters price,price] \
        [--agents greedy,greedy] [--ai '{"fixed_mana": 8}']

Co-op (``--mode coop``): two agents, partners, play seats A and C against two automata (B and D)
with the same ``--ai`` parameters. The rulebook sets Co-op up by its Draft only (ruling CO7):
each game drafts from the 64 cards of ``--draft`` (two expansions), the players' decks and the
AI's 48 cards split into two piles of 24.
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
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, Catalogue, load_catalogue, validate_deck
from engine.rules.champion import champion_from_json, stand_in
from engine.rules.drafters import DRAFTERS, run_draft
from engine.rules.drafts import catalogue_pool, new_draft
from engine.rules.errors import InputError
from engine.rules.game import drafted_table
from engine.rules.modes import MODES, TURN_LIMIT, Mode
from engine.rules.solo import preconstructed, validate_pile
from engine.rules.state import PLAYER_NAMES, Options
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
        deck = _json_cards(spec, catalogue, label)
        description = spec
    else:
        deck = catalogue.parse_deck(spec)
        stripped = spec.strip()
        description = f"preconstructed deck {stripped}" if stripped.isdigit() else "custom"
    validate_deck(deck, label)
    return deck, description


def _json_cards(spec: str, catalogue: Catalogue, label: str) -> list[CardDef]:
    """The cards of JSON file ``spec``: a list of card names or card definitions."""
    data = _load_json(spec)
    if not isinstance(data, list):
        raise InputError(f"{label}: {spec} must hold a list of cards")
    return [
        catalogue.find(item) if isinstance(item, str) else CardDef.from_json(item, f"card {i}")
        for i, item in enumerate(data)
    ]


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
    parser.add_argument("--mode", default="duel", choices=[m for m in MODES if MODES[m].playable])
    parser.add_argument("--deck-a", help="deck of player A")
    parser.add_argument("--deck-b", help="deck of player B")
    parser.add_argument("--deck-c", help="deck of player C (four players)")
    parser.add_argument("--deck-d", help="deck of player D (four players)")
    parser.add_argument("--draft", help="draft both decks of each game from these expansions")
    parser.add_argument("--drafters", default="price,price", help="DRAFTER_A,DRAFTER_B")
    parser.add_argument("--agents", help="AGENT_A,AGENT_B[,AGENT_C,AGENT_D] (default: greedy)")
    parser.add_argument(
        "--ai", help="Solo, Co-op: the AI's Custom Play parameters (JSON or a .json)"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--exhaustion", action="store_true", help="play with the Exhaustion module")
    parser.add_argument("--champion-a", help="Champion of player A (Champion module)")
    parser.add_argument("--champion-b", help="Champion of player B (Champion module)")
    parser.add_argument("--champion-c", help="Champion of player C (Champion module)")
    parser.add_argument("--champion-d", help="Champion of player D (Champion module)")
    parser.add_argument(
        "--max-turns",
        type=int,
        default=TURN_LIMIT,
        help="a longer game is a draw (default: the modes' turn limit)",
    )
    args = parser.parse_args(argv)
    if args.mode == "solo":
        return _main_solo(args)
    if args.mode == "coop":
        return _main_coop(args)
    if args.ai is not None:
        _fail("--ai is for --mode solo or coop")
    mode = MODES[args.mode]
    seats = PLAYER_NAMES[: len(mode.seats)]
    letters = [letter.lower() for letter in seats]
    for letter in "cd":
        given = getattr(args, f"deck_{letter}") is not None
        if given != (letter in letters):
            wanted = "needs" if letter in letters else "takes no"
            _fail(f"--mode {args.mode} {wanted} --deck-{letter}")
    agents_spec = args.agents or ",".join(["greedy"] * len(seats))
    names = [n.strip() for n in agents_spec.split(",")]
    if len(names) != len(seats):
        count = "two" if len(seats) == 2 else "four"
        _fail(f"--agents takes {count} agents separated by a comma, not {agents_spec!r}")
    for name in names:
        if name not in AGENTS:
            _fail(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
    if args.games < 1:
        _fail("--games must be at least 1")
    catalogue = load_catalogue()
    if args.draft is not None:
        if args.mode != "duel":
            _fail("--draft plays the Draft format in the Duel: give no --mode")
        if args.deck_a or args.deck_b or args.champion_a or args.champion_b:
            _fail("--draft drafts the decks: give no --deck-* or --champion-*")
        return _play_drafts(args, names, catalogue)
    if args.deck_a is None or args.deck_b is None:
        _fail("give --deck-a and --deck-b, or --draft")
    try:
        decks = []
        abouts = []
        for letter in letters:
            deck, about = read_deck(getattr(args, f"deck_{letter}"), catalogue, f"--deck-{letter}")
            decks.append(deck)
            abouts.append(about)
        champions = [
            None if spec is None else read_champion(spec, catalogue, f"--champion-{letter}")
            for letter in letters
            for spec in (getattr(args, f"champion_{letter}"),)
        ]
    except InputError as exc:
        _fail(str(exc))
    with_champions = any(champion is not None for champion in champions)
    if with_champions:
        abouts = [
            about if champion is None else f"{about}, Champion {champion.name}"
            for about, champion in zip(abouts, champions, strict=True)
        ]
    options = Options(exhaustion=args.exhaustion, champions=with_champions, mode=mode.name)
    try:
        new_game(decks, args.seed, options, champions if with_champions else None)
    except InputError as exc:
        _fail(str(exc))
    wins = [0] * len(seats)
    draws = 0
    turns = 0
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        agents = [AGENTS[name](seed * len(seats) + i) for i, name in enumerate(names)]
        result = play_game(
            decks,
            seed,
            agents,
            options,
            max_turns=args.max_turns,
            champions=champions if with_champions else None,
        )
        turns += result.turns
        draws += _tally(result.returns, wins)

    for letter, name, about in zip(seats, names, abouts, strict=True):
        print(f"{letter}: {name} with {about}")
    _report(args, mode, names, wins, draws, turns)
    return 0


def _play_drafts(args: argparse.Namespace, names: list[str], catalogue: Catalogue) -> int:
    """The games of ``--draft``: each one drafts its two decks from the pool by its own seed."""
    drafters = [n.strip() for n in args.drafters.split(",")]
    if len(drafters) != 2:
        _fail(f"--drafters takes two drafters separated by a comma, not {args.drafters!r}")
    for name in drafters:
        if name not in DRAFTERS:
            _fail(f"unknown drafter {name!r} (choose from {', '.join(DRAFTERS)})")
    try:
        pool = catalogue_pool(catalogue, args.draft)
        new_draft("duel", pool, args.seed)
    except InputError as exc:
        _fail(f"--draft: {exc}")
    options = Options(exhaustion=args.exhaustion)
    wins = [0, 0]
    draws = 0
    turns = 0
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        drafted = run_draft(
            "duel", pool, seed, [DRAFTERS[name](seed * 2 + i) for i, name in enumerate(drafters)]
        )
        agents = [AGENTS[name](seed * 2 + i) for i, name in enumerate(names)]
        result = play_game(drafted.decks, seed, agents, options, max_turns=args.max_turns)
        turns += result.turns
        draws += _tally(result.returns, wins)
    for player, agent, drafter in zip("AB", names, drafters, strict=True):
        print(f"{player}: {agent} with decks drafted by {drafter} from pool {args.draft}")
    _report(args, MODES["duel"], names, wins, draws, turns)
    return 0


def _report(
    args: argparse.Namespace,
    mode: Mode,
    names: list[str],
    wins: list[int],
    draws: int,
    turns: int,
) -> None:
    """The batch's figures: games, turns, each seat's wins with its interval (and each team's),
    the draws."""
    seats = PLAYER_NAMES[: len(mode.seats)]
    exhaustion = "on" if args.exhaustion else "off"
    mode_text = "" if mode.name == "duel" else f"mode {mode.name}, "
    print(
        f"{args.games} games, {mode_text}seed {args.seed}, Exhaustion {exhaustion}, "
        f"{turns / args.games:.1f} turns per game"
    )
    for seat, name in enumerate(names):
        _print_rate(f"{seats[seat]} {name:<9}", wins[seat], args.games)
    if len(set(mode.seats)) < len(mode.seats):
        for team in dict.fromkeys(seat.team for seat in mode.seats):
            members = mode.teammates([s.team for s in mode.seats].index(team))
            label = "team " + "+".join(seats[m] for m in members)
            _print_rate(f"{label:<11}", wins[members[0]], args.games)
    print(f"draws (over {args.max_turns} turns): {draws}")


def _tally(returns: Sequence[int], wins: list[int]) -> bool:
    """Counts a game's winners in ``wins`` (by seat: partners win together); True: a draw."""
    if 1 not in returns:
        return True
    for seat, result in enumerate(returns):
        wins[seat] += result > 0
    return False


def _print_rate(label: str, won: int, games: int) -> None:
    low, high = wilson(won, games)
    print(
        f"{label} {won:5d} wins  {100 * won / games:5.1f}%  "
        f"95% CI {100 * low:5.1f}% - {100 * high:5.1f}%"
    )


def _main_solo(args: argparse.Namespace) -> int:
    """``--mode solo``: the agent of ``--agents`` plays deck A against the automaton."""
    if args.deck_a is None:
        _fail("--deck-a is required")
    if args.draft is not None or args.deck_c is not None or args.deck_d is not None:
        _fail("--mode solo takes --deck-a and the AI's --deck-b only")
    name = (args.agents or "greedy").strip()
    if name not in AGENTS:
        _fail(f"unknown agent {name!r} (choose from {', '.join(AGENTS)}; Solo takes one)")
    if args.games < 1:
        _fail("--games must be at least 1")
    if args.champion_b is not None:
        _fail("--champion-b: the AI has no Champion")
    catalogue = load_catalogue()
    try:
        ai = _read_ai(args.ai)
        deck, ai_cards, about, about_ai = _solo_decks(args.deck_a, args.deck_b, catalogue)
        champion = (
            None
            if args.champion_a is None
            else read_champion(args.champion_a, catalogue, "--champion-a")
        )
        champions = None if champion is None else [champion, None]
        options = Options(
            exhaustion=args.exhaustion, champions=champion is not None, mode="solo", ai=ai
        )
        new_game([deck, ai_cards], args.seed, options, champions)
    except InputError as exc:
        _fail(str(exc))
    wins = [0, 0]
    draws = turns = 0
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        agent = AGENTS[name](seed * 2)
        # The automaton plays its turns inside apply(): its seat never has to choose.
        result = play_game(
            [deck, ai_cards],
            seed,
            [agent, agent],
            options,
            max_turns=args.max_turns,
            champions=champions,
        )
        turns += result.turns
        draws += _tally(result.returns, wins)
    print(f"A: {name} with {about}" + ("" if champion is None else f", Champion {champion.name}"))
    print(f"AI: the automaton with {about_ai}, parameters {json.dumps(ai.to_json())}")
    print(f"{args.games} games, seed {args.seed}, {turns / args.games:.1f} turns per game")
    for player, won in zip(("A", "AI"), wins, strict=True):
        _print_rate(f"{player:<2}", won, args.games)
    print(f"draws (over {args.max_turns} turns): {draws}")
    return 0


def _main_coop(args: argparse.Namespace) -> int:
    """``--mode coop``: each game drafts the Co-op decks, then two agents play seats A and C
    against the automata of seats B and D."""
    given = [f"--{name.replace('_', '-')}" for name in _DECK_OPTIONS if getattr(args, name)]
    if given:
        _fail(f"--mode coop drafts its decks (ruling CO7): give --draft, not {', '.join(given)}")
    if args.draft is None:
        _fail("--mode coop needs --draft: two expansions, e.g. 01,02")
    drafters = [n.strip() for n in args.drafters.split(",")]
    names = [n.strip() for n in (args.agents or "greedy,greedy").split(",")]
    for label, chosen, known in (("--drafters", drafters, DRAFTERS), ("--agents", names, AGENTS)):
        if len(chosen) != 2:
            _fail(f"{label} takes two names separated by a comma (players A and C)")
        for name in chosen:
            if name not in known:
                _fail(f"unknown {label[2:-1]} {name!r} (choose from {', '.join(known)})")
    if args.games < 1:
        _fail("--games must be at least 1")
    catalogue = load_catalogue()
    try:
        ai = _read_ai(args.ai)
        pool = catalogue_pool(catalogue, args.draft)
        new_draft("coop", pool, args.seed)
    except InputError as exc:
        _fail(str(exc))
    options = Options(exhaustion=args.exhaustion, mode="coop", ai=ai)
    mode = MODES["coop"]
    wins = [0] * len(mode.seats)
    draws = turns = 0
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        drafted = run_draft(
            "coop", pool, seed, [DRAFTERS[name](seed * 2 + i) for i, name in enumerate(drafters)]
        )
        players = [AGENTS[name](seed * 2 + i) for i, name in enumerate(names)]
        # The automata play inside apply(): their seats never have to choose.
        agents = [players[0], players[0], players[1], players[1]]
        result = play_game(
            drafted_table("coop", drafted, seed), seed, agents, options, max_turns=args.max_turns
        )
        turns += result.turns
        draws += _tally(result.returns, wins)
    seat_names = [names[0], "automaton", names[1], "automaton"]
    for letter, agent, drafter in zip("AC", names, drafters, strict=True):
        print(f"{letter}: {agent} with a deck drafted by {drafter} from pool {args.draft}")
    print(f"B, D: the automata with the AI's 48 cards, parameters {json.dumps(ai.to_json())}")
    _report(args, mode, seat_names, wins, draws, turns)
    return 0


_DECK_OPTIONS = (
    "deck_a",
    "deck_b",
    "deck_c",
    "deck_d",
    "champion_a",
    "champion_b",
    "champion_c",
    "champion_d",
)


def _read_ai(spec: str | None) -> AiOptions:
    if spec is None:
        return AiOptions()
    if spec.endswith(".json"):
        return AiOptions.from_json(_load_json(spec), "--ai")
    try:
        data = json.loads(spec)
    except json.JSONDecodeError as exc:
        raise InputError(f"--ai is not valid JSON ({exc.msg})") from None
    return AiOptions.from_json(data, "--ai")


def _solo_decks(
    spec_a: str, spec_b: str | None, catalogue: Catalogue
) -> tuple[list[CardDef], list[CardDef], str, str]:
    """The player's deck, the AI's cards and their descriptions."""
    if spec_b is None:
        if not spec_a.strip().isdigit():
            raise InputError(
                "--deck-b: give the AI's cards, or a preconstructed --deck-a (the AI then "
                "gets the 3 other preconstructed decks)"
            )
        number = int(spec_a)
        deck, ai_cards = preconstructed(catalogue, number)
        others = ", ".join(str(n) for n in range(1, 5) if n != number)
        return deck, ai_cards, f"preconstructed deck {number}", f"preconstructed decks {others}"
    deck, about = read_deck(spec_a, catalogue, "--deck-a")
    if spec_b.endswith(".json"):
        ai_cards = _json_cards(spec_b, catalogue, "--deck-b")
        about_ai = spec_b
    else:
        numbers = [part.strip() for part in spec_b.split(",")]
        if not all(part.isdigit() for part in numbers):
            raise InputError("--deck-b: preconstructed deck numbers separated by commas")
        ai_cards = [card for part in numbers for card in catalogue.precon(int(part))]
        about_ai = f"preconstructed decks {', '.join(numbers)}"
    return deck, validate_pile(ai_cards, "--deck-b"), about, about_ai


if __name__ == "__main__":
    sys.exit(main())
