"""Reads of difficulty curves: a deck's Solo batches, one per level of the difficulty table, and
the highest level it beats half of the time.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from decks.models import Deck
from engine import simulation
from engine.models import ACTIVE_STATUSES, Agent, DifficultyCurve, SimulationBatch, SimulationChunk
from engine.selectors import Viewer

# A level is beaten when the deck wins at least this share of its games.
HALF = 0.5


@dataclass(frozen=True)
class CurvePoint:
    """One level of a curve: its batch and the player's wins so far."""

    level: int
    batch: SimulationBatch
    wins: simulation.Rate


def curve_get(*, curve_id: int, user: Viewer) -> DifficultyCurve:
    """A curve its requester (or staff) may see; anyone else gets the same 404."""
    curve = DifficultyCurve.objects.filter(pk=curve_id).first()
    if curve is None or not (
        user.is_authenticated and (curve.requested_by_id == user.pk or user.is_staff)
    ):
        raise DomainError(
            "not_found",
            _("There is no difficulty curve #%(id)s.") % {"id": curve_id},
            {"curve": curve_id},
            status_code=404,
        )
    return curve


def curve_latest(*, deck: Deck, user: Viewer) -> DifficultyCurve | None:
    """The user's latest curve of a saved deck (what the deck's page shows)."""
    if not user.is_authenticated:
        return None
    return DifficultyCurve.objects.filter(requested_by=user, deck=deck).first()


def _player_wins(batch: SimulationBatch) -> simulation.Rate:
    """The player's (deck A's) wins over the games written so far."""
    if batch.totals is not None:
        totals = simulation.Totals.from_json(batch.totals)
    else:
        totals = simulation.Totals.empty(len(batch.seats.all()))
        for chunk in batch.chunks.all():
            totals.merge(simulation.Totals.from_json(chunk.totals))
    return simulation.Rate.of(totals.wins[0], totals.games)


def curve_points(curve: DifficultyCurve) -> list[CurvePoint]:
    batches = curve.batches.order_by("ai_level").prefetch_related(
        "seats", Prefetch("chunks", SimulationChunk.objects.only("batch_id", "totals"))
    )
    return [CurvePoint(batch.ai_level or 0, batch, _player_wins(batch)) for batch in batches]


def curve_games(points: Sequence[CurvePoint]) -> tuple[int, int]:
    """(games played, games asked for) over every level."""
    return (
        sum(point.batch.games_done for point in points),
        sum(point.batch.games for point in points),
    )


def curve_active(points: Sequence[CurvePoint]) -> bool:
    return any(point.batch.status in ACTIVE_STATUSES for point in points)


def curve_level_beaten(points: Sequence[CurvePoint]) -> int:
    """The highest level N such that the deck won at least half of its games at every level
    from the first to N ("beats the AI up to level N half of the time"); 0: not even the
    first. Levels not played yet stop the count."""
    reached = 0
    for point in points:
        rate = point.wins.value
        if rate is None or rate < HALF:
            break
        reached = point.level
    return reached


@dataclass(frozen=True)
class CurveSummary:
    """A curve as its API resource and the deck page's panel show it."""

    curve: DifficultyCurve
    levels: list[CurvePoint]
    active: bool  # some level is still queued or running
    games_done: int
    games: int
    level_beaten: int
    # The agent that played the deck (every level the same), shown by its label; "" without one.
    agent_label: str = ""


def curve_summary(curve: DifficultyCurve) -> CurveSummary:
    points = curve_points(curve)
    done, games = curve_games(points)
    agents = [
        seat.agent
        for seat in (points[0].batch.seats.all() if points else [])
        if seat.agent != simulation.AUTOMATON
    ]
    return CurveSummary(
        curve=curve,
        levels=points,
        active=curve_active(points),
        games_done=done,
        games=games,
        level_beaten=curve_level_beaten(points),
        agent_label=str(Agent(agents[0]).label) if agents and agents[0] in Agent.values else "",
    )
