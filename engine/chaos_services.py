"""Writes of Duel of Chaos test batches: queue a batch on a catalogue set, play it in one task.

A batch is small (at most `CHAOS_MAX_GAMES` games, seconds of work), so unlike the Clash batches
of `engine.services` it is not cut into chunks: one task plays it and writes its totals.
"""

import secrets
import time

from celery import current_app
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine import background
from engine.adapters.chaos import chaos_box, chaos_set_resolve
from engine.chaos.batch import play_batch as play_chaos_batch
from engine.chaos.digest import engine_digest as chaos_engine_digest
from engine.chaos.errors import InputError as ChaosInputError
from engine.chaos.state import RULES_VERSION as CHAOS_RULES_VERSION
from engine.models import CHAOS_MAX_GAMES, ChaosAgent, ChaosBatch, Status
from engine.services import SEED_BITS, in_process

RUN_CHAOS_BATCH_TASK = "engine.run_chaos_batch"


def chaos_batch_create(
    *,
    requested_by: User,
    set_code: str,
    agent_a: str,
    agent_b: str,
    games: int,
    seed: int | None = None,
) -> ChaosBatch:
    """Queue a Duel of Chaos batch on a catalogue set; refused with the field named when the set
    cannot be played (unknown, or holding incomplete cards: `chaos_set_resolve`, which Play's
    tables check too) or the games are too many."""
    for field, agent in (("agent_a", agent_a), ("agent_b", agent_b)):
        if agent not in ChaosAgent.values:
            raise DomainError(
                "unknown_agent", _("Unknown AI %(agent)s.") % {"agent": agent}, {field: agent}
            )
    most = min(CHAOS_MAX_GAMES[ChaosAgent(agent_a)], CHAOS_MAX_GAMES[ChaosAgent(agent_b)])
    if not 1 <= games <= most:
        raise DomainError(
            "too_many_games",
            _("Ask for 1 to %(most)d games with these AIs.") % {"most": most},
            {"games": games, "most": most},
        )
    cards = chaos_set_resolve(set_code=set_code)
    batch = ChaosBatch.objects.create(
        requested_by=requested_by,
        set_code=set_code,
        cards=cards,
        agent_a=agent_a,
        agent_b=agent_b,
        games=games,
        seed=secrets.randbits(SEED_BITS) if seed is None else seed,
        rules_version=CHAOS_RULES_VERSION,
    )
    transaction.on_commit(lambda: _chaos_dispatch(batch.pk))
    return batch


def _chaos_dispatch(batch_id: int) -> None:
    if in_process():
        background.submit(chaos_batch_run, batch_id=batch_id)
        return
    current_app.tasks[RUN_CHAOS_BATCH_TASK].apply_async(args=(batch_id,))


def chaos_batch_run(*, batch_id: int) -> ChaosBatch:
    """Play a queued batch's games and store their totals (a batch not queued is left as is)."""
    with transaction.atomic():
        batch = ChaosBatch.objects.select_for_update().get(pk=batch_id)
        if batch.status != Status.QUEUED:
            return batch
        batch.status = Status.RUNNING
        batch.save(update_fields=["status"])
    start = time.process_time()
    try:
        totals = play_chaos_batch(
            chaos_box(batch.cards, batch.set_code),
            [batch.agent_a, batch.agent_b],
            batch.games,
            batch.seed,
        )
    except ChaosInputError as exc:
        batch.status = Status.FAILED
        batch.error = str(exc)
    else:
        batch.status = Status.DONE
        batch.totals = totals.to_json()
        # The engine and agents that played the games: only they replay them.
        batch.engine_digest = chaos_engine_digest()
    batch.engine_seconds = time.process_time() - start
    batch.finished_at = timezone.now()
    fields = ["status", "error", "totals", "engine_digest", "engine_seconds", "finished_at"]
    batch.save(update_fields=fields)
    return batch
