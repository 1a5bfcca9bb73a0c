"""Celery tasks of the metagame: the beat's refresh, and one pairing's games."""

from typing import Any

from celery import Task, shared_task

from engine.metagame import services
from engine.tasks import CHUNK_SOFT_TIME_LIMIT, CHUNK_TIME_LIMIT


class PairingTask(Task):
    def on_failure(
        self, exc: Exception, task_id: str, args: tuple, kwargs: dict[str, Any], einfo: Any
    ) -> None:
        services.pairing_fail(pairing_id=args[0], error=f"{type(exc).__name__}: {exc}")


@shared_task(name=services.REFRESH_TASK, ignore_result=True)
def refresh_metagame() -> int | None:
    """The beat's refresh: a new round robin when the popular decks changed; its id."""
    refresh = services.metagame_refresh()
    return refresh.pk if refresh is not None else None


@shared_task(
    name=services.RUN_PAIRING_TASK,
    base=PairingTask,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=CHUNK_SOFT_TIME_LIMIT,
    time_limit=CHUNK_TIME_LIMIT,
)
def run_pairing(pairing_id: int) -> bool:
    return services.pairing_run(pairing_id=pairing_id)
