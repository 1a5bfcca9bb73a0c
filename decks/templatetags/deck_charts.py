"""Small inline SVG bar charts for the deckbuilder and the deck pages."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import template

from decks.stats import Bar

register = template.Library()

# Vertical bars (mana curve): one column per value.
COLUMN_WIDTH, COLUMN_GAP, COLUMN_TOP, COLUMN_BASE = 26, 8, 16, 76
# Horizontal bars (types, abilities): a label column, then the bar.
ROW_HEIGHT, LABEL_WIDTH, BAR_AREA = 22, 140, 130
# The charts are drawn at their own size in CSS pixels (never stretched or squeezed past it on a
# phone's 390 px): the 13 px labels stay 13 px tall.


@dataclass(frozen=True)
class Shape:
    bar: Bar
    x: float
    y: float
    width: float
    height: float
    label_x: float
    label_y: float
    count_x: float
    count_y: float


def _columns(bars: Sequence[Bar]) -> tuple[list[Shape], int, int]:
    area = COLUMN_BASE - COLUMN_TOP
    shapes = []
    for index, bar in enumerate(bars):
        height = area * bar.percent / 100
        x = index * (COLUMN_WIDTH + COLUMN_GAP) + COLUMN_GAP / 2
        shapes.append(
            Shape(
                bar,
                x,
                COLUMN_BASE - height,
                COLUMN_WIDTH,
                height,
                x + COLUMN_WIDTH / 2,
                COLUMN_BASE + 15,
                x + COLUMN_WIDTH / 2,
                COLUMN_BASE - height - 4,
            )
        )
    return shapes, len(bars) * (COLUMN_WIDTH + COLUMN_GAP), COLUMN_BASE + 20


def _rows(bars: Sequence[Bar]) -> tuple[list[Shape], int, int]:
    shapes = []
    for index, bar in enumerate(bars):
        width = BAR_AREA * bar.percent / 100
        y = index * ROW_HEIGHT + 2
        shapes.append(
            Shape(
                bar,
                LABEL_WIDTH,
                y,
                width,
                ROW_HEIGHT - 6,
                LABEL_WIDTH - 6,
                y + ROW_HEIGHT - 8,
                LABEL_WIDTH + width + 4,
                y + ROW_HEIGHT - 8,
            )
        )
    return shapes, LABEL_WIDTH + BAR_AREA + 24, max(1, len(bars)) * ROW_HEIGHT


@register.inclusion_tag("decks/_chart.html")
def bar_chart(
    bars: Sequence[Bar], title: str, chart_id: str, vertical: bool = False
) -> dict[str, Any]:
    shapes, width, height = (_columns if vertical else _rows)(bars)
    return {
        "shapes": shapes,
        "width": width,
        "height": height,
        "title": title,
        "chart_id": chart_id,
        "vertical": vertical,
        "summary": ", ".join(f"{bar.label}: {bar.count}" for bar in bars),
    }
