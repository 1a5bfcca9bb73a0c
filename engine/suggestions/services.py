"""Writes of "Improve this deck": start a suggestion search, play one unit of it, close a round,
cancel it, fail it, send again the units a broker lost.

How a search runs: `search_create` freezes the deck, its field of opponents and the candidate
swaps (`engine.suggestions.candidates`), and writes round 0's units; once committed they go to
the Celery workers (with REDIS_URL) or to the engine's in-process thread pool (without a broker),
as a test batch's chunks do. `unit_run` plays one unit and writes its results exactly once (a
unit row is written only while its results are empty); the unit that completes its round closes
it under a lock on the search: the round's results join the candidates, the race decides
(`engine.suggestions.search.close_round`) and the next round's units are written and sent. The
search ends when every candidate is settled or its game budget is spent.
"""

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Sequence
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Case, F, IntegerField, Q, Sum, When
from django.utils import timezone
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from decks.models import PoolKind
from decks.selectors.access import deck_final_cards, deck_get
from engine import background
from engine.adapters.decks import DeckChoice, ResolvedDeck, simulation_deck_resolve
from engine.agent_ladder import current_ladder
from engine.models import (
    ACTIVE_STATUSES,
    Agent,
    CandidateStatus,
    Status,
    SuggestionCandidate,
    SuggestionField,
    SuggestionSearch,
    SuggestionUnit,
)
from engine.rules import RULES_VERSION, engine_digest
from engine.services import SEED_BITS, run_retrying
from engine.suggestions import candidates, search
from engine.suggestions.selectors import (
    FIELD_SIZE,
    MAX_FIELD_DECKS,
    most_played_decks,
    search_racers,
    search_spec,
    search_visible,
)

logger = logging.getLogger(__name__)

RUN_UNIT_TASK = "engine.run_suggestion_unit"
RESEND_LOST_UNITS_TASK = "engine.resend_lost_suggestion_units"
# The games a search plays unless asked otherwise, and the most it may ask for. A search of the
# preconstructed decks against the 3 others settles in 55,000 to 75,000 greedy games, its first
# proof after 30,000 to 35,000 (bench/suggestions_bench.py).
DEFAULT_GAMES = 100_000
MAX_GAMES = 500_000
# The agent of a search not asked for one: the strongest of the Duel ladder whose games of the
# whole budget fit in this much CPU (a minute of two workers): greedy for the default budget,
# learned up to 76,628 games, learned_deep up to 15,743 (engine/agent_ladder.json). Not a
# batch's default agent (`engine.services.agent_for`, the strongest at any size): a budget is
# an upper bound mostly spent on swaps the race drops, and the first proved swap must come
# within 2 minutes of two workers (issue 30; bench/suggestions_bench.py): after 30,000 games,
# ~230 s of CPU at learned_deep's 7.6 ms a game, the whole 2 minutes of two free cores.
SEARCH_CPU_SECONDS = 120.0
# A unit of work: about this much CPU time on the ladder's figures (engine/agent_ladder.json) for
# the search's agent, as a batch's chunk (engine.services.CHUNK_GAMES).
UNIT_SECONDS = 0.4
# How often a running unit looks whether its search was cancelled meanwhile.
CANCEL_CHECK_SECONDS = 1.0


def search_agent_for(games: int) -> str:
    """The agent of a search of `games` games not asked for one (`SEARCH_CPU_SECONDS`)."""
    return current_ladder().strongest_within(Agent.values, games, SEARCH_CPU_SECONDS)


def unit_games(agent: str) -> int:
    """Games of one unit for `agent` (both seats): UNIT_SECONDS of CPU on the ladder's figures."""
    ladder = current_ladder()
    standing = ladder.of(agent)
    if standing is None:
        return search.MIN_PIECE
    per_game = ladder.batch_seconds(standing, 1)
    return max(1, int(UNIT_SECONDS / per_game))


# Creating -------------------------------------------------------------------------------------


def _field_decks(
    *, field: str, decks: Sequence[DeckChoice], subject: ResolvedDeck, requested_by: User
) -> list[ResolvedDeck]:
    """The opponents: the preconstructed decks (but one made of the deck's own cards), the
    decks given, or the public decks most played (but the deck itself)."""
    if field == SuggestionField.PRECONSTRUCTED:
        field_decks = [
            simulation_deck_resolve(
                side="b", choice=DeckChoice(preconstructed=number), viewer=requested_by
            )
            for number in (1, 2, 3, 4)
        ]
        return [deck for deck in field_decks if sorted(deck.slugs) != sorted(subject.slugs)]
    if field == SuggestionField.DECKS:
        if not 1 <= len(decks) <= MAX_FIELD_DECKS:
            raise DomainError(
                "invalid_field",
                _("Give 1 to %(max)d decks to play against.") % {"max": MAX_FIELD_DECKS},
                {"field": "decks", "max": MAX_FIELD_DECKS},
            )
        resolved = []
        for index, choice in enumerate(decks):
            try:
                resolved.append(
                    simulation_deck_resolve(side=str(index + 1), choice=choice, viewer=requested_by)
                )
            except DomainError as error:
                raise DomainError(
                    error.code,
                    error.message,
                    {**error.details, "field": "decks", "index": index},
                    status_code=error.status_code,
                ) from error
        return resolved
    played = []
    for share_id in most_played_decks(exclude=subject.deck, limit=3 * FIELD_SIZE):
        try:
            played.append(
                simulation_deck_resolve(
                    side="b", choice=DeckChoice(deck=share_id), viewer=requested_by
                )
            )
        except DomainError:
            continue  # a public deck that is not legal for a Duel (or not playable) sits out
        if len(played) == FIELD_SIZE:
            break
    if not played:
        raise DomainError(
            "no_opponents",
            _("No public deck has been played in test games yet: choose another field."),
            {"field": "field"},
        )
    return played


def _check_limits(user: User, games: int) -> None:
    active = SuggestionSearch.objects.filter(requested_by=user, status__in=ACTIVE_STATUSES).count()
    if active > settings.SUGGESTION_MAX_ACTIVE_SEARCHES:
        raise DomainError(
            "too_many_searches",
            _(
                "You already have %(limit)d searches for suggestions running: wait for one to "
                "finish, or cancel one."
            )
            % {"limit": settings.SUGGESTION_MAX_ACTIVE_SEARCHES},
            {"limit": settings.SUGGESTION_MAX_ACTIVE_SEARCHES},
            status_code=429,
        )
    used = games_budgeted_since(user)
    if used > settings.SUGGESTION_MAX_GAMES_PER_DAY:
        raise DomainError(
            "daily_games_limit",
            _(
                "This search would take you to %(used)d games in 24 hours; the limit is "
                "%(limit)d. Give it a smaller budget, or try again later."
            )
            % {"used": used, "limit": settings.SUGGESTION_MAX_GAMES_PER_DAY},
            {
                "limit": settings.SUGGESTION_MAX_GAMES_PER_DAY,
                "used": used - games,
                "requested": games,
            },
            status_code=429,
        )


def games_budgeted_since(user: User, hours: int = 24) -> int:
    """The budgets of the user's searches of the last `hours` (a search that ended counts the
    games it played)."""
    since = timezone.now() - timedelta(hours=hours)
    total = (
        SuggestionSearch.objects.filter(requested_by=user, created_at__gte=since)
        .annotate(
            counted=Case(
                When(status__in=ACTIVE_STATUSES, then=F("max_games")),
                default=F("games_done"),
                output_field=IntegerField(),
            )
        )
        .aggregate(total=Sum("counted"))["total"]
    )
    return total or 0


def search_create(
    *,
    requested_by: User,
    share_id: str,
    field: str,
    decks: Sequence[DeckChoice] = (),
    games: int = DEFAULT_GAMES,
    seed: int | None = None,
    agent: str | None = None,
) -> SuggestionSearch:
    """Start a search of the swaps that raise the deck `share_id`'s win rate against `field`
    (`SuggestionField`; `decks` for its `decks`), playing at most `games` games, deterministic
    from `seed`, every deck played by `agent` (None: `search_agent_for(games)`, the strongest
    whose games of the whole budget fit SEARCH_CPU_SECONDS). 404 for a deck the requester
    cannot see; 400s name the bad input (nothing is queued); 429s a per-user limit."""
    deck = deck_get(share_id=share_id, viewer=requested_by)
    if field not in SuggestionField.values:
        raise DomainError(
            "invalid_field",
            _("Play the deck against one of: %(choices)s.")
            % {"choices": ", ".join(SuggestionField.values)},
            {"field": "field", "choices": list(SuggestionField.values)},
        )
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise DomainError(
            "invalid_games",
            _("Give a budget of 1 to %(max)d games.") % {"max": MAX_GAMES},
            {"field": "games", "max": MAX_GAMES},
        )
    if seed is not None and not 0 <= seed < 2**SEED_BITS:
        raise DomainError(
            "invalid_seed", _("A seed is a whole number from 0 to 2^63 - 1."), {"field": "seed"}
        )
    if agent is not None and agent not in Agent.values:
        raise DomainError(
            "unknown_agent",
            _("There is no AI “%(agent)s”.") % {"agent": agent},
            {"field": "agent", "choices": list(Agent.values)},
        )
    if deck.format.pool_kind == PoolKind.PRECONSTRUCTED:
        raise DomainError(
            "fixed_format",
            _(
                "A Preconstructed deck is exactly one of the four decks: no card of it can "
                "change. Save a copy in the Constructed format to improve it."
            ),
            {"field": "deck"},
        )
    subject = simulation_deck_resolve(
        side="a", choice=DeckChoice(deck=share_id), viewer=requested_by
    )
    opponents = _field_decks(field=field, decks=decks, subject=subject, requested_by=requested_by)
    played = deck_final_cards(deck)
    found = candidates.swap_candidates(deck, played)
    if not found.singles:
        raise DomainError(
            "no_legal_swap",
            _("The format of this deck allows no card to take the place of one of its cards."),
            {"field": "deck"},
        )
    with transaction.atomic():
        item = SuggestionSearch.objects.create(
            requested_by=requested_by,
            deck=deck,
            deck_version=deck.version,
            deck_name=deck.name[:120],
            field=field,
            cards=subject.cards,
            slugs=subject.slugs,
            opponents=[
                {
                    "name": one.name,
                    "code": one.code,
                    "share_id": one.deck.share_id if one.deck else "",
                    "preconstructed": one.preconstructed,
                    "cards": one.cards,
                    "slugs": one.slugs,
                }
                for one in opponents
            ],
            incoming=found.incoming,
            frozen=candidates.frozen_deck(deck),
            pruning=found.pruning.to_json(),
            agent=agent or search_agent_for(games),
            seed=secrets.randbits(SEED_BITS) if seed is None else seed,
            max_games=games,
            rules_version=RULES_VERSION,
            engine_digest=engine_digest(),
        )
        racers = [search.Racer(search.BASELINE, (), search.BASE)] + [
            search.Racer(index, swaps, search.RACING)
            for index, swaps in enumerate(found.singles, start=1)
        ]
        SuggestionCandidate.objects.bulk_create(
            SuggestionCandidate(
                search=item, index=racer.index, swaps=racer.swaps, status=racer.status
            )
            for racer in racers
        )
        _round_write(item, 0, search.first_round(racers))
        # Written first, then counted with it under a lock on the user row: two requests at
        # once cannot both slip under a limit.
        get_user_model().objects.select_for_update().filter(pk=requested_by.pk).first()
        _check_limits(requested_by, games)
    return item


def _round_write(item: SuggestionSearch, round_: int, plan: search.Plan) -> None:
    """Write round `round_`'s units (the plan's jobs) and send them once committed."""
    units = search.pack(plan.jobs, len(item.opponents), unit_games(item.agent))
    SuggestionUnit.objects.bulk_create(
        SuggestionUnit(
            search=item,
            round=round_,
            index=index,
            work=[job.to_json() for job in unit],
            games=sum(job.count for job in unit) * len(item.opponents),
        )
        for index, unit in enumerate(units)
    )
    SuggestionSearch.objects.filter(pk=item.pk).update(
        round=round_, target=plan.target, units_total=len(units), units_done=0
    )
    search_id = item.pk
    transaction.on_commit(lambda: _send_units(search_id, round_, range(len(units))))


def _in_process() -> bool:
    return bool(current_app.conf.task_always_eager)


def _send_units(search_id: int, round_: int, indexes: Sequence[int] | range) -> None:
    """One task per unit: the Celery workers with a broker, else the engine's thread pool."""
    if _in_process():
        for index in indexes:
            background.submit(unit_run_in_process, search_id=search_id, round_=round_, index=index)
        return
    task = current_app.tasks[RUN_UNIT_TASK]
    for index in indexes:
        task.apply_async(args=(search_id, round_, index))


# Running a unit -------------------------------------------------------------------------------


def unit_run(*, search_id: int, round_: int, index: int) -> bool:
    """Play a unit of a search's round and write its results once; the unit that completes the
    round closes it. False when nothing was played (the search is over or moved on, the unit
    was written by an earlier delivery, or the search was cancelled meanwhile)."""
    item = SuggestionSearch.objects.filter(pk=search_id).first()
    if item is None or item.status not in ACTIVE_STATUSES or item.round != round_:
        return False
    unit = SuggestionUnit.objects.filter(search_id=search_id, round=round_, index=index).first()
    if unit is None or unit.results is not None:
        return False
    if item.engine_digest != engine_digest():
        search_fail(
            search_id=search_id,
            error=_(
                "This worker runs another version of the rules engine or of its AIs than the "
                "one that started the search: its games would not be the search's."
            ),
        )
        return False
    if item.status == Status.QUEUED:
        SuggestionSearch.objects.filter(pk=search_id, status=Status.QUEUED).update(
            status=Status.RUNNING, started_at=timezone.now()
        )
    spec = search_spec(item)
    jobs = [search.Job.from_json(data) for data in unit.work]
    swaps = dict(
        SuggestionCandidate.objects.filter(
            search_id=search_id, index__in={job.candidate for job in jobs}
        ).values_list("index", "swaps")
    )
    next_check = time.monotonic() + CANCEL_CHECK_SECONDS

    def keep_going() -> bool:
        nonlocal next_check
        if time.monotonic() < next_check:
            return True
        next_check = time.monotonic() + CANCEL_CHECK_SECONDS
        return SuggestionSearch.objects.filter(pk=search_id, status__in=ACTIVE_STATUSES).exists()

    started = time.thread_time()
    results = []
    for job in jobs:
        played = search.play(
            spec.deck(tuple(tuple(swap) for swap in swaps[job.candidate])),
            spec.opponents,
            item.agent,
            item.seed,
            job.stream,
            job.first,
            job.count,
            keep_going,
        )
        if played is None:
            return False
        results.append(played)
    seconds = time.thread_time() - started
    with transaction.atomic():
        written = SuggestionUnit.objects.filter(pk=unit.pk, results__isnull=True).update(
            results=results, engine_seconds=seconds, written_at=timezone.now()
        )
        if not written:
            return False
        updated = SuggestionSearch.objects.filter(
            pk=search_id, status__in=ACTIVE_STATUSES, round=round_
        ).update(
            games_done=F("games_done") + unit.games,
            units_done=F("units_done") + 1,
            engine_seconds=F("engine_seconds") + seconds,
            status=Status.RUNNING,
            active_at=timezone.now(),
        )
        if not updated:
            transaction.set_rollback(True)
            return False
        locked = SuggestionSearch.objects.select_for_update().get(pk=search_id)
        if locked.units_done == locked.units_total:
            _round_close(locked)
    logger.debug(
        "suggestion search %s round %s unit %s on %s:%s:%s",
        search_id, round_, index, socket.gethostname(), os.getpid(),
        threading.current_thread().name,
    )  # fmt: skip
    return True


def _round_close(item: SuggestionSearch) -> None:
    """The round's units are all written: their results join the candidates, the race decides,
    and the next round is written (or the search ends). Runs under the search's row lock."""
    racers = {racer.index: racer for racer in search_racers(item)}
    units = SuggestionUnit.objects.filter(search=item, round=item.round).order_by("index")
    pieces = []
    for unit in units:
        assert unit.results is not None
        for data, results in zip(unit.work, unit.results, strict=True):
            pieces.append((search.Job.from_json(data), results))
    for job, results in sorted(pieces, key=lambda piece: (piece[0].stream, piece[0].first)):
        search.merge(racers[job.candidate], job.stream, job.first, results)
    before = {index: racer.status for index, racer in racers.items()}
    plan = search.close_round(
        [racers[index] for index in sorted(racers)],
        round_=item.round,
        opponents=len(item.opponents),
        pairs_added=item.pairs_added,
        budget=item.max_games - item.games_done,
        outs=item.pruning["outgoing"],
        legal=lambda proposed: candidates.legal_swaps(
            item.frozen, item.slugs, item.incoming, proposed
        ),
    )
    existing = [racer for racer in plan.racers if racer.index in before]
    SuggestionCandidate.objects.bulk_update(
        [
            SuggestionCandidate(
                pk=pk,
                status=racer.status,
                results={str(stream): rows for stream, rows in racer.results.items()},
                confirm_stream=racer.confirm_stream,
                settled_round=racer.settled_round,
            )
            for racer, pk in zip(
                existing,
                _candidate_ids(item, [racer.index for racer in existing]),
                strict=True,
            )
        ],
        ["status", "results", "confirm_stream", "settled_round"],
    )
    SuggestionCandidate.objects.bulk_create(
        SuggestionCandidate(search=item, index=racer.index, swaps=racer.swaps, status=racer.status)
        for racer in plan.racers
        if racer.index not in before
    )
    units.delete()
    now = timezone.now()
    changes: dict[str, object] = {"pairs_added": plan.pairs_added, "active_at": now}
    if plan.kept:
        changes["pruning"] = {**item.pruning, "kept": list(plan.kept)}
    if item.first_proved_at is None and any(
        racer.status == CandidateStatus.PROVED for racer in plan.racers
    ):
        changes |= {"first_proved_at": now, "first_proved_games": item.games_done}
    if plan.done:
        changes |= {"status": Status.DONE, "finished_at": now, "units_total": 0, "units_done": 0}
        SuggestionSearch.objects.filter(pk=item.pk).update(**changes)
        return
    SuggestionSearch.objects.filter(pk=item.pk).update(**changes)
    _round_write(item, item.round + 1, plan)


def _candidate_ids(item: SuggestionSearch, indexes: list[int]) -> list[int]:
    ids = dict(
        SuggestionCandidate.objects.filter(search=item, index__in=indexes).values_list(
            "index", "pk"
        )
    )
    return [ids[index] for index in indexes]


def unit_run_in_process(*, search_id: int, round_: int, index: int) -> None:
    """`unit_run` for the thread pool: the same bounded retries as the Celery task, then the
    search fails."""

    def fail(saving: bool) -> None:
        error = _("The games could not be saved.") if saving else _("A unit of games failed.")
        search_fail(search_id=search_id, error=error)

    run_retrying(
        lambda: unit_run(search_id=search_id, round_=round_, index=index),
        fail,
        f"suggestion search {search_id} unit {index}",
    )


# Ending a search early ------------------------------------------------------------------------


def search_fail(*, search_id: int, error: str) -> None:
    """A unit failed for good: the search stops (its other units skip their work)."""
    SuggestionSearch.objects.filter(pk=search_id, status__in=ACTIVE_STATUSES).update(
        status=Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def search_cancel(*, item: SuggestionSearch, actor: User) -> SuggestionSearch:
    """Stop a queued or running search: units not started skip their work, running ones stop at
    their next check; the candidates keep what the rounds closed so far. A finished search is
    left as it is (409)."""
    search_visible(search_id=item.pk, item=item, user=actor)
    cancelled = SuggestionSearch.objects.filter(pk=item.pk, status__in=ACTIVE_STATUSES).update(
        status=Status.CANCELLED, finished_at=timezone.now()
    )
    item.refresh_from_db()
    if not cancelled:
        raise DomainError(
            "not_cancellable",
            _("This search is already %(status)s.") % {"status": item.get_status_display()},
            {"status": item.status},
            status_code=409,
        )
    return item


def searches_resend_lost_units(*, idle_for: timedelta) -> int:
    """With Celery: send again the unwritten units of every active search idle for `idle_for`
    (a unit a dead worker took whose message the broker lost); units are written once, so a
    copy costs one query. Returns the units sent."""
    if _in_process():
        return 0
    now = timezone.now()
    idle = Q(active_at__lt=now - idle_for) | Q(active_at=None, created_at__lt=now - idle_for)
    sent = 0
    for item in SuggestionSearch.objects.filter(idle, status__in=ACTIVE_STATUSES).only("round"):
        claimed = SuggestionSearch.objects.filter(
            idle, pk=item.pk, status__in=ACTIVE_STATUSES
        ).update(active_at=now)
        if not claimed:
            continue
        missing = list(
            SuggestionUnit.objects.filter(
                search=item, round=item.round, results__isnull=True
            ).values_list("index", flat=True)
        )
        _send_units(item.pk, item.round, missing)
        logger.warning(
            "suggestion search %s: idle for %s s, resent %s unit(s)",
            item.pk, int(idle_for.total_seconds()), len(missing),
        )  # fmt: skip
        sent += len(missing)
    return sent
