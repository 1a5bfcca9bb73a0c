"""Elo ratings with their intervals from a round robin's results (pure Python, no Django).

The Bradley-Terry model: deck i beats deck j with probability 1 / (1 + 10^((Rj - Ri) / 400)),
Ri being the Elo rating. Its maximum likelihood over every pair's results (a draw counts half a
win to each) is found by Newton's method; the ratings' covariance is the inverse of the
likelihood's curvature (the Fisher information) on ratings whose mean is fixed at ``MEAN``, and
a rating's 95% interval is 1.96 of its standard deviation either side. Each pair played gets
``PRIOR_GAMES`` more games, half won by each deck, so that a deck that won every game has a
finite rating.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

MEAN: Final = 1500.0
# Elo points per unit of the logistic model's log-odds.
SCALE: Final = 400 / math.log(10)
PRIOR_GAMES: Final = 1.0
Z: Final = 1.959964
MAX_STEPS: Final = 100
TOLERANCE: Final = 1e-10


@dataclass(frozen=True)
class PairResult:
    """Games between decks ``a`` and ``b`` (indexes) and what ``a`` scored in them."""

    a: int
    b: int
    games: int
    score: float  # wins of a, plus half its draws


@dataclass(frozen=True)
class Rating:
    elo: float
    low: float
    high: float


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector (Gauss-Jordan with partial pivoting; the matrix is small)."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for row in range(size):
            if row != column and rows[row][column]:
                factor = rows[row][column]
                rows[row] = [
                    value - factor * top for value, top in zip(rows[row], rows[column], strict=True)
                ]
    return [rows[i][size] for i in range(size)]


def _information(decks: int, pairs: Sequence[PairResult], theta: list[float]) -> list[list[float]]:
    """The curvature of the log-likelihood, plus the mean's constraint (all ones / decks), which
    makes it invertible when the pairs connect every deck."""
    matrix = [[1.0 / decks] * decks for _ in range(decks)]
    for pair in pairs:
        p = 1 / (1 + math.exp(theta[pair.b] - theta[pair.a]))
        weight = (pair.games + PRIOR_GAMES) * p * (1 - p)
        matrix[pair.a][pair.a] += weight
        matrix[pair.b][pair.b] += weight
        matrix[pair.a][pair.b] -= weight
        matrix[pair.b][pair.a] -= weight
    return matrix


def ratings(decks: int, pairs: Sequence[PairResult]) -> list[Rating]:
    """Each deck's Elo rating (mean ``MEAN``) with its 95% interval; the pairs must connect
    every deck (a round robin does)."""
    if decks == 1:
        return [Rating(MEAN, MEAN, MEAN)]
    theta = [0.0] * decks
    for _step in range(MAX_STEPS):
        gradient = [0.0] * decks
        for pair in pairs:
            p = 1 / (1 + math.exp(theta[pair.b] - theta[pair.a]))
            observed = pair.score + PRIOR_GAMES / 2
            expected = (pair.games + PRIOR_GAMES) * p
            gradient[pair.a] += observed - expected
            gradient[pair.b] -= observed - expected
        step = _solve(_information(decks, pairs, theta), gradient)
        theta = [value + change for value, change in zip(theta, step, strict=True)]
        mean = sum(theta) / decks
        theta = [value - mean for value in theta]
        if max(abs(change) for change in step) < TOLERANCE:
            break
    information = _information(decks, pairs, theta)
    result = []
    for deck in range(decks):
        unit = [1.0 if row == deck else 0.0 for row in range(decks)]
        # The covariance on the ratings of fixed mean: the inverse, less the mean's direction.
        variance = max(0.0, _solve(information, unit)[deck] - 1.0 / decks)
        half = Z * math.sqrt(variance) * SCALE
        elo = MEAN + theta[deck] * SCALE
        result.append(Rating(elo, elo - half, elo + half))
    return result
