"""The table's board built from one seat's view (play.board.seat_board): hands in order with the
Stronghold, backs for the others, the places a chosen card may go, four players' lines."""

from typing import Any

from play.board import Choice, TableBoard, seat_board


def _card(
    card: int, name: str, creature: bool = True, abilities: tuple[str, ...] = ()
) -> dict[str, Any]:
    return {
        "id": card, "name": name, "cost": 2, "attack": 3, "hp": 2 if creature else 0,
        "creature": creature, "abilities": list(abilities),
    }  # fmt: skip


def _creature(card: int, name: str, **extra: Any) -> dict[str, Any]:
    return {**_card(card, name), "damage": 0, "symbiote": None, "chained": [], **extra}


def _player(
    seat: str, hand: list[dict[str, Any]] | None, lines: list[list[dict[str, Any]]], count: int = 0
) -> dict[str, Any]:
    return {
        "seat": seat,
        "controller": "hand",
        "hand_count": count if hand is None else len(hand),
        "hand": hand,
        "stronghold": {"position": 1, "side": "bastion", "hit_points": 5},
        "mana": 4,
        "lines": lines,
        "champion": None,
        "champion_exhausted": False,
    }


def _duel(legal: list[dict[str, Any]]) -> dict[str, Any]:
    hand = [
        _card(1, "Leech", abilities=("symbiote",)),
        _card(2, "Spark", creature=False),
        _card(3, "Ox"),
        _card(4, "Yak"),
        _card(5, "Gnu"),
    ]
    wolf = _creature(10, "Wolf", chained=[_card(30, "Crow")])
    bear = _creature(20, "Bear", damage=1, symbiote=_card(21, "Tick", abilities=("symbiote",)))
    return {
        "active": "A",
        "phase": "summoning",
        "players": [_player("A", hand, [[wolf], []]), _player("B", None, [[bear], []], count=6)],
        "legal_actions": [{"kind": "assault", "card": -1, "arg": -1}, *legal],
    }


SYMBIOTE = [
    {"kind": "play", "card": 1, "arg": 0},
    {"kind": "play", "card": 1, "arg": 1},
    {"kind": "play_onto", "card": 1, "arg": 10},
]
SPARK = [{"kind": "cast", "card": 2, "arg": 10}, {"kind": "cast", "card": 2, "arg": 20}]


def _marked(board: TableBoard) -> list[tuple[str, str, Choice]]:
    """Every marked place: (line, "left"/"right" or a creature's name, its action)."""
    marked = []
    for line in board.lines:
        for side, half in (("left", line.left), ("right", line.right)):
            if half.choice:
                marked.append((line.name, side, half.choice))
            marked += [(line.name, c.face.name, c.choice) for c in half.creatures if c.choice]
    return marked


def test_my_hand_in_order_with_the_stronghold_the_other_hand_as_backs() -> None:
    board = seat_board(_duel(SYMBIOTE + SPARK), seat=0, titles=["Me", "Them"], chosen=None)
    mine, theirs = board.seats
    assert [s.card.face.name if s.card else s.stronghold for s in mine.hand] == [
        "Leech", True, "Spark", "Ox", "Yak", "Gnu"
    ]  # fmt: skip
    # The WINDOW (4) leftmost cards are available; only those with an action can be chosen.
    assert [s.card.available for s in mine.hand if s.card] == [True, True, True, True, False]
    assert [s.card.playable for s in mine.hand if s.card] == [True, True, False, False, False]
    assert [(s.card, s.stronghold) for s in theirs.hand] == [(None, False), (None, True)] + [
        (None, False)
    ] * 5
    assert (mine.active, theirs.active, theirs.hand_count) == (True, False, 6)
    bear = board.lines[0].right.creatures[0]
    assert (bear.damage, bear.symbiote and bear.symbiote.name) == (1, "Tick")
    assert board.lines[0].left.creatures[0].chained == ("Crow",)
    assert _marked(board) == [] and board.chosen is None


def test_a_chosen_symbiote_goes_on_my_lines_or_onto_my_creature() -> None:
    board = seat_board(_duel(SYMBIOTE + SPARK), seat=0, titles=["Me", "Them"], chosen=1)
    assert board.chosen is not None and board.chosen.face.name == "Leech"
    assert [(line, side, c.label, c.first) for line, side, c in _marked(board)] == [
        ("Top line", "left", "Play Leech on Top line", True),
        ("Top line", "Wolf", "Play Leech onto Wolf", False),
        ("Bottom line", "left", "Play Leech on Bottom line", False),
    ]


def test_a_chosen_incantation_marks_its_targets_on_both_sides() -> None:
    board = seat_board(_duel(SYMBIOTE + SPARK), seat=0, titles=["Me", "Them"], chosen=2)
    assert [(side, c.kind, c.arg, c.label) for _line, side, c in _marked(board)] == [
        ("Wolf", "cast", 10, "Cast Spark on Wolf"),
        ("Bear", "cast", 20, "Cast Spark on Bear"),
    ]


def test_a_card_the_rules_refuse_marks_nothing() -> None:
    for chosen in (3, 99, 20):  # unaffordable, not a card of mine, a creature in play
        board = seat_board(_duel(SYMBIOTE), seat=0, titles=["Me", "Them"], chosen=chosen)
        assert (board.chosen, board.choices, _marked(board)) == (None, (), [])
    # Not my turn: no legal action, nothing available.
    board = seat_board(_duel([]) | {"legal_actions": []}, seat=0, titles=["M", "T"], chosen=1)
    assert not any(s.card and (s.card.available or s.card.playable) for s in board.seats[0].hand)


def test_four_players_draw_four_lines_and_a_creature_goes_on_my_lanes() -> None:
    state = _duel([{"kind": "play", "card": 3, "arg": 0}, {"kind": "play", "card": 3, "arg": 1}])
    state["players"] += [_player("C", None, [[], []], 6), _player("D", None, [[], []], 6)]
    state["players"][1]["lines"] = [[], []]
    board = seat_board(state, seat=2, titles=["A", "B", "C", "D"], chosen=None)
    assert [line.name for line in board.lines] == ["Line 1", "Line 2", "Line 3", "Line 4"]
    assert [(line.left.seat, line.right.seat) for line in board.lines] == [
        ("A", "B"), ("C", "D"), ("A", "D"), ("B", "C")
    ]  # fmt: skip
    # Seat A chooses Ox: its lanes are halves of lines 1 and 3.
    board = seat_board(state, seat=0, titles=["A", "B", "C", "D"], chosen=3)
    assert [(line, side, c.label) for line, side, c in _marked(board)] == [
        ("Line 1", "left", "Play Ox on Line 1"),
        ("Line 3", "left", "Play Ox on Line 3"),
    ]


def test_a_champion_waits_face_up_and_mine_is_chosen_like_a_hand_card() -> None:
    view = _duel([{"kind": "play", "card": 40, "arg": 0}, {"kind": "play", "card": 40, "arg": 1}])
    view["players"][0]["champion"] = _card(40, "Hero")
    view["players"][1]["champion"] = _card(41, "Villain")
    view["players"][1]["champion_exhausted"] = True
    board = seat_board(view, seat=0, titles=["Me (A)", "B"], chosen=40)
    mine, theirs = board.seats
    assert mine.champion is not None and theirs.champion is not None
    assert (mine.champion.face.name, mine.champion.playable, mine.champion.chosen) == (
        "Hero",
        True,
        True,
    )
    assert mine.champion_ready is True
    assert (theirs.champion.face.name, theirs.champion.playable) == ("Villain", False)
    assert theirs.champion_ready is False
    assert board.chosen == mine.champion
    assert [choice.label for choice in board.choices] == [
        "Play Hero on Top line",
        "Play Hero on Bottom line",
    ]
