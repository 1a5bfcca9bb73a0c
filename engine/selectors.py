"""Reads of simulated test games: the decks to offer, batches, their results, replays.

Beside it: a batch's verdict (`engine.verdicts`), difficulty curves (`engine.curve_selectors`)
and the Duel of Chaos batches' reads (`engine.chaos_selectors`).

Turning the decks asked for into what the engine plays is `engine.adapters.decks`.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Case, F, IntegerField, Prefetch, QuerySet, Sum, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.selectors import card_name, pick_translation
from cod_site.errors import DomainError
from decks.models import Deck, Visibility
from decks.selectors.lookup import cards_by_slug
from engine import simulation
from engine.adapters.decks import COOP_MODE, DeckChoice
from engine.adapters.difficulty import difficulty_level_options
from engine.display.faces import CardFace, card_face
from engine.models import (
    ACTIVE_STATUSES,
    Agent,
    DeckSource,
    DifficultyOption,
    DifficultyParameter,
    Drafter,
    SimulationBatch,
    SimulationSeat,
    Status,
)
from engine.rules import MODES, AiOptions, InputError, engine_digest

Viewer = User | AnonymousUser
# The modes test games are played in: every mode the engine plays (the Duel first); the batch
# makes the deck piles of Solo's and Co-op's automata and takes their parameters.
SIMULATION_MODES = tuple(name for name, mode in MODES.items() if mode.playable)
REPLAY_CACHE_SECONDS = 600
REPLAY_SHAPE = 4  # bump when engine.simulation.ReplayedGame or Frame changes


# The decks a batch plays ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatChoice:
    """One deck entered in a batch, as asked for, and the AI that plays it (None: the strongest
    of the mode's ladder, `services.agent_for`)."""

    deck: DeckChoice
    agent: str | None = None


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
    # The control and its seats too: every batch's verdict reads them (batch_verdict).
    return batches.select_related("control").prefetch_related(
        Prefetch("seats", queryset=SimulationSeat.objects.select_related("deck")),
        "control__seats",
    )


def batches_of(user: Viewer) -> QuerySet[SimulationBatch]:
    if not user.is_authenticated:
        return SimulationBatch.objects.none()
    return _with_seats(SimulationBatch.objects.filter(requested_by=user, controlled=None))


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
    if seat.source == DeckSource.SOLO_AI:
        return _("The Solo AI")
    if seat.source == DeckSource.COOP_AI:
        return _("The Co-op AI")
    if seat.source == DeckSource.DRAFT and seat.drafter:
        return _("Drafted (%(drafter)s)") % {"drafter": Drafter(seat.drafter).label}
    return seat.name


def batch_title(batch: SimulationBatch) -> str:
    """“Deck A against deck B” (more decks: “A against B, C, D”; Co-op: “A and C against the
    Co-op AI”), in the current language."""
    names = [seat_name(seat) for seat in batch_seats(batch)]
    if batch.mode == COOP_MODE:
        return _("%(a)s and %(c)s against the Co-op AI") % {"a": names[0], "c": names[2]}
    first, *others = names
    return _("%(a)s against %(b)s") % {"a": first, "b": ", ".join(others)}


def batch_percent(batch: SimulationBatch) -> float:
    return round(100 * batch.games_done / batch.games, 1)


def active_batch_count(user: User) -> int:
    """Batches queued or running; a difficulty curve's batches count as one, a control batch
    as none."""
    active = SimulationBatch.objects.filter(
        requested_by=user, status__in=ACTIVE_STATUSES, controlled=None
    )
    return (
        active.filter(curve=None).count()
        + active.exclude(curve=None).values("curve").distinct().count()
    )


def games_requested_since(user: User, hours: int = 24) -> int:
    """Games the user asked for in the last `hours`; a cancelled batch counts what it played,
    a control batch nothing (the app adds it)."""
    since = timezone.now() - timedelta(hours=hours)
    total = (
        SimulationBatch.objects.filter(requested_by=user, created_at__gte=since, controlled=None)
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
        decks=[seat.cards for seat in seats] if batch.draft_pool is None else [],
        agents=[seat.agent for seat in seats],
        exhaustion=batch.exhaustion,
        champions=[seat.champion for seat in seats] if batch.champions else None,
        mode=batch.mode,
        ai=batch.ai,
        draft_pool=batch.draft_pool,
        # Solo's AI drafts nothing: the player's drafter gives it its pile.
        drafters=[seat.drafter for seat in seats if seat.source == DeckSource.DRAFT],
    )


def batch_card_names(batch: SimulationBatch) -> list[list[str]]:
    """Each deck's card names as the engine knows them (English), in deck order, Champion last."""
    names: list[list[str]] = []
    for seat in batch_seats(batch):
        # A drafter's rows: every card of the pool it may have drafted.
        row = [card["name"] for card in _seat_cards(batch, seat)[0]]
        if batch.champions and seat.champion:
            row.append(seat.champion["name"])
        names.append(row)
    return names


def batch_summary(batch: SimulationBatch) -> simulation.Summary | None:
    """Rates, intervals, histogram and per-card figures once the totals exist."""
    if batch.totals is None:
        return None
    return simulation.summarise(
        simulation.Totals.from_json(batch.totals), batch_card_names(batch), batch.mode
    )


def card_labels(batch: SimulationBatch, language: str | None = None) -> list[dict[str, str]]:
    """Per deck, {engine card name: the name to show in `language`}: the catalogue's
    translations; a Champion by the name it was frozen with in that language, else English."""
    seats = batch_seats(batch)
    by_slug = cards_by_slug([slug for seat in seats for slug in _seat_cards(batch, seat)[1]])
    labels = []
    for seat in seats:
        row = {}
        for card, slug in zip(*_seat_cards(batch, seat), strict=True):
            known = by_slug.get(slug)
            row[card["name"]] = card_name(known, language) if known else card["name"]
        if seat.champion:
            champion = seat.champion
            row[champion["name"]] = champion.get(f"name_{language}") or champion["name"]
        labels.append(row)
    return labels


def _seat_cards(
    batch: SimulationBatch, seat: SimulationSeat
) -> tuple[list[dict[str, Any]], list[str]]:
    """The cards a seat may play and their slugs: its deck's, or in a Draft batch the pool
    (the drafters' and, in Solo, the AI's pile given from it)."""
    if batch.draft_pool is not None:
        return batch.draft_pool or [], batch.draft_slugs or []
    return seat.cards, seat.slugs


def card_faces(batch: SimulationBatch, language: str | None = None) -> dict[str, CardFace]:
    """{engine card name: its face on the board}, for every card and Champion the batch plays:
    named as `card_labels` names them, a catalogue card with its catalogue emblem."""
    seats = batch_seats(batch)
    by_slug = cards_by_slug([slug for seat in seats for slug in _seat_cards(batch, seat)[1]])
    faces = {}
    for seat, labels in zip(seats, card_labels(batch, language), strict=True):
        cards, slugs = _seat_cards(batch, seat)
        for card, slug in zip(cards, slugs, strict=True):
            known = by_slug.get(slug)
            faces[card["name"]] = card_face(
                name=card["name"],
                label=labels[card["name"]],
                slug=slug,
                expansion_code=known.expansion.code if known else "",
                definition=card,
            )
        if seat.champion:
            name = seat.champion["name"]
            faces[name] = card_face(
                name=name, label=labels[name], slug="", expansion_code="", definition=seat.champion
            )
    return faces


def game_index_check(games: int, index: int) -> None:
    """A batch's games are numbered 0 to games - 1: a 404 `unknown_game` for any other."""
    if not 0 <= index < games:
        raise DomainError(
            "unknown_game",
            _("This batch has games 0 to %(last)d.") % {"last": games - 1},
            {"index": index, "games": games},
            status_code=404,
        )


def engine_changed_error(batch_id: int, index: int) -> DomainError:
    """The 409 for replaying a game of a batch played by another engine or other agents."""
    return DomainError(
        "engine_changed",
        _(
            "The games of this test batch were played by another version of the rules "
            "engine or of its AIs: replaying game %(index)d today would show a different "
            "game. The batch's results remain those of the games it played."
        )
        % {"index": index},
        {"batch": batch_id, "index": index},
        status_code=409,
    )


def batch_replayable(batch: SimulationBatch) -> bool:
    """Whether this process's engine plays the batch's games again: the same rules and agents
    as those that played them (a batch from before digests were recorded: unknown, so no)."""
    return batch.engine_digest == engine_digest()


def batch_game(batch: SimulationBatch, index: int) -> simulation.ReplayedGame:
    """Game `index` of the batch, recomputed from its seed, decks and agents: a 404 DomainError
    for a game the batch does not have, a 409 `engine_changed` when the rules or the agents
    changed since the batch was played (they would play another game from the same seed)."""
    game_index_check(batch.games, index)
    if not batch_replayable(batch):
        raise engine_changed_error(batch.pk, index)
    # Stepping through the turns asks for the same game again and again; a lookahead game takes
    # up to a second to replay. REPLAY_SHAPE names the shape of the cached object: a cached game
    # of an older shape would lack the fields the page reads.
    key = f"simulation-replay:{REPLAY_SHAPE}:{batch.pk}:{index}:{batch.engine_digest}"
    game = cache.get(key)
    if not isinstance(game, simulation.ReplayedGame):
        game = simulation.replay_game(batch_spec(batch), index)
        cache.set(key, game, REPLAY_CACHE_SECONDS)
    return game


# Solo Custom Play's difficulty table ----------------------------------------------------------


def difficulty_parameters_get(*, codes: Sequence[str]) -> list[DifficultyParameter]:
    """The parameters named by `codes`, in that order (400 `unknown_parameter` naming any
    unknown one)."""
    found = {row.code: row for row in DifficultyParameter.objects.filter(code__in=codes)}
    unknown = [code for code in codes if code not in found]
    if unknown:
        raise DomainError(
            "unknown_parameter",
            _("There is no difficulty parameter “%(code)s”.") % {"code": unknown[0]},
            {
                "field": "ai.parameters",
                "unknown": unknown,
                "choices": list(DifficultyParameter.objects.values_list("code", flat=True)),
            },
        )
    return [found[code] for code in codes]


def difficulty_points(parameters: Iterable[DifficultyParameter]) -> int:
    return sum(parameter.points for parameter in parameters)


def difficulty_problems(
    *, parameters: Sequence[DifficultyParameter], budget: int | None = None
) -> list[str]:
    """Why a set of parameters is not one Custom Play AI: two values of one option (two fixed
    Manas), one ability twice, or (with `budget`) points that do not spend the budget exactly
    (001 "allocating as many difficulty points as the chosen level"). Empty: it is one."""
    problems = []
    seen: dict[tuple[str, str], DifficultyParameter] = {}
    for parameter in parameters:
        # Abilities add up (001 "Choose Special Abilities"); any other option has one value.
        key = (
            parameter.option,
            str(parameter.value) if parameter.option == DifficultyOption.ABILITY else "",
        )
        other = seen.get(key)
        if other is not None:
            problems.append(
                _("“%(first)s” and “%(second)s” both set %(option)s: keep one.")
                % {
                    "first": other.code,
                    "second": parameter.code,
                    "option": parameter.get_option_display(),
                }
            )
        seen[key] = parameter
    if budget is not None:
        points = difficulty_points(parameters)
        if points != budget:
            problems.append(
                _(
                    "These parameters are worth %(points)d difficulty points; the level's "
                    "budget is %(budget)d: they must add up to it exactly."
                )
                % {"points": points, "budget": budget}
            )
    return problems


def difficulty_parameter_name(parameter: DifficultyParameter, language: str | None = None) -> str:
    row, _fallback = pick_translation(parameter.translations.all(), language)
    return row.name if row else parameter.code


@dataclass(frozen=True)
class SoloAiChoice:
    """Solo's AI as asked for: a level of the table, or explicit `AiOptions` JSON (neither:
    Quick Play)."""

    level: int | None = None
    options: dict[str, object] | None = None


@dataclass(frozen=True)
class SoloAi:
    # Every key of `AiOptions.to_json()`, and the level they are worth in the table.
    options: dict[str, object]
    level: int


def difficulty_points_of_options(options: dict[str, object]) -> int:
    """What explicit AI options are worth in the table: the points of every parameter they
    take (Quick Play's values are worth 0)."""
    abilities = options.get("abilities")
    total = 0
    for parameter in DifficultyParameter.objects.all():
        if parameter.option == DifficultyOption.ABILITY:
            taken = isinstance(abilities, list) and parameter.value in abilities
        else:
            taken = options.get(parameter.option) == parameter.value
        total += parameter.points if taken else 0
    return total


def solo_ai_resolve(choice: SoloAiChoice) -> SoloAi:
    """The AI a Solo batch plays, or a 400 naming the field (`ai.level`, `ai.<key>`)."""
    if choice.level is not None:
        if choice.options is not None:
            raise DomainError(
                "ai_level_and_options",
                _("Give the AI a level or its parameters, not both."),
                {"field": "ai"},
            )
        chosen = SoloAi(difficulty_level_options(level=choice.level), choice.level)
    else:
        chosen = _explicit_ai(choice.options or {})
    return chosen


def _explicit_ai(data: dict[str, object]) -> SoloAi:
    try:
        options = AiOptions.from_json(data)
    except InputError as error:
        field = str(error).split(":", 1)[0]
        raise DomainError(
            "invalid_ai",
            _("The Solo AI's parameters are not valid: %(reason)s") % {"reason": error},
            {"field": field, "reason": str(error)},
        ) from error
    data = options.to_json()
    return SoloAi(data, difficulty_points_of_options(data))


# Per-card insight on a card's page ------------------------------------------------------------

# The public decks a card's page shows figures for, the most recently tested first.
CARD_INSIGHT_DECKS = 10


@dataclass(frozen=True)
class DeckCardInsight:
    """A card's figures in the latest finished batch that tested a public deck playing it.
    Only the deck and the figures: the batch, its requester and its opponent stay private."""

    deck: Deck
    agent: str
    games: int
    card: simulation.CardStats

    @property
    def agent_label(self) -> str:
        return str(Agent(self.agent).label)


def card_insight(slug: str, *, limit: int = CARD_INSIGHT_DECKS) -> list[DeckCardInsight]:
    """For the public decks that play the card `slug`, the card's win rates (played or not,
    early or late) in each deck's latest finished test batch (controls left out)."""
    seats = (
        SimulationSeat.objects.filter(
            deck__visibility=Visibility.PUBLIC,
            deck__deck_cards__card__slug=slug,
            batch__status=Status.DONE,
            batch__controlled=None,
        )
        .select_related("deck", "batch")
        .order_by("-batch__finished_at", "-batch_id")
    )
    found: list[DeckCardInsight] = []
    seen: set[int] = set()
    for seat in seats.iterator(chunk_size=50):
        if seat.deck is None or seat.deck.pk in seen or slug not in seat.slugs:
            continue
        seen.add(seat.deck.pk)
        insight = _seat_card_insight(seat, seat.deck, slug)
        if insight is not None:
            found.append(insight)
        if len(found) == limit:
            break
    return found


def _seat_card_insight(seat: SimulationSeat, deck: Deck, slug: str) -> DeckCardInsight | None:
    batch = seat.batch
    if batch.totals is None:
        return None
    totals = simulation.Totals.from_json(batch.totals)
    name = seat.cards[seat.slugs.index(slug)]["name"]
    row = totals.cards[seat.index].get(name)
    if row is None:
        return None
    stats = simulation.card_stats(name, row, totals.games, totals.wins[seat.index])
    return DeckCardInsight(deck, seat.agent, totals.games, stats)
