"""Card faces as PNG with Pillow: 300 dpi for print (661 × 1028 px for 56 × 87 mm) and a small
preview for lists and social previews. The drawing itself is `faces.draw_card`."""

import io
from functools import lru_cache

from PIL import Image, ImageChops, ImageColor, ImageDraw

from champions import icons
from champions.faces import (
    CARD_HEIGHT_MM,
    CARD_WIDTH_MM,
    MM_PER_INCH,
    PRINT_DPI,
    CardFace,
    draw_card,
)
from champions.fonts import pil_font

PREVIEW_WIDTH_PX = 320
SUPERSAMPLE = 4
# Level 3 compresses this kind of picture as well as 6 (flat colours, one photo), in 2/3 the time.
PNG_COMPRESS_LEVEL = 3


class PillowPainter:
    """`faces.Painter` on a Pillow RGB image; shapes other than rectangles are anti-aliased."""

    def __init__(self, dpi: int) -> None:
        self.scale = dpi / MM_PER_INCH
        self.dpi = dpi
        self.canvas = Image.new(
            "RGB", (round(CARD_WIDTH_MM * self.scale), round(CARD_HEIGHT_MM * self.scale))
        )
        self.draw = ImageDraw.Draw(self.canvas)

    def _px(self, value: float) -> float:
        return value * self.scale

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
    ) -> None:
        box = (self._px(x), self._px(y), self._px(x + w) - 1, self._px(y + h) - 1)
        self.draw.rounded_rectangle(
            box,
            radius=self._px(radius),
            fill=fill,
            outline=stroke,
            width=max(1, round(self._px(stroke_width))) if stroke else 0,
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: str | None,
        stroke: str | None = None,
        stroke_width: float = 0.0,
    ) -> None:
        if stroke:
            self._disc(cx, cy, r, stroke, hole=r - stroke_width if fill is None else None)
        if fill:
            self._disc(cx, cy, r - (stroke_width if stroke else 0.0), fill, hole=None)

    def _disc(self, cx: float, cy: float, r: float, colour: str, hole: float | None) -> None:
        left, top = int(self._px(cx - r)) - 1, int(self._px(cy - r)) - 1
        size = int(self._px(2 * r)) + 3
        s = SUPERSAMPLE
        mask = Image.new("L", (size * s, size * s), 0)
        draw = ImageDraw.Draw(mask)
        ox, oy = (self._px(cx) - left) * s, (self._px(cy) - top) * s
        outer = self._px(r) * s
        draw.ellipse((ox - outer, oy - outer, ox + outer, oy + outer), fill=255)
        if hole is not None:
            inner = self._px(hole) * s
            draw.ellipse((ox - inner, oy - inner, ox + inner, oy + inner), fill=0)
        self._paint(colour, mask.resize((size, size), Image.Resampling.BOX), (left, top))

    def _paint(self, colour: str, mask: Image.Image, at: tuple[int, int]) -> None:
        self.canvas.paste(
            ImageColor.getrgb(colour), (*at, at[0] + mask.width, at[1] + mask.height), mask
        )

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
    ) -> None:
        anchor = {"left": "ls", "center": "ms", "right": "rs"}[align]
        self.draw.text(
            (self._px(x), self._px(baseline)),
            text,
            font=pil_font(font, size_pt / 72 * self.dpi),
            fill=fill,
            anchor=anchor,
        )

    def icon(self, key: str, name: str, x: float, y: float, size: float, *, fill: str) -> None:
        size_px = max(1, round(self._px(size)))
        letter = "" if icons.lookup(key) is not None else icons.badge_letter(name)
        mask = icon_mask(key, letter, size_px)
        self._paint(fill, mask, (round(self._px(x)), round(self._px(y))))

    def image(self, x: float, y: float, w: float, h: float, pixels: Image.Image) -> None:
        box = (round(self._px(x)), round(self._px(y)))
        size = (round(self._px(x + w)) - box[0], round(self._px(y + h)) - box[1])
        if pixels.size != size:
            pixels = pixels.resize(size, Image.Resampling.LANCZOS)
        self.canvas.paste(pixels, box)


@lru_cache(maxsize=512)
def icon_mask(key: str, letter: str, size_px: int) -> Image.Image:
    """The icon's coverage, drawn 4× larger then averaged down (anti-aliasing).

    Stroked shapes: polylines with round joins and caps; filled shapes: even-odd polygons.
    """
    big = size_px * SUPERSAMPLE
    factor = big / icons.GRID
    icon = icons.badge() if letter else icons.lookup(key)
    assert icon is not None
    coverage = Image.new("1", (big, big), 0)
    strokes = ImageDraw.Draw(coverage)
    width = max(1, round(icons.STROKE_WIDTH * factor))
    radius = width / 2
    for shape in icon.shapes:
        for points, closed in icons.flatten(shape.segments):
            scaled = [(px * factor, py * factor) for px, py in points]
            if not shape.stroke:
                area = Image.new("1", (big, big), 0)
                ImageDraw.Draw(area).polygon(scaled, fill=1)
                coverage = ImageChops.logical_xor(coverage, area)
                strokes = ImageDraw.Draw(coverage)
                continue
            if closed:
                scaled.append(scaled[0])
            for piece in icons.dashed(scaled, tuple(d * factor for d in shape.dash)):
                strokes.line(piece, fill=1, width=width, joint="curve")
                for cx, cy in (piece[0], piece[-1]):
                    strokes.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=1)
    mask = coverage.convert("L")
    if letter:
        ImageDraw.Draw(mask).text(
            (big / 2, big * 16.5 / 24),
            letter,
            font=pil_font("bold", big / 2),
            fill=255,
            anchor="ms",
        )
    return mask.resize((size_px, size_px), Image.Resampling.BOX)


def render_card(face: CardFace, *, dpi: int = PRINT_DPI) -> Image.Image:
    painter = PillowPainter(dpi)
    draw_card(painter, face)
    return painter.canvas


def card_png(face: CardFace) -> bytes:
    """The print-quality face: 300 dpi, with the resolution recorded in the PNG."""
    out = io.BytesIO()
    render_card(face).save(
        out, "PNG", dpi=(PRINT_DPI, PRINT_DPI), compress_level=PNG_COMPRESS_LEVEL
    )
    return out.getvalue()


def card_preview_png(face: CardFace) -> bytes:
    """A small face for lists and link previews, drawn directly at the lower resolution."""
    dpi = round(PREVIEW_WIDTH_PX / CARD_WIDTH_MM * MM_PER_INCH)
    out = io.BytesIO()
    render_card(face, dpi=dpi).save(out, "PNG", optimize=True)
    return out.getvalue()
