"""Reads of simulated test games: the decks a batch may play, batches, their results, replays."""

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import Case, F, IntegerField, Prefetch, QuerySet, Sum, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import Card
from cards.selectors import card_name, cards_with_details
from cod_site.errors import DomainError
from decks import selectors as decks
from decks.models import Deck, Visibility
from engine import simulation
from engine.models import (
    ACTIVE_STATUSES,
    Agent,
    DeckSource,
    SimulationBatch,
    SimulationSeat,
    Status,
)
from engine.rules import MODES, InputError
from engine.rules.cards import CardDef, validate_deck
from engine.rules.champion import champion_from_json
from engine.rules.native import engine_digest

Viewer = AbstractBaseUser | AnonymousUser
# The rules engine plays Duels only so far.
MODE = "duel"
SEATS = len(MODES[MODE].seats)
PRECONSTRUCTED_FORMAT = "preconstructed"
PRECONSTRUCTED_NUMBERS = (1, 2, 3, 4)
REPLAY_CACHE_SECONDS = 600


# The decks a batch plays ---------------------------------------------------------------------


@dataclass(frozen=True)
class DeckChoice:
    """One side of a batch as asked for: exactly one of a saved deck's share id, a deck code or
    the number of a preconstructed deck."""

    deck: str | None = None
    code: str | None = None
    preconstructed: int | None = None


@dataclass(frozen=True)
class SeatChoice:
    """One deck entered in a batch, as asked for, and the AI that plays it."""

    deck: DeckChoice
    agent: str = Agent.GREEDY


@dataclass(frozen=True)
class ResolvedDeck:
    source: str
    deck: Deck | None
    code: str
    name: str
    # Engine card JSON of the cards played (those the opponent removed are left out), the
    # catalogue slug of each, and the Champion's definition (None: none, or the module off).
    cards: list[dict[str, Any]]
    slugs: list[str]
    champion: dict[str, Any] | None
    preconstructed: int | None = None


def _side_error(error: DomainError, side: str) -> DomainError:
    return DomainError(
        error.code, error.message, {"side": side, **error.details}, status_code=error.status_code
    )


def _illegal(side: str, check: decks.DeckCheck) -> DomainError:
    return DomainError(
        "illegal_deck",
        _("Deck %(side)s is not legal: %(errors)s")
        % {"side": side.upper(), "errors": " ".join(error.message for error in check.errors)},
        {"side": side, "errors": [error.as_dict() for error in check.errors]},
    )


def _final(cards: list[Card], removed: list[Card]) -> list[Card]:
    """The cards played: the deck's cards minus those the opponent removed (Constructed 2021)."""
    left = Counter(card.pk for card in removed)
    played = []
    for card in cards:
        if left[card.pk]:
            left[card.pk] -= 1
        else:
            played.append(card)
    return played


def simulation_deck_resolve(
    *, side: str, choice: DeckChoice, viewer: Viewer, champions: bool = False
) -> ResolvedDeck:
    """A deck of a batch, legal for a Duel and playable by the engine, or a 400 DomainError:
    `unknown_deck`, `invalid_deck_code`, `illegal_deck` (with the legality errors),
    `unknown_champion` (a deck code naming a Champion the requester may not see: the share id
    is theirs, so the answer is that of an unknown one), `unplayable_deck`; `details.side` says
    which deck by its letter (`a` for the first deck entered, `b`...)."""
    asked = [value for value in (choice.deck, choice.code, choice.preconstructed) if value]
    if len(asked) != 1:
        raise DomainError(
            "deck_required",
            _("Give deck %(side)s as one of: a deck, a deck code or a preconstructed deck.")
            % {"side": side.upper()},
            {"side": side},
        )
    champion = None
    if choice.deck:
        try:
            deck = decks.deck_get(share_id=choice.deck, viewer=viewer)
        except DomainError as error:
            raise DomainError(
                "unknown_deck",
                _("There is no deck “%(id)s” you can use.") % {"id": choice.deck},
                {"side": side, "deck": choice.deck},
            ) from error
        # A Champion the requester may not see is no Champion of this deck for them: the deck
        # plays without it and the batch keeps no trace of it (not even in its code).
        check = decks.deck_validate(deck, viewer=viewer, mode=MODE)
        if not check.legal:
            raise _illegal(side, check)
        source, code, name = DeckSource.DECK, check.code or "", deck.name
        played = decks.deck_final_cards(deck)
        if champions:
            champion = decks.deck_champion(deck, viewer)
    elif choice.code:
        deck = None
        try:
            decoded = decks.deck_decode(choice.code)
        except DomainError as error:
            raise _side_error(error, side) from error
        check = decks.deck_check(
            format=decoded.format,
            cards=decoded.cards,
            removed=decoded.removed,
            champion=decoded.champion,
            mode=MODE,
        )
        if not check.legal:
            raise _illegal(side, check)
        source, code = DeckSource.CODE, decoded.code
        name = _("Deck code %(code)s…") % {"code": decoded.code[:8]}
        played = _final(decoded.cards, decoded.removed)
        if champions and decoded.champion:
            try:
                champion = decks.champion_for(uid=decoded.champion, viewer=viewer)
            except DomainError as error:
                raise _side_error(error, side) from error
    else:
        deck = None
        number = choice.preconstructed
        played = list(
            cards_with_details(Card.objects.filter(precon_deck=number)).order_by("mana", "slug")
        )
        if number not in PRECONSTRUCTED_NUMBERS or not played:
            raise DomainError(
                "unknown_deck",
                _("There is no preconstructed deck %(number)s (choose 1, 2, 3 or 4).")
                % {"number": number},
                {"side": side, "preconstructed": number},
            )
        source = DeckSource.PRECONSTRUCTED
        code = decks.deck_code_for(
            format=decks.format_get(slug=PRECONSTRUCTED_FORMAT), cards=played, champion=None
        )
        name = _("Preconstructed deck %(number)d") % {"number": number}
    resolved = ResolvedDeck(
        source=source,
        deck=deck,
        code=code,
        name=name,
        cards=decks.deck_engine_definitions(played),
        slugs=[card.slug for card in played],
        champion=decks.champion_engine_definition(champion) if champion else None,
        preconstructed=choice.preconstructed,
    )
    _check_playable(side, resolved)
    return resolved


def _check_playable(side: str, resolved: ResolvedDeck) -> None:
    """The engine's own deck rule (8 different cards) and its reading of every card, errors
    naming this side's deck (A or B)."""
    label = side.upper()
    try:
        cards = [
            CardDef.from_json(card, f"deck {label} card {i}")
            for i, card in enumerate(resolved.cards)
        ]
        validate_deck(cards, f"deck {label}")
        if resolved.champion:
            champion_from_json(resolved.champion, f"champion {label}")
    except InputError as error:
        raise DomainError(
            "unplayable_deck",
            _("The rules engine cannot play deck %(side)s: %(reason)s")
            % {"side": side.upper(), "reason": error},
            {"side": side, "reason": str(error)},
        ) from error


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


def active_batch_count(user: AbstractBaseUser) -> int:
    return SimulationBatch.objects.filter(requested_by=user, status__in=ACTIVE_STATUSES).count()


def games_requested_since(user: AbstractBaseUser, hours: int = 24) -> int:
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
    by_slug = decks.cards_by_slug([slug for seat in seats for slug in seat.slugs])
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
    return cache.get_or_set(
        f"simulation-replay:{batch.pk}:{index}:{batch.engine_digest}",
        lambda: simulation.replay_game(batch_spec(batch), index),
        REPLAY_CACHE_SECONDS,
    )
