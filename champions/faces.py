"""A card face as plain data, and its drawing, shared by the PNG and the PDF renderers.

`CardFace` carries only what is printed (name, cost, stats, abilities with their text in the
chosen language, flavour, illustration), so a catalogue card of a deck and a Champion are
drawn by the same code. `draw_card` lays the face out in millimetres on a `Painter`; the Pillow
painter (`rendering.py`) and the ReportLab painter (`pnp.py`) only translate the primitives.
"""

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import groupby
from typing import Protocol

from PIL import Image

from champions import icons
from champions.fonts import MM_PER_PT, text_width_mm

CARD_WIDTH_MM = 56.0
CARD_HEIGHT_MM = 87.0
PRINT_DPI = 300
MM_PER_INCH = 25.4
# Cap height of DejaVu Sans as a fraction of the font size: centres digits in their circles.
CAP_HEIGHT = 0.729


@dataclass(frozen=True)
class FaceAbility:
    code: str
    name: str
    text: str = ""
    aura: bool = False


@dataclass(frozen=True)
class Illustration:
    """The stored picture and how it sits in the art window (focal point 0-1, zoom ≥ 1)."""

    content: bytes = field(compare=False, repr=False)  # identified by `key`, its SHA-256
    key: str = ""
    x: float = 0.5
    y: float = 0.5
    zoom: float = 1.0


@dataclass(frozen=True)
class CardFace:
    kind: str  # "champion", "creature" or "incantation": picks the frame colours
    name: str
    mana: int
    attack: int | None
    hp: int | None
    abilities: tuple[FaceAbility, ...] = ()
    flavour: str = ""
    type_line: str = ""
    illustration: Illustration | None = None


@dataclass(frozen=True)
class Palette:
    frame: str
    accent: str
    paper: str
    band: str
    art: str
    ink: str = "#1d1b22"
    attack: str = "#8e2a1a"
    hp: str = "#2d6a3e"
    on_dark: str = "#ffffff"


PALETTES: dict[str, Palette] = {
    "champion": Palette(
        frame="#4a1c16", accent="#d9a441", paper="#f7f0e2", band="#ecdcb9", art="#3b2a25"
    ),
    "creature": Palette(
        frame="#29402a", accent="#c9b27a", paper="#f3f1e6", band="#dfe3cc", art="#2c3529"
    ),
    "incantation": Palette(
        frame="#26305a", accent="#a9bde8", paper="#eff1f7", band="#d6dcef", art="#262c45"
    ),
}
BACK = Palette(frame="#221a2b", accent="#d9a441", paper="#2e2438", band="#3a2f47", art="#221a2b")


def palette_for(kind: str) -> Palette:
    return PALETTES.get(kind, PALETTES["creature"])


class Painter(Protocol):
    """Drawing primitives in millimetres, origin at the card's top-left corner."""

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str | None,
        radius: float = 0.0,
        stroke: str | None = None,
        stroke_width: float = 0.0,
    ) -> None: ...

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: str | None,
        stroke: str | None = None,
        stroke_width: float = 0.0,
    ) -> None: ...

    def text(
        self,
        x: float,
        baseline: float,
        text: str,
        *,
        font: str,
        size_pt: float,
        fill: str,
        align: str = "left",
    ) -> None: ...

    def icon(self, key: str, name: str, x: float, y: float, size: float, *, fill: str) -> None:
        """`key`: an `icons.lookup` key; `name` letters the badge when there is no drawing."""

    def image(self, x: float, y: float, w: float, h: float, pixels: Image.Image) -> None: ...


# --- Layout (mm) -----------------------------------------------------------------------------
INNER = (2.2, 2.2, 51.6, 82.6)
NAME_BAND = (12.6, 3.4, 39.8, 7.8)
MANA_CENTRE, MANA_RADIUS = (8.2, 7.4), 5.5
ART = (4.0, 12.4, 48.0, 36.4)
ICON_BAND = (4.0, 49.6, 48.0, 6.2)
ICON_SIZE, ICON_GAP = 4.6, 1.6
TEXT_BOX = (5.0, 56.9, 46.0, 19.6)
STAT_Y, STAT_RADIUS = 81.3, 4.5
ATTACK_X, HP_X = 8.7, 47.3
NAME_SIZES = (10.0, 9.0, 8.0, 7.0, 6.0, 5.5)
TEXT_SIZES = tuple(size / 4 for size in range(30, 17, -1))  # 7.5 pt down to 4.5 pt
LEADING = 1.17
PARAGRAPH_GAP = 0.35


def baseline_for_centre(cy: float, size_pt: float) -> float:
    return cy + CAP_HEIGHT * size_pt * MM_PER_PT / 2


def fit_single_line(text: str, font: str, width: float, sizes: Sequence[float]) -> float:
    """The largest size at which `text` fits on one line (the smallest if none does)."""
    for size in sizes:
        if text_width_mm(text, font, size) <= width:
            return size
    return sizes[-1]


@dataclass(frozen=True)
class PlacedRun:
    text: str
    font: str
    x: float
    baseline: float


@dataclass
class TextBlock:
    size_pt: float
    runs: list[PlacedRun] = field(default_factory=list)


def _wrap(
    runs: Sequence[tuple[str, str]], size: float, width: float
) -> list[list[tuple[str, str]]]:
    """Greedy word wrap of mixed-font runs; a word wider than the box is cut by characters."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0.0
    space = {font: text_width_mm(" ", font, size) for _, font in runs}
    for text, font in runs:
        for word in text.split():
            word_width = text_width_mm(word, font, size)
            gap = space[font] if lines[-1] else 0.0
            if used + gap + word_width > width and lines[-1]:
                lines.append([])
                used, gap = 0.0, 0.0
            while word_width > width:
                cut = len(word) - 1
                while cut > 1 and text_width_mm(word[:cut], font, size) > width:
                    cut -= 1
                lines[-1].append((word[:cut], font))
                lines.append([])
                word = word[cut:]
                word_width = text_width_mm(word, font, size)
                used, gap = 0.0, 0.0
            lines[-1].append((word, font))
            used += gap + word_width
    return lines


def _paragraphs(
    face: CardFace, *, with_text: bool, with_flavour: bool = True
) -> list[list[tuple[str, str]]]:
    paragraphs: list[list[tuple[str, str]]] = []
    for ability in face.abilities:
        text = ability.text if with_text else ""
        runs = [(f"{ability.name}{':' if text else ''}", "bold")]
        if text:
            runs.append((text, "regular"))
        paragraphs.append(runs)
    if face.flavour and with_flavour:
        paragraphs.append([(face.flavour, "italic")])
    return paragraphs


def layout_text(face: CardFace, box: tuple[float, float, float, float] = TEXT_BOX) -> TextBlock:
    """Ability texts and flavour at the largest size that fits the box.

    If even the smallest size overflows, the flavour goes first (a Champion's flavour pushed the
    rules texts out: issue 29), then the rules texts (names stay) rather than printing them below
    legibility; the card is still correct, the rules live in the rulebook.
    """
    x0, y0, width, height = box
    tries = ((True, True), (True, False), (False, True))
    for with_text, with_flavour in tries:
        paragraphs = _paragraphs(face, with_text=with_text, with_flavour=with_flavour)
        last_try = (with_text, with_flavour) == tries[-1]
        for size in TEXT_SIZES:
            size_mm = size * MM_PER_PT
            wrapped = [_wrap(runs, size, width) for runs in paragraphs]
            line_count = sum(len(lines) for lines in wrapped)
            needed = line_count * size_mm * LEADING + (len(wrapped) - 1) * size_mm * PARAGRAPH_GAP
            if needed <= height or (last_try and size == TEXT_SIZES[-1]):
                block = TextBlock(size_pt=size)
                # Centre the block vertically: short texts sit in the middle of the box.
                y = y0 + max(0.0, (height - needed) / 2) + size_mm * CAP_HEIGHT
                for lines in wrapped:
                    for line in lines:
                        x = x0
                        # One run per font change: renderers then space words themselves, and
                        # text extracted from the PDF keeps its spaces.
                        for font, words in groupby(line, key=lambda word: word[1]):
                            text = " ".join(word for word, _ in words)
                            block.runs.append(PlacedRun(text, font, x, y))
                            x += text_width_mm(text + " ", font, size)
                        y += size_mm * LEADING
                    y += size_mm * PARAGRAPH_GAP
                return block
    raise AssertionError("unreachable: the last size always lays out")


def art_size_px(w_mm: float, h_mm: float, dpi: int = PRINT_DPI) -> tuple[int, int]:
    return math.ceil(w_mm / MM_PER_INCH * dpi), math.ceil(h_mm / MM_PER_INCH * dpi)


# Decoded pictures are large (up to 2400 × 2400 px): keep only a few; the framed crops are small.
@lru_cache(maxsize=4)
def _decoded(source: Illustration) -> Image.Image:
    image = Image.open(io.BytesIO(source.content))
    image.load()
    return image


@lru_cache(maxsize=32)
def art_pixels(illustration: Illustration, size: tuple[int, int], background: str) -> Image.Image:
    """The illustration cropped to the art window: cover-fit, zoomed, centred on its focal point."""
    # One decoded copy per picture, whatever its framing.
    source = _decoded(replace(illustration, x=0.5, y=0.5, zoom=1.0))
    width, height = size
    scale = max(width / source.width, height / source.height) * max(1.0, illustration.zoom)
    crop_w, crop_h = width / scale, height / scale
    left = (source.width - crop_w) * min(1.0, max(0.0, illustration.x))
    top = (source.height - crop_h) * min(1.0, max(0.0, illustration.y))
    pixels = source.resize(
        size, Image.Resampling.LANCZOS, box=(left, top, left + crop_w, top + crop_h)
    )
    if pixels.mode == "RGBA":
        flat = Image.new("RGB", size, background)
        flat.paste(pixels, mask=pixels.getchannel("A"))
        return flat
    return pixels.convert("RGB")


def draw_card(painter: Painter, face: CardFace) -> None:
    colours = palette_for(face.kind)
    painter.rect(0, 0, CARD_WIDTH_MM, CARD_HEIGHT_MM, fill=colours.frame)
    painter.rect(*INNER, fill=colours.paper, radius=2.0)

    # Name and Mana cost.
    painter.rect(*NAME_BAND, fill=colours.band, radius=1.2)
    name_width = NAME_BAND[2] - 3.0
    name_size = fit_single_line(face.name, "bold", name_width, NAME_SIZES)
    name = face.name
    while text_width_mm(name, "bold", name_size) > name_width and len(name) > 1:
        name = name[:-2] + "…"
    painter.text(
        NAME_BAND[0] + 1.6,
        baseline_for_centre(NAME_BAND[1] + NAME_BAND[3] / 2, name_size),
        name,
        font="bold",
        size_pt=name_size,
        fill=colours.ink,
    )
    cx, cy = MANA_CENTRE
    painter.circle(cx, cy, MANA_RADIUS, fill=colours.accent, stroke=colours.frame, stroke_width=0.5)
    mana_size = 15.0 if face.mana < 10 else 12.0
    painter.text(
        cx,
        baseline_for_centre(cy, mana_size),
        str(face.mana),
        font="bold",
        size_pt=mana_size,
        fill=colours.frame,
        align="center",
    )

    # Illustration (or an emblem: no official art is ever printed).
    x, y, w, h = ART
    painter.rect(x, y, w, h, fill=colours.art)
    if face.illustration is not None:
        painter.image(x, y, w, h, art_pixels(face.illustration, art_size_px(w, h), colours.art))
    else:
        emblem = (
            (icons.ability_key(face.abilities[0].code), face.abilities[0].name)
            if face.abilities
            else (f"type-{'creature' if face.kind == 'champion' else face.kind}", "")
        )
        painter.icon(*emblem, x + w / 2 - 9, y + h / 2 - 9, 18, fill=colours.band)
    painter.rect(x, y, w, h, fill=None, stroke=colours.frame, stroke_width=0.4)

    # Ability icons: an Aura's icon sits in the catalogue's Aura ring, as on the card browser.
    painter.rect(*ICON_BAND, fill=colours.frame, radius=0.8)
    count = len(face.abilities)
    if count:
        band_x, band_y, band_w, band_h = ICON_BAND
        row = count * ICON_SIZE + (count - 1) * ICON_GAP
        ix = band_x + (band_w - row) / 2
        iy = band_y + (band_h - ICON_SIZE) / 2
        for ability in face.abilities:
            key = icons.ability_key(ability.code)
            if ability.aura:
                painter.icon("ab-aura", "", ix, iy, ICON_SIZE, fill=colours.accent)
                inset = ICON_SIZE * 0.18
                size = ICON_SIZE - 2 * inset
                painter.icon(key, ability.name, ix + inset, iy + inset, size, fill=colours.accent)
            else:
                painter.icon(key, ability.name, ix, iy, ICON_SIZE, fill=colours.accent)
            ix += ICON_SIZE + ICON_GAP

    # Rules and flavour text.
    block = layout_text(face)
    for run in block.runs:
        painter.text(
            run.x, run.baseline, run.text, font=run.font, size_pt=block.size_pt, fill=colours.ink
        )

    # Attack, type line, HP.
    if face.attack is not None:
        _stat(painter, ATTACK_X, face.attack, colours.attack, colours)
        painter.icon(
            "attack", "", ATTACK_X + STAT_RADIUS + 0.6, STAT_Y - 3.6, 3.0, fill=colours.attack
        )
    if face.hp is not None:
        _stat(painter, HP_X, face.hp, colours.hp, colours)
        painter.icon("hp", "", HP_X - STAT_RADIUS - 3.6, STAT_Y - 3.6, 3.0, fill=colours.hp)
    if face.type_line:
        size = fit_single_line(face.type_line, "italic", 22.0, (6.0, 5.5, 5.0, 4.5))
        painter.text(
            CARD_WIDTH_MM / 2,
            baseline_for_centre(STAT_Y + 1.0, size),
            face.type_line,
            font="italic",
            size_pt=size,
            fill=colours.ink,
            align="center",
        )


def _stat(painter: Painter, cx: float, value: int, fill: str, colours: Palette) -> None:
    painter.circle(cx, STAT_Y, STAT_RADIUS, fill=fill, stroke=colours.frame, stroke_width=0.4)
    painter.text(
        cx,
        baseline_for_centre(STAT_Y, 13.0),
        str(value),
        font="bold",
        size_pt=13.0,
        fill=colours.on_dark,
        align="center",
    )


def draw_back(painter: Painter) -> None:
    """Our own card back: a frame and an emblem, no official design."""
    painter.rect(0, 0, CARD_WIDTH_MM, CARD_HEIGHT_MM, fill=BACK.frame)
    painter.rect(*INNER, fill=BACK.paper, radius=2.0)
    painter.rect(5.0, 5.0, 46.0, 77.0, fill=None, radius=1.5, stroke=BACK.accent, stroke_width=0.5)
    centre_x, centre_y = CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2
    painter.circle(centre_x, centre_y, 14.0, fill=BACK.band, stroke=BACK.accent, stroke_width=0.6)
    painter.icon("mana", "", centre_x - 10, centre_y - 10, 20.0, fill=BACK.accent)
    painter.text(
        centre_x,
        centre_y + 24.0,
        "Clash of Decks",
        font="bold",
        size_pt=9.0,
        fill=BACK.accent,
        align="center",
    )
