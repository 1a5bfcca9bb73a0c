"""Writes of simulated test games: create a batch, run one chunk of it, cancel it, fail it.

How a batch runs: `batch_create` stores it and, once committed, hands its first chunks (a wave,
SIMULATION_WAVE) to the Celery workers (with REDIS_URL) or to the in-process thread pool
(`engine.background`, without a broker). `chunk_run` plays one chunk and writes its totals exactly
once: the chunk row is unique per (batch, index), a chunk already written is not played again,
and the batch's counters move in the same transaction as the row, which also claims the batch's
next unsent chunk (`chunks_sent`), sent once it commits: batches take turns in the queue. The
chunk that completes the batch adds up all the chunk rows. A chunk whose message the broker lost
is sent again by `batch_resend_lost_chunks`.

Beside it: what a batch request may ask for (`engine.batch_requests`), difficulty curves
(`engine.curve_services`) and Duel of Chaos batches (`engine.chaos_services`). What stays here
(about 700 lines) is one batch's life, creating, dispatching, running and stopping its chunks:
they share the chunking, the dispatch and the in-process pool (`background`, `_dispatch`,
`chunk_run`, which the tests replace in this module).
"""

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine import background, batch_requests, selectors, simulation
from engine.adapters.decks import (
    MODE,
    SOLO_MODE,
    ResolvedDeck,
    simulation_deck_resolve,
)
from engine.adapters.pools import ResolvedPool, draft_pool_resolve
from engine.agent_ladder import current_ladder
from engine.models import (
    ACTIVE_STATUSES,
    MAX_GAMES,
    Agent,
    DeckSource,
    DifficultyCurve,
    Drafter,
    SimulationBatch,
    SimulationChunk,
    SimulationSeat,
    Status,
)
from engine.rules import RULES_VERSION, engine_digest

logger = logging.getLogger(__name__)

# Games per chunk for each agent: about a tenth of a second to half a second of work on the
# compiled engine (~4,000 greedy or random games/s per core, ~600 learned, ~130 learned_deep,
# ~180 lookahead, ~6 strong: engine/agent_ladder.json's Duel), so the ~15 ms a chunk costs
# around its games (task hand-over, reading the batch, writing the totals) stays near 5%, and a
# lost chunk costs little. A batch uses its slower agent's figure.
CHUNK_GAMES = {
    Agent.RANDOM: 1000,
    Agent.GREEDY: 1000,
    Agent.LEARNED: 64,
    Agent.LEARNED_DEEP: 64,
    Agent.LOOKAHEAD: 10,
    Agent.STRONG: 1,
}
# Small batches are cut finer so the progress bar moves: at least this many chunks if possible.
PROGRESS_STEPS = 20
MIN_CHUNK = 10
# How often a running chunk looks whether its batch was cancelled meanwhile.
CANCEL_CHECK_SECONDS = 1.0
# Errors worth another try (the database restarted, a lock timed out), and how many tries.
RETRYABLE = (OperationalError, InterfaceError)
MAX_RETRIES = 5
# The tasks this module sends, by their registered names: `engine.tasks` imports this module, so
# this one reaches its tasks through Celery's registry (`EngineConfig.ready` registers them).
RUN_CHUNK_TASK = "engine.run_simulation_chunk"
RESEND_LOST_CHUNKS_TASK = "engine.resend_lost_chunks"
SEED_BITS = 63
# A control batch: the agent that plays it (greedy, or lookahead when the batch itself is
# greedy's) and its games, whatever the batch's (a second or two of one core: narrow intervals
# even beside a small batch of a slow agent); its first games have the batch's shuffles.
CONTROL_GAMES = {Agent.GREEDY: 1000, Agent.LOOKAHEAD: 200}
# What chunk_run reads of its batch and of its decks (batch_spec's fields and the chunking).
CHUNK_READS = (
    "status", "chunk_size", "games", "seed", "mode", "exhaustion", "champions", "engine_digest",
    "ai", "draft_pool",
)  # fmt: skip
CHUNK_SEAT_READS = ("batch_id", "index", "agent", "cards", "champion", "drafter")


def retry_delay(retries: int) -> int:
    """Seconds before try number `retries + 1`: 1, 2, 4 … capped at a minute."""
    return min(60, 1 << retries)


# A deck entered without an AI is played by the strongest agent of the mode's ladder at every
# size a batch may have, so the default verdict is the reference verdict (the one
# engine/verdict_drift.json checks the other agents against) whether the batch has 10 games or
# MAX_GAMES: a cheaper agent for large batches would move the verdict away from the small
# batch's of the same decks (learned: within 5 points of learned_deep on 19 of 66 pairs, 13
# apart on average, 47 at most), and a narrow interval around another agent's figure is worse
# than a wait. The price is CPU on large batches, which is acceptable: they are background work
# with a progress bar, asked for by a player who wants a narrow interval, cut into short chunks
# (CHUNK_GAMES) that cancel and retry as small ones do; 100,000 Duel games of learned_deep take
# ~760 s of CPU (the ladder file's 0.176 ms of rules and 2 x 3.7 ms a game), some 6 minutes of
# two workers, Free-For-All and Team Play ~4,700 s (four seats of 11.7 ms). The per-user limits
# count games, not CPU (`batch_requests.limits_check`). Such a batch does not hold up the batches
# queued after it (issue 30): a batch keeps only SIMULATION_WAVE chunks in the queue, and each
# chunk written sends its batch's next one behind the other batches' chunks (`_chunk_write`), so
# a one-chunk batch starts after a wave of each active batch, whatever their size. Issue 30's
# goal of a 10,000-game Duel batch in a minute of two workers still measures the size a player
# waits for (bench/simulation_bench.py), now always with the strongest agent. The budget is
# derived, not chosen: what MAX_GAMES games of the mode's strongest cost, so only callers beyond
# a batch's size (a metagame of many decks, `manage.py difficulty_levels`) fall back on a cheaper
# agent.


def batch_cpu_seconds(mode: str = MODE) -> float:
    """CPU seconds of the largest batch of `mode` (MAX_GAMES games) played by its strongest
    agent: the budget `agent_for` chooses within."""
    ladder = current_ladder(mode)
    return ladder.batch_seconds(ladder.agents[0], MAX_GAMES)


def agent_for(games: int, mode: str = MODE) -> str:
    """The agent of a deck entered without one: the strongest of the mode's ladder, whose games
    fit `batch_cpu_seconds(mode)` at every batch size up to MAX_GAMES."""
    return current_ladder(mode).strongest_within(Agent.values, games, batch_cpu_seconds(mode))


def control_agent_for(agents: Sequence[str]) -> str:
    """The agent of a batch's control: greedy, or lookahead to check a batch all greedy (Solo's
    automaton aside)."""
    players = [agent for agent in agents if agent != simulation.AUTOMATON]
    return Agent.LOOKAHEAD if all(agent == Agent.GREEDY for agent in players) else Agent.GREEDY


# A Draft batch's game costs its draft too: about as many greedy games as this (the simulated
# drafter plays 2 per card it weighs; bench/drafts_bench.py).
DRAFT_COST = {Drafter.PRICE: 1, Drafter.SIMULATED: 30}


def chunk_size_for(games: int, agents: Sequence[str], drafter: str | None = None) -> int:
    largest = min(CHUNK_GAMES[Agent(agent)] for agent in agents if agent != simulation.AUTOMATON)
    if drafter is not None:
        largest = max(1, largest // DRAFT_COST[Drafter(drafter)])
    return max(1, min(largest, max(MIN_CHUNK, -(-games // PROGRESS_STEPS))))


# Creating -------------------------------------------------------------------------------------


def batch_create(
    *,
    requested_by: User,
    seats: Sequence[selectors.SeatChoice],
    games: int,
    seed: int | None = None,
    exhaustion: bool = False,
    champions: bool = False,
    chunk_size: int | None = None,
    mode: str = MODE,
    ai: selectors.SoloAiChoice | None = None,
    curve: DifficultyCurve | None = None,
    draft: batch_requests.DraftChoice | None = None,
    control: bool = False,
    seat_fields: Sequence[tuple[str, ...]] | None = None,
) -> SimulationBatch:
    """Queue `games` games of `mode` between the decks of `seats` (deck A first; a Duel has 2,
    Free-For-All and Team Play 4, Solo 1: the player's, whose AI deck pile
    `engine.adapters.decks` makes, Co-op 2: the players', at seats A and C, against the AI's 48
    cards it makes too); the chunks start once this commits. `ai`: the AI of Solo and Co-op
    (one for both of Co-op's AIs, ruling CO6), a level of the difficulty table or explicit
    parameters (default: Quick Play). With `draft` (and no `seats`), each game drafts its decks
    with the mode's Draft procedure (`simulation.DRAFT_PROCEDURES`). A seat without an agent
    gets `agent_for(games)`; `control`: also queue a control batch (`control_agent_for`,
    `CONTROL_GAMES`). `seat_fields`: how an API request named its players' seats
    (`batch_requests.players_check`).

    400 DomainErrors name the bad input (nothing is queued); 429 ones a per-user limit.
    """
    solo_ai = batch_requests.ai_check(mode=mode, ai=ai, champions=champions)
    if draft is not None:
        seats = batch_requests.draft_seats(draft, seats, champions)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise DomainError(
            "invalid_games",
            _("Ask for 1 to %(max)d games.") % {"max": MAX_GAMES},
            {"field": "games", "max": MAX_GAMES},
        )
    batch_requests.players_check(
        mode=mode, given=len(seats), fields=seat_fields, draft=draft is not None
    )
    expected = len(simulation.player_seats(mode))
    if len(seats) != expected:
        raise DomainError(
            "wrong_deck_count",
            (
                _("A Solo game is played by %(expected)d deck, not %(given)d.")
                if mode == SOLO_MODE
                else _("This game mode is played by %(expected)d decks, not %(given)d.")
            )
            % {"expected": expected, "given": len(seats)},
            {"field": "seats", "expected": expected, "given": len(seats)},
        )
    for index, seat in enumerate(seats):
        if seat.agent is not None and seat.agent not in Agent.values:
            raise DomainError(
                "unknown_agent",
                _("There is no AI “%(agent)s”.") % {"agent": seat.agent},
                {
                    "side": simulation.DECK_LETTERS[index],
                    "field": "agent",
                    "choices": list(Agent.values),
                },
            )
    if seed is not None and not 0 <= seed < 2**SEED_BITS:
        raise DomainError(
            "invalid_seed", _("A seed is a whole number from 0 to 2^63 - 1."), {"field": "seed"}
        )
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    pool: ResolvedPool | None = None
    if draft is None:
        resolved = [
            simulation_deck_resolve(
                side=simulation.DECK_LETTERS[index],
                choice=seat.deck,
                viewer=requested_by,
                champions=champions,
                mode=mode,
            )
            for index, seat in enumerate(seats)
        ]
    else:
        pool = draft_pool_resolve(pool=draft.pool, procedure=simulation.DRAFT_PROCEDURES[mode])
        resolved = [batch_requests.drafted_deck(draft.drafter) for _ in seats]
    agents = [seat.agent or agent_for(games, mode) for seat in seats]
    if solo_ai:
        resolved, agents = batch_requests.with_ai_seats(
            mode, resolved, agents, seed, drafted=draft is not None
        )
    played = _Played(mode=mode, solo_ai=solo_ai, draft=draft, pool=pool)
    with transaction.atomic():
        # Written first, then the limits counted with it (under a lock on the user row on
        # PostgreSQL): two requests at once cannot both slip under a limit.
        batch = _batch_write(
            requested_by=requested_by,
            decks=resolved,
            agents=agents,
            games=games,
            seed=seed,
            exhaustion=exhaustion,
            champions=champions,
            chunk_size=chunk_size,
            played=played,
            curve=curve,
        )
        get_user_model().objects.select_for_update().filter(pk=requested_by.pk).first()
        batch_requests.limits_check(requested_by, games)
        if control:
            _control_write(batch, resolved, agents, played)
    return batch


@dataclass(frozen=True)
class _Played:
    """How a batch's games are played beyond its decks, shared with its control batch."""

    mode: str
    solo_ai: selectors.SoloAi | None
    draft: batch_requests.DraftChoice | None
    pool: ResolvedPool | None


def _batch_write(
    *,
    requested_by: User,
    decks: Sequence[ResolvedDeck],
    agents: Sequence[str],
    games: int,
    seed: int,
    exhaustion: bool,
    champions: bool,
    chunk_size: int | None,
    played: _Played,
    curve: DifficultyCurve | None = None,
) -> SimulationBatch:
    """Store a batch and its seats; its chunks are sent once the transaction commits."""
    solo_ai, draft, pool = played.solo_ai, played.draft, played.pool
    size = chunk_size or chunk_size_for(games, agents, draft.drafter if draft else None)
    batch = SimulationBatch.objects.create(
        requested_by=requested_by,
        mode=played.mode,
        exhaustion=exhaustion,
        champions=champions,
        games=games,
        chunk_size=size,
        # The first wave, sent once this commits; each chunk written sends the next.
        chunks_sent=min(settings.SIMULATION_WAVE, simulation.chunk_count(games, size)),
        seed=seed,
        ai=solo_ai.options if solo_ai else None,
        ai_level=solo_ai.level if solo_ai else None,
        curve=curve,
        draft_expansion=pool.expansion if pool else "",
        draft_pool=pool.cards if pool else None,
        draft_slugs=pool.slugs if pool else None,
        rules_version=RULES_VERSION,
        engine_digest=engine_digest(),
    )
    SimulationSeat.objects.bulk_create(
        SimulationSeat(
            batch=batch,
            index=index,
            source=deck.source,
            deck=deck.deck,
            code=deck.code,
            name=deck.name[:120],
            preconstructed=deck.preconstructed,
            agent=agent,
            cards=deck.cards,
            slugs=deck.slugs,
            champion=deck.champion,
            drafter=draft.drafter if draft and deck.source == DeckSource.DRAFT else "",
        )
        for index, (deck, agent) in enumerate(zip(decks, agents, strict=True))
    )
    transaction.on_commit(lambda: _dispatch(batch.pk, batch.chunks_sent))
    return batch


def _control_write(
    batch: SimulationBatch, decks: Sequence[ResolvedDeck], agents: Sequence[str], played: _Played
) -> SimulationBatch:
    """The control of `batch`: its decks, options and seed (so its first games' shuffles),
    every deck played by `control_agent_for(agents)` (Solo's automaton stays itself)."""
    agent = control_agent_for(agents)
    control = _batch_write(
        requested_by=batch.requested_by,
        decks=decks,
        agents=[other if other == simulation.AUTOMATON else agent for other in agents],
        games=CONTROL_GAMES[Agent(agent)],
        seed=batch.seed,
        exhaustion=batch.exhaustion,
        champions=batch.champions,
        chunk_size=None,
        played=played,
    )
    SimulationBatch.objects.filter(pk=batch.pk).update(control=control)
    batch.control = control
    return control


def in_process() -> bool:
    """Whether batches run in this process's thread pool (no broker) rather than on workers."""
    from celery import current_app

    return bool(current_app.conf.task_always_eager)


def _dispatch(batch_id: int, chunks: int) -> None:
    """Send a new batch's first `chunks` chunks (its first wave: `chunks_sent`)."""
    if in_process():
        background.take_batch(batch_id)
    _send_chunks(batch_id, range(chunks))


def _send_chunks(batch_id: int, indexes: Iterable[int], queue: str | None = None) -> None:
    """One task per chunk: Celery workers with a broker (on `queue`, else the default one), else
    the in-process thread pool."""
    if in_process():
        for index in indexes:
            background.submit(chunk_run_in_process, batch_id=batch_id, index=index)
        return
    run_chunk = current_app.tasks[RUN_CHUNK_TASK]
    options: dict[str, Any] = {"queue": queue} if queue else {}
    for index in indexes:
        run_chunk.apply_async(args=(batch_id, index), **options)


def batches_resume_orphaned() -> int:
    """In-process mode: queue again the unwritten chunks of every active batch that no thread of
    this process runs (the server restarted mid-batch, taking its thread pool with it). The
    pool's sweep calls it (`pool_sweep_start`); with Celery see `batch_resend_lost_chunks`.

    Returns how many chunks were queued. Chunks are idempotent, so a batch another web
    process is still running only costs repeated work, never a double count.
    """
    if not in_process():
        return 0
    queued = 0
    for batch_id in SimulationBatch.objects.filter(status__in=ACTIVE_STATUSES).values_list(
        "pk", flat=True
    ):
        if not background.take_batch(batch_id):
            continue
        missing = _resend(batch_id)
        _send_chunks(batch_id, missing)
        if missing:
            logger.info("simulation batch %s: resumed %s chunks", batch_id, len(missing))
        queued += len(missing)
    return queued


def pool_sweep_start() -> bool:
    """In-process mode: start the thread pool's sweep (`batches_resume_orphaned` at once, then
    every SIMULATION_SWEEP_SECONDS); the web process calls it when it loads its application
    (cod_site/wsgi.py, asgi.py). Nothing to do with Celery: the beat of `make worker` sweeps."""
    if not in_process():
        return False
    return background.start_sweep(batches_resume_orphaned, settings.SIMULATION_SWEEP_SECONDS)


def batch_resend_lost_chunks(*, idle_for: timedelta) -> int:
    """With Celery: send again the chunks every active batch had sent and not written, if it has
    shown no sign of life for `idle_for` (the broker's visibility timeout, so that the chunks a
    dead worker held have had their chance to come back on their own), then its next chunks up
    to a wave (`_resend`).

    The broker redelivers the chunks a dead worker had taken, except one it killed between
    taking the message from Redis and recording it as unacknowledged: that message is gone, and
    its batch would wait forever, since only a chunk written sends the next. Sending those again
    is safe (chunks are idempotent) and cheap (a chunk already written is one query). A batch
    waiting behind a long queue gets one more copy of its chunks per `idle_for`, no more: the
    batch's `active_at` is moved on under a condition, so two sweeps at once never both send.
    Returns the chunks sent.
    """
    if in_process():
        return 0  # the thread pool's batches are resumed by its own sweep
    now = timezone.now()
    idle = Q(active_at__lt=now - idle_for) | Q(active_at=None, created_at__lt=now - idle_for)
    sent = 0
    for batch_id in SimulationBatch.objects.filter(idle, status__in=ACTIVE_STATUSES).values_list(
        "pk", flat=True
    ):
        claimed = SimulationBatch.objects.filter(
            idle, pk=batch_id, status__in=ACTIVE_STATUSES
        ).update(active_at=now)
        if not claimed:
            continue
        missing = _resend(batch_id)
        _send_chunks(batch_id, missing)
        logger.warning(
            "simulation batch %s: idle for %s s, resent %s chunk(s)",
            batch_id, int(idle_for.total_seconds()), len(missing),
        )  # fmt: skip
        sent += len(missing)
    return sent


def _resend(batch_id: int) -> list[int]:
    """The chunks to send again for an active batch whose workers may have lost some: those it
    sent and has not written (a chunk's write claims the next before sending it, so a process
    that dies in between leaves one of those), then its next ones, marked sent, until a wave is
    out again (fewer are when SIMULATION_WAVE was raised since). Under the batch row's lock, so
    a chunk written meanwhile claims a chunk after these."""
    with transaction.atomic():
        batch = (
            SimulationBatch.objects.select_for_update()
            .filter(pk=batch_id, status__in=ACTIVE_STATUSES)
            .only("games", "chunk_size", "chunks_sent")
            .first()
        )
        if batch is None:
            return []
        written = set(
            SimulationChunk.objects.filter(batch_id=batch_id).values_list("index", flat=True)
        )
        lost = [index for index in range(batch.chunks_sent) if index not in written]
        more = min(settings.SIMULATION_WAVE - len(lost), batch.chunks_total - batch.chunks_sent)
        if more > 0:
            SimulationBatch.objects.filter(pk=batch_id).update(chunks_sent=F("chunks_sent") + more)
            lost += range(batch.chunks_sent, batch.chunks_sent + more)
    return lost


# Running a chunk ------------------------------------------------------------------------------


class _Superseded(Exception):
    """The batch was cancelled or failed while the chunk played: its totals are not wanted."""


@dataclass(frozen=True)
class ChunkResult:
    chunk: SimulationChunk | None  # None: not played (batch over, or cancelled meanwhile)
    played: bool  # False when the chunk had already been written by an earlier delivery


def chunk_run(*, batch_id: int, index: int, queue: str | None = None) -> ChunkResult:
    """Play chunk `index` of a batch and write its totals once (idempotent: a second run of the
    same chunk, a retry or a redelivered task, finds the row and does nothing), then send the
    batch's next chunk (to `queue`, with Celery: the one this chunk came from)."""
    # Every chunk pays for these queries: only the columns it reads (not the totals document).
    batch = (
        SimulationBatch.objects.filter(pk=batch_id)
        .only(*CHUNK_READS)
        .prefetch_related(
            Prefetch("seats", queryset=SimulationSeat.objects.only(*CHUNK_SEAT_READS))
        )
        .first()
    )
    if batch is None or batch.status not in ACTIVE_STATUSES:
        return ChunkResult(None, False)
    if not 0 <= index < batch.chunks_total:
        raise ValueError(f"batch {batch_id} has no chunk {index}")
    existing = SimulationChunk.objects.filter(batch_id=batch_id, index=index).first()
    if existing is not None:
        return ChunkResult(existing, False)
    if batch.engine_digest != engine_digest():
        # Its games would not be those the batch's other chunks and its replays play.
        batch_fail(
            batch_id=batch_id,
            error=_(
                "This worker runs another version of the rules engine or of its AIs than the one "
                "that started the batch: its games would not be the batch's."
            ),
        )
        return ChunkResult(None, False)
    if batch.status == Status.QUEUED:
        SimulationBatch.objects.filter(pk=batch_id, status=Status.QUEUED).update(
            status=Status.RUNNING, started_at=timezone.now()
        )
    first, count = simulation.chunk_span(batch.games, batch.chunk_size, index)
    spec = selectors.batch_spec(batch)
    totals = simulation.Totals.empty(spec.entrants, spec.end_reasons)
    # This thread's CPU time: in the thread pool, other threads share the process.
    started = time.thread_time()
    next_check = time.monotonic() + CANCEL_CHECK_SECONDS
    for game in range(first, first + count):
        totals.add(simulation.play_game(spec, game))
        if time.monotonic() > next_check:
            if not _still_active(batch_id):
                return ChunkResult(None, False)
            next_check = time.monotonic() + CANCEL_CHECK_SECONDS
    seconds = time.thread_time() - started
    try:
        chunk, following = _chunk_write(batch, index, totals, seconds, spec)
    except IntegrityError:
        # Another delivery of this chunk wrote it meanwhile: that row counts, this run does not.
        return ChunkResult(
            SimulationChunk.objects.filter(batch_id=batch_id, index=index).first(), False
        )
    except _Superseded:
        return ChunkResult(None, False)
    if following is not None:
        # Once committed: a process that dies here, or a broker that refuses the message, leaves
        # a chunk sent and unwritten, which `batch_resend_lost_chunks` (`batches_resume_orphaned`
        # in-process) sends again; this chunk counts all the same.
        try:
            _send_chunks(batch_id, [following], queue)
        except Exception:
            logger.exception("simulation batch %s: chunk %s was not sent", batch_id, following)
    return ChunkResult(chunk, True)


def _chunk_write(
    batch: SimulationBatch,
    index: int,
    totals: simulation.Totals,
    seconds: float,
    spec: simulation.BatchSpec,
) -> tuple[SimulationChunk, int | None]:
    """Write a chunk played and count it in its batch, in one transaction; the batch's totals
    too if it was the last. Returns the row and the chunk to send next (None: all were sent)."""
    first, count = simulation.chunk_span(batch.games, batch.chunk_size, index)
    with transaction.atomic():
        # The row first: on SQLite the transaction takes the write lock at once.
        chunk = SimulationChunk.objects.create(
            batch_id=batch.pk,
            index=index,
            first_game=first,
            games=count,
            totals=totals.to_json(),
            engine_seconds=seconds,
            worker=f"{socket.gethostname()}:{os.getpid()}:{threading.current_thread().name}",
        )
        updated = SimulationBatch.objects.filter(pk=batch.pk, status__in=ACTIVE_STATUSES).update(
            games_done=F("games_done") + count,
            chunks_done=F("chunks_done") + 1,
            engine_seconds=F("engine_seconds") + seconds,
            status=Status.RUNNING,
            active_at=timezone.now(),
        )
        if not updated:
            raise _Superseded
        # This chunk's turn is over: the batch's next unsent chunk goes to the back of the queue,
        # behind the other batches' chunks. The update above keeps the row locked until this
        # commits, so two chunks written at once claim two different chunks.
        claimed = SimulationBatch.objects.filter(
            pk=batch.pk, chunks_sent__lt=batch.chunks_total
        ).update(chunks_sent=F("chunks_sent") + 1)
        done, sent = (
            SimulationBatch.objects.select_for_update()
            .filter(pk=batch.pk)
            .values_list("chunks_done", "chunks_sent")
            .get()
        )
        if done == batch.chunks_total:
            SimulationBatch.objects.filter(pk=batch.pk).update(
                totals=_sum_chunks(batch.pk, spec.entrants, spec.end_reasons).to_json(),
                status=Status.DONE,
                finished_at=timezone.now(),
            )
    return chunk, sent - 1 if claimed else None


def _still_active(batch_id: int) -> bool:
    return SimulationBatch.objects.filter(pk=batch_id, status__in=ACTIVE_STATUSES).exists()


def _sum_chunks(
    batch_id: int, decks: int, ends: Sequence[str] = simulation.END_REASONS
) -> simulation.Totals:
    totals = simulation.Totals.empty(decks, ends)
    for data in (
        SimulationChunk.objects.filter(batch_id=batch_id)
        .order_by("index")
        .values_list("totals", flat=True)
    ):
        totals.merge(simulation.Totals.from_json(data))
    return totals


def chunk_run_in_process(*, batch_id: int, index: int) -> None:
    """`chunk_run` for the thread pool: the same bounded retries as the Celery task, then the
    batch fails."""

    def fail(saving: bool) -> None:
        error = _("The games could not be saved.") if saving else _("A chunk of games failed.")
        batch_fail(batch_id=batch_id, error=error)

    run_retrying(
        lambda: chunk_run(batch_id=batch_id, index=index),
        fail,
        f"simulation batch {batch_id} chunk {index}",
    )


def run_retrying(work: Callable[[], object], fail: Callable[[bool], None], what: str) -> None:
    """Run `work` (a batch's chunk, a search's unit) in a thread of the pool with the Celery
    tasks' bounded retries on database hiccups; when they run out, or on any other error, log it
    as `what` failed and call `fail(saving)` (True: the games could not be saved)."""
    for retries in range(MAX_RETRIES + 1):
        try:
            work()
            return
        except RETRYABLE:
            if retries == MAX_RETRIES:
                logger.exception("%s failed", what)
                fail(True)
                return
            time.sleep(retry_delay(retries))
        except Exception:
            logger.exception("%s failed", what)
            fail(False)
            return


# Ending a batch early -------------------------------------------------------------------------


def batch_fail(*, batch_id: int, error: str) -> None:
    """A chunk failed for good: the batch stops (its other chunks skip their work)."""
    SimulationBatch.objects.filter(pk=batch_id, status__in=ACTIVE_STATUSES).update(
        status=Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def batch_cancel(*, batch: SimulationBatch, actor: User) -> SimulationBatch:
    """Stop a queued or running batch: chunks not started skip their work, running ones stop at
    their next check, and the totals keep the chunks already written. A finished batch is left
    as it is (409)."""
    selectors.batch_visible(batch_id=batch.pk, batch=batch, user=actor)
    decks, ends = batch.seats.count(), simulation.end_reasons(batch.mode)
    with transaction.atomic():
        cancelled = _stop(batch.pk, decks, ends)
        if cancelled and batch.control_id is not None:
            # Without its batch, a control compares with nothing.
            _stop(batch.control_id, decks, ends)
    batch.refresh_from_db()
    if not cancelled and batch.status != Status.CANCELLED:
        raise DomainError(
            "not_cancellable",
            _("This batch is already %(status)s.") % {"status": batch.get_status_display()},
            {"status": batch.status},
            status_code=409,
        )
    return batch


# Difficulty curves ----------------------------------------------------------------------------


def _stop(batch_id: int, decks: int, ends: Sequence[str]) -> bool:
    """Cancel the batch if it is still active, keeping the totals of its chunks written."""
    cancelled = SimulationBatch.objects.filter(pk=batch_id, status__in=ACTIVE_STATUSES).update(
        status=Status.CANCELLED, finished_at=timezone.now()
    )
    if cancelled:
        SimulationBatch.objects.filter(pk=batch_id).update(
            totals=_sum_chunks(batch_id, decks, ends).to_json()
        )
    return bool(cancelled)
