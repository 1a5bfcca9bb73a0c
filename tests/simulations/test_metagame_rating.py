"""Elo ratings with intervals from a round robin (engine.metagame.rating), pure Python."""

import math

import pytest

from engine.metagame.rating import MEAN, PRIOR_GAMES, SCALE, PairResult, Z, ratings


def test_even_decks_rate_the_mean() -> None:
    rated = ratings(
        3, [PairResult(0, 1, 100, 50), PairResult(0, 2, 100, 50), PairResult(1, 2, 100, 50)]
    )
    assert [round(one.elo, 6) for one in rated] == [MEAN, MEAN, MEAN]
    assert rated[0].low < MEAN < rated[0].high


def test_two_decks_match_the_closed_form() -> None:
    """Deck 0 scores 75 of 100: its rating is 400 log10(p / (1 - p)) above deck 1's, with p the
    score once the prior's game (half won by each) is added; the difference's variance is
    1 / (n p (1 - p)) and each deck's, with the mean fixed, a quarter of it."""
    rated = ratings(2, [PairResult(0, 1, 100, 75)])
    games = 100 + PRIOR_GAMES
    p = (75 + PRIOR_GAMES / 2) / games
    assert rated[0].elo - rated[1].elo == pytest.approx(400 * math.log10(p / (1 - p)))
    assert rated[0].elo + rated[1].elo == pytest.approx(2 * MEAN)
    half = Z * SCALE * math.sqrt(1 / (games * p * (1 - p)) / 4)
    assert rated[0].high - rated[0].elo == pytest.approx(half)
    assert rated[0].elo - rated[0].low == pytest.approx(half)


def test_a_deck_that_won_every_game_has_a_finite_rating() -> None:
    rated = ratings(2, [PairResult(0, 1, 40, 40)])
    assert math.isfinite(rated[0].elo) and rated[0].elo > rated[1].elo


def test_ratings_follow_the_order_of_strength() -> None:
    pairs = [
        PairResult(0, 1, 200, 140),
        PairResult(0, 2, 200, 170),
        PairResult(1, 2, 200, 130),
    ]
    rated = ratings(3, pairs)
    assert rated[0].elo > rated[1].elo > rated[2].elo
    assert sum(one.elo for one in rated) == pytest.approx(3 * MEAN)
