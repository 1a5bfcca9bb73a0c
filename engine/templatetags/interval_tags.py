"""Server-rendered SVG charts of values with their 95% intervals around a centre line: a win
rate's change (centre 0) for "Improve this deck", an Elo rating (centre 1500) for the metagame."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from engine.metagame.rating import MEAN
from engine.suggestions.search import Change

register = template.Library()

# A label column, then the value area with the centre line in its middle.
LABEL, AREA, ROW, TOP = 150, 220, 30, 16


def signed_points(value: float) -> str:
    """“+4.2 pts”: a change in win rate, in points."""
    sign = "+" if value > 0 else "−" if value < 0 else "±"
    return _("%(sign)s%(points)s pts") % {
        "sign": sign,
        "points": number_format(abs(100 * value), 1),
    }


@register.filter
def points(value: float) -> str:
    return signed_points(value)


@register.filter
def change_interval(change: Change) -> str:
    """“+2.1 – +6.3 pts”: a change's 95% interval."""
    return f"{signed_points(change.low)} – {signed_points(change.high)}"


@dataclass(frozen=True)
class IntervalRow:
    label: str
    value: float
    low: float
    high: float
    text: str
    interval: str


@dataclass(frozen=True)
class _Shape:
    row: IntervalRow
    y: float
    bar_x: float
    bar_width: float
    low: float
    high: float
    positive: bool


def _chart(
    rows: Sequence[IntervalRow], title: str, chart_id: str, centre: float, span: float, unit: str
) -> dict[str, Any]:
    """`span`: the value at either end of the area, from the centre."""
    half = AREA / 2

    def x(value: float) -> float:
        return round(LABEL + half + half * max(-1.0, min(1.0, (value - centre) / span)), 2)

    shapes = []
    for index, row in enumerate(rows):
        start, end = sorted((x(centre), x(row.value)))
        shapes.append(
            _Shape(
                row=row,
                y=TOP + index * ROW,
                bar_x=start,
                bar_width=round(end - start, 2),
                low=x(row.low),
                high=x(row.high),
                positive=row.value >= centre,
            )
        )
    summary = "; ".join(
        _("%(label)s: %(value)s (95%% interval %(interval)s)")
        % {"label": row.label, "value": row.text, "interval": row.interval}
        for row in rows
    )
    return {
        "rows": shapes,
        "title": title,
        "chart_id": chart_id,
        "summary": summary,
        "centre": LABEL + half,
        "centre_text": unit,
        "left": LABEL,
        "area": AREA,
        "bar_height": ROW - 12,
        "width": LABEL + AREA + 60,
        "height": TOP + len(shapes) * ROW + 4,
        "bottom": TOP + len(shapes) * ROW - 6,
    }


def _span(values: Sequence[float], step: float, least: float) -> float:
    """The smallest multiple of `step`, at least `least`, that every value fits in."""
    widest = max((abs(value) for value in values), default=0.0)
    return max(least, step * math.ceil(widest / step))


@register.inclusion_tag("engine/_interval_chart.html")
def change_chart(rows: Sequence[tuple[str, Change]], title: str, chart_id: str) -> dict[str, Any]:
    """Win rate changes as bars from 0 with their 95% intervals as whiskers."""
    span = _span([value for _label, one in rows for value in (one.low, one.high)], 0.05, 0.1)
    return _chart(
        [
            IntervalRow(
                label,
                one.change,
                one.low,
                one.high,
                signed_points(one.change),
                change_interval(one),
            )
            for label, one in rows
        ],
        title,
        chart_id,
        0.0,
        span,
        signed_points(0.0),
    )


@register.inclusion_tag("engine/_interval_chart.html")
def elo_chart(
    rows: Sequence[tuple[str, float, float, float]], title: str, chart_id: str
) -> dict[str, Any]:
    """Elo ratings (label, rating, low, high) as bars from the mean with their intervals."""
    span = _span([value - MEAN for _label, *values in rows for value in values], 100, 200)
    return _chart(
        [
            IntervalRow(
                label,
                elo,
                low,
                high,
                number_format(elo, 0),
                f"{number_format(low, 0)} – {number_format(high, 0)}",
            )
            for label, elo, low, high in rows
        ],
        title,
        chart_id,
        MEAN,
        span,
        number_format(MEAN, 0),
    )
