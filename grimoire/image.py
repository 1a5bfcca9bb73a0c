"""The share image of a puzzle: its position drawn at the size social networks show (1200x630),
in the page's language: the title, the goal, and each side's Stronghold, Mana, hand and lines,
each card with its abilities (issue 29: the image left them out).

Drawn from the stored scenario document (`grimoire.display.sides`), no engine run. The layout is
fixed so that a slot's box (`hand_box`, `line_box`) is where a reader (and the tests) find it.
"""

import io
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from champions.fonts import pil_font
from grimoire.display import STRONGHOLD, Entry, Side

WIDTH, HEIGHT = 1200, 630
MARGIN = 24
GAP = 6
PANEL = (WIDTH - 3 * MARGIN) // 2
HAND_TOP, HAND_HEIGHT = 216, 92
LINE_TOPS = (352, 480)
LINE_HEIGHT = 92
SLOT_WIDTH = 84

BACKGROUND = (30, 38, 62)
PANEL_ACTIVE = (48, 62, 104)
PANEL_IDLE = (40, 46, 66)
CARD = (226, 220, 200)
CREATURE = (196, 214, 236)
DAMAGED = (232, 170, 160)
BASTION = (86, 128, 214)
FORT = (200, 80, 60)
INK = (20, 20, 28)
TEXT = (245, 245, 245)
GOLD = (240, 200, 90)


@dataclass(frozen=True)
class Box:
    left: int
    top: int
    right: int
    bottom: int

    @property
    def centre(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2


def _font(size: int) -> ImageFont.FreeTypeFont:
    # The cards' font, shipped with the app: it has every French and Swedish letter.
    return pil_font("regular", size)


def _slot_width(count: int) -> int:
    """Slots narrow to fit a long hand or line in the panel."""
    return min(SLOT_WIDTH, (PANEL - GAP * (count - 1)) // max(count, 1))


def _panel_left(side: int) -> int:
    return MARGIN + side * (PANEL + MARGIN)


def hand_box(side: int, index: int, count: int) -> Box:
    """Where the card ``index`` of a hand of ``count`` slots (the Stronghold one of them) lies;
    ``side`` 0 for player A, 1 for B."""
    width = _slot_width(count)
    left = _panel_left(side) + index * (width + GAP)
    return Box(left, HAND_TOP, left + width, HAND_TOP + HAND_HEIGHT)


def line_box(side: int, line: int, index: int, count: int) -> Box:
    """Where creature ``index`` (from the Bridge outward) of ``line`` (0 top, 1 bottom) lies."""
    width = _slot_width(count)
    left = _panel_left(side) + index * (width + GAP)
    top = LINE_TOPS[line]
    return Box(left, top, left + width, top + LINE_HEIGHT)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """``text`` cut (with an ellipsis) to ``width`` pixels."""
    font = _font(size)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


# The abilities' line, under the name, above the box's centre (where the tests read its colour).
ABILITY_TOP, ABILITY_SIZE = 26, 12


def _card(
    draw: ImageDraw.ImageDraw,
    box: Box,
    fill: tuple[int, int, int],
    name: str,
    stats: str,
    abilities: str = "",
) -> None:
    draw.rounded_rectangle((box.left, box.top, box.right, box.bottom), radius=8, fill=fill)
    inner = box.right - box.left - 8
    draw.text((box.left + 4, box.top + 6), _fit(draw, name, 16, inner), font=_font(16), fill=INK)
    if abilities:
        draw.text(
            (box.left + 4, box.top + ABILITY_TOP),
            _fit(draw, abilities, ABILITY_SIZE, inner),
            font=_font(ABILITY_SIZE),
            fill=INK,
        )
    draw.text(
        (box.left + 4, box.bottom - 26), _fit(draw, stats, 16, inner), font=_font(16), fill=INK
    )


def _creature_stats(entry: Entry, cards: dict[str, dict[str, int]]) -> str:
    card = cards.get(entry.name, {})
    stats = f"{card.get('attack', 0)}/{card.get('hp', 0)}"
    return f"{stats} −{entry.damage}" if entry.damage else stats


def _side(
    draw: ImageDraw.ImageDraw,
    number: int,
    side: Side,
    cards: dict[str, dict[str, int]],
    abilities: dict[str, str],
) -> None:
    left = _panel_left(number)
    fill = PANEL_ACTIVE if side.active else PANEL_IDLE
    draw.rounded_rectangle((left - 8, 150, left + PANEL + 8, HEIGHT - 56), radius=12, fill=fill)
    title = (_("Player %(letter)s (you)") if side.active else _("Player %(letter)s")) % {
        "letter": side.letter
    }
    stronghold = _("Fort") if side.fort else _("Bastion")
    facts = f"{title} · {stronghold}: {_('%(hp)s HP') % {'hp': side.hp}}"
    if side.active and side.mana is not None:
        facts += f" · {_('%(mana)s Mana') % {'mana': side.mana}}"
    draw.text((left, 162), _fit(draw, facts, 24, PANEL), font=_font(24), fill=TEXT)
    draw.text((left, 192), _("Hand, left to right"), font=_font(16), fill=TEXT)
    for index, name in enumerate(side.hand):
        box = hand_box(number, index, len(side.hand))
        if name == STRONGHOLD:
            _card(draw, box, FORT if side.fort else BASTION, stronghold, f"{side.hp}")
        else:
            card = cards.get(name, {})
            _card(draw, box, CARD, name, f"{card.get('cost', 0)}", abilities.get(name, ""))
    for line, (line_name, entries) in enumerate(side.lines):
        draw.text((left, LINE_TOPS[line] - 24), capfirst(line_name), font=_font(16), fill=TEXT)
        for index, entry in enumerate(entries):
            box = line_box(number, line, index, len(entries))
            name = f"{entry.name} + {entry.symbiote}" if entry.symbiote else entry.name
            fill = DAMAGED if entry.damage else CREATURE
            shown = ", ".join(
                text
                for text in (abilities.get(entry.name, ""), abilities.get(entry.symbiote, ""))
                if text
            )
            _card(draw, box, fill, name, _creature_stats(entry, cards), shown)


def share_image(
    *,
    title: str,
    goal: str,
    difficulty: int,
    sides: list[Side],
    cards: dict[str, dict[str, int]],
    abilities: dict[str, str] | None = None,
) -> bytes:
    """The PNG of a puzzle's position; ``cards`` the scenario's card definitions by name,
    ``abilities`` their abilities' names in the page's language by card name."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    width = WIDTH - 2 * MARGIN
    draw.text((MARGIN, 22), _fit(draw, title, 48, width), font=_font(48), fill=TEXT)
    goal_line = f"{_('Goal:')} {goal}"
    draw.text((MARGIN, 90), _fit(draw, goal_line, 30, width), font=_font(30), fill=GOLD)
    for number, side in enumerate(sides):
        _side(draw, number, side, cards, abilities or {})
    footer = _("Clash of Decks · Grimoire · Difficulty %(level)d/5") % {"level": difficulty}
    draw.text((MARGIN, HEIGHT - 42), footer, font=_font(22), fill=TEXT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
