"""The six rounds of a Mutation session and its standings, over seat numbers.

Four players, two duels a round, each pair meets twice: the three ways of pairing four seats
give rounds 1-3, and rounds 4-6 replay them with the seats swapped (the second leg).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mutation.draft import seat_numbers

ROUNDS = 6

# The three perfect matchings of four seats.
_FIRST_LEG: tuple[tuple[tuple[int, int], ...], ...] = (
    ((1, 2), (3, 4)),
    ((1, 3), (2, 4)),
    ((1, 4), (2, 3)),
)


@dataclass(frozen=True)
class Duel:
    round: int
    table: int
    seat_a: int
    seat_b: int


@dataclass(frozen=True)
class Result:
    winner: int
    loser: int


@dataclass(frozen=True)
class Standing:
    seat: int
    rank: int
    wins: int
    losses: int
    played: int
    tied: bool


def schedule() -> list[Duel]:
    """The 12 duels in play order: two per round, every pair of seats twice."""
    duels = []
    for leg in (0, 1):
        for offset, pairing in enumerate(_FIRST_LEG):
            round_number = leg * len(_FIRST_LEG) + offset + 1
            for table, (a, b) in enumerate(pairing, start=1):
                seat_a, seat_b = (a, b) if leg == 0 else (b, a)
                duels.append(Duel(round_number, table, seat_a, seat_b))
    return duels


def standings(results: Iterable[Result]) -> list[Standing]:
    """Ranked by wins; equal wins share the rank (1, 1, 3, 4) and the victory."""
    wins = dict.fromkeys(seat_numbers(), 0)
    losses = dict.fromkeys(seat_numbers(), 0)
    for result in results:
        wins[result.winner] += 1
        losses[result.loser] += 1
    order = sorted(seat_numbers(), key=lambda seat: (-wins[seat], seat))
    table = []
    for seat in order:
        better = sum(1 for other in order if wins[other] > wins[seat])
        tied = sum(1 for other in order if wins[other] == wins[seat]) > 1
        table.append(
            Standing(
                seat=seat,
                rank=better + 1,
                wins=wins[seat],
                losses=losses[seat],
                played=wins[seat] + losses[seat],
                tied=tied,
            )
        )
    return table


@dataclass(frozen=True)
class GridCell:
    """One row player against one column player: the outcome of each of their meetings."""

    opponent: int
    outcomes: tuple[str | None, ...]  # "W", "L" or None (not played yet), in round order

    @property
    def wins(self) -> int:
        return self.outcomes.count("W")


@dataclass(frozen=True)
class GridRow:
    seat: int
    cells: tuple[GridCell | None, ...]  # one per seat; None on the diagonal
    wins: int


def score_grid(duels: Sequence[Duel], winners: dict[tuple[int, int], int]) -> list[GridRow]:
    """The rulebook's score table: players down and across, each cell the two meetings.

    `winners` maps (round, table) to the winning seat of every game played so far.
    """
    rows = []
    for seat in seat_numbers():
        cells: list[GridCell | None] = []
        for opponent in seat_numbers():
            if opponent == seat:
                cells.append(None)
                continue
            outcomes = []
            for duel in duels:
                if {duel.seat_a, duel.seat_b} != {seat, opponent}:
                    continue
                winner = winners.get((duel.round, duel.table))
                outcomes.append(None if winner is None else "W" if winner == seat else "L")
            cells.append(GridCell(opponent, tuple(outcomes)))
        rows.append(
            GridRow(seat, tuple(cells), sum(cell.wins for cell in cells if cell is not None))
        )
    return rows
