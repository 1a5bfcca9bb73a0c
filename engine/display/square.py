"""The four-player table drawn as a square (issue 29): four Kingdoms at the corners, a line
along each side between the two neighbours that share it.

Around the table each player shares a line with the next (rule `multiplayer`, docs/rulings.md
P1: A–B, B–C, C–D, D–A; `engine.rules.modes.FOUR_PLAYERS`), so the seats go round the corners
clockwise in the order of their letters, the observer's at the bottom left (a spectator sees A
at the top left), and each line lies along the side between its two seats' corners.
"""

from dataclasses import replace
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # the board builds its square with this module
    from engine.display.board import Board

# The corners, clockwise from the top left.
CORNERS: Final = ("nw", "ne", "se", "sw")
# The side between two corners (by their indexes in CORNERS), and on it, the corner whose half of
# the line comes first: the left one along a horizontal side, the upper one along an upright side.
SIDES: Final = {
    frozenset({0, 1}): ("top", 0),
    frozenset({1, 2}): ("right", 1),
    frozenset({2, 3}): ("bottom", 3),
    frozenset({3, 0}): ("left", 0),
}
OBSERVER_CORNER: Final = 3


def squared(board: "Board", observer: int) -> "Board":
    """`board` of four seats with each seat's corner and each line's side (and whether its
    right half comes first there) for `observer`'s seat (negative: a spectator); any other
    board as it is."""
    if len(board.seats) != len(CORNERS):
        return board
    anchor = observer if observer >= 0 else OBSERVER_CORNER
    letters = [seat.letter for seat in board.seats]

    def corner(letter: str) -> int:
        return (letters.index(letter) - anchor + OBSERVER_CORNER) % len(CORNERS)

    seats = tuple(replace(seat, corner=CORNERS[corner(seat.letter)]) for seat in board.seats)
    lines = []
    for line in board.lines:
        left, right = corner(line.left.seat), corner(line.right.seat)
        side, first = SIDES[frozenset({left, right})]
        lines.append(replace(line, side=side, flipped=right == first))
    return replace(board, seats=seats, lines=tuple(lines))
