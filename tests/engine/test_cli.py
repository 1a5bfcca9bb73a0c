"""The play command line: output, and bad input refused with a message and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules.play import wilson

ROOT = Path(__file__).resolve().parents[2]


def _play(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.rules.play", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_win_rates_with_wilson_intervals() -> None:
    done = _play(
        "--deck-a",
        "1",
        "--deck-b",
        "4",
        "--agents",
        "greedy,random",
        "--games",
        "30",
        "--seed",
        "5",
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "A: greedy with preconstructed deck 1\n"
        "B: random with preconstructed deck 4\n"
        "30 games, seed 5, Exhaustion off, 8.4 turns per game\n"
        "A greedy       30 wins  100.0%  95% CI  88.6% - 100.0%\n"
        "B random        0 wins    0.0%  95% CI   0.0% -  11.4%\n"
        "draws (over 200 turns): 0\n"
    )


def test_names_in_french_and_any_case(tmp_path: Path) -> None:
    deck = "baron,BRUTE,carapace,troll,revenant,partisan,annihilation,Boom!"
    done = _play(
        "--deck-a",
        deck,
        "--deck-b",
        "dragon émeraude,Crocozaure,naga,titan,specter,reaper,growler,dragonet",
        "--games",
        "2",
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[:2] == ["A: greedy with custom", "B: greedy with custom"]


def test_a_deck_file_with_a_mutated_card(tmp_path: Path) -> None:
    path = tmp_path / "mutated.json"
    cards = ["Brute", "Carapace", "Troll", "Revenant", "Partisan", "Annihilation", "Boom!"]
    path.write_text(
        json.dumps([{"name": "Baron", "type": "creature", "cost": 3, "attack": 4, "hp": 6}, *cards])
    )
    done = _play("--deck-a", str(path), "--deck-b", "2", "--games", "2")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == f"A: greedy with {path}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--deck-a", "Barn,Brute", "--deck-b", "2"],
            "error: --deck-a: unknown card 'Barn'; did you mean 'Baron'?",
        ),
        (
            ["--deck-a", "1", "--deck-b", "Trol"],
            "error: --deck-b: unknown card 'Trol'; did you mean 'Troll', 'Patroller'?",
        ),
        (
            ["--deck-a", "Baron,Brute", "--deck-b", "2"],
            "error: --deck-a: 2 cards; a deck holds exactly 8 different cards",
        ),
        (
            [
                "--deck-a",
                "Baron,Brute,Carapace,Troll,Revenant,Partisan,Boom!,baron",
                "--deck-b",
                "2",
            ],
            "error: --deck-a: duplicate card 'Baron' (a deck holds 8 different cards)",
        ),
        (
            ["--deck-a", "7", "--deck-b", "2"],
            "error: --deck-a: there is no preconstructed deck 7 (choose 1, 2, 3 or 4)",
        ),
        (
            ["--deck-a", "1", "--deck-b", "2", "--agents", "greedy,smart"],
            "error: unknown agent 'smart' "
            "(choose from random, greedy, lookahead, strong, learned, learned_deep)",
        ),
        (
            ["--deck-a", "1", "--deck-b", "2", "--agents", "greedy"],
            "error: --agents takes two agents separated by a comma, not 'greedy'",
        ),
        (["--deck-a", "1", "--deck-b", "2", "--games", "0"], "error: --games must be at least 1"),
        (
            ["--deck-a", "1", "--deck-b", "2", "--games", "x"],
            "error: argument --games: invalid int value: 'x'",
        ),
        (["--deck-b", "2"], "error: give --deck-a and --deck-b, or --draft"),
        (
            ["--draft", "00", "--deck-a", "1"],
            "error: --draft drafts the decks: give no --deck-* or --champion-*",
        ),
        (
            ["--draft", "00", "--drafters", "price"],
            "error: --drafters takes two drafters separated by a comma, not 'price'",
        ),
        (
            ["--draft", "00", "--drafters", "price,best"],
            "error: unknown drafter 'best' (choose from price, simulated)",
        ),
        (["--draft", "00,00"], "error: --draft: name each expansion of the pool once: '00,00'"),
        (
            ["--draft", "09"],
            "error: --draft: no expansion '09' "
            "(choose from 00, 01, 02, 03, 04, 05, 06, 11, 12, 13, 14)",
        ),
        (
            ["--deck-a", "missing.json", "--deck-b", "2"],
            "error: --deck-a: cannot read missing.json (No such file or directory)",
        ),
    ],
)
def test_bad_input(args: list[str], message: str) -> None:
    done = _play(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")


def test_draft_games_draft_each_games_decks_then_play_them() -> None:
    done = _play("--draft", "00", "--drafters", "price,simulated", "--games", "6", "--seed", "3")
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        "A: greedy with decks drafted by price from pool 00",
        "B: greedy with decks drafted by simulated from pool 00",
        lines[2],
    ]
    assert lines[2].startswith("6 games, seed 3, Exhaustion off, ")
    wins = [int(line.split()[2]) for line in lines[3:5]]
    draws = int(lines[5].rsplit(" ", 1)[1])
    assert sum(wins) + draws == 6
    assert (
        _play(
            "--draft", "00", "--drafters", "price,simulated", "--games", "6", "--seed", "3"
        ).stdout
        == done.stdout
    )


def test_unknown_ability_code_in_a_deck_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(
        json.dumps([{"name": "X", "type": "creature", "cost": 1, "hp": 1, "abilities": ["splsh"]}])
    )
    done = _play("--deck-a", str(path), "--deck-b", "2")
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "error: --deck-a: card 0: unknown ability code 'splsh' on card 'X'; "
        "did you mean 'splash'?\n",
    )


def test_wilson_interval() -> None:
    low, high = wilson(29, 30)
    assert (round(low, 4), round(high, 4)) == (0.8333, 0.9941)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)


def test_champions_by_name_or_json_file(tmp_path: Path) -> None:
    path = tmp_path / "asa.json"
    path.write_text(
        json.dumps(
            {"name": "Åsa", "cost": 5, "attack": 5, "hp": 5, "abilities": ["splash", "aura:rage"]}
        ),
        encoding="utf-8",
    )
    done = _play(
        *("--deck-a", "1", "--deck-b", "4", "--agents", "greedy,random", "--games", "30"),
        *("--seed", "5", "--champion-a", "titan", "--champion-b", str(path)),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "A: greedy with preconstructed deck 1, Champion Titan\n"
        "B: random with preconstructed deck 4, Champion Åsa\n"
        "30 games, seed 5, Exhaustion off, 7.9 turns per game\n"
        "A greedy       29 wins   96.7%  95% CI  83.3% -  99.4%\n"
        "B random        1 wins    3.3%  95% CI   0.6% -  16.7%\n"
        "draws (over 200 turns): 0\n"
    )


@pytest.mark.parametrize(
    ("champion", "message"),
    [
        ("Boom!", "error: --champion-a: 'Boom!' is an incantation; a Champion is a creature"),
        ("Titn", "error: --champion-a: unknown card 'Titn'; did you mean 'Titan'?"),
        ("Baron", "error: champion of player A: 'Baron' has the name of a card of deck A"),
        (
            "missing.json",
            "error: --champion-a: cannot read missing.json (No such file or directory)",
        ),
    ],
)
def test_bad_champions(champion: str, message: str) -> None:
    done = _play("--deck-a", "1", "--deck-b", "4", "--champion-a", champion)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message + "\n")
