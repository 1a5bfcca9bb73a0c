"""The board's view object: lines as the rulebook lays them out, hands, who is to play."""

from dataclasses import replace

from django.utils.safestring import mark_safe

from engine.board import BoardView, CardFace, board_view
from engine.simulation import CreatureView, PlayerView


def _player(seat: str, deck: int, lines: tuple[tuple[str, ...], ...]) -> PlayerView:
    return PlayerView(
        seat=seat, deck=deck, hand=("H1", "H2", "H3", "H4", "H5"), stronghold_at=2, fort=False,
        hp=6, mana=7, champion=None, champion_ready=False,
        lines=tuple(
            tuple(CreatureView(name, 2, 3, 1, None, False) for name in line) for line in lines
        ),
    )  # fmt: skip


def _faces(*names: str) -> dict[str, CardFace]:
    return {name: CardFace(name.lower(), mark_safe(""), 1, 2, 3) for name in names}


def _halves(board: BoardView) -> list[tuple[str, tuple[str, ...], str, tuple[str, ...]]]:
    return [
        (
            line.name,
            tuple(c.face.name for c in line.left.creatures),
            line.right.seat,
            tuple(c.face.name for c in line.right.creatures),
        )
        for line in board.lines
    ]


def test_a_duel_has_the_first_seat_left_of_both_bridges() -> None:
    players = [_player("A", 1, (("A1", "A2"), ())), _player("B", 0, (("B1",), ("B2",)))]
    board = board_view(
        players, faces=_faces("A1", "A2", "B1", "B2", "H1"), titles=["Deck B", "Deck A"],
        active=1, hidden_hands={0},
    )  # fmt: skip
    assert _halves(board) == [
        ("Top line", ("a1", "a2"), "B", ("b1",)),
        ("Bottom line", (), "B", ("b2",)),
    ]
    assert [line.left.title for line in board.lines] == ["Deck B", "Deck B"]
    first, second = board.seats
    assert (first.active, first.mana, second.active, second.mana) == (False, None, True, 7)
    # Seat A's hand shows backs; the Stronghold sits after 2 cards; only the player to play has
    # its 4 leftmost cards marked as available.
    assert [(slot.face, slot.stronghold) for slot in first.hand] == [
        (None, False), (None, False), (None, True), (None, False), (None, False), (None, False),
    ]  # fmt: skip
    assert [slot.face.name if slot.face else "SH" for slot in second.hand] == [
        "h1", "H2", "SH", "H3", "H4", "H5",
    ]  # fmt: skip
    assert [slot.available for slot in second.hand] == [True, True, False, True, True, False]
    assert not any(slot.available for slot in first.hand)


def test_four_players_share_four_lines_as_the_rulebook_seats_them() -> None:
    players = [
        _player(seat, index, ((f"{seat}up",), (f"{seat}down",)))
        for index, seat in enumerate("ABCD")
    ]
    board = board_view(players, faces={}, titles=list("ABCD"), active=None)
    # A's upper line with B, C's with D; A's lower line with D, C's with B (rule multiplayer).
    assert [(line.left.seat, line.right.seat) for line in board.lines] == [
        ("A", "B"), ("C", "D"), ("A", "D"), ("B", "C"),
    ]  # fmt: skip
    assert [line.name for line in board.lines] == ["Line 1", "Line 2", "Line 3", "Line 4"]
    assert _halves(board)[2] == ("Line 3", ("Adown",), "D", ("Ddown",))
    assert not any(seat.active for seat in board.seats)


def test_solo_ai_shows_its_piles_instead_of_a_hand() -> None:
    player = _player("A", 0, (("A1",), ()))
    ai = replace(
        _player("B", 1, ((), ("B1",))), hand=(), stronghold_at=0, pile=17, discard=("D2", "D1")
    )
    board = board_view(
        [player, ai], faces=_faces("A1", "B1", "D1", "D2", "H1"), titles=["Deck A", "The AI"],
        active=1,
    )  # fmt: skip
    first, second = board.seats
    assert (first.pile, first.discard, len(first.hand)) == (None, (), 6)
    assert (second.pile, [face.name for face in second.discard], second.hand) == (
        17, ["d2", "d1"], (),
    )  # fmt: skip
    assert (second.hp, second.mana) == (6, 7)
    assert _halves(board) == [("Top line", ("a1",), "B", ()), ("Bottom line", (), "B", ("b1",))]
