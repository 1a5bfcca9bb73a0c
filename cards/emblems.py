"""A generated face for every catalogue card, in place of the official art we do not ship.

Each card gets an emblem drawn from what it is: the expansion picks the colours, the Mana cost the
sides of the outer ring, attack and HP the reach and girth of the star (a wheel of rays for an
incantation), each ability a satellite in its own colour, and the slug seeds the rotations, so no
two cards look alike and a card looks the same on every page and in the Print-and-Play PDFs.

The emblem is a list of polygons in a 100 × 100 box; `emblem_svg` writes them for the pages and
`emblem_png` paints them for the PDFs, so both show the same picture.
"""

import colorsys
import hashlib
import io
import math
import random
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

if TYPE_CHECKING:
    from cards.models import Card

BOX = 100.0
CENTRE = BOX / 2
# Turns of the colour wheel between consecutive expansions: the golden angle keeps even
# neighbouring expansions far apart in hue.
GOLDEN_ANGLE = 137.508
# Bump when the drawing changes: the PDFs' face cache keys on it.
EMBLEM_VERSION = 1


Points = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Polygon:
    points: Points
    fill: str


@dataclass(frozen=True)
class Emblem:
    key: str  # what the picture depends on, to cache and compare renders
    background: str
    polygons: tuple[Polygon, ...]


def _seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _colour(hue: float, lightness: float, saturation: float) -> str:
    red, green, blue = colorsys.hls_to_rgb((hue % 360) / 360, lightness, saturation)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def expansion_hue(code: str) -> float:
    """The expansion's colour: its number turned by the golden angle (a hash for other codes)."""
    number = int(code) if code.isdigit() else _seed(code) % 97
    return (20 + number * GOLDEN_ANGLE) % 360


def _regular(
    sides: int, radius: float, turn: float, at: tuple[float, float] = (CENTRE, CENTRE)
) -> Points:
    return tuple(
        (
            round(at[0] + radius * math.cos(turn + 2 * math.pi * k / sides), 2),
            round(at[1] + radius * math.sin(turn + 2 * math.pi * k / sides), 2),
        )
        for k in range(sides)
    )


def _star(points: int, outer: float, inner: float, turn: float) -> Points:
    corners: list[tuple[float, float]] = []
    for k in range(2 * points):
        radius = outer if k % 2 == 0 else inner
        angle = turn + math.pi * k / points
        corners.append(
            (
                round(CENTRE + radius * math.cos(angle), 2),
                round(CENTRE + radius * math.sin(angle), 2),
            )
        )
    return tuple(corners)


def card_emblem(
    *,
    slug: str,
    expansion_code: str,
    card_type: str,
    mana: int | None,
    attack: int | None,
    hp: int | None,
    abilities: tuple[str, ...],
) -> Emblem:
    """The card's emblem; `abilities` are codes in print order (an Aura as `aura:CODE`)."""
    rng = random.Random(_seed(slug))
    hue = expansion_hue(expansion_code)
    spell = card_type != "creature"
    polygons = [
        # The expansion's disc, then the ring: as many sides as the card costs Mana (3 at least).
        Polygon(_regular(48, 46, 0), _colour(hue, 0.36, 0.42)),
        Polygon(
            _regular(max(3, min(12, (mana or 0) + 3)), 42, rng.uniform(0, math.tau)),
            _colour(hue + 25, 0.62, 0.5),
        ),
        Polygon(
            _regular(max(3, min(12, (mana or 0) + 3)), 36, rng.uniform(0, math.tau)),
            _colour(hue - 10, 0.24, 0.45),
        ),
    ]
    turn = rng.uniform(0, math.tau)
    if spell:
        # An incantation: a wheel of thin rays around a bright core.
        rays = 5 + rng.randint(0, 4) + len(abilities)
        polygons.append(Polygon(_star(rays, 31, 9, turn), _colour(hue + 180, 0.7, 0.65)))
    else:
        # A creature: a star reaching further with attack, stouter with HP.
        outer = 18 + 1.6 * min(attack or 0, 8)
        girth = 0.3 + 0.06 * min(hp or 0, 8)
        points = 4 + (attack or 0) % 3 + (hp or 0) % 4
        polygons.append(Polygon(_star(points, outer, outer * girth, turn), _colour(hue, 0.74, 0.6)))
    for index, code in enumerate(abilities):
        # One satellite per ability, its shape and colour the ability's own on every card.
        own = _seed(code.removeprefix("aura:"))
        angle = turn + math.pi / 4 + 2 * math.pi * index / max(1, len(abilities))
        at = (CENTRE + 27 * math.cos(angle), CENTRE + 27 * math.sin(angle))
        sides = 3 + own % 4
        ability_hue = own % 360
        if code.startswith("aura:"):
            polygons.append(Polygon(_regular(24, 8.5, 0, at), _colour(ability_hue, 0.9, 0.6)))
        polygons.append(Polygon(_regular(sides, 6.5, angle, at), _colour(ability_hue, 0.55, 0.75)))
    polygons.append(Polygon(_regular(16, 5.5, 0), _colour(hue + 60, 0.85, 0.7)))
    key = f"{EMBLEM_VERSION}:{slug}:{expansion_code}:{card_type}:{mana}:{attack}:{hp}:" + ",".join(
        abilities
    )
    return Emblem(key=key, background=_colour(hue, 0.18, 0.35), polygons=tuple(polygons))


def emblem_for(card: "Card") -> Emblem:
    """The emblem of a catalogue card loaded with `cards_with_details` (abilities prefetched)."""
    return card_emblem(
        slug=card.slug,
        expansion_code=card.expansion.code,
        card_type=card.card_type,
        mana=card.mana,
        attack=card.attack,
        hp=card.hp,
        abilities=tuple(
            f"aura:{link.ability.code}" if link.is_aura else link.ability.code
            for link in card.card_abilities.all()
        ),
    )


def emblem_svg(emblem: Emblem, css_class: str = "card-emblem") -> str:
    """An inline SVG filling its box (cropped like a cover picture), hidden from screen readers:
    the card's name and text say what it is."""
    shapes = "".join(
        f'<polygon points="{" ".join(f"{x:g},{y:g}" for x, y in polygon.points)}" '
        f'fill="{polygon.fill}"/>'
        for polygon in emblem.polygons
    )
    return (
        f'<svg class="{escape(css_class)}" viewBox="0 0 100 100" '
        f'preserveAspectRatio="xMidYMid slice" aria-hidden="true" focusable="false">'
        f'<rect x="-50" y="-50" width="200" height="200" fill="{emblem.background}"/>'
        f"{shapes}</svg>"
    )


def emblem_png(emblem: Emblem, size: int = 600) -> bytes:
    """The same picture as a PNG of `size` × `size` pixels (drawn at twice the size and scaled
    down, which smooths the edges)."""
    scale = 2 * size / BOX
    image = Image.new("RGB", (2 * size, 2 * size), emblem.background)
    draw = ImageDraw.Draw(image)
    for polygon in emblem.polygons:
        draw.polygon([(x * scale, y * scale) for x, y in polygon.points], fill=polygon.fill)
    out = io.BytesIO()
    image.resize((size, size), Image.Resampling.BOX).save(out, "PNG", compress_level=1)
    return out.getvalue()
