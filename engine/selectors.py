"""Reads of simulated test games: the decks to offer, batches, their results, replays.

Turning the decks asked for into what the engine plays is `engine.adapters.decks`.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Case, F, IntegerField, Prefetch, QuerySet, Sum, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.selectors import card_name
from cod_site.errors import DomainError
from decks.models import Deck, Visibility
from decks.selectors.lookup import cards_by_slug
from engine import simulation
from engine.adapters.decks import MODE, DeckChoice
from engine.models import (
    ACTIVE_STATUSES,
    Agent,
    DeckSource,
    SimulationBatch,
    SimulationSeat,
    Status,
)
from engine.rules import MODES
from engine.rules.native import engine_digest

Viewer = User | AnonymousUser
SEATS = len(MODES[MODE].seats)
REPLAY_CACHE_SECONDS = 600


# The decks a batch plays ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatChoice:
    """One deck entered in a batch, as asked for, and the AI that plays it."""

    deck: DeckChoice
    agent: str = Agent.GREEDY


@dataclass(frozen=True)
class DeckOption:
    share_id: str
    name: str
    owner: str


def opponent_options(
    viewer: Viewer, *, limit: int = 50
) -> tuple[list[DeckOption], list[DeckOption]]:
    """Decks to test against, for the form: the viewer's own, then recent public ones."""
    mine: list[DeckOption] = []
    if viewer.is_authenticated:
        mine = [
            DeckOption(share_id, name, owner)
            for share_id, name, owner in Deck.objects.filter(owner=viewer)
            .order_by("-updated_at")
            .values_list("share_id", "name", "owner__username")[:limit]
        ]
    public = [
        DeckOption(share_id, name, owner)
        # The viewer's own public decks too: "No public deck yet" beside one's public deck is wrong.
        for share_id, name, owner in Deck.objects.filter(visibility=Visibility.PUBLIC)
        .order_by("-updated_at")
        .values_list("share_id", "name", "owner__username")[:limit]
    ]
    return mine, public


# Batches --------------------------------------------------------------------------------------


def _with_seats(batches: QuerySet[SimulationBatch]) -> QuerySet[SimulationBatch]:
    return batches.prefetch_related(
        Prefetch("seats", queryset=SimulationSeat.objects.select_related("deck"))
    )


def batches_of(user: Viewer) -> QuerySet[SimulationBatch]:
    if not user.is_authenticated:
        return SimulationBatch.objects.none()
    return _with_seats(SimulationBatch.objects.filter(requested_by=user))


def batch_get(*, batch_id: int, user: Viewer) -> SimulationBatch:
    """A batch its requester (or staff) may see; anyone else gets a 404."""
    batch = _with_seats(SimulationBatch.objects.filter(pk=batch_id)).first()
    return batch_visible(batch_id=batch_id, batch=batch, user=user)


def batch_visible(*, batch_id: int, batch: SimulationBatch | None, user: Viewer) -> SimulationBatch:
    """`batch` if the user may see it; else, or if there is no such batch, the same 404, so
    that ids reveal nothing. Only its requester and staff: a batch keeps the Champions it
    played, as its requester could see them then, even if one is made private later."""
    if batch is None or not (
        user.is_authenticated and (batch.requested_by_id == user.pk or user.is_staff)
    ):
        raise DomainError(
            "not_found",
            _("There is no test batch #%(id)s.") % {"id": batch_id},
            {"batch": batch_id},
            status_code=404,
        )
    return batch


def batch_seats(batch: SimulationBatch) -> list[SimulationSeat]:
    """The batch's decks in the order they were entered (deck A first)."""
    return list(batch.seats.all())


def seat_name(seat: SimulationSeat) -> str:
    """A deck's name in the current language: a saved deck keeps the name it had; a
    preconstructed deck or a deck code is named anew."""
    if seat.source == DeckSource.PRECONSTRUCTED and seat.preconstructed:
        return _("Preconstructed deck %(number)d") % {"number": seat.preconstructed}
    if seat.source == DeckSource.CODE:
        return _("Deck code %(code)s…") % {"code": seat.code[:8]}
    return seat.name


def batch_title(batch: SimulationBatch) -> str:
    """“Deck A against deck B” (more decks: “A against B, C, D”), in the current language."""
    first, *others = (seat_name(seat) for seat in batch_seats(batch))
    return _("%(a)s against %(b)s") % {"a": first, "b": ", ".join(others)}


def batch_percent(batch: SimulationBatch) -> float:
    return round(100 * batch.games_done / batch.games, 1)


def active_batch_count(user: User) -> int:
    return SimulationBatch.objects.filter(requested_by=user, status__in=ACTIVE_STATUSES).count()


def games_requested_since(user: User, hours: int = 24) -> int:
    """Games the user asked for in the last `hours`; a cancelled batch counts what it played."""
    since = timezone.now() - timedelta(hours=hours)
    total = (
        SimulationBatch.objects.filter(requested_by=user, created_at__gte=since)
        .annotate(
            counted=Case(
                When(status=Status.CANCELLED, then=F("games_done")),
                default=F("games"),
                output_field=IntegerField(),
            )
        )
        .aggregate(total=Sum("counted"))["total"]
    )
    return total or 0


def batch_spec(batch: SimulationBatch) -> simulation.BatchSpec:
    seats = batch_seats(batch)
    return simulation.BatchSpec.from_json(
        seed=batch.seed,
        decks=[seat.cards for seat in seats],
        agents=[seat.agent for seat in seats],
        exhaustion=batch.exhaustion,
        champions=[seat.champion for seat in seats] if batch.champions else None,
        mode=batch.mode,
    )


def batch_card_names(batch: SimulationBatch) -> list[list[str]]:
    """Each deck's card names as the engine knows them (English), in deck order, Champion last."""
    names: list[list[str]] = []
    for seat in batch_seats(batch):
        row = [card["name"] for card in seat.cards]
        if batch.champions and seat.champion:
            row.append(seat.champion["name"])
        names.append(row)
    return names


def batch_summary(batch: SimulationBatch) -> simulation.Summary | None:
    """Rates, intervals, histogram and per-card figures once the totals exist."""
    if batch.totals is None:
        return None
    return simulation.summarise(simulation.Totals.from_json(batch.totals), batch_card_names(batch))


def card_labels(batch: SimulationBatch, language: str | None = None) -> list[dict[str, str]]:
    """Per deck, {engine card name: the name to show in `language`}: the catalogue's
    translations; a Champion by the name it was frozen with in that language, else English."""
    seats = batch_seats(batch)
    by_slug = cards_by_slug([slug for seat in seats for slug in seat.slugs])
    labels = []
    for seat in seats:
        row = {}
        for card, slug in zip(seat.cards, seat.slugs, strict=True):
            known = by_slug.get(slug)
            row[card["name"]] = card_name(known, language) if known else card["name"]
        if seat.champion:
            champion = seat.champion
            row[champion["name"]] = champion.get(f"name_{language}") or champion["name"]
        labels.append(row)
    return labels


def batch_replayable(batch: SimulationBatch) -> bool:
    """Whether this process's engine plays the batch's games again: the same rules and agents
    as those that played them (a batch from before digests were recorded: unknown, so no)."""
    return batch.engine_digest == engine_digest()


def batch_game(batch: SimulationBatch, index: int) -> simulation.ReplayedGame:
    """Game `index` of the batch, recomputed from its seed, decks and agents: a 404 DomainError
    for a game the batch does not have, a 409 `engine_changed` when the rules or the agents
    changed since the batch was played (they would play another game from the same seed)."""
    if not 0 <= index < batch.games:
        raise DomainError(
            "unknown_game",
            _("This batch has games 0 to %(last)d.") % {"last": batch.games - 1},
            {"index": index, "games": batch.games},
            status_code=404,
        )
    if not batch_replayable(batch):
        raise DomainError(
            "engine_changed",
            _(
                "The games of this test batch were played by another version of the rules "
                "engine or of its AIs: replaying game %(index)d today would show a different "
                "game. The batch's results remain those of the games it played."
            )
            % {"index": index},
            {"batch": batch.pk, "index": index},
            status_code=409,
        )
    # Stepping through the turns asks for the same game again and again; a lookahead game takes
    # up to a second to replay.
    key = f"simulation-replay:{batch.pk}:{index}:{batch.engine_digest}"
    game = cache.get(key)
    if not isinstance(game, simulation.ReplayedGame):
        game = simulation.replay_game(batch_spec(batch), index)
        cache.set(key, game, REPLAY_CACHE_SECONDS)
    return game
