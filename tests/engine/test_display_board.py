"""The one board of every page (engine.display.board.board_of) built from an observation: hands in
order with the Stronghold, backs for what the observer may not see, the lines as the rulebook
lays them out, who is to play, the AI's piles, and the places a chosen card may go."""

import re
from dataclasses import replace
from pathlib import Path

import yaml
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from engine.display.board import Board, Choice, board_of
from engine.display.faces import CardFace
from engine.rules import (
    ASSAULT_ACTION,
    CAST,
    PLAY,
    PLAY_ONTO,
    SPECTATOR,
    CardSeen,
    CreatureSeen,
    LineSeen,
    Observation,
    SeatSeen,
    apply,
    observe,
)
from engine.rules.scenario import build_state, parse

DUEL_LINES = (LineSeen((0, 0), (1, 0)), LineSeen((0, 1), (1, 1)))
# A-B, C-D, then A-D, B-C (engine.rules.observation.table_lines of FOUR_PLAYERS).
FOUR_LINES = (
    LineSeen((0, 0), (1, 0)),
    LineSeen((2, 0), (3, 0)),
    LineSeen((0, 1), (3, 1)),
    LineSeen((1, 1), (2, 1)),
)


def _card(card: int, name: str, creature: bool = True, *abilities: str) -> CardSeen:
    return CardSeen(card, name, 2, 3, 2 if creature else 0, creature, abilities)


def _creature(card: CardSeen, **changes: object) -> CreatureSeen:
    creature = CreatureSeen(
        card=card, attack=3, hp=2, damage=0, new=False, symbiote=None, chained=(),
        sprint_bonus=0, protection_used=False, aura_abilities=(), given_abilities=(),
    )  # fmt: skip
    return replace(creature, **changes)


def _seat(
    seat: int,
    hand: tuple[CardSeen, ...] | None,
    lines: tuple[tuple[CreatureSeen, ...], ...] = ((), ()),
    count: int = 0,
    available: int = 0,
) -> SeatSeen:
    return SeatSeen(
        seat=seat, letter="ABCD"[seat], automaton=False, hand=hand,
        hand_count=count if hand is None else len(hand), stronghold_at=1, fort=False,
        hit_points=5, mana=4, available=available, lines=lines, removed_count=0, removed=None,
        champion=None, champion_exhausted=False, pile_count=None, discard=(),
    )  # fmt: skip


HAND = (
    _card(1, "Leech", True, "symbiote"),
    _card(2, "Spark", False),
    _card(3, "Ox"),
    _card(4, "Yak"),
    _card(5, "Gnu"),
)
WOLF = _creature(_card(10, "Wolf"), chained=(_card(30, "Crow"),))
BEAR = _creature(_card(20, "Bear"), damage=1, symbiote=_card(21, "Tick", True, "symbiote"))
SYMBIOTE = ((PLAY, 1, 0), (PLAY, 1, 1), (PLAY_ONTO, 1, 10))
SPARK = ((CAST, 2, 10), (CAST, 2, 20))


def _duel(legal: tuple[tuple[int, int, int], ...], seat: int = 0) -> Observation:
    return Observation(
        seat=seat, active=0, phase="summoning", turn=3,
        seats=(
            _seat(0, HAND, ((WOLF,), ()), available=4),
            _seat(1, None, ((BEAR,), ()), count=6),
        ),
        lines=DUEL_LINES, legal_actions=legal, outcome=None,
    )  # fmt: skip


def _marked(board: Board) -> list[tuple[str, str, Choice]]:
    """Every marked place: (line, "left"/"right" or a creature's name, its action)."""
    marked = []
    for line in board.lines:
        for side, half in (("left", line.left), ("right", line.right)):
            if half.choice:
                marked.append((line.name, side, half.choice))
            marked += [(line.name, c.face.name, c.choice) for c in half.creatures if c.choice]
    return marked


def test_my_hand_in_order_with_the_stronghold_the_other_hand_as_backs() -> None:
    board = board_of(_duel(SYMBIOTE + SPARK), titles=["Me", "Them"])
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
    assert (mine.active, mine.mana, theirs.active, theirs.mana, theirs.hand_count) == (
        True, 4, False, None, 6,
    )  # fmt: skip
    bear = board.lines[0].right.creatures[0]
    assert (bear.damage, bear.symbiote and bear.symbiote.name) == (1, "Tick")
    assert [face.name for face in board.lines[0].left.creatures[0].chained] == ["Crow"]
    assert _marked(board) == [] and board.chosen is None


def test_a_chosen_symbiote_goes_on_my_lines_or_onto_my_creature() -> None:
    board = board_of(_duel(SYMBIOTE + SPARK), titles=["Me", "Them"], chosen=1)
    assert board.chosen is not None and board.chosen.face.name == "Leech"
    assert [(line, side, c.label, c.first) for line, side, c in _marked(board)] == [
        ("Top line", "left", "Play Leech on Top line", True),
        ("Top line", "Wolf", "Play Leech onto Wolf", False),
        ("Bottom line", "left", "Play Leech on Bottom line", False),
    ]


def test_a_chosen_incantation_marks_its_targets_on_both_sides() -> None:
    board = board_of(_duel(SYMBIOTE + SPARK), titles=["Me", "Them"], chosen=2)
    assert [(side, c.kind, c.arg, c.label) for _line, side, c in _marked(board)] == [
        ("Wolf", "cast", 10, "Cast Spark on Wolf"),
        ("Bear", "cast", 20, "Cast Spark on Bear"),
    ]


def test_a_card_the_rules_refuse_marks_nothing() -> None:
    for chosen in (3, 99, 20):  # unaffordable, not a card of mine, a creature in play
        board = board_of(_duel(SYMBIOTE), titles=["Me", "Them"], chosen=chosen)
        assert (board.chosen, board.choices, _marked(board)) == (None, (), [])
    # Not my turn (the observer is B): no legal action, and my hand is only backs.
    board = board_of(_duel((), seat=1), titles=["M", "T"], chosen=1)
    assert not any(s.card and s.card.playable for seat in board.seats for s in seat.hand)


def test_four_players_draw_four_lines_and_a_creature_goes_on_my_lanes() -> None:
    observation = replace(
        _duel(((PLAY, 3, 0), (PLAY, 3, 1))),
        seats=(
            _seat(0, HAND, available=4),
            *(
                _seat(seat, None, ((_creature(_card(seat, f"{seat}up")),), ()), 6)
                for seat in (1, 2, 3)
            ),
        ),
        lines=FOUR_LINES,
    )  # fmt: skip
    board = board_of(replace(observation, seat=2), titles=["A", "B", "C", "D"])
    assert board.square
    # Drawn as a square for C: C at the bottom left, then clockwise D, A, B; each line along the
    # side between its two seats, the half of the left (or upper) corner first: A-B on the
    # right (A above), C-D on the left (D above), A-D on top (D left), B-C at the bottom (C left).
    assert [seat.corner for seat in board.seats] == ["ne", "se", "sw", "nw"]
    assert [(line.side, line.flipped) for line in board.lines] == [
        ("right", False), ("left", True), ("top", True), ("bottom", True)
    ]  # fmt: skip
    spectated = board_of(replace(observation, seat=-1), titles=["A", "B", "C", "D"])
    assert [seat.corner for seat in spectated.seats] == ["nw", "ne", "se", "sw"]
    assert not board_of(_duel(()), titles=["Me", "Them"]).square
    assert [line.name for line in board.lines] == ["Line 1", "Line 2", "Line 3", "Line 4"]
    assert [(line.left.seat, line.right.seat) for line in board.lines] == [
        ("A", "B"), ("C", "D"), ("A", "D"), ("B", "C")
    ]  # fmt: skip
    assert [c.face.name for c in board.lines[1].right.creatures] == ["3up"]
    # Seat A chooses Ox: its lanes are halves of lines 1 and 3.
    board = board_of(observation, titles=["A", "B", "C", "D"], chosen=3)
    assert [(line, side, c.label) for line, side, c in _marked(board)] == [
        ("Line 1", "left", "Play Ox on Line 1"),
        ("Line 3", "left", "Play Ox on Line 3"),
    ]


def test_a_champion_waits_face_up_and_mine_is_chosen_like_a_hand_card() -> None:
    observation = _duel(((PLAY, 40, 0), (PLAY, 40, 1)))
    me, them = observation.seats
    observation = replace(
        observation,
        seats=(
            replace(me, champion=_card(40, "Hero")),
            replace(them, champion=_card(41, "Villain"), champion_exhausted=True),
        ),
    )
    board = board_of(observation, titles=["Me (A)", "B"], chosen=40)
    mine, theirs = board.seats
    assert mine.champion is not None and theirs.champion is not None
    assert (mine.champion.face.name, mine.champion.playable, mine.champion.chosen) == (
        "Hero", True, True,
    )  # fmt: skip
    assert (theirs.champion.face.name, theirs.champion.playable, theirs.champion_ready) == (
        "Villain", False, False,
    )  # fmt: skip


def test_faces_by_engine_name_and_a_game_stopped_at_the_turn_limit() -> None:
    """A replay draws catalogue cards by engine name (`faces`); its last position at the turn
    limit has no seat to play."""
    faces = {"Wolf": CardFace("Loup", mark_safe(""), 1, 2, 3)}
    seats = (_seat(0, HAND, ((WOLF,), ()), available=4), _seat(1, HAND))
    observation = replace(_duel((), seat=SPECTATOR), seats=seats)
    board = board_of(observation, titles=["A", "B"], faces=faces)
    assert board.lines[0].left.creatures[0].face.name == "Loup"
    assert [s.card.available for s in board.seats[0].hand if s.card] == [True] * 4 + [False]
    ended = board_of(observation, titles=["A", "B"], faces=faces, ended=True)
    assert not any(seat.active or seat.mana is not None for seat in ended.seats)
    assert not any(s.card and s.card.available for s in ended.seats[0].hand)


def test_solo_ai_shows_its_piles_instead_of_a_hand() -> None:
    ai = replace(
        _seat(1, (), ((), (_creature(_card(20, "B1")),))),
        automaton=True, stronghold_at=None, pile_count=17,
        discard=(_card(22, "D2"), _card(21, "D1")),
    )  # fmt: skip
    observation = replace(_duel((), seat=SPECTATOR), active=1, seats=(_seat(0, HAND), ai))
    board = board_of(observation, titles=["Deck A", "The AI"])
    first, second = board.seats
    assert (first.pile, first.discard, len(first.hand)) == (None, (), 6)
    assert (second.pile, [face.name for face in second.discard], second.hand) == (
        17, ["D2", "D1"], (),
    )  # fmt: skip
    assert (second.hp, second.mana, second.active) == (5, 4, True)


SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _assaulted(name: str) -> Observation:
    """A scenario's position after A's Assault, as a spectator sees it."""
    state = build_state(parse(yaml.safe_load((SCENARIOS / name).read_text())))
    apply(state, ASSAULT_ACTION)
    return observe(state, SPECTATOR)


def _creature_text(board: Board, name: str) -> str:
    """The words of the creature `name` on the rendered board (tags and runs of spaces gone)."""
    html = render_to_string("engine/board.html", {"board": board})
    found = re.search(
        rf'<li class="board-card board-creature[^"]*"[^>]*>\s*<span[^>]*>{name}<.*?</li>',
        html,
        re.S,
    )
    assert found is not None
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def test_an_aura_s_protection_used_on_the_neighbour_shows_on_its_card() -> None:
    board = board_of(
        _assaulted("abilities/aura-protection-neighbour-protected.yaml"),
        titles=["A", "B"],
        abilities={"protection": "Shield"},
    )
    totem, grunt = board.lines[0].right.creatures
    assert (grunt.protection_used, grunt.aura_given, grunt.given) == (True, ("Shield",), ())
    assert (totem.protection_used, totem.aura_given, totem.given) == (False, (), ())
    assert _creature_text(board, "Grunt").endswith(
        "Attack 1/ HP 2 Protection used Given by an Aura: Shield"
    )
    assert _creature_text(board, "Totem").endswith("Attack 0/ HP 3 −1 damage")


def test_custom_play_s_given_abilities_are_named_as_given_in_the_page_s_language() -> None:
    observation = _assaulted("solo/given-ability-protection.yaml")
    board = board_of(observation, titles=["A", "AI"])
    (wisp,) = board.lines[0].right.creatures
    # A code the page's names lack shows as itself.
    assert (wisp.protection_used, wisp.aura_given, wisp.given) == (True, (), ("protection",))
    with translation.override("fr"):
        board = board_of(observation, titles=["A", "IA"], abilities={"protection": "Protection"})
        assert _creature_text(board, "Wisp").endswith(
            "Protection utilisée Donnée par la Partie personnalisée : Protection"
        )
    with translation.override("sv"):
        assert "Protection förbrukad Given av anpassat spel: Protection" in _creature_text(
            board, "Wisp"
        )


def test_sprint_s_bonus_is_in_the_attack_and_said_so() -> None:
    sprinter = _creature(_card(11, "Hare", True, "sprint"), sprint_bonus=2)
    observation = replace(
        _duel(()), seats=(_seat(0, HAND, ((sprinter, WOLF), ())), _seat(1, None, count=6))
    )
    board = board_of(observation, titles=["Me", "Them"])
    hare, wolf = board.lines[0].left.creatures
    assert (hare.attack, hare.sprint, wolf.attack, wolf.sprint) == (5, 2, 3, 0)
    assert _creature_text(board, "Hare").endswith("Attack 5/ HP 2 Attack includes Sprint +2")
    assert _creature_text(board, "Wolf").endswith("Attack 3/ HP 2 Enchained: Crow")
    with translation.override("fr"):
        assert "Attaque avec le bonus de Sprint +2" in _creature_text(board, "Hare")
        assert _creature_text(board, "Wolf").endswith("Enchaînées : Crow")
    with translation.override("sv"):
        assert _creature_text(board, "Wolf").endswith("Fjättrade: Crow")


def test_a_catalogue_card_s_name_shows_its_face_on_demand_and_another_s_is_plain_text() -> None:
    slugs = {"Bear": "bear", "Tick": "tick", "Crow": "crow"}
    board = board_of(_duel(()), titles=["Me", "Them"], slugs=slugs)
    html = render_to_string("engine/board.html", {"board": board})
    # Wolf's enchained Crow too (issue 29: an enchained card was its name alone).
    assert re.findall(
        r'<button type="button" class="([\w-]+) card-peek" data-peek="([^"]+)"', html
    ) == [
        ("board-chained-name", "/cards/crow/peek/"),
        ("board-card-name", "/cards/bear/peek/"),
        ("board-symbiote-name", "/cards/tick/peek/"),
    ]
    assert _creature_text(board, "Wolf").endswith("Attack 3/ HP 2 Enchained: Crow")
    # Wolf has no catalogue card (no slug): its name alone.
    assert '<span class="board-card-name" title="Wolf">Wolf</span>' in html
