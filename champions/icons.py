"""Icons drawn on our card faces, from one source each.

- Ability and card-type icons are the catalogue's own drawings, `cards/static/cards/icons.svg`
  (symbols `ab-<code>`, `ab-aura`, `type-<type>`: 24 × 24 stroke drawings, drawn by the site
  with a 1.8 stroke, round caps and joins). This module reads that sprite, so the card browser,
  the Champion pages, the PNG faces and the PDFs show the same icons, and a new drawing there
  appears everywhere.
- The stat icons of our frame (Mana, attack, HP) are filled shapes defined here.
- An ability without a drawing (an ability the admin added later) gets a lettered badge.

Shapes are reduced to absolute move/line/cubic segments, which ReportLab draws as vector paths
and Pillow as anti-aliased polylines. Supported SVG: `path` (all commands, arcs included),
`circle`, `rect` (with `rx`), `stroke-dasharray`.
"""

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

from django.apps import apps

GRID = 24.0
STROKE_WIDTH = 1.8  # the catalogue's `.ability-icon { stroke-width: 1.8 }`
SVG_NS = "{http://www.w3.org/2000/svg}"
_KAPPA = 0.5522847498  # cubic Bézier handle length for a quarter circle

Point = tuple[float, float]


@dataclass(frozen=True)
class Segment:
    """One drawing command in grid units: M (move), L (line), C (cubic: 3 points) or Z."""

    op: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Shape:
    segments: tuple[Segment, ...]
    stroke: bool  # a stroked line; otherwise an even-odd filled area
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Icon:
    shapes: tuple[Shape, ...]


def circle_path(cx: float, cy: float, r: float) -> str:
    k = r * _KAPPA
    return (
        f"M{cx + r} {cy} C{cx + r} {cy + k} {cx + k} {cy + r} {cx} {cy + r} "
        f"C{cx - k} {cy + r} {cx - r} {cy + k} {cx - r} {cy} "
        f"C{cx - r} {cy - k} {cx - k} {cy - r} {cx} {cy - r} "
        f"C{cx + k} {cy - r} {cx + r} {cy - k} {cx + r} {cy} Z"
    )


# Our frame's stat icons, filled (even-odd: a nested sub-path is a hole).
STAT_PATHS: dict[str, tuple[str, ...]] = {
    "mana": ("M12 1 L19.5 12 L12 23 L4.5 12 Z", "M12 6 L15.5 12 L12 18 L8.5 12 Z"),
    "attack": (
        "M19 2 H22 V5 L11.5 15.5 L8.5 12.5 Z",
        "M4.5 11.5 L12.5 19.5 L11 21 L3 13 Z",
        "M6.5 16.5 L7.5 17.5 L3.5 21.5 L2.5 20.5 Z",
    ),
    "hp": (
        "M12 21.5 C5 15.5 2 12.5 2 8.2 C2 5 4.4 3 7.1 3 C9.1 3 11 4.1 12 6 "
        "C13 4.1 14.9 3 16.9 3 C19.6 3 22 5 22 8.2 C22 12.5 19 15.5 12 21.5 Z",
    ),
}

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class _Tokens:
    def __init__(self, path: str) -> None:
        self.items = _TOKEN.findall(path)
        self.index = 0

    def more_numbers(self) -> bool:
        return self.index < len(self.items) and not self.items[self.index].isalpha()

    def number(self) -> float:
        value = float(self.items[self.index])
        self.index += 1
        return value

    def flag(self) -> bool:
        """Arc flags may be written without separators (`a1 1 0 014 4`): one digit each."""
        token = self.items[self.index]
        if len(token) > 1 and token[0] in "01":
            self.items[self.index] = token[1:]
        else:
            self.index += 1
        return token[0] == "1"


def _arc(
    start: Point, rx: float, ry: float, angle: float, large: bool, sweep: bool, end: Point
) -> list[Segment]:
    """An SVG elliptical arc as cubic Béziers (SVG 1.1 implementation notes, F.6.5)."""
    (x1, y1), (x2, y2) = start, end
    if (x1, y1) == (x2, y2):
        return []
    if rx == 0 or ry == 0:
        return [Segment("L", (end,))]
    rx, ry = abs(rx), abs(ry)
    phi = math.radians(angle)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = x1p**2 / rx**2 + y1p**2 / ry**2
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx**2 * ry**2 - rx**2 * y1p**2 - ry**2 * x1p**2
    denominator = rx**2 * y1p**2 + ry**2 * x1p**2
    coefficient = math.sqrt(max(0.0, numerator / denominator))
    if large == sweep:
        coefficient = -coefficient
    cxp, cyp = coefficient * rx * y1p / ry, -coefficient * ry * x1p / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2

    def angle_between(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    ux, uy = (x1p - cxp) / rx, (y1p - cyp) / ry
    vx, vy = (-x1p - cxp) / rx, (-y1p - cyp) / ry
    theta = angle_between(1, 0, ux, uy)
    delta = angle_between(ux, uy, vx, vy)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    count = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / count
    handle = 4 / 3 * math.tan(step / 4)

    def on_ellipse(u: float, v: float) -> Point:
        return (cx + rx * u * cos - ry * v * sin, cy + rx * u * sin + ry * v * cos)

    segments = []
    for index in range(count):
        a1, a2 = theta + index * step, theta + (index + 1) * step
        c1 = on_ellipse(math.cos(a1) - handle * math.sin(a1), math.sin(a1) + handle * math.cos(a1))
        c2 = on_ellipse(math.cos(a2) + handle * math.sin(a2), math.sin(a2) - handle * math.cos(a2))
        last = end if index == count - 1 else on_ellipse(math.cos(a2), math.sin(a2))
        segments.append(Segment("C", (c1, c2, last)))
    return segments


@cache
def parse_path(path: str) -> tuple[Segment, ...]:
    """SVG path data → absolute M/L/C/Z segments (every other command is resolved)."""
    tokens = _Tokens(path)
    segments: list[Segment] = []
    command = ""
    x = y = start_x = start_y = 0.0
    last_control: Point | None = None  # for S/T: the previous curve's second control point
    last_quad: Point | None = None
    while tokens.index < len(tokens.items):
        if not tokens.more_numbers():
            command = tokens.items[tokens.index]
            tokens.index += 1
            if command in "Zz":
                segments.append(Segment("Z", ()))
                x, y = start_x, start_y
                last_control = last_quad = None
                continue
        op, relative = command.upper(), command.islower()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        control: Point | None = None
        quad: Point | None = None
        if op == "M":
            x, y = tokens.number() + ox, tokens.number() + oy
            start_x, start_y = x, y
            segments.append(Segment("M", ((x, y),)))
            command = "l" if relative else "L"  # further pairs are line-tos
        elif op == "L":
            x, y = tokens.number() + ox, tokens.number() + oy
            segments.append(Segment("L", ((x, y),)))
        elif op == "H":
            x = tokens.number() + ox
            segments.append(Segment("L", ((x, y),)))
        elif op == "V":
            y = tokens.number() + oy
            segments.append(Segment("L", ((x, y),)))
        elif op in "CS":
            if op == "C":
                c1 = (tokens.number() + ox, tokens.number() + oy)
            else:  # the reflection of the previous control point
                c1 = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (x, y)
            control = (tokens.number() + ox, tokens.number() + oy)
            end = (tokens.number() + ox, tokens.number() + oy)
            segments.append(Segment("C", (c1, control, end)))
            x, y = end
        elif op in "QT":
            if op == "Q":
                quad = (tokens.number() + ox, tokens.number() + oy)
            else:
                quad = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
            end = (tokens.number() + ox, tokens.number() + oy)
            # A quadratic is the cubic with handles two thirds of the way to its control point.
            c1 = (x + 2 / 3 * (quad[0] - x), y + 2 / 3 * (quad[1] - y))
            c2 = (end[0] + 2 / 3 * (quad[0] - end[0]), end[1] + 2 / 3 * (quad[1] - end[1]))
            segments.append(Segment("C", (c1, c2, end)))
            x, y = end
        elif op == "A":
            rx, ry, rotation = tokens.number(), tokens.number(), tokens.number()
            large, sweep = tokens.flag(), tokens.flag()
            end = (tokens.number() + ox, tokens.number() + oy)
            segments.extend(_arc((x, y), rx, ry, rotation, large, sweep, end))
            x, y = end
        else:
            raise ValueError(f"unsupported path command {command!r} in {path!r}")
        last_control, last_quad = control, quad
    return tuple(segments)


def _rect_path(x: float, y: float, w: float, h: float, r: float) -> str:
    if r <= 0:
        return f"M{x} {y} H{x + w} V{y + h} H{x} Z"
    r = min(r, w / 2, h / 2)
    return (
        f"M{x + r} {y} H{x + w - r} A{r} {r} 0 0 1 {x + w} {y + r} V{y + h - r} "
        f"A{r} {r} 0 0 1 {x + w - r} {y + h} H{x + r} A{r} {r} 0 0 1 {x} {y + h - r} "
        f"V{y + r} A{r} {r} 0 0 1 {x + r} {y} Z"
    )


def _element_path(element: ET.Element) -> str | None:
    tag = element.tag.removeprefix(SVG_NS)
    get = element.get
    if tag == "path":
        return get("d", "")
    if tag == "circle":
        return circle_path(float(get("cx", 0)), float(get("cy", 0)), float(get("r", 0)))
    if tag == "rect":
        return _rect_path(
            float(get("x", 0)),
            float(get("y", 0)),
            float(get("width", 0)),
            float(get("height", 0)),
            float(get("rx", get("ry", 0))),
        )
    return None


def catalogue_sprite() -> Path:
    return Path(apps.get_app_config("cards").path) / "static" / "cards" / "icons.svg"


@cache
def catalogue_icons() -> dict[str, Icon]:
    """The catalogue's sprite, symbol id → stroked icon (read once per process)."""
    root = ET.parse(catalogue_sprite()).getroot()
    icons: dict[str, Icon] = {}
    for symbol in root.iter(f"{SVG_NS}symbol"):
        shapes = []
        for element in symbol:
            path = _element_path(element)
            if path is None:
                continue
            dash = tuple(
                float(value) for value in _NUMBER.findall(element.get("stroke-dasharray", ""))
            )
            shapes.append(Shape(segments=parse_path(path), stroke=True, dash=dash))
        icons[symbol.get("id", "")] = Icon(shapes=tuple(shapes))
    return icons


def _filled(*paths: str) -> Icon:
    return Icon(shapes=tuple(Shape(segments=parse_path(path), stroke=False) for path in paths))


def badge() -> Icon:
    """The ring of the lettered badge of an ability without a drawing (the letter is text)."""
    return _filled(f"{circle_path(12, 12, 11)} {circle_path(12, 12, 9)}")


def lookup(key: str) -> Icon | None:
    """`attack`/`hp`/`mana`, or a sprite id such as `ab-splash`, `ab-aura`, `type-creature`."""
    if key in STAT_PATHS:
        return _filled(*STAT_PATHS[key])
    return catalogue_icons().get(key)


def ability_key(code: str) -> str:
    return f"ab-{code}"


def badge_letter(name: str) -> str:
    """The letter on the badge of an ability without a drawing: the first letter of its name."""
    return (name.strip()[:1] or "?").upper()


def flatten(segments: tuple[Segment, ...], steps: int = 12) -> list[tuple[list[Point], bool]]:
    """The segments as polylines: (points, closed) per sub-path; curves cut into `steps`."""
    lines: list[tuple[list[Point], bool]] = []
    current: list[Point] = []

    def finish(closed: bool) -> None:
        if len(current) > 1:
            lines.append((list(current), closed))

    for segment in segments:
        if segment.op == "M":
            finish(False)
            current = [segment.points[0]]
        elif segment.op == "L":
            current.append(segment.points[0])
        elif segment.op == "C":
            (x0, y0), (ax, ay), (bx, by), (x3, y3) = current[-1], *segment.points
            for step in range(1, steps + 1):
                t = step / steps
                u = 1 - t
                current.append(
                    (
                        u**3 * x0 + 3 * u * u * t * ax + 3 * u * t * t * bx + t**3 * x3,
                        u**3 * y0 + 3 * u * u * t * ay + 3 * u * t * t * by + t**3 * y3,
                    )
                )
        elif segment.op == "Z" and current:
            finish(True)
            current = [current[0]]
    finish(False)
    return lines


def dashed(points: list[Point], pattern: tuple[float, ...]) -> Iterator[list[Point]]:
    """The drawn pieces of a polyline under a dash pattern (on, off, on, off …)."""
    if not pattern or sum(pattern) <= 0:
        yield points
        return
    lengths = list(pattern) * (2 if len(pattern) % 2 else 1)
    index, left, drawing = 0, lengths[0], True
    piece: list[Point] = [points[0]]
    for (ax, ay), (bx, by) in pairwise(points):
        length = math.hypot(bx - ax, by - ay)
        done = 0.0
        while length - done > left:
            done += left
            t = done / length
            cut = (ax + (bx - ax) * t, ay + (by - ay) * t)
            if drawing:
                piece.append(cut)
                yield piece
            piece = [cut]
            drawing = not drawing
            index = (index + 1) % len(lengths)
            left = lengths[index]
        left -= length - done
        if drawing:
            piece.append((bx, by))
        else:
            piece = [(bx, by)]
    if drawing and len(piece) > 1:
        yield piece
