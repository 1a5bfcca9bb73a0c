"""The card fonts, shipped with the app (DejaVu Sans Condensed, see fonts/LICENSE).

Players' machines may have no DejaVu, and a PDF must carry its fonts anyway: the TTF files in
`champions/fonts/` are embedded (subset) in every PDF and used by Pillow for the PNG faces.
They cover the full French and Swedish alphabets (é è ê ë à â î ï ô ù û ü ÿ ç œ æ å ä ö …).
Text is measured with one function for both renderers, so a card breaks its lines the same way
in the PNG and in the PDF.
"""

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSansCondensed.ttf",
    "bold": "DejaVuSansCondensed-Bold.ttf",
    "italic": "DejaVuSansCondensed-Oblique.ttf",
}
PDF_NAMES: dict[str, str] = {
    "regular": "CodCard",
    "bold": "CodCard-Bold",
    "italic": "CodCard-Oblique",
}
MM_PER_PT = 25.4 / 72


@lru_cache(maxsize=1)
def register_pdf_fonts() -> None:
    """Register the TTFs with ReportLab once per process (parsing them costs ~20 ms)."""
    for key, filename in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(PDF_NAMES[key], str(FONT_DIR / filename)))


def text_width_mm(text: str, font: str, size_pt: float) -> float:
    # Widths scale linearly with the size: measure each text once, at 1 pt.
    return _unit_width_mm(text, font) * size_pt


@lru_cache(maxsize=8192)
def _unit_width_mm(text: str, font: str) -> float:
    register_pdf_fonts()
    return pdfmetrics.stringWidth(text, PDF_NAMES[font], 1.0) * MM_PER_PT


@lru_cache(maxsize=256)
def pil_font(font: str, size_px: float) -> ImageFont.FreeTypeFont:
    # BASIC layout (no kerning) matches ReportLab's measurement of the same text.
    return ImageFont.truetype(
        str(FONT_DIR / FONT_FILES[font]), size_px, layout_engine=ImageFont.Layout.BASIC
    )
