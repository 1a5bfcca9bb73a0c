"""The strength ladder: the round-robin's games, the Elo fit, its JSON (engine/rules/ladder.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules.ai_options import AiOptions
from engine.rules.cards import load_catalogue
from engine.rules.ladder import (
    RULES_CLOCK,
    PairResult,
    bradley_terry,
    fixtures,
    main,
    ratings,
    report,
    round_robin,
)


def test_bradley_terry_with_a_virtual_draw_per_pair() -> None:
    # a won 3 of 4: 3.5 to 1.5 with the virtual draw, 400 * log10(3.5 / 1.5) = 147.2 points apart.
    elo = bradley_terry(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0})
    assert round(elo["a"], 1) == 1573.6
    assert round(elo["b"], 1) == 1426.4
    # An agent that won every game still gets a finite rating: 10.5 to 0.5.
    elo = bradley_terry(["a", "b"], {("a", "b"): 10.0, ("b", "a"): 0.0})
    assert round(elo["a"] - elo["b"], 1) == 528.9


def test_bradley_terry_three_agents_in_a_cycle_are_equal() -> None:
    wins = {("a", "b"): 2.0, ("b", "a"): 1.0, ("b", "c"): 2.0, ("c", "b"): 1.0}
    wins |= {("c", "a"): 2.0, ("a", "c"): 1.0}
    elo = bradley_terry(["a", "b", "c"], wins)
    assert [round(elo[name], 6) for name in "abc"] == [1500.0, 1500.0, 1500.0]


def test_ratings_intervals_contain_the_fit_and_are_seeded() -> None:
    results = [PairResult("a", "b", [1.0] * 20 + [0.0] * 10 + [0.5] * 2)]
    rated = ratings(["a", "b"], results)
    for elo, low, high in rated.values():
        assert low <= elo <= high
        assert high - low > 50
    assert rated == ratings(["a", "b"], results)


def test_round_robin_swaps_seats_on_every_deck_pair() -> None:
    clock: dict[str, list[float]] = {}
    results = round_robin(["random", "greedy"], seed=2, games=1, clock=clock)
    assert len(results) == 1
    pair = results[0]
    assert (pair.a, pair.b) == ("random", "greedy")
    # 16 ordered deck pairs, each played with each agent seated A once.
    assert len(pair.scores) == 32
    assert pair.a_wins + pair.b_wins + pair.draws == 32
    assert pair.b_wins > pair.a_wins
    assert clock["greedy"][1] > 0 and clock["random"][1] > 0
    # Each agent played the 32 games; the rules' time of those games is counted apart.
    assert clock["greedy"][2] == clock["random"][2] == clock[RULES_CLOCK][2] == 32
    assert clock[RULES_CLOCK][0] > 0
    ladder = report(["random", "greedy"], results, 2, 1, clock)
    greedy = ladder["agents"][0]
    assert greedy["ms_per_game"] == round(1000 * clock["greedy"][0] / 32, 3)
    assert ladder["rules_ms_per_game"] == round(1000 * clock[RULES_CLOCK][0] / 32, 3)
    assert [agent["name"] for agent in ladder["agents"]] == ["greedy", "random"]
    assert ladder["pairs"][0]["games"] == 32


@pytest.mark.parametrize("seed", [1, 2])
def test_the_ladder_orders_the_fast_agents_on_two_seeds(seed: int, tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    assert main(["--agents", "random,greedy", "--seed", str(seed), "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [agent["name"] for agent in data["agents"]] == ["greedy", "random"]
    assert data["seed"] == seed
    low = data["agents"][0]["elo_low"]
    assert low > data["agents"][1]["elo"]


LEVELS = {1: AiOptions(fixed_mana=7), 10: AiOptions(fixed_mana=10, resistance=True)}


@pytest.mark.parametrize(
    ("mode", "per_round", "seats"),
    [("duel", 32, 2), ("free_for_all", 8, 4), ("teams", 8, 4), ("solo", 4, 2), ("coop", 6, 4)],
)
def test_each_mode_has_its_fixtures(mode: str, per_round: int, seats: int) -> None:
    table = fixtures(
        mode, load_catalogue(), 2, 5, AiOptions() if mode in ("solo", "coop") else None
    )
    assert len(table) == 2 * per_round
    assert {len(fixture.decks) for fixture in table} == {seats}
    if mode in ("duel", "free_for_all", "teams"):
        # Each side plays every deal from both sides of the table.
        assert sum(fixture.sides[0] == 0 for fixture in table) == per_round
    else:
        # The agent's seats, then the automaton's.
        assert {fixture.sides for fixture in table} == {(0, 1) if seats == 2 else (0, 1, 0, 1)}
    assert len({fixture.seed for fixture in table}) == len(table) // (
        2 if mode in ("duel", "free_for_all", "teams") else 1
    )


def test_the_solo_ladder_rates_agents_against_the_automaton_levels() -> None:
    clock: dict[str, list[float]] = {}
    results = round_robin(["random", "greedy"], 3, 2, clock=clock, mode="solo", levels=LEVELS)
    assert [(pair.a, pair.b, len(pair.scores)) for pair in results] == [
        ("random", "automaton-1", 8),
        ("greedy", "automaton-1", 8),
        ("random", "automaton-10", 8),
        ("greedy", "automaton-10", 8),
    ]
    # One agent seat a game: the automaton's turns are the rules' time.
    assert clock["greedy"][2] == clock["random"][2] == 16
    assert clock[RULES_CLOCK][2] == 32
    ladder = report(["random", "greedy"], results, 3, 2, clock, "solo")
    assert (ladder["mode"], ladder["seats"]) == ("solo", 1)
    elos = [agent["elo"] for agent in ladder["agents"]]
    assert sorted(agent["name"] for agent in ladder["agents"]) == ["greedy", "random"]
    assert elos == sorted(elos, reverse=True)
    assert sorted(o["name"] for o in ladder["opponents"]) == ["automaton-1", "automaton-10"]
    assert all("ms_per_game" not in o for o in ladder["opponents"])


def test_a_four_player_ladder_counts_the_winning_seat_side() -> None:
    clock: dict[str, list[float]] = {}
    results = round_robin(["random", "greedy"], 4, 2, clock=clock, mode="teams")
    pair = results[0]
    assert len(pair.scores) == 16
    # Two seats each a game.
    assert clock["greedy"][2] == clock["random"][2] == 32
    assert pair.b_wins > pair.a_wins
    ladder = report(["random", "greedy"], results, 4, 2, clock, "teams")
    assert ladder["seats"] == 4
    assert [agent["name"] for agent in ladder["agents"]] == ["greedy", "random"]


def test_the_ladder_file_of_several_modes(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    levels = '{"1": {"fixed_mana": 7}}'
    args = ["--agents", "random,greedy", "--modes", "duel,solo", "--ai-levels", levels]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert [entry["mode"] for entry in data["modes"]] == ["duel", "solo"]
    assert [o["name"] for o in data["modes"][1]["opponents"]] == ["automaton-1"]
    with pytest.raises(SystemExit):
        main(["--agents", "random,greedy", "--modes", "solo"])
