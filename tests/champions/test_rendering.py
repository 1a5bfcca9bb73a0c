"""Card faces with Pillow: size and resolution, text that shrinks to fit, icons, illustration."""

import io
import math
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from champions import icons
from champions.faces import (
    ART,
    CAP_HEIGHT,
    TEXT_BOX,
    TEXT_SIZES,
    CardFace,
    FaceAbility,
    Illustration,
    art_pixels,
    layout_text,
)
from champions.fonts import MM_PER_PT, text_width_mm
from champions.images import normalise_image
from champions.rendering import card_png, card_preview_png, render_card
from tests.champions.conftest import picture_bytes
from tests.champions.test_pricing import COSTS

SHORT = CardFace(
    kind="champion",
    name="Åsa",
    mana=3,
    attack=2,
    hp=3,
    abilities=(FaceAbility("splash", "Splash", "Deals damage around its target."),),
    type_line="Champion",
)
LONG_TEXT = (
    "During each turn, the first time the owner inflicts enough Damage to destroy a Creature, "
    "any excess Damage is dealt to the Stronghold of the owner of the destroyed Creature."
)
LONG = CardFace(
    kind="champion",
    name="Ébréchement the Unending Siege of the North",
    mana=12,
    attack=9,
    hp=9,
    abilities=tuple(
        FaceAbility(code, code.title(), LONG_TEXT, aura=index == 0)
        for index, code in enumerate(["rage", "splash", "sharpening", "aerial", "berserk"])
    ),
    flavour="Åsa såg långt över de frusna fälten.",
    type_line="Champion",
)


def test_the_print_face_is_56_by_87_mm_at_300_dpi() -> None:
    image = Image.open(io.BytesIO(card_png(SHORT)))
    assert image.size == (661, 1028)  # 56 mm and 87 mm at 300 dpi, rounded
    assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert image.mode == "RGB"


def test_the_preview_is_small() -> None:
    image = Image.open(io.BytesIO(card_preview_png(SHORT)))
    assert image.size == (320, 497)
    assert len(card_preview_png(SHORT)) < len(card_png(SHORT))


def _inside_box(face: CardFace) -> None:
    block = layout_text(face)
    x0, y0, width, height = TEXT_BOX
    size_mm = block.size_pt * MM_PER_PT
    for run in block.runs:
        assert run.x >= x0 - 1e-6
        assert run.x + text_width_mm(run.text, run.font, block.size_pt) <= x0 + width + 1e-6
        assert run.baseline - size_mm * CAP_HEIGHT >= y0 - 1e-6
        assert run.baseline <= y0 + height + 1e-6


def test_short_text_is_large_and_long_text_shrinks_but_stays_in_its_box() -> None:
    short, long = layout_text(SHORT), layout_text(LONG)
    assert short.size_pt == TEXT_SIZES[0]
    assert long.size_pt < short.size_pt
    _inside_box(SHORT)
    _inside_box(LONG)


def test_too_much_text_keeps_the_ability_names() -> None:
    crowded = CardFace(
        kind="champion",
        name="X",
        mana=1,
        attack=1,
        hp=1,
        abilities=tuple(FaceAbility(c, c.title(), LONG_TEXT * 3) for c in ["rage", "splash"]),
    )
    block = layout_text(crowded)
    words = " ".join(run.text for run in block.runs)
    assert "Rage" in words and "Splash" in words
    assert "Stronghold" not in words  # the rules texts had to go
    _inside_box(crowded)


def test_a_word_longer_than_the_box_is_cut() -> None:
    face = CardFace(
        kind="champion",
        name="X",
        mana=1,
        attack=1,
        hp=1,
        abilities=(FaceAbility("rage", "Rage", "Ö" * 80),),
    )
    block = layout_text(face)
    assert block.size_pt == TEXT_SIZES[0]
    # The name alone on the first line (the word does not fit beside it), then the word cut into
    # lines as full as the box allows: 24 letters fit in its 46 mm, 25 would not.
    assert [(run.text, run.font) for run in block.runs] == [
        ("Rage:", "bold"),
        ("Ö" * 24, "regular"),
        ("Ö" * 24, "regular"),
        ("Ö" * 24, "regular"),
        ("Ö" * 8, "regular"),
    ]
    width = TEXT_BOX[2]
    assert text_width_mm("Ö" * 25, "regular", block.size_pt) > width
    baselines = [run.baseline for run in block.runs]
    assert baselines == sorted(set(baselines))  # one run per line, top to bottom
    assert {run.x for run in block.runs} == {TEXT_BOX[0]}
    _inside_box(face)


def test_every_ability_of_the_catalogue_has_a_drawing_in_the_catalogue_sprite() -> None:
    for code in COSTS:
        icon = icons.lookup(icons.ability_key(code))
        assert icon is not None and icon.shapes, code
        assert all(shape.stroke for shape in icon.shapes)
    assert icons.lookup("ab-aura") is not None
    assert icons.lookup("ab-no_such_ability") is None


def _symbol_ids() -> list[str]:
    root = ET.parse(icons.catalogue_sprite()).getroot()
    return [symbol.get("id") for symbol in root.iter(f"{icons.SVG_NS}symbol")]


@pytest.mark.parametrize("key", [*_symbol_ids(), "attack", "hp", "mana"])
def test_every_icon_parses_and_stays_on_its_grid(key: str) -> None:
    icon = icons.lookup(key)
    assert icon is not None
    drawn = 0
    for shape in icon.shapes:
        for points, _closed in icons.flatten(shape.segments):
            drawn += len(points)
            for x, y in points:
                assert -0.5 <= x <= 24.5 and -0.5 <= y <= 24.5, (key, x, y)
    assert drawn > 0


def test_arcs_become_curves_on_the_ellipse() -> None:
    # A half circle of radius 5 around (5, 0), written with and without flag separators.
    spaced = icons.parse_path("M0 0 a5 5 0 0 1 10 0")
    packed = icons.parse_path("M0 0a5 5 0 0110 0")
    assert spaced == packed
    [(points, closed)] = icons.flatten(spaced)
    assert not closed and points[-1] == (10.0, 0.0)
    for x, y in points:
        assert math.hypot(x - 5, y) == pytest.approx(5, abs=0.01)
    assert min(y for _x, y in points) == pytest.approx(-5, abs=0.01)  # sweep 1 goes up (y < 0)


def test_relative_smooth_and_quadratic_path_commands() -> None:
    segments = icons.parse_path("m1 1 h2 v2 q1 1 2 0 t2 0 c1 0 1 1 2 1 s1 1 2 1 z")
    assert [segment.op for segment in segments] == ["M", "L", "L", "C", "C", "C", "C", "Z"]
    assert segments[2].points == ((3.0, 3.0),)
    assert segments[3].points[-1] == (5.0, 3.0)
    assert segments[4].points[-1] == (7.0, 3.0)
    # `s` reflects the previous second control point (8, 4) about the current point (9, 4).
    assert segments[6].points[0] == (10.0, 4.0)
    assert segments[6].points[-1] == (11.0, 5.0)


def test_dash_patterns_cut_lines() -> None:
    line = [(0.0, 0.0), (10.0, 0.0)]
    assert list(icons.dashed(line, (3.0, 2.0))) == [
        [(0.0, 0.0), (3.0, 0.0)],
        [(5.0, 0.0), (8.0, 0.0)],
    ]
    # A dash goes round a corner; an odd pattern repeats as on, off, on … (SVG rule).
    corner = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)]
    assert list(icons.dashed(corner, (3.0, 2.0))) == [
        [(0.0, 0.0), (3.0, 0.0)],
        [(4.0, 1.0), (4.0, 4.0)],
    ]
    assert list(icons.dashed(line, (3.0,))) == [[(0.0, 0.0), (3.0, 0.0)], [(6.0, 0.0), (9.0, 0.0)]]
    assert list(icons.dashed([(0.0, 0.0), (4.0, 0.0)], ())) == [[(0.0, 0.0), (4.0, 0.0)]]


def test_rect_with_rounded_corners() -> None:
    root = ET.fromstring(
        '<svg xmlns="http://www.w3.org/2000/svg">'
        '<rect x="2" y="9" width="10" height="6" rx="3"/></svg>'
    )
    path = icons._element_path(root[0])
    [(points, closed)] = icons.flatten(icons.parse_path(path))
    assert closed
    assert min(x for x, _ in points) == pytest.approx(2) and max(
        x for x, _ in points
    ) == pytest.approx(12)
    assert min(y for _, y in points) == pytest.approx(9) and max(
        y for _, y in points
    ) == pytest.approx(15)


def test_an_unknown_ability_gets_a_lettered_badge_on_the_card() -> None:
    face = CardFace(
        kind="champion",
        name="X",
        mana=1,
        attack=1,
        hp=1,
        abilities=(FaceAbility("brand_new", "Zeal", "New."),),
    )
    assert render_card(face).size == (661, 1028)


def test_the_illustration_fills_the_art_window_at_its_focal_point() -> None:
    # A picture whose left half is red and right half blue.
    picture = Image.new("RGB", (800, 400), (220, 20, 20))
    picture.paste((20, 20, 220), (400, 0, 800, 400))
    out = io.BytesIO()
    picture.save(out, "PNG")
    stored = normalise_image(out.getvalue())

    def art_centre(x: float) -> tuple[int, int, int]:
        face = CardFace(
            kind="champion",
            name="X",
            mana=1,
            attack=1,
            hp=1,
            illustration=Illustration(stored.content, stored.sha256, x=x, y=0.5, zoom=1.0),
        )
        image = render_card(face)
        left, top, width, height = ART
        scale = 300 / 25.4
        return image.getpixel((int((left + width / 2) * scale), int((top + height / 2) * scale)))

    red_left, _, blue_left = art_centre(0.0)  # the window shows the picture's left part
    red_right, _, blue_right = art_centre(1.0)
    assert red_left > 180 and blue_left < 60
    assert blue_right > 180 and red_right < 60


def test_art_is_prepared_at_300_ppi_whatever_the_upload_size() -> None:
    stored = normalise_image(picture_bytes("PNG", size=(120, 90)))
    pixels = art_pixels(Illustration(stored.content, stored.sha256), (567, 430), "#000000")
    assert pixels.size == (567, 430)  # 48 × 36.4 mm at 300 ppi
    zoomed = art_pixels(
        Illustration(stored.content, stored.sha256, zoom=2.0), (567, 430), "#000000"
    )
    assert zoomed.size == (567, 430)
    assert zoomed.tobytes() != pixels.tobytes()
