"""Co-op: whole games of two players against two automata, the set-up from the Co-op Draft, the
order of play and the first turns (the rules themselves are proved by tests/scenarios/coop/)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules.actions import END_TURN_ACTION, apply
from engine.rules.agents import GreedyAgent, RandomAgent
from engine.rules.ai_options import AiOptions
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.coop import AI_CARDS, coop_decks, drafted_decks, split_ai_cards
from engine.rules.drafters import DRAFTERS, run_draft
from engine.rules.drafts import catalogue_pool
from engine.rules.errors import InputError
from engine.rules.kingdom import AutomatonKingdom, HandKingdom
from engine.rules.modes import AUTOMATON, HAND, MODES
from engine.rules.scenario import run_file
from engine.rules.state import GameState, Options
from engine.rules.turn import new_game

from .support import catalogue_cards, play_checked

ROOT = Path(__file__).resolve().parents[2]
A, B, C, D = range(4)
QUICK = Options(mode="coop", ai=AiOptions())
# Custom Play parameters for both automata (rule solo-custom-play, ruling CO6).
CUSTOM = AiOptions(fixed_mana=8, mana_per_creature=2, resistance=True, abilities=("rage",))


def _random_decks(rng: random.Random) -> list[list[CardDef]]:
    """Two 8-card decks and 48 AI cards, all different, as the Co-op Draft's 64 cards are."""
    cards = rng.sample(catalogue_cards(), 8 + 8 + AI_CARDS)
    return coop_decks(cards[:8], cards[8:16], cards[16:], rng.randrange(1 << 30))


def _check_outcome(state: GameState) -> None:
    """Partners share the result; the team whose Kingdom fell lost (ruling CO4)."""
    outcome = state.outcome
    assert outcome is not None
    team = state.setup.team
    losing = team[outcome.loser]
    assert outcome.returns == tuple(-1 if team[seat] == losing else 1 for seat in range(4))


@pytest.mark.parametrize("block", range(3))
def test_random_coop_games_end_and_stay_consistent(block: int) -> None:
    for seed in range(block * 40, block * 40 + 40):
        rng = random.Random(seed)
        decks = _random_decks(rng)
        ai = CUSTOM if seed % 3 == 0 else AiOptions(ai_first=seed % 3 == 1)
        agents = [RandomAgent(seed * 4 + seat) for seat in range(4)]
        options = Options(mode="coop", ai=ai, exhaustion=seed % 2 == 0)
        state, _ = play_checked(decks, seed, agents, options, "coop-random")
        _check_outcome(state)
        assert state.active in (A, C) or state.outcome is not None


def test_greedy_teammates_play_drafted_coop_games_to_the_end() -> None:
    pool = catalogue_pool(load_catalogue(), "01,02")
    results = []
    for seed in range(10):
        drafters = [DRAFTERS["price"](seed), DRAFTERS["price"](seed + 1)]
        drafted = run_draft("coop", pool, seed, drafters)
        greedy = [GreedyAgent() for _ in range(4)]
        state, _ = play_checked(drafted_decks(drafted, seed), seed, greedy, QUICK, "coop-greedy")
        _check_outcome(state)
        results.append(state.outcome.returns[A] if state.outcome else 0)
    assert set(results) <= {-1, 1}


def test_the_coop_table_seats_two_players_against_two_automata() -> None:
    mode = MODES["coop"]
    assert [seat.controller for seat in mode.seats] == [HAND, AUTOMATON, HAND, AUTOMATON]
    assert mode.teammates(A) == (A, C) and mode.teammates(D) == (B, D)
    # Each player shares one line with each AI, none with their partner (CO1).
    facing = mode.topology.facing
    assert [facing[A][lane][0] for lane in range(2)] == [B, D]
    assert [facing[C][lane][0] for lane in range(2)] == [D, B]


def test_the_set_up_deals_the_decks_and_two_piles_of_24() -> None:
    decks = _random_decks(random.Random(5))
    assert [len(deck) for deck in decks] == [8, 24, 8, 24]
    state = new_game(decks, 3, QUICK)
    kingdoms = state.players
    kinds = [HandKingdom, AutomatonKingdom, HandKingdom, AutomatonKingdom]
    assert [type(kingdom) for kingdom in kingdoms] == kinds
    # The first player begins (Solo's set-up, CO2) with 6 Mana; the piles are untouched yet.
    assert (state.active, state.first_player, kingdoms[A].mana) == (A, A, 6)
    assert [len(kingdoms[ai].pile) for ai in (B, D)] == [24, 24]


def test_the_automata_play_inside_apply_and_the_third_player_has_8_mana_first() -> None:
    decks = _random_decks(random.Random(8))
    state = new_game(decks, 4, QUICK)
    assert state.players[A].mana == 6
    apply(state, END_TURN_ACTION)
    # B's automatic turn revealed cards (Phase 2 spends at least its 6 Mana) and passed to C,
    # third in the order of play: the Multiplayer chapter's 8 (ruling CO3, issue 28).
    assert state.active == C and state.players[B].turns == 1
    assert state.players[C].mana == 8
    apply(state, END_TURN_ACTION)
    assert state.active == A and state.players[D].turns == 1
    # A's second turn: the regular rule, as many Mana as cards in hand (8 + the Stronghold).
    assert state.players[A].mana == 9


def test_ai_first_makes_the_first_automaton_begin() -> None:
    options = Options(mode="coop", ai=AiOptions(ai_first=True))
    state = new_game(_random_decks(random.Random(2)), 1, options)
    assert (state.first_player, state.active, state.players[B].turns) == (B, C, 1)
    # C is second in the order of play: 7 (ruling CO3).
    assert state.players[C].mana == 7


def test_coop_set_up_refusals() -> None:
    decks = _random_decks(random.Random(1))
    with pytest.raises(InputError, match=r"^mode 'coop' needs 4 decks, not 2"):
        new_game(decks[:2], 1, QUICK)
    with pytest.raises(InputError, match=r"^options.first_player: in Co-op the player begins"):
        new_game(decks, 1, Options(mode="coop", first_player=C))
    with pytest.raises(InputError, match=r"^the AI's cards: 47 do not divide into two equal"):
        split_ai_cards(decks[1] + decks[3][:23], random.Random(0))
    drafted = run_draft("solo", catalogue_cards()[:32], 1, [DRAFTERS["price"](1)])
    with pytest.raises(InputError, match=r"^a Co-op game needs the Co-op Draft: 2 decks and 48"):
        drafted_decks(drafted, 1)


def _play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.rules.play", "--mode", "coop", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_play_mode_coop_drafts_each_game_and_reports_seats_and_teams() -> None:
    done = _play("--draft", "01,02", "--games", "6", "--seed", "3", "--agents", "greedy,random")
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[:2] == [
        "A: greedy with a deck drafted by price from pool 01,02",
        "C: random with a deck drafted by price from pool 01,02",
    ]
    assert lines[3].startswith("6 games, mode coop, seed 3, Exhaustion off, ")
    seats = [line.split()[:3] for line in lines[4:8]]
    assert [seat[:2] for seat in seats] == [
        ["A", "greedy"], ["B", "automaton"], ["C", "random"], ["D", "automaton"]
    ]  # fmt: skip
    # Partners share every result: A's wins are C's, B's are D's, and they add up to the games.
    a, b, c, d = (int(seat[2]) for seat in seats)
    assert (a, b) == (c, d) and a + b + int(lines[-1].rsplit(" ", 1)[1]) == 6
    assert lines[8].startswith(f"team A+C {a:8d} wins") and lines[9].startswith("team B+D")
    again = _play("--draft", "01,02", "--games", "6", "--seed", "3", "--agents", "greedy,random")
    assert again.stdout == done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--deck-a", "1"],
            "error: --mode coop drafts its decks (ruling CO7): give --draft, not --deck-a",
        ),
        ([], "error: --mode coop needs --draft: two expansions, e.g. 01,02"),
        (
            ["--draft", "01,02", "--agents", "greedy"],
            "error: --agents takes two names separated by a comma (players A and C)",
        ),
        (
            ["--draft", "01,02", "--ai", '{"fixed_mana": 11}'],
            "error: --ai.fixed_mana: expected a whole number from 6 to 10, not 11",
        ),
    ],
)
def test_play_mode_coop_bad_input(args: list[str], message: str) -> None:
    done = _play(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")


_SCENARIO = """
cards:
  Pawn: {type: creature, cost: 1, attack: 1, hp: 1}
  Rat: {type: creature, cost: 1, attack: 1, hp: 1}
state:
  active: A
  options: {mode: coop}
  players:
    A: {hand: [Pawn, STRONGHOLD, Rat], mana: 1}
    AI1: {deck: [Pawn]}
    B: {hand: [STRONGHOLD, Pawn]}
    AI2: {deck: [Pawn]}
actions:
  - {play: Pawn, line: AI1}
expect: {}
"""


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        (("line: AI1", "line: B"), "actions[0]: 'line' must be 'AI1' or 'AI2', not 'B'"),
        (("line: AI1", "line: D"), "actions[0].line: expected 'AI1', 'AI2', 'A' or 'B'"),
        (("active: A", "active: C"), "state.active: expected 'A', 'AI1', 'B' or 'AI2'"),
        (("AI2: {deck: [Pawn]}", "AI2: {hand: [STRONGHOLD]}"), "state.players.AI2: unknown key"),
        (("expect: {}", "expect: {winner: [A, AI1]}"), None),
    ],
)
def test_coop_scenarios_name_the_players_and_their_lines(
    tmp_path: Path, replace: tuple[str, str], message: str | None
) -> None:
    path = tmp_path / "coop.yaml"
    path.write_text(_SCENARIO.replace(*replace), encoding="utf-8")
    diffs = run_file(path)
    if message is None:
        assert diffs == ["winners are [], expected ['A', 'AI1']"]
    else:
        assert len(diffs) == 1 and diffs[0].startswith(message), diffs
