"""Celery tasks of the engine app: ids in, a service does the work.

A chunk task is acknowledged only once it finished (`acks_late`), and goes back to the queue if
its worker process dies (`reject_on_worker_lost`): it may then run twice, which `chunk_run`
makes harmless (one row per chunk). Database hiccups are retried a bounded number of times with
a growing delay; after that, or when a chunk runs over its time limit (the games of a chunk are
the same every time: a retry would time out again), the batch fails.
"""

from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings

from engine import chaos_services, services

# Per chunk: the soft limit raises inside the games (the batch fails), the hard one kills the
# process if even that does not stop it.
CHUNK_SOFT_TIME_LIMIT = 300
CHUNK_TIME_LIMIT = 330


class ChunkTask(Task):
    def on_failure(
        self, exc: Exception, task_id: str, args: tuple, kwargs: dict[str, Any], einfo: Any
    ) -> None:
        """Retries are exhausted (or the error is not worth one): the batch stops."""
        services.batch_fail(batch_id=args[0], error=f"{type(exc).__name__}: {exc}")


@shared_task(
    bind=True,
    name=services.RUN_CHUNK_TASK,
    base=ChunkTask,
    acks_late=True,
    reject_on_worker_lost=True,
    # Progress and totals live in the database; a result per chunk in Redis would only pile up.
    ignore_result=True,
    autoretry_for=services.RETRYABLE,
    max_retries=services.MAX_RETRIES,
    retry_backoff=True,
    retry_backoff_max=60,
    soft_time_limit=CHUNK_SOFT_TIME_LIMIT,
    time_limit=CHUNK_TIME_LIMIT,
)
def run_chunk(self: Task, batch_id: int, index: int) -> int:
    """Play one chunk of a batch; returns the games it wrote (0: already written or skipped).
    The batch's next chunk goes to the queue this one came from (that of the process that
    created the batch, whatever this worker's default)."""
    queue = (self.request.delivery_info or {}).get("routing_key")
    result = services.chunk_run(batch_id=batch_id, index=index, queue=queue)
    return result.chunk.games if result.played and result.chunk is not None else 0


@shared_task(name=services.RESEND_LOST_CHUNKS_TASK, ignore_result=True)
def resend_lost_chunks() -> int:
    """The beat's sweep: chunks of batches idle for a visibility timeout are sent again."""
    return services.batch_resend_lost_chunks(
        idle_for=timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"])
    )


@shared_task(name=chaos_services.RUN_CHAOS_BATCH_TASK, ignore_result=True)
def run_chaos_batch(batch_id: int) -> str:
    """Play a Duel of Chaos batch; returns its status."""
    return str(chaos_services.chaos_batch_run(batch_id=batch_id).status)
