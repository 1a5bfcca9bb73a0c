"""Print-and-Play sheets with ReportLab: 3 × 3 butted 56 × 87 mm cards per A4 or Letter page.

- The grid (168 × 261 mm) is centred on the page; cards touch, so one cut separates two cards
  and Letter (279.4 mm tall) still holds nine.
- Crop marks sit in the margin, outside the grid (and outside the bleed), on every cut line.
- Optional 3 mm bleed: each card's frame colour extends 3 mm beyond the outer edge of the grid,
  so a slightly-off outer cut shows no white.
- Optional backs: after each page of fronts, a page of backs mirrored left-right for long-edge
  duplex printing, shifted by an adjustable offset (mm) to compensate the printer.
- Text is vector text in the embedded (subset) TTF fonts; illustrations are placed at 300 ppi.
- Each distinct face is drawn once as a form XObject and placed on every slot that shows it.
"""

import hashlib
import io
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from PIL import Image
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import (  # type: ignore[attr-defined]  # not in types-reportlab
    FILL_EVEN_ODD,
    Canvas,
)

from champions import icons
from champions.faces import (
    BACK,
    CARD_HEIGHT_MM,
    CARD_WIDTH_MM,
    CardFace,
    draw_back,
    draw_card,
    palette_for,
)
from champions.fonts import PDF_NAMES, register_pdf_fonts
from cod_site.errors import DomainError

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLUMNS, ROWS = 3, 3
CARDS_PER_PAGE = COLUMNS * ROWS
BLEED_MM = 3.0
CROP_GAP_MM = 1.0  # between the grid (or its bleed) and the start of a crop mark
CROP_LENGTH_MM = 4.0
CROP_LINE_PT = 0.3
MAX_BACK_OFFSET_MM = 10.0
JPEG_QUALITY = 92


@dataclass(frozen=True)
class SheetOptions:
    paper: str = "a4"
    bleed: bool = False
    backs: bool = False
    back_offset_x_mm: float = 0.0
    back_offset_y_mm: float = 0.0
    title: str = "Clash of Decks — Print and Play"

    def validate(self) -> None:
        if self.paper not in PAPERS:
            raise DomainError(
                "unknown_paper",
                _("Unknown paper %(paper)r: use a4 or letter.") % {"paper": self.paper},
                {"field": "paper", "value": self.paper},
            )
        for field, value in (
            ("back_offset_x", self.back_offset_x_mm),
            ("back_offset_y", self.back_offset_y_mm),
        ):
            if not -MAX_BACK_OFFSET_MM <= value <= MAX_BACK_OFFSET_MM:
                raise DomainError(
                    "invalid_back_offset",
                    _("The backs offset must be between −%(max)s and %(max)s mm.")
                    % {"max": f"{MAX_BACK_OFFSET_MM:g}"},
                    {"field": field, "value": value},
                )

    @property
    def bleed_mm(self) -> float:
        return BLEED_MM if self.bleed else 0.0


def grid_origin(paper: str) -> tuple[float, float]:
    """Top-left corner of the card grid, in mm from the page's top-left corner."""
    page_w, page_h = PAPERS[paper]
    return (
        (page_w - COLUMNS * CARD_WIDTH_MM) / 2,
        (page_h - ROWS * CARD_HEIGHT_MM) / 2,
    )


def slot_position(paper: str, index: int, *, mirrored: bool = False) -> tuple[float, float]:
    """Top-left corner (mm from the page's top-left) of slot `index` (row-major)."""
    x0, y0 = grid_origin(paper)
    row, column = divmod(index, COLUMNS)
    if mirrored:  # long-edge duplex turns the sheet over left-right
        column = COLUMNS - 1 - column
    return x0 + column * CARD_WIDTH_MM, y0 + row * CARD_HEIGHT_MM


class PdfPainter:
    """`faces.Painter` on a ReportLab canvas, inside a form whose origin is the card's
    bottom-left corner (PDF y grows upwards; the card layout's y grows downwards)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas

    def _y(self, y: float) -> float:
        return (CARD_HEIGHT_MM - y) * mm

    def _style(self, fill: str | None, stroke: str | None, stroke_width: float) -> None:
        if fill:
            self.canvas.setFillColor(HexColor(fill))
        if stroke:
            self.canvas.setStrokeColor(HexColor(stroke))
            self.canvas.setLineWidth(stroke_width * mm)

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
        self._style(fill, stroke, stroke_width)
        args = (x * mm, self._y(y + h), w * mm, h * mm)
        if radius:
            self.canvas.roundRect(
                *args, radius * mm, stroke=int(bool(stroke)), fill=int(bool(fill))
            )
        else:
            self.canvas.rect(*args, stroke=int(bool(stroke)), fill=int(bool(fill)))

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
        self._style(fill, stroke, stroke_width)
        # The stroke is centred on the path in PDF; keep it inside the radius like Pillow does.
        inset = stroke_width / 2 if stroke else 0.0
        self.canvas.circle(
            cx * mm, self._y(cy), (r - inset) * mm, stroke=int(bool(stroke)), fill=int(bool(fill))
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
        self.canvas.setFillColor(HexColor(fill))
        self.canvas.setFont(PDF_NAMES[font], size_pt)
        draw = {
            "left": self.canvas.drawString,
            "center": self.canvas.drawCentredString,
            "right": self.canvas.drawRightString,
        }[align]
        draw(x * mm, self._y(baseline), text)

    def icon(self, key: str, name: str, x: float, y: float, size: float, *, fill: str) -> None:
        canvas = self.canvas
        icon = icons.lookup(key)
        canvas.saveState()
        colour = HexColor(fill)
        canvas.setFillColor(colour)
        canvas.setStrokeColor(colour)
        factor = size / icons.GRID * mm
        # Grid units, y down, origin at the icon's top-left; the line width scales with it.
        canvas.transform(factor, 0, 0, -factor, x * mm, self._y(y))
        canvas.setLineWidth(icons.STROKE_WIDTH)
        canvas.setLineCap(1)
        canvas.setLineJoin(1)
        for shape in (icon or icons.badge()).shapes:
            path = canvas.beginPath()
            for segment in shape.segments:
                if segment.op == "M":
                    path.moveTo(*segment.points[0])
                elif segment.op == "L":
                    path.lineTo(*segment.points[0])
                elif segment.op == "C":
                    (x1, y1), (x2, y2), (x3, y3) = segment.points
                    path.curveTo(x1, y1, x2, y2, x3, y3)
                else:
                    path.close()
            canvas.setDash(list(shape.dash) or [], 0)
            if shape.stroke:
                canvas.drawPath(path, stroke=1, fill=0)
            else:
                canvas.drawPath(path, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
        if icon is None:
            canvas.scale(1, -1)  # text upright again
            canvas.setFont(PDF_NAMES["bold"], 12)
            canvas.drawCentredString(12, -16.5, icons.badge_letter(name))
        canvas.restoreState()

    def image(self, x: float, y: float, w: float, h: float, pixels: Image.Image) -> None:
        self.canvas.drawImage(_jpeg(pixels), x * mm, self._y(y + h), w * mm, h * mm)


class _Jpeg(ImageReader):
    """A JPEG that ReportLab embeds as-is (DCT passthrough).

    `drawImage` names an image by a digest of `getRGBData()`, which would decode the JPEG
    again on every use; the digest of the compressed bytes identifies it as well, for less.
    """

    def __init__(self, content: bytes) -> None:
        super().__init__(io.BytesIO(content))
        self._digest = hashlib.sha256(content).digest()
        self._dataA = None  # RGB: no alpha mask (set by the base class's getRGBData)

    def getRGBData(self) -> bytes:
        return self._digest


_JPEGS: "OrderedDict[int, tuple[Image.Image, _Jpeg]]" = OrderedDict()


def _jpeg(pixels: Image.Image) -> _Jpeg:
    """Prepared art as JPEG, remembered while the art is cached.

    `faces.art_pixels` hands back the same object for the same illustration and framing; the
    entry keeps that object alive, so its id cannot be reused by another image meanwhile.
    """
    entry = _JPEGS.get(id(pixels))
    if entry is not None and entry[0] is pixels:
        _JPEGS.move_to_end(id(pixels))
        return entry[1]
    out = io.BytesIO()
    pixels.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=(300, 300))
    reader = _Jpeg(out.getvalue())
    _JPEGS[id(pixels)] = (pixels, reader)
    while len(_JPEGS) > 32:
        _JPEGS.popitem(last=False)
    return reader


def _form_name(index: int) -> str:
    return f"face{index}"


def _crop_marks(canvas: Canvas, paper: str, bleed: float) -> None:
    page_h = PAPERS[paper][1]
    x0, y0 = grid_origin(paper)
    x1, y1 = x0 + COLUMNS * CARD_WIDTH_MM, y0 + ROWS * CARD_HEIGHT_MM
    start = bleed + CROP_GAP_MM
    end = start + CROP_LENGTH_MM
    canvas.setStrokeColor(HexColor("#000000"))
    canvas.setLineWidth(CROP_LINE_PT)

    def line(ax: float, ay: float, bx: float, by: float) -> None:
        canvas.line(ax * mm, (page_h - ay) * mm, bx * mm, (page_h - by) * mm)

    for column in range(COLUMNS + 1):
        x = x0 + column * CARD_WIDTH_MM
        line(x, y0 - start, x, y0 - end)
        line(x, y1 + start, x, y1 + end)
    for row in range(ROWS + 1):
        y = y0 + row * CARD_HEIGHT_MM
        line(x0 - start, y, x0 - end, y)
        line(x1 + start, y, x1 + end, y)


def _place(canvas: Canvas, paper: str, name: str, x: float, y: float) -> None:
    page_h = PAPERS[paper][1]
    canvas.saveState()
    canvas.translate(x * mm, (page_h - y - CARD_HEIGHT_MM) * mm)
    canvas.doForm(name)
    canvas.restoreState()


def _bleed(canvas: Canvas, paper: str, colour: str, x: float, y: float, bleed: float) -> None:
    """The frame colour under the card, `bleed` mm wider on every side.

    Drawn before the faces: between two butted cards the neighbour's face covers it, so it only
    shows beyond the outer edge of the grid.
    """
    page_h = PAPERS[paper][1]
    canvas.setFillColor(HexColor(colour))
    canvas.rect(
        (x - bleed) * mm,
        (page_h - y - CARD_HEIGHT_MM - bleed) * mm,
        (CARD_WIDTH_MM + 2 * bleed) * mm,
        (CARD_HEIGHT_MM + 2 * bleed) * mm,
        stroke=0,
        fill=1,
    )


def build_sheets(faces: Sequence[CardFace], options: SheetOptions) -> bytes:
    """The PDF of `faces` in order, nine per page (with a backs page after each, if asked)."""
    options.validate()
    register_pdf_fonts()
    page_w, page_h = PAPERS[options.paper]
    out = io.BytesIO()
    canvas = Canvas(
        out,
        pagesize=(page_w * mm, page_h * mm),
        pageCompression=1,
        invariant=1,
        # types-reportlab says a float; reportlab takes the initial font's name.
        initialFontName=PDF_NAMES["regular"],  # type: ignore[arg-type]
    )
    canvas.setTitle(options.title)
    canvas.setCreator("cod_site")
    canvas.setAuthor("cod_site")

    forms: dict[CardFace, str] = {}
    for face in faces:
        if face not in forms:
            forms[face] = _form_name(len(forms))
            canvas.beginForm(forms[face], 0, 0, CARD_WIDTH_MM * mm, CARD_HEIGHT_MM * mm)
            draw_card(PdfPainter(canvas), face)
            canvas.endForm()
    if options.backs:
        canvas.beginForm("back", 0, 0, CARD_WIDTH_MM * mm, CARD_HEIGHT_MM * mm)
        draw_back(PdfPainter(canvas))
        canvas.endForm()

    bleed = options.bleed_mm
    pages = [faces[i : i + CARDS_PER_PAGE] for i in range(0, len(faces), CARDS_PER_PAGE)] or [[]]
    for page in pages:
        if bleed:
            for index, face in enumerate(page):
                x, y = slot_position(options.paper, index)
                _bleed(canvas, options.paper, palette_for(face.kind).frame, x, y, bleed)
        for index, face in enumerate(page):
            _place(canvas, options.paper, forms[face], *slot_position(options.paper, index))
        _crop_marks(canvas, options.paper, bleed)
        canvas.showPage()
        if options.backs:
            slots = [
                slot_position(options.paper, index, mirrored=True) for index in range(len(page))
            ]
            slots = [(x + options.back_offset_x_mm, y + options.back_offset_y_mm) for x, y in slots]
            if bleed:
                for x, y in slots:
                    _bleed(canvas, options.paper, BACK.frame, x, y, bleed)
            for x, y in slots:
                _place(canvas, options.paper, "back", x, y)
            canvas.showPage()
    canvas.save()
    return out.getvalue()
