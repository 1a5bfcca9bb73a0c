"""Celery tasks of "Improve this deck": ids in, `engine.suggestions.services` does the work.

A unit, like a batch's chunk, is acknowledged once finished and goes back to the queue if its
worker dies; it may then run twice, which `unit_run` makes harmless (a unit is written once).
"""

from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings

from engine.services import MAX_RETRIES, RETRYABLE
from engine.suggestions import services
from engine.tasks import CHUNK_SOFT_TIME_LIMIT, CHUNK_TIME_LIMIT


class UnitTask(Task):
    def on_failure(
        self, exc: Exception, task_id: str, args: tuple, kwargs: dict[str, Any], einfo: Any
    ) -> None:
        """Retries are exhausted (or the error is not worth one): the search stops."""
        services.search_fail(search_id=args[0], error=f"{type(exc).__name__}: {exc}")


@shared_task(
    name=services.RUN_UNIT_TASK,
    base=UnitTask,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    autoretry_for=RETRYABLE,
    max_retries=MAX_RETRIES,
    retry_backoff=True,
    retry_backoff_max=60,
    soft_time_limit=CHUNK_SOFT_TIME_LIMIT,
    time_limit=CHUNK_TIME_LIMIT,
)
def run_unit(search_id: int, round_: int, index: int) -> bool:
    """Play one unit of a search's round; False: nothing to play."""
    return services.unit_run(search_id=search_id, round_=round_, index=index)


@shared_task(name=services.RESEND_LOST_UNITS_TASK, ignore_result=True)
def resend_lost_units() -> int:
    """The beat's sweep: units of searches idle for a visibility timeout are sent again."""
    return services.searches_resend_lost_units(
        idle_for=timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"])
    )
