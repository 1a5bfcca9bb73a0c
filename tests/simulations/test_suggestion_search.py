"""The race of "Improve this deck" (engine.suggestions.search), pure Python: paired intervals,
the rounds' decisions, the units' packing, common random numbers and determinism."""

import math
from typing import Any

import pytest

from engine.rules.cards import CardDef
from engine.suggestions import search
from engine.suggestions.search import Job, Racer


def card(name: str, cost: int = 3, attack: int = 2, hp: int = 3) -> dict[str, Any]:
    return {"name": name, "type": "creature", "cost": cost, "attack": attack, "hp": hp}


DECK = [card(f"Mine {i}", cost=1 + i % 6, attack=1 + i % 3, hp=2 + i % 4) for i in range(8)]
OTHER = [card(f"Theirs {i}", cost=1 + i % 5, attack=2 + i % 3, hp=2 + i % 3) for i in range(8)]
INCOMING = {"big": card("Big", cost=4, attack=6, hp=7), "small": card("Small", 1, 0, 1)}
SLUGS = [f"mine-{i}" for i in range(8)]


def spec() -> search.SearchSpec:
    return search.SearchSpec.from_json(
        cards=DECK, slugs=SLUGS, incoming=INCOMING, opponents=[OTHER, OTHER[::-1]]
    )


def test_paired_change_is_agresti_and_mins_interval() -> None:
    change = search.paired_change("wwld", "wlld")
    # Differences 0, 1, 0, 0: one pseudo-game won by each side, then mean ± 1.96 sd / sqrt(6).
    mean, variance = 1 / 6, (1 + 2) / 6 - (1 / 6) ** 2
    half = search.Z * math.sqrt(variance / 6)
    assert change.games == 4
    assert change.change == 0.25
    assert change.rate == 0.625 and change.base_rate == 0.375
    assert change.low == pytest.approx(mean - half)
    assert change.high == pytest.approx(mean + half)
    assert not change.better and not change.worse
    assert search.paired_change("w" * 40, "l" * 40).better
    assert search.paired_change("l" * 40, "w" * 40).worse
    # Equal games make an interval around 0, not a point.
    same = search.paired_change("wl" * 20, "wl" * 20)
    assert same.change == 0 and same.low < 0 < same.high


def test_race_z_corrects_for_the_candidates_racing() -> None:
    assert search.race_z(1) == pytest.approx(1.959964, abs=1e-5)
    assert search.race_z(96) == pytest.approx(3.4698, abs=1e-3)


def test_a_card_brought_in_takes_the_place_of_the_card_it_replaces() -> None:
    deck = spec().deck((("mine-2", "big"), ("mine-5", "small")))
    assert [one.name for one in deck] == [
        "Mine 0", "Mine 1", "Big", "Mine 3", "Mine 4", "Small", "Mine 6", "Mine 7",
    ]  # fmt: skip


def test_games_have_the_same_seeds_for_every_candidate() -> None:
    """Common random numbers: the deck played again gives the same results game by game, and a
    search replays the same games from its seed."""
    played = spec()
    first = search.play(played.deck(()), played.opponents, "greedy", 11, search.SCREEN, 0, 24)
    again = search.play(played.deck(()), played.opponents, "greedy", 11, search.SCREEN, 0, 24)
    later = search.play(played.deck(()), played.opponents, "greedy", 11, search.SCREEN, 12, 12)
    assert first is not None and later is not None
    assert first == again
    assert [row[12:] for row in first] == later
    assert len(first) == 2 and all(len(row) == 24 and set(row) <= {"w", "l", "d"} for row in first)
    other = search.play(played.deck(()), played.opponents, "greedy", 11, 1, 0, 24)
    assert other != first  # a confirmation's stream plays other games


def test_play_stops_when_asked() -> None:
    played = spec()
    calls = []

    def keep_going() -> bool:
        calls.append(1)
        return len(calls) < 5

    assert search.play(played.deck(()), played.opponents, "greedy", 1, 0, 0, 10, keep_going) is None
    assert len(calls) == 5


def test_units_pack_the_jobs_within_their_size() -> None:
    jobs = [Job(0, 0, 0, 40), Job(1, 0, 10, 30), Job(2, 1, 0, 5)]
    units = search.pack(jobs, opponents=2, unit_games=60)
    # 30 games per opponent per unit, never a piece under 8 games unless the job is smaller.
    assert units == [
        [Job(0, 0, 0, 30)],
        [Job(0, 0, 30, 10), Job(1, 0, 10, 20)],
        [Job(1, 0, 30, 10), Job(2, 1, 0, 5)],
    ]
    assert sum(job.count for unit in units for job in unit) == 75


def test_merge_grows_the_strings_game_by_game() -> None:
    racer = Racer(1, (("a", "b"),), search.RACING)
    search.merge(racer, 0, 0, ["ww", "ll"])
    search.merge(racer, 0, 2, ["l", "d"])
    assert racer.results == {0: ["wwl", "lld"]}
    assert racer.games() == 3


def racer(index: int, swaps: search.Swaps, rows: list[str], status: str = search.RACING) -> Racer:
    return Racer(index, swaps, status, {search.SCREEN: rows})


def no_swaps(proposed: list[search.Swaps]) -> list[search.Swaps]:
    return []


def test_the_scouting_keeps_the_best_cards_and_tries_them_in_every_slot() -> None:
    games = search.SCOUT_TARGET
    base = racer(0, (), ["l" * games], search.BASE)
    scouts = [
        racer(1, (("x", "great"),), ["w" * games]),
        racer(2, (("x", "good"),), ["w" * (games - 2) + "ll"]),
        racer(3, (("x", "bad"),), ["l" * games]),
    ]
    asked: list[list[search.Swaps]] = []

    def legal(proposed: list[search.Swaps]) -> list[search.Swaps]:
        asked.append(proposed)
        return [swaps for swaps in proposed if swaps != (("z", "good"),)]

    plan = search.close_round(
        [base, *scouts],
        round_=0,
        opponents=1,
        outs=["x", "y", "z"],
        pairs_added=False,
        budget=10**6,
        legal=legal,
    )
    # Better than the deck even with the interval corrected for 3 racing: confirmed; the bad
    # one is worse than the leader.
    assert [one.status for one in plan.racers[1:4]] == [
        search.CONFIRMING, search.CONFIRMING, search.BEHIND,
    ]  # fmt: skip
    assert plan.kept == ("great", "good")
    assert asked == [[(("y", "great"),), (("z", "great"),), (("y", "good"),), (("z", "good"),)]]
    assert [(one.index, one.swaps) for one in plan.racers[4:]] == [
        (4, (("y", "great"),)), (5, (("z", "great"),)), (6, (("y", "good"),)),
    ]  # fmt: skip
    assert plan.target == search.FIRST_TARGET
    confirm = search.confirm_games(1)
    assert plan.jobs == (
        Job(0, 0, games, search.FIRST_TARGET - games),
        Job(4, 0, 0, search.FIRST_TARGET),
        Job(5, 0, 0, search.FIRST_TARGET),
        Job(6, 0, 0, search.FIRST_TARGET),
        Job(0, 1, 0, confirm),
        Job(1, 1, 0, confirm),
        Job(0, 2, 0, confirm),
        Job(2, 2, 0, confirm),
    )


def test_a_round_stops_the_worse_and_confirms_the_better() -> None:
    n = 64
    base = racer(0, (), ["wl" * (n // 2)], search.BASE)
    racers = [
        base,
        racer(1, (("a", "p"),), ["w" * n]),
        racer(2, (("a", "q"),), ["l" * n]),
        racer(3, (("b", "r"),), ["wl" * (n // 2)]),
    ]
    plan = search.close_round(
        racers, round_=2, opponents=1, outs=["a", "b"], pairs_added=True, budget=10**6,
        legal=no_swaps,
    )  # fmt: skip
    assert [(one.status, one.settled_round) for one in plan.racers[1:]] == [
        (search.CONFIRMING, None), (search.WORSE, 2), (search.BEHIND, 2),
    ]  # fmt: skip
    assert plan.racers[1].confirm_stream == 1


def test_successive_halving_keeps_the_better_half() -> None:
    n = 64
    base = racer(0, (), ["wl" * (n // 2)], search.BASE)
    # Ten candidates a game or two apart: none proved worse than another, nor than the deck.
    racers = [base] + [
        racer(1 + i, (("b", f"r{i}"),), ["w" * (n // 2 + i % 3) + "l" * (n // 2 - i % 3)])
        for i in range(10)
    ]
    plan = search.close_round(
        racers, round_=2, opponents=1, outs=["b"], pairs_added=True, budget=10**6,
        legal=no_swaps,
    )  # fmt: skip
    # The best change first: the three +2, then two of the three +1 (ties: the earlier).
    kept = [one.index for one in plan.racers if one.status == search.RACING]
    cut = [one.index for one in plan.racers if one.status == search.CUT]
    assert kept == [2, 3, 5, 6, 9]
    assert cut == [1, 4, 7, 8, 10]
    assert plan.target == search.target(3) == 128
    assert plan.jobs[0] == Job(0, 0, n, 128 - n)


def test_a_confirmation_proves_or_not() -> None:
    confirm = search.confirm_games(1)
    base = Racer(0, (), search.BASE, {0: ["l" * 32], 1: ["l" * confirm], 2: ["w" * confirm]})
    proved = Racer(1, (("a", "b"),), search.CONFIRMING, {0: ["w" * 32], 1: ["w" * confirm]}, 1)
    lucky = Racer(2, (("a", "c"),), search.CONFIRMING, {0: ["w" * 32], 2: ["w" * confirm]}, 2)
    plan = search.close_round(
        [base, proved, lucky], round_=1, opponents=1, outs=["a"], pairs_added=True,
        budget=10**6, legal=no_swaps,
    )  # fmt: skip
    assert [one.status for one in plan.racers[1:]] == [search.PROVED, search.UNPROVED]
    assert plan.done
    assert search.verdict(plan.racers[1], base).games == confirm


def test_pairs_join_once_the_singles_narrowed() -> None:
    n = 32
    base = racer(0, (), ["l" * n], search.BASE)
    singles = [
        racer(1, (("a", "p"),), ["w" * (n // 2) + "l" * (n // 2)]),
        racer(2, (("b", "q"),), ["w" * (n // 4) + "l" * (3 * n // 4)]),
        racer(3, (("a", "q"),), ["w" * (n // 8) + "l" * (7 * n // 8)]),
    ]
    plan = search.close_round(
        [base, *singles], round_=1, opponents=1, outs=["a", "b"], pairs_added=False,
        budget=10**6, legal=lambda proposed: list(proposed),
    )  # fmt: skip
    assert plan.pairs_added
    # Only p and q in two different slots make a pair (a->q shares a card with each).
    assert [one.swaps for one in plan.racers[4:]] == [(("a", "p"), ("b", "q"))]
    assert Job(4, 0, 0, search.target(2)) in plan.jobs


def test_the_budget_ends_the_race() -> None:
    base = racer(0, (), ["wl" * 16], search.BASE)
    racers = [base, *(racer(i, (("a", f"c{i}"),), ["wl" * 16]) for i in range(1, 6))]
    plan = search.close_round(
        racers, round_=1, opponents=1, outs=["a"], pairs_added=True, budget=10, legal=no_swaps
    )
    assert plan.done
    # Halving cut one of the five first; the round of the four left did not fit.
    assert [one.status for one in plan.racers[1:]] == [search.UNDECIDED] * 4 + [search.CUT]


def test_the_last_round_leaves_the_undecided() -> None:
    n = search.MAX_TARGET
    base = racer(0, (), ["wl" * (n // 2)], search.BASE)
    even = racer(1, (("a", "b"),), ["wl" * (n // 2)])
    last = next(r for r in range(20) if search.target(r) == search.MAX_TARGET)
    plan = search.close_round(
        [base, even], round_=last, opponents=1, outs=["a"], pairs_added=True, budget=10**6,
        legal=no_swaps,
    )  # fmt: skip
    assert plan.racers[1].status == search.UNDECIDED
    assert plan.done


def test_card_json_is_read_as_the_engine_reads_it() -> None:
    played = spec()
    assert played.incoming["big"] == CardDef.from_json(INCOMING["big"], "big")
    assert len(played.opponents) == 2 and len(played.cards) == 8
