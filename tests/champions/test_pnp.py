"""Print-and-Play PDFs, checked by reading them back with pypdf, pdfplumber and pypdfium2.

Golden image: `golden/pnp_a4_page1.png` is page 1 of `golden_pdf()` rendered at 40 dpi. After a
deliberate change of the card drawing, regenerate it with

    CHAMPIONS_REGENERATE_GOLDEN=1 .venv/bin/pytest tests/champions/test_pnp.py -k golden

look at the new PNG, and commit it.
"""

import io
import os
from pathlib import Path

import pdfplumber
import pypdf
import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat

from champions.faces import CardFace, FaceAbility, Illustration
from champions.images import normalise_image
from champions.pnp import SheetOptions, build_sheets
from cod_site.errors import DomainError
from tests.champions.conftest import picture_bytes

GOLDEN = Path(__file__).parent / "golden" / "pnp_a4_page1.png"
PT_PER_MM = 72 / 25.4
CARD_W, CARD_H = 56 * PT_PER_MM, 87 * PT_PER_MM
# Top-left corners of the 3 × 3 grid, from the page sizes alone: (page − 3 × card) / 2.
A4 = (210 * PT_PER_MM, 297 * PT_PER_MM, (210 - 168) / 2, (297 - 261) / 2)
LETTER = (612.0, 792.0, (215.9 - 168) / 2, (279.4 - 261) / 2)


def _picture() -> Illustration:
    stored = normalise_image(picture_bytes("JPEG", size=(900, 700)))
    return Illustration(stored.content, stored.sha256, x=0.4, y=0.5, zoom=1.2)


def face(name: str = "Åsa", **changes: object) -> CardFace:
    values: dict[str, object] = {
        "kind": "champion",
        "name": name,
        "mana": 5,
        "attack": 4,
        "hp": 4,
        "abilities": (
            FaceAbility("splash", "Splash", "Inflige aussi ses dégâts aux voisins."),
            FaceAbility("rage", "Aura : Rage", "Les Créatures adjacentes ont Rage.", aura=True),
        ),
        "flavour": "Ébréchement des murailles, où l'œil s'égare.",
        "type_line": "Champion",
        "illustration": _picture(),
    }
    values.update(changes)
    return CardFace(**values)  # type: ignore[arg-type]


def golden_pdf() -> bytes:
    return build_sheets(
        [face("Åsa"), face("Ébréchement", illustration=None)] * 4 + [face("Øystein")],
        SheetOptions(paper="a4"),
    )


def card_rects(
    page: pdfplumber.page.Page, width: float, height: float
) -> list[tuple[float, float]]:
    """Top-left corners (pt from the page top) of filled rectangles of exactly that size."""
    return sorted(
        {
            (round(rect["x0"], 2), round(rect["top"], 2))
            for rect in page.rects
            if abs(rect["width"] - width) < 0.01 and abs(rect["height"] - height) < 0.01
        }
    )


def expected_slots(
    x0_mm: float, y0_mm: float, *, mirrored: bool = False, count: int = 9
) -> list[tuple[float, float]]:
    slots = []
    for index in range(count):
        row, column = divmod(index, 3)
        if mirrored:
            column = 2 - column
        slots.append(
            (
                round((x0_mm + 56 * column) * PT_PER_MM, 2),
                round((y0_mm + 87 * row) * PT_PER_MM, 2),
            )
        )
    return sorted(slots)


@pytest.mark.parametrize(("paper", "geometry"), [("a4", A4), ("letter", LETTER)])
def test_page_size_and_nine_cards_at_their_places(paper: str, geometry: tuple) -> None:
    page_w, page_h, x0, y0 = geometry
    pdf = build_sheets([face()] * 9, SheetOptions(paper=paper))
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((page_w, page_h), abs=0.01)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        rects = card_rects(document.pages[0], CARD_W, CARD_H)
    assert rects == expected_slots(x0, y0)


@pytest.mark.parametrize(("paper", "geometry"), [("a4", A4), ("letter", LETTER)])
@pytest.mark.parametrize("bleed", [False, True])
def test_crop_marks_are_on_every_cut_and_outside_the_grid(
    paper: str, geometry: tuple, bleed: bool
) -> None:
    page_w, page_h, x0, y0 = geometry
    pdf = build_sheets([face()] * 9, SheetOptions(paper=paper, bleed=bleed))
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        # Crop marks are the 0.3 pt lines (icons are stroked paths too, thicker).
        lines = [line for line in document.pages[0].lines if abs(line["linewidth"] - 0.3) < 1e-6]
    margin = (3 if bleed else 0) * PT_PER_MM
    left, top = x0 * PT_PER_MM - margin, y0 * PT_PER_MM - margin
    right, bottom = left + 3 * CARD_W + 2 * margin, top + 3 * CARD_H + 2 * margin
    cuts_x = [round(x0 * PT_PER_MM + column * CARD_W, 2) for column in range(4)]
    cuts_y = [round(y0 * PT_PER_MM + row * CARD_H, 2) for row in range(4)]
    vertical = sorted(round(line["x0"], 2) for line in lines if line["x0"] == line["x1"])
    horizontal = sorted(round(line["top"], 2) for line in lines if line["top"] == line["bottom"])
    assert vertical == sorted(cuts_x * 2)
    assert horizontal == sorted(cuts_y * 2)
    for line in lines:
        outside = (
            line["bottom"] <= top
            or line["top"] >= bottom
            or line["x1"] <= left
            or line["x0"] >= right
        )
        assert outside, line
        assert (
            line["x0"] >= 0
            and line["x1"] <= page_w
            and line["top"] >= 0
            and line["bottom"] <= page_h
        )


def test_bleed_extends_the_frames_3_mm_beyond_the_grid() -> None:
    pdf = build_sheets([face()] * 9, SheetOptions(paper="letter", bleed=True))
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        page = document.pages[0]
        bleeds = card_rects(page, (56 + 6) * PT_PER_MM, (87 + 6) * PT_PER_MM)
        cards = card_rects(page, CARD_W, CARD_H)
    _w, _h, x0, y0 = LETTER
    assert bleeds == expected_slots(x0 - 3, y0 - 3)
    assert cards == expected_slots(x0, y0)  # the cards themselves stay butted


def test_backs_page_is_mirrored_for_long_edge_duplex_and_offset() -> None:
    pdf = build_sheets(
        [face("Åsa"), face("Bo")],
        SheetOptions(paper="a4", backs=True, back_offset_x_mm=1.5, back_offset_y_mm=-0.5),
    )
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        assert len(document.pages) == 2
        fronts = card_rects(document.pages[0], CARD_W, CARD_H)
        backs = card_rects(document.pages[1], CARD_W, CARD_H)
        assert "Åsa" in document.pages[0].extract_text()
        assert "Clash of Decks" in document.pages[1].extract_text()
    _w, _h, x0, y0 = A4
    assert fronts == expected_slots(x0, y0, count=2)  # columns 0 and 1
    assert backs == expected_slots(x0 + 1.5, y0 - 0.5, mirrored=True, count=2)  # columns 2, 1


def test_several_champions_and_copies_fill_sheets_in_order() -> None:
    faces = [face(f"Card {index}", illustration=None) for index in range(11)]
    pdf = build_sheets(faces, SheetOptions(paper="a4", backs=True))
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        assert len(document.pages) == 4  # fronts, backs, fronts, backs
        first = document.pages[0].extract_text()
        third = document.pages[2].extract_text()
        assert len(card_rects(document.pages[2], CARD_W, CARD_H)) == 2
        assert len(card_rects(document.pages[3], CARD_W, CARD_H)) == 2
    assert all(f"Card {index}" in first for index in range(9))
    assert "Card 9" in third and "Card 10" in third and "Card 8" not in third


def test_text_is_vector_text_with_french_and_swedish_accents() -> None:
    pdf = build_sheets(
        [face("Åsa"), face("Ébréchement", flavour="Över ängarna, på väg hem — ça déçoit.")],
        SheetOptions(),
    )
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        text = document.pages[0].extract_text()
        chars = document.pages[0].chars
    for word in ("Ébréchement", "Åsa", "dégâts", "l'œil", "s'égare", "ängarna", "déçoit"):
        assert word in text
    # Subset fonts ("ABCDEF+Name") of the TTFs shipped in champions/fonts/.
    assert {char["fontname"].split("+")[-1] for char in chars} == {
        "DejaVuSansCondensed",
        "DejaVuSansCondensed-Bold",
        "DejaVuSansCondensed-Oblique",
    }


def _fonts(obj: object, seen: set[int] | None = None) -> list[pypdf.generic.DictionaryObject]:
    """Every font dictionary reachable from a page, including inside form XObjects."""
    seen = seen if seen is not None else set()
    found = []
    resources = obj.get("/Resources")  # type: ignore[attr-defined]
    if resources is None:
        return found
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        if id(font) not in seen:
            seen.add(id(font))
            found.append(font)
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Form":
            found.extend(_fonts(xobject, seen))
    return found


def test_fonts_are_embedded() -> None:
    reader = pypdf.PdfReader(io.BytesIO(build_sheets([face()], SheetOptions())))
    fonts = _fonts(reader.pages[0])
    assert fonts
    for font in fonts:
        descriptor = font.get("/FontDescriptor")
        if descriptor is None:  # a composite font keeps it on its descendant
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object(), font


def test_illustrations_are_placed_at_300_ppi_or_more() -> None:
    pdf = build_sheets([face()] * 3, SheetOptions())
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        images = document.pages[0].images
    assert len(images) == 3
    for image in images:
        width_px, height_px = image["srcsize"]
        assert width_px / (image["width"] / 72) >= 300
        assert height_px / (image["height"] / 72) >= 300
    # The same picture is embedded once and placed three times.
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert pdf.count(b"/Subtype /Image") == 1
    assert len(reader.pages) == 1


def test_an_empty_sheet_set_is_one_blank_page_with_marks() -> None:
    pdf = build_sheets([], SheetOptions())
    assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) == 1


@pytest.mark.parametrize(
    ("options", "code"),
    [
        (SheetOptions(paper="a3"), "unknown_paper"),
        (SheetOptions(backs=True, back_offset_x_mm=10.5), "invalid_back_offset"),
        (SheetOptions(backs=True, back_offset_y_mm=-11), "invalid_back_offset"),
    ],
)
def test_bad_sheet_options_are_refused(options: SheetOptions, code: str) -> None:
    with pytest.raises(DomainError) as caught:
        build_sheets([face()], options)
    assert caught.value.code == code


def test_output_is_reproducible() -> None:
    assert golden_pdf() == golden_pdf()


def _render(pdf: bytes, dpi: int = 40) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def test_rendered_page_matches_the_golden_image() -> None:
    rendered = _render(golden_pdf())
    if os.environ.get("CHAMPIONS_REGENERATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        rendered.save(GOLDEN, optimize=True)
    golden = Image.open(GOLDEN).convert("RGB")
    assert rendered.size == golden.size == (331, 468)  # A4 at 40 dpi
    difference = ImageChops.difference(rendered, golden).convert("L")
    # Tolerances for anti-aliasing differences between renderer builds, not for layout changes:
    # the mean error stays tiny and almost no pixel moves by more than a faint shade.
    assert ImageStat.Stat(difference).mean[0] < 1.5
    changed = sum(difference.point(lambda value: 255 if value > 48 else 0).histogram()[255:])
    assert changed / (rendered.width * rendered.height) < 0.005


def test_the_golden_comparison_detects_a_moved_card() -> None:
    """The tolerance is tight enough to catch a 1 mm shift of the grid."""
    golden = Image.open(GOLDEN).convert("RGB")
    shifted = ImageChops.offset(golden, 2, 0)  # 2 px at 40 dpi ≈ 1.3 mm
    difference = ImageChops.difference(shifted, golden).convert("L")
    changed = sum(difference.point(lambda value: 255 if value > 48 else 0).histogram()[255:])
    assert changed / (golden.width * golden.height) >= 0.005
