"""Server-rendered SVG charts of a batch's results, and the wording of a replay's actions."""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from engine.models import SimulationBatch
from engine.selectors import batch_title
from engine.simulation import CardStats, Rate

register = template.Library()

# Rate chart: a label column, then 0-100% with the rate as a bar and its interval as a whisker.
RATE_LABEL, RATE_AREA, RATE_ROW, RATE_TOP = 150, 220, 30, 16
# Histogram: one column per range of game lengths.
HIST_LEFT, HIST_WIDTH, HIST_BASE, HIST_TOP = 34, 360, 130, 12


def percent(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{number_format(100 * value, digits)} %"


@register.filter(name="percent")
def percent_filter(value: float | None) -> str:
    return percent(value)


@register.filter
def interval(rate: Rate) -> str:
    """“62.1 % – 66.3 %”: the 95% interval of a rate."""
    if not rate.games:
        return "–"
    return f"{percent(rate.low)} – {percent(rate.high)}"


@register.filter
def insight_rates(card: CardStats) -> tuple[Rate, Rate, Rate, Rate]:
    """A card's win rates in the columns of the card insight table: played, not played, played
    early, played late."""
    return (
        card.win_rate_when_played,
        card.win_rate_when_not_played,
        card.win_rate_when_early,
        card.win_rate_when_late,
    )


@dataclass(frozen=True)
class RateRow:
    label: str
    rate: Rate
    y: float
    width: float
    low: float
    high: float
    text: str


@register.inclusion_tag("engine/_rate_chart.html")
def rate_chart(rows: Sequence[tuple[str, Rate]], title: str, chart_id: str) -> dict[str, Any]:
    shapes = []
    for index, (label, rate) in enumerate(rows):
        value = rate.value or 0.0
        shapes.append(
            RateRow(
                label=label,
                rate=rate,
                y=RATE_TOP + index * RATE_ROW,
                width=round(RATE_AREA * value, 2),
                low=round(RATE_LABEL + RATE_AREA * rate.low, 2),
                high=round(RATE_LABEL + RATE_AREA * rate.high, 2),
                text=percent(rate.value),
            )
        )
    summary = "; ".join(
        _("%(label)s: %(rate)s (95%% interval %(interval)s)")
        % {"label": row.label, "rate": row.text, "interval": interval(row.rate)}
        for row in shapes
    )
    return {
        "rows": shapes,
        "title": title,
        "chart_id": chart_id,
        "summary": summary,
        "left": RATE_LABEL,
        "area": RATE_AREA,
        "half": RATE_LABEL + RATE_AREA / 2,
        "bar_height": RATE_ROW - 12,
        "width": RATE_LABEL + RATE_AREA + 60,
        "height": RATE_TOP + len(shapes) * RATE_ROW + 4,
        "bottom": RATE_TOP + len(shapes) * RATE_ROW - 6,
    }


@dataclass(frozen=True)
class Column:
    label: str
    games: int
    x: float
    y: float
    width: float
    height: float
    show_label: bool
    label_x: float = 0.0
    label_anchor: str = "middle"


# About how wide a digit or dash of the axis labels is, in the chart's units.
LABEL_CHAR_WIDTH = 6.2


def _label_place(label: str, left: float, right: float) -> tuple[float, str]:
    """Where a bar's label goes: centred under it, unless that would cut it at either end of
    the axis (the last label read "77–7")."""
    centre, half = (left + right) / 2, len(label) * LABEL_CHAR_WIDTH / 2
    if centre + half > HIST_LEFT + HIST_WIDTH + 8:
        return round(right, 2), "end"
    if centre - half < HIST_LEFT:
        return round(left, 2), "start"
    return round(centre, 2), "middle"


@register.inclusion_tag("engine/_histogram.html")
def histogram_chart(
    bars: Sequence[tuple[int, int, int]], title: str, chart_id: str
) -> dict[str, Any]:
    """Vertical bars of games per range of lengths; every few bars carry their range."""
    most = max((games for _first, _last, games in bars), default=0) or 1
    step = HIST_WIDTH / max(1, len(bars))
    every = max(1, math.ceil(len(bars) / 8))
    columns = []
    for index, (first, last, games) in enumerate(bars):
        height = (HIST_BASE - HIST_TOP) * games / most
        label = str(first) if first == last else f"{first}–{last}"
        x, width = round(HIST_LEFT + index * step + 1, 2), round(max(1.0, step - 2), 2)
        label_x, anchor = _label_place(label, x, x + width)
        columns.append(
            Column(
                label=label,
                games=games,
                x=x,
                y=round(HIST_BASE - height, 2),
                width=width,
                height=round(height, 2),
                show_label=index % every == 0 or index == len(bars) - 1,
                label_x=label_x,
                label_anchor=anchor,
            )
        )
    summary = ", ".join(
        _("%(turns)s turns: %(games)d") % {"turns": column.label, "games": column.games}
        for column in columns
    )
    return {
        "columns": columns,
        "title": title,
        "chart_id": chart_id,
        "summary": summary,
        "most": most,
        "left": HIST_LEFT,
        "base": HIST_BASE,
        "top": HIST_TOP,
        "width": HIST_LEFT + HIST_WIDTH + 8,
        "height": HIST_BASE + 28,
    }


@register.filter
def matchup(batch: SimulationBatch) -> str:
    """`{{ batch|matchup }}`: “deck A against deck B”, names in the page's language."""
    return batch_title(batch)


@register.filter
def label(name: str, labels: Mapping[str, str]) -> str:
    """A card's name in the page's language (engine names are English)."""
    return labels.get(name, name)


@register.simple_tag
def action_text(action: Any, labels: Mapping[str, str], decks: Mapping[str, str]) -> str:
    """A replay action (scenario format) in words; `decks`: the letter of the deck in each seat
    (the page names decks, the replay seats)."""
    if action == "assault":
        return _("Assault")
    if action == "end_turn":
        return _("End of turn")
    if "reveal" in action:
        # Solo's AI's Phase 2 (engine.simulation): a card of its deck pile, onto a line.
        line = _("top") if action["line"] == "top" else _("bottom")
        return _("The AI reveals %(card)s onto the %(line)s line") % {
            "card": label(action["reveal"], labels),
            "line": line,
        }
    card = label(action["play"], labels)
    if "line" in action:
        line = _("top") if action["line"] == "top" else _("bottom")
        return _("Plays %(card)s on the %(line)s line") % {"card": card, "line": line}
    if "onto" in action:
        return _("Plays %(card)s onto %(host)s") % {
            "card": card,
            "host": label(action["onto"], labels),
        }
    target = action["target"]
    return _("Casts %(card)s on %(target)s (deck %(deck)s)") % {
        "card": card,
        "target": label(target["card"], labels),
        "deck": decks[target["player"]],
    }
