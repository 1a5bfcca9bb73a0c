from collections import Counter
from itertools import combinations

from mutation.schedule import Duel, Result, Standing, schedule, score_grid, standings


def test_six_rounds_of_two_duels_where_each_pair_meets_twice() -> None:
    duels = schedule()
    assert len(duels) == 12
    assert Counter(duel.round for duel in duels) == {r: 2 for r in range(1, 7)}
    pairs = Counter(frozenset((duel.seat_a, duel.seat_b)) for duel in duels)
    assert pairs == {frozenset(pair): 2 for pair in combinations((1, 2, 3, 4), 2)}
    for round_number in range(1, 7):
        seats = [s for d in duels if d.round == round_number for s in (d.seat_a, d.seat_b)]
        assert sorted(seats) == [1, 2, 3, 4]


def test_the_second_leg_swaps_the_seats() -> None:
    duels = schedule()
    assert duels[:2] == [Duel(1, 1, 1, 2), Duel(1, 2, 3, 4)]
    assert duels[6:8] == [Duel(4, 1, 2, 1), Duel(4, 2, 4, 3)]
    assert duels[-1] == Duel(6, 2, 3, 2)


def test_standings_rank_by_wins_and_share_ties() -> None:
    results = [Result(1, 2), Result(3, 4), Result(1, 3), Result(4, 2), Result(2, 1), Result(3, 4)]
    assert standings(results) == [
        Standing(seat=1, rank=1, wins=2, losses=1, played=3, tied=True),
        Standing(seat=3, rank=1, wins=2, losses=1, played=3, tied=True),
        Standing(seat=2, rank=3, wins=1, losses=2, played=3, tied=True),
        Standing(seat=4, rank=3, wins=1, losses=2, played=3, tied=True),
    ]


def test_standings_before_any_game_put_everyone_first() -> None:
    assert [(s.seat, s.rank, s.tied) for s in standings([])] == [
        (1, 1, True),
        (2, 1, True),
        (3, 1, True),
        (4, 1, True),
    ]


def test_a_clear_order_has_no_tie() -> None:
    duels = schedule()
    # Seat 1 wins everything, then 2, then 3: the lower seat always wins.
    results = [Result(min(d.seat_a, d.seat_b), max(d.seat_a, d.seat_b)) for d in duels]
    assert [(s.seat, s.rank, s.wins, s.tied) for s in standings(results)] == [
        (1, 1, 6, False),
        (2, 2, 4, False),
        (3, 3, 2, False),
        (4, 4, 0, False),
    ]


def test_score_grid_shows_each_meeting_from_both_sides() -> None:
    duels = schedule()
    winners = {(1, 1): 1, (1, 2): 4, (4, 1): 2}
    grid = score_grid(duels, winners)
    assert [row.seat for row in grid] == [1, 2, 3, 4]
    row1 = grid[0]
    assert row1.cells[0] is None
    assert row1.cells[1].outcomes == ("W", "L")
    assert row1.cells[2].outcomes == (None, None)
    assert row1.wins == 1
    assert grid[1].cells[0].outcomes == ("L", "W")
    assert grid[3].cells[2].outcomes == ("W", None)
    assert [row.wins for row in grid] == [1, 1, 0, 1]
