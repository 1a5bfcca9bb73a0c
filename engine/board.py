"""The game board as a page draws it: the view object of `engine/templates/engine/board.html`.

A page that shows a position (the replay viewer, the browser Play table) builds one `BoardView`
with `board_view` and includes the partial with it; the partial never reaches into the engine.
The board follows rule 2.1 (`setup-play-area`): each line extends on both sides of its Bridge
card, the first seat's Kingdom to the left of the Bridges, its opponent's to the right (four
players: the lines of `engine.rules.modes.FOUR_PLAYERS`, in the rulebook's order).
"""

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from cards.emblems import card_emblem, emblem_svg
from engine.rules.abilities.costs import WINDOW
from engine.rules.modes import DUEL, FOUR_PLAYERS, Topology
from engine.rules.state import GameState
from engine.simulation import PlayerView, players_view

# Letters of the longest word that fit a board card's name line (4.8rem at .66rem, bold).
LONG_WORD = 10


@dataclass(frozen=True)
class CardFace:
    """What a card shows wherever it lies: its name in the page's language, its generated
    emblem (an inline SVG) and its printed values."""

    name: str
    emblem: SafeString
    cost: int
    attack: int
    hp: int | None  # None: an incantation

    @property
    def long_name(self) -> bool:
        """A word of the name too long for a board card's width at the normal size
        ("Annihilation"): the card draws its name smaller rather than break the word."""
        return max(map(len, self.name.split()), default=0) > LONG_WORD


@dataclass(frozen=True)
class CreatureView:
    face: CardFace
    attack: int  # as it stands now (Auras, bonuses)
    hp: int
    damage: int
    new: bool  # summoned this turn
    symbiote: CardFace | None  # a creature carried by this one (Symbiote)


@dataclass(frozen=True)
class HandSlot:
    """One place of a hand, left to right: a card (face up, or its back when `face` is None)
    or the Stronghold."""

    face: CardFace | None
    stronghold: bool
    available: bool  # the active seat's four leftmost cards, the ones that can be played


@dataclass(frozen=True)
class SeatView:
    letter: str  # the table's seat: "A", "B"...
    title: str  # who plays there, as the page names them ("Deck A · Aggro")
    fort: bool  # the Stronghold's side: False for the Bastion
    hp: int
    mana: int | None  # None: not shown (not this seat's turn)
    active: bool
    hand: tuple[HandSlot, ...]
    champion: CardFace | None
    champion_ready: bool
    # Solo's AI, which has no hand: its face-down deck pile's cards (None: a hand player), with
    # its Stronghold under the pile, and its discard pile, top card first.
    pile: int | None = None
    discard: tuple[CardFace, ...] = ()


@dataclass(frozen=True)
class LineHalf:
    seat: str  # the letter of the seat whose Kingdom this half is
    title: str  # that seat's title
    creatures: tuple[CreatureView, ...]  # from the Bridge outward


@dataclass(frozen=True)
class LineView:
    name: str  # "Top line", "Bottom line"...
    left: LineHalf
    right: LineHalf


@dataclass(frozen=True)
class BoardView:
    seats: tuple[SeatView, ...]
    lines: tuple[LineView, ...]


def card_face(
    *, name: str, label: str, slug: str, expansion_code: str, definition: Mapping[str, object]
) -> CardFace:
    """The face of a card from its engine definition (`engine.adapters.definitions`): the
    catalogue's emblem for a catalogue card (same slug, same picture), an emblem of its played
    values for a Champion or a mutated card."""
    card_type = str(definition.get("type", "creature"))
    cost = _number(definition.get("cost"))
    attack = _number(definition.get("attack"))
    hp = None if card_type != "creature" else _number(definition.get("hp"))
    abilities = definition.get("abilities")
    codes = tuple(str(code) for code in abilities) if isinstance(abilities, list) else ()
    emblem = card_emblem(
        slug=slug or name,
        expansion_code=expansion_code,
        card_type=card_type,
        mana=cost,
        attack=attack,
        hp=hp,
        abilities=codes,
    )
    return CardFace(
        name=label,
        emblem=mark_safe(emblem_svg(emblem, "board-emblem")),
        cost=cost,
        attack=attack,
        hp=hp,
    )


def _number(value: object) -> int:
    return value if isinstance(value, int) else 0


def _topology(players: int) -> Topology:
    return FOUR_PLAYERS if players == len(FOUR_PLAYERS.facing) else DUEL


def _line_name(number: int, lines: int) -> str:
    if lines == 2:
        return _("Top line") if number == 0 else _("Bottom line")
    return _("Line %(number)d") % {"number": number + 1}


def board_view(
    players: Sequence[PlayerView],
    *,
    faces: Mapping[str, CardFace],
    titles: Sequence[str],
    active: int | None,
    hidden_hands: Collection[int] = (),
) -> BoardView:
    """The board of a position: `players` by seat (as `engine.simulation` views them), `faces`
    by engine card name, `titles` by seat, `active` the seat whose turn it is (None: the game is
    over), `hidden_hands` the seats whose hands show their backs."""

    def face(name: str) -> CardFace:
        return faces.get(name) or CardFace(name, mark_safe(""), 0, 0, None)

    seats = []
    for seat, player in enumerate(players):
        # Rule phase-2-available-cards: the WINDOW leftmost cards, the Stronghold aside, of the
        # seat whose turn it is (marked on a finished game's hands, they would mean nothing).
        hand = [
            HandSlot(
                None if seat in hidden_hands else face(name),
                False,
                seat == active and position < WINDOW,
            )
            for position, name in enumerate(player.hand)
        ]
        if player.pile is None:
            hand.insert(player.stronghold_at, HandSlot(None, True, False))
        seats.append(
            SeatView(
                letter=player.seat,
                title=titles[seat],
                fort=player.fort,
                hp=player.hp,
                mana=player.mana if seat == active else None,
                active=seat == active,
                hand=tuple(hand),
                champion=face(player.champion) if player.champion else None,
                champion_ready=player.champion_ready,
                pile=player.pile,
                discard=tuple(face(name) for name in player.discard),
            )
        )
    lines = [
        LineView(
            name=name,
            left=_half(players[left_seat], titles[left_seat], left_lane, face),
            right=_half(players[right_seat], titles[right_seat], right_lane, face),
        )
        for name, (left_seat, left_lane), (right_seat, right_lane) in line_halves(len(players))
    ]
    return BoardView(seats=tuple(seats), lines=tuple(lines))


def line_halves(players: int) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """The lines of a table of `players` seats in the rulebook's order: each one's name and the
    (seat, lane) of its left and its right half."""
    topology = _topology(players)
    halves: dict[int, list[tuple[int, int]]] = {}
    for seat, numbers in enumerate(topology.line_number[:players]):
        for lane, number in enumerate(numbers):
            halves.setdefault(number, []).append((seat, lane))
    return [
        (_line_name(number, len(halves)), halves[number][0], halves[number][1])
        for number in sorted(halves)
    ]


def position_board(
    state: GameState, *, faces: Mapping[str, CardFace], titles: Sequence[str]
) -> BoardView:
    """The board of an engine position with every hand face up (a Grimoire puzzle's, where both
    hands are part of the problem); no seat to play once the game is over."""
    return board_view(
        players_view(state, 0),
        faces=faces,
        titles=titles,
        active=None if state.outcome is not None else state.active,
    )


def _half(player: PlayerView, title: str, lane: int, face: Callable[[str], CardFace]) -> LineHalf:
    return LineHalf(
        seat=player.seat,
        title=title,
        creatures=tuple(
            CreatureView(
                face=face(creature.name),
                attack=creature.attack,
                hp=creature.hp,
                damage=creature.damage,
                new=creature.new,
                symbiote=face(creature.symbiote) if creature.symbiote else None,
            )
            for creature in player.lines[lane]
        ),
    )
