"""The share image of a puzzle: its position drawn at the size social networks show (1200x630),
in the page's language: the title, the goal, and each side's Stronghold, Mana, hand and lines,
each card readable as on the board (issue 29): its name, its abilities (icon and name), its
cost and attack/HP as they stand, and what changed them (damage, a Symbiote, enchained cards,
abilities an Aura gives, a used Protection, entered this turn).

Drawn from the puzzle's board (`engine.display.board`, the board its page shows), so the values
are the rules' own. `layout` places every card and the text runs drawn on it, so that a reader
(and the tests) find a slot's box (`hand_box`, `line_box`) and what it says.

The sizes read where the image is seen: networks show it about 500-600 px wide, half its size,
so no text is drawn under 20 px (10 px there); a run that does not fit its card gets smaller
down to that size, then drops its icon, then is cut with an ellipsis.
"""

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from champions import icons
from champions.fonts import pil_font
from champions.rendering import PNG_COMPRESS_LEVEL, icon_mask
from engine.display.board import Board, BoardCreature, BoardSeat
from engine.display.faces import CardFace

WIDTH, HEIGHT = 1200, 630
MARGIN = 24
GAP = 6
PANEL = (WIDTH - 3 * MARGIN) // 2
PANEL_TOP, PANEL_BOTTOM = 110, 586
FACTS_TOP = 118
# Three rows per side: the hand, the upper line, the lower line; each under its label.
LABEL_HEIGHT = 24
CARD_HEIGHT = 116
ROW_TOPS = (154, 298, 442)  # each row's label; its cards below it
SLOT_WIDTH = 136  # a line's four creatures fill the panel
PADDING = 6

# Text sizes in pixels: no text under MIN_SIZE.
NAME_SIZE, TEXT_SIZE, STATS_SIZE, MIN_SIZE = 22, 20, 24, 20
LINE_SPACING = 4

BACKGROUND = (30, 38, 62)
PANEL_ACTIVE = (48, 62, 104)
PANEL_IDLE = (40, 46, 66)
CARD = (226, 220, 200)
CREATURE = (196, 214, 236)
DAMAGED = (232, 170, 160)
BASTION = (86, 128, 214)
FORT = (200, 80, 60)
INK = (20, 20, 28)
WOUND = (150, 20, 20)
TEXT = (245, 245, 245)
GOLD = (240, 200, 90)

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Box:
    left: int
    top: int
    right: int
    bottom: int

    @property
    def centre(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2


@dataclass(frozen=True)
class Piece:
    """A text and the icon drawn before it (an `icons.lookup` key; "": none)."""

    icon: str
    text: str


@dataclass(frozen=True)
class Run:
    """One line of text on a card, as drawn (after fitting)."""

    pieces: tuple[Piece, ...]
    size: int
    bold: bool = False
    colour: Colour = INK

    @property
    def text(self) -> str:
        return " ".join(piece.text for piece in self.pieces if piece.text)


@dataclass(frozen=True)
class CardDrawing:
    box: Box
    fill: Colour
    runs: tuple[Run, ...]  # its name first, its values last


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    # The cards' font, shipped with the app: it has every French and Swedish letter.
    return pil_font("bold" if bold else "regular", size)


def _slot_width(count: int) -> int:
    """Slots narrow to fit a long hand in the panel."""
    return min(SLOT_WIDTH, (PANEL - GAP * (count - 1)) // max(count, 1))


def _panel_left(side: int) -> int:
    return MARGIN + side * (PANEL + MARGIN)


def _box(side: int, row: int, index: int, count: int) -> Box:
    width = _slot_width(count)
    left = _panel_left(side) + index * (width + GAP)
    top = ROW_TOPS[row] + LABEL_HEIGHT
    return Box(left, top, left + width, top + CARD_HEIGHT)


def hand_box(side: int, index: int, count: int) -> Box:
    """Where the card ``index`` of a hand of ``count`` slots (the Stronghold one of them) lies;
    ``side`` 0 for player A, 1 for B."""
    return _box(side, 0, index, count)


def line_box(side: int, line: int, index: int, count: int) -> Box:
    """Where creature ``index`` (from the Bridge outward) of ``line`` (0 top, 1 bottom) lies."""
    return _box(side, 1 + line, index, count)


ICON_GAP = 2


def _gap(size: int) -> int:
    """The space between two pieces of a run."""
    return size // 4


def _width(pieces: Sequence[Piece], size: int, bold: bool) -> float:
    font = _font(size, bold)
    gaps = (len(pieces) - 1) * _gap(size)
    return gaps + sum(
        font.getlength(piece.text) + (size + ICON_GAP if piece.icon else 0) for piece in pieces
    )


def _fit(
    pieces: Sequence[Piece],
    size: int,
    width: int,
    bold: bool = False,
    plain: Sequence[Piece] = (),
) -> Run:
    """The run of ``pieces`` that fits ``width``: smaller down to MIN_SIZE, then without its
    icons (``plain``, else its texts), then its last text cut with an ellipsis."""
    for tried in range(size, MIN_SIZE - 1, -2):
        if _width(pieces, tried, bold) <= width:
            return Run(tuple(pieces), tried, bold)
    size = MIN_SIZE
    pieces = list(plain) or [Piece("", piece.text) for piece in pieces]
    if _width(pieces, size, bold) <= width:
        return Run(tuple(pieces), size, bold)
    *first, last = pieces
    text = last.text
    while text and _width([*first, Piece("", text + "…")], size, bold) > width:
        text = text[:-1]
    return Run((*first, Piece("", text + "…")), size, bold)


def _ability(code: str, abilities: Mapping[str, str]) -> Piece:
    bare = code.removeprefix("aura:")
    name = abilities.get(bare, bare)
    if code.startswith("aura:"):
        return Piece(icons.ability_key(bare), _("Aura: %(name)s") % {"name": name})
    return Piece(icons.ability_key(bare), name)


class _Cards:
    """What the cards of a puzzle say in the page's language: ``cards`` the scenario's card
    definitions by (engine) name, ``names`` the catalogue cards' names by engine name,
    ``abilities`` the abilities' names by code."""

    def __init__(
        self,
        cards: Mapping[str, Mapping[str, Any]],
        names: Mapping[str, str],
        abilities: Mapping[str, str],
    ) -> None:
        self.cards, self.names, self.abilities = cards, names, abilities

    def name(self, face: CardFace) -> str:
        return self.names.get(face.name, face.name)

    def printed(self, face: CardFace) -> list[Piece]:
        codes = self.cards.get(face.name, {}).get("abilities") or []
        return [_ability(str(code), self.abilities) for code in codes]


def _middle(pieces: list[Piece], width: int, room: int) -> list[Run]:
    """A run per piece; over ``room`` lines, the last line draws the others' icons alone, and
    how many it could not draw ("+2")."""
    if len(pieces) <= room:
        # A line to spare: a text cut short takes two instead.
        spare = room - len(pieces)
        runs: list[Run] = []
        for piece in pieces:
            run = _fit([piece], TEXT_SIZE, width)
            if spare and run.text.endswith("…") and len(piece.text.split()) > 1:
                runs += _two_lines(piece, TEXT_SIZE, width)
                spare -= 1
            else:
                runs.append(run)
        return runs
    runs = [_fit([piece], TEXT_SIZE, width) for piece in pieces[: room - 1]]
    strip: list[Piece] = []
    rest = pieces[room - 1 :]
    for piece in rest:
        # Room kept for the count of those left out.
        tried = [*strip, Piece(piece.icon, ""), Piece("", "+9")]
        if piece.icon and _width(tried, TEXT_SIZE, False) <= width:
            strip.append(Piece(piece.icon, ""))
    if len(strip) < len(rest):
        strip.append(Piece("", f"+{len(rest) - len(strip)}"))
    return [*runs, Run(tuple(strip), TEXT_SIZE)]


# The lines of text between a card's name and its values.
MIDDLE_LINES = (CARD_HEIGHT - 2 * PADDING - NAME_SIZE - STATS_SIZE - LINE_SPACING) // (
    TEXT_SIZE + LINE_SPACING
)


def _card(
    box: Box,
    fill: Colour,
    name: str,
    middle: list[Piece],
    stats: list[Piece],
    plain: list[Piece],
) -> CardDrawing:
    """A card: ``plain`` its values without icons, where these do not fit."""
    width = box.right - box.left - 2 * PADDING
    names = _name(name, width)
    middle_runs = _middle(middle, width, MIDDLE_LINES + 1 - len(names))
    stats_run = _fit(stats, STATS_SIZE, width, bold=True, plain=plain)
    return CardDrawing(box, fill, (*names, *middle_runs, stats_run))


def _name(name: str, width: int) -> list[Run]:
    """A name on one line, or on two (taking a line of the abilities) rather than cut."""
    whole = _fit([Piece("", name)], NAME_SIZE, width, bold=True)
    if not whole.text.endswith("…") or len(name.split()) < 2:
        return [whole]
    return _two_lines(Piece("", name), NAME_SIZE, width, bold=True)


def _two_lines(piece: Piece, size: int, width: int, bold: bool = False) -> list[Run]:
    """``piece`` on two lines, cut between words where its first line fits."""

    def fit(icon: str, words: list[str]) -> Run:
        return _fit([Piece(icon, " ".join(words))], size, width, bold)

    words = piece.text.split()
    cut = len(words) - 1
    while cut > 1 and fit(piece.icon, words[:cut]).text.endswith("…"):
        cut -= 1
    return [fit(piece.icon, words[:cut]), fit("", words[cut:])]


def _hand(number: int, seat: BoardSeat, cards: _Cards) -> list[CardDrawing]:
    drawn = []
    stronghold = _("Fort") if seat.fort else _("Bastion")
    for index, slot in enumerate(seat.hand):
        box = hand_box(number, index, len(seat.hand))
        if slot.stronghold:
            fill = FORT if seat.fort else BASTION
            stats = [Piece("hp", str(seat.hp))]
            drawn.append(_card(box, fill, stronghold, [], stats, stats))
        elif slot.card is not None:
            face = slot.card.face
            # Without room for the icons: "3 · 1/2" (cost · attack/HP).
            stats, plain = [Piece("mana", str(face.cost))], str(face.cost)
            if face.hp is not None:
                stats += [Piece("attack", str(face.attack)), Piece("hp", str(face.hp))]
                plain += f" · {face.attack}/{face.hp}"
            name, middle = cards.name(face), cards.printed(face)
            drawn.append(_card(box, CARD, name, middle, stats, [Piece("", plain)]))
    return drawn


def _creature(box: Box, creature: BoardCreature, cards: _Cards) -> CardDrawing:
    middle = []
    printed = cards.printed(creature.face)
    if creature.symbiote is not None:
        middle.append(Piece("ab-symbiote", f"+ {cards.name(creature.symbiote)}"))
        printed += [p for p in cards.printed(creature.symbiote) if p not in printed]
    middle += [Piece("ab-enchain", cards.name(face)) for face in creature.chained]
    middle += printed
    middle += [Piece("ab-aura", name) for name in creature.aura_given]
    middle += [Piece("", name) for name in creature.given]
    if creature.protection_used:
        # Said in place of its Protection, not beside it.
        used = Piece(icons.ability_key("protection"), _("Protection used"))
        protection = Piece(used.icon, cards.abilities.get("protection", "protection"))
        middle = [used if piece == protection else piece for piece in middle]
        if used not in middle:
            middle.append(used)
    if creature.new:
        middle.append(Piece("", _("Entered play this turn")))
    hp = creature.hp - creature.damage
    stats = [Piece("attack", str(creature.attack)), Piece("hp", str(hp))]
    plain = [Piece("", f"{creature.attack}/{hp}")]
    if creature.damage:
        stats.append(Piece("", f"−{creature.damage}"))
        plain.append(stats[-1])
    fill = DAMAGED if creature.damage else CREATURE
    return _card(box, fill, cards.name(creature.face), middle, stats, plain)


def layout(
    board: Board,
    *,
    cards: Mapping[str, Mapping[str, Any]],
    names: Mapping[str, str],
    abilities: Mapping[str, str],
) -> list[CardDrawing]:
    """Every card of ``board`` (a two-player board, its faces named by their engine names) as
    drawn: player A's hand and lines, then player B's."""
    known = _Cards(cards, names, abilities)
    drawn = []
    for number, seat in enumerate(board.seats):
        drawn += _hand(number, seat, known)
        for line_number, line in enumerate(board.lines):
            half = line.left if line.left.seat == seat.letter else line.right
            count = len(half.creatures)
            for index, creature in enumerate(half.creatures):
                box = line_box(number, line_number, index, count)
                drawn.append(_creature(box, creature, known))
    return drawn


def _draw_run(image: Image.Image, draw: ImageDraw.ImageDraw, run: Run, x: int, y: int) -> None:
    font = _font(run.size, run.bold)
    for piece in run.pieces:
        if piece.icon:
            letter = "" if icons.lookup(piece.icon) is not None else icons.badge_letter(piece.text)
            image.paste(run.colour, (x, y), icon_mask(piece.icon, letter, run.size))
            x += run.size + ICON_GAP
        colour = WOUND if piece.text.startswith("−") else run.colour
        draw.text((x, y), piece.text, font=font, fill=colour)
        x += round(font.getlength(piece.text)) + _gap(run.size)


def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, card: CardDrawing) -> None:
    box = card.box
    draw.rounded_rectangle((box.left, box.top, box.right, box.bottom), radius=8, fill=card.fill)
    *top, stats = card.runs
    y = box.top + PADDING
    for run in top:
        _draw_run(image, draw, run, box.left + PADDING, y)
        y += run.size + LINE_SPACING
    _draw_run(image, draw, stats, box.left + PADDING, box.bottom - PADDING - STATS_SIZE)


def _panels(draw: ImageDraw.ImageDraw, board: Board) -> None:
    rows = [_("Hand, left to right"), *(line.name for line in board.lines)]
    for number, seat in enumerate(board.seats):
        left = _panel_left(number)
        fill = PANEL_ACTIVE if seat.active else PANEL_IDLE
        draw.rounded_rectangle(
            (left - 8, PANEL_TOP, left + PANEL + 8, PANEL_BOTTOM), radius=12, fill=fill
        )
        stronghold = _("Fort") if seat.fort else _("Bastion")
        facts = f"{seat.title} · {stronghold}: {_('%(hp)s HP') % {'hp': seat.hp}}"
        if seat.mana is not None:
            facts += f" · {_('%(mana)s Mana') % {'mana': seat.mana}}"
        run = _fit([Piece("", facts)], 26, PANEL, bold=True)
        draw.text((left, FACTS_TOP), run.text, font=_font(run.size, True), fill=TEXT)
        for top, label in zip(ROW_TOPS, rows, strict=False):
            draw.text((left, top), label, font=_font(TEXT_SIZE), fill=TEXT)


def share_image(
    *,
    title: str,
    goal: str,
    difficulty: int,
    board: Board,
    cards: Mapping[str, Mapping[str, Any]],
    names: Mapping[str, str],
    abilities: Mapping[str, str],
) -> bytes:
    """The PNG of a puzzle's position (``board``, as `layout` takes it)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    width = WIDTH - 2 * MARGIN
    heading = _fit([Piece("", title)], 44, width, bold=True)
    draw.text((MARGIN, 14), heading.text, font=_font(heading.size, True), fill=TEXT)
    goal_run = _fit([Piece("", f"{_('Goal:')} {goal}")], 30, width)
    draw.text((MARGIN, 66), goal_run.text, font=_font(goal_run.size), fill=GOLD)
    _panels(draw, board)
    for card in layout(board, cards=cards, names=names, abilities=abilities):
        _draw_card(image, draw, card)
    footer = _("Clash of Decks · Grimoire · Difficulty %(level)d/5") % {"level": difficulty}
    draw.text((MARGIN, HEIGHT - 36), footer, font=_font(TEXT_SIZE), fill=TEXT)
    out = io.BytesIO()
    # Level 3, as the Champions' faces: `optimize` doubled a drawing's time (117 ms against 55,
    # median of the starter book) for files 15% smaller (55 KiB against 65).
    image.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()
