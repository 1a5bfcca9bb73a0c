"""Celery tasks of the Grimoire: ids in, a service does the work."""

from celery import shared_task

from grimoire import services


@shared_task(name=services.PROVE_TASK, acks_late=True, ignore_result=True)
def prove(puzzle_id: int) -> None:
    """The solver's search of a large position, outside the request."""
    services.puzzle_prove_run(puzzle_id=puzzle_id)
