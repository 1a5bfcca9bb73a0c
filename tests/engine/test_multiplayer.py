"""Free-For-All and Team Play: whole games of four players, the order of play, and agents that
know their partners (the rules themselves are proved by tests/scenarios/multiplayer/)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.rules.actions import ASSAULT_ACTION, CAST, END_TURN_ACTION, apply, legal_actions
from engine.rules.agents import GreedyAgent, RandomAgent, StrongAgent, evaluate, team_weights
from engine.rules.errors import InputError
from engine.rules.scenario import build_state, parse
from engine.rules.state import GameState, Options
from engine.rules.turn import new_game

from .support import catalogue_cards, play_checked, precon_decks

ROOT = Path(__file__).resolve().parents[2]
A, B, C, D = range(4)
MODES = ("free_for_all", "teams")


def _four_decks(first: int = 1) -> list[Any]:
    """Preconstructed decks first, first+1... (1 to 4, wrapping) for seats A to D."""
    return [precon_decks((first + seat - 1) % 4 + 1, 1)[0] for seat in range(4)]


def _check_outcome(state: GameState) -> None:
    """Who won follows the win rule: the loser lost, partners share a result, and a loss to an
    enemy's card is won by that enemy's team alone."""
    outcome = state.outcome
    assert outcome is not None
    team = state.setup.team
    returns = outcome.returns
    assert returns[outcome.loser] == -1
    for seat in range(4):
        for other in range(4):
            if team[seat] == team[other]:
                assert returns[seat] == returns[other]
    source = outcome.source_player
    if source >= 0 and team[source] != team[outcome.loser]:
        assert outcome.winners() == tuple(s for s in range(4) if team[s] == team[source])
    else:
        assert outcome.winners() == tuple(s for s in range(4) if team[s] != team[outcome.loser])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("block", range(4))
def test_random_four_player_games_end_and_stay_consistent(mode: str, block: int) -> None:
    cards = catalogue_cards()
    for seed in range(block * 50, block * 50 + 50):
        rng = random.Random(seed)
        decks = [rng.sample(cards, 8) for _ in range(4)]
        agents = [RandomAgent(seed * 4 + seat) for seat in range(4)]
        options = Options(mode=mode, exhaustion=seed % 2 == 0)
        state, _ = play_checked(decks, seed, agents, options, f"{mode}-random")
        _check_outcome(state)


@pytest.mark.parametrize("mode", MODES)
def test_greedy_four_player_games_end(mode: str) -> None:
    greedy = [GreedyAgent() for _ in range(4)]
    for seed in range(20):
        state, _ = play_checked(
            _four_decks(seed % 4 + 1), seed, greedy, Options(mode=mode), f"{mode}-greedy"
        )
        _check_outcome(state)


def test_the_turns_follow_the_order_of_play_and_the_first_turn_table() -> None:
    decks = _four_decks()
    options = Options(mode="free_for_all", first_player=C, turn_order=(A, C, B, D))
    state = new_game(decks, 7, options)
    seen = []
    for _ in range(5):
        seen.append((state.active, state.players[state.active].mana))
        apply(state, END_TURN_ACTION)
    # C first, then B, D, A, C again; 6, 7, 8, then the regular 9 (8 cards and the Stronghold).
    assert seen == [(C, 6), (B, 7), (D, 8), (A, 9), (C, 9)]


@pytest.mark.parametrize(
    ("options", "decks", "message"),
    [
        (Options(mode="teams"), 2, "mode 'teams' needs 4 decks, not 2"),
        (Options(mode="free_for_all", first_player=D), 2, "mode 'free_for_all' needs 4 decks"),
        (Options(first_player=C), 2, "mode 'duel' has no player C"),
        (
            Options(mode="teams", turn_order=(A, B, B, D)),
            4,
            r"turn_order \['A', 'B', 'B', 'D'\]: expected each of the 4 seats once",
        ),
    ],
)
def test_four_player_set_up_refusals(options: Options, decks: int, message: str) -> None:
    chosen = _four_decks()[:decks]
    with pytest.raises(InputError, match=message):
        new_game(chosen, 1, options)


def test_options_round_trip_the_order_of_play() -> None:
    options = Options(mode="teams", first_player=B, turn_order=(B, C, D, A))
    data = options.to_json()
    assert data == {
        "exhaustion": False,
        "first_player": "B",
        "mode": "teams",
        "turn_order": ["B", "C", "D", "A"],
    }
    assert Options.from_json(data) == options


def test_team_weights() -> None:
    duel = new_game(precon_decks(), 1).setup
    ffa = new_game(_four_decks(), 1, Options(mode="free_for_all")).setup
    teams = new_game(_four_decks(), 1, Options(mode="teams")).setup
    assert team_weights(duel, B) == [-1.0, 1.0]
    assert team_weights(ffa, A) == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert team_weights(teams, B) == [-0.5, 0.5, -0.5, 0.5]


def test_partners_value_a_position_alike() -> None:
    state = new_game(_four_decks(), 3, Options(mode="teams"))
    for _ in range(12):
        apply(state, GreedyAgent().choose(state))
    assert evaluate(state, A) == evaluate(state, C)
    assert evaluate(state, B) == evaluate(state, D)
    assert evaluate(state, A) == -evaluate(state, B)


# A holds only an Incantation that would destroy its partner C's Pawn, and a weaker one for
# D's Rock: the agents never aim at the partner's creature.
PARTNER_TARGET = {
    "cards": {
        "Bolt": {"type": "incantation", "cost": 1, "attack": 2},
        "Pawn": {"type": "creature", "cost": 1, "attack": 1, "hp": 2},
        "Rock": {"type": "creature", "cost": 2, "attack": 0, "hp": 5},
        "Filler": {"type": "creature", "cost": 9, "attack": 1, "hp": 1},
    },
    "state": {
        "active": "A",
        "options": {"mode": "teams"},
        "players": {
            "A": {"hand": ["Bolt", "STRONGHOLD", "Filler"], "mana": 1},
            "B": {"hand": ["STRONGHOLD", "Filler"]},
            "C": {"hand": ["STRONGHOLD", "Filler"], "lines": {"D": ["Pawn"]}},
            "D": {"hand": ["STRONGHOLD", "Filler"], "lines": {"C": ["Rock"]}},
        },
    },
    "expect": {},
}


def test_no_agent_aims_an_incantation_at_a_partner() -> None:
    state = build_state(parse(PARTNER_TARGET))
    pawn = state.players[C].lines[0][0].card
    rock = state.players[D].lines[0][0].card
    bolt = state.players[A].hand[0]  # type: ignore[attr-defined]
    # The rules allow both targets (any creature); the agents consider only the enemy's.
    assert {(CAST, bolt, pawn), (CAST, bolt, rock)} <= set(legal_actions(state))
    assert GreedyAgent().choose(state) in ((CAST, bolt, rock), ASSAULT_ACTION)
    for seed in range(3):
        assert StrongAgent(seed, nodes=200).choose(state) != (CAST, bolt, pawn)


def _play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.rules.play", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_the_play_command_gives_rates_per_seat_and_per_team() -> None:
    decks = ["--deck-a", "1", "--deck-b", "2", "--deck-c", "3", "--deck-d", "4"]
    done = _play("--mode", "teams", *decks, "--games", "6", "--seed", "2")
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[:4] == [
        f"{seat}: greedy with preconstructed deck {n}"
        for seat, n in zip("ABCD", "1234", strict=True)
    ]
    assert lines[4].startswith("6 games, mode teams, seed 2, Exhaustion off, ")
    rates = [line.split()[:3] for line in lines[5:11]]
    assert [r[0] for r in rates] == ["A", "B", "C", "D", "team", "team"]
    wins = [int(line.split("wins")[0].split()[-1]) for line in lines[5:11]]
    # Partners share every result; the two teams' wins add up to the games (no draw here).
    assert wins[0] == wins[2] == wins[4] and wins[1] == wins[3] == wins[5]
    assert wins[4] + wins[5] == 6
    assert lines[11] == "draws (over 200 turns): 0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--mode", "free_for_all", "--deck-a", "1", "--deck-b", "2"], "needs --deck-c"),
        (["--deck-a", "1", "--deck-b", "2", "--deck-c", "3"], "--mode duel takes no --deck-c"),
        (
            ["--mode", "teams", "--deck-a", "1", "--deck-b", "2", "--deck-c", "3", "--deck-d",
             "4", "--agents", "greedy,greedy"],
            "--agents takes four agents separated by a comma, not 'greedy,greedy'",
        ),
    ],
)  # fmt: skip
def test_the_play_command_refuses_bad_four_player_input(args: list[str], message: str) -> None:
    done = _play(*args)
    assert done.returncode == 2
    assert message in done.stderr
