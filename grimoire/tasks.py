"""Celery tasks of the Grimoire: ids in, a service does the work."""

from celery import shared_task

from grimoire import services


@shared_task(name=services.SOLVER_JOB_TASK, acks_late=True, ignore_result=True)
def solver_job(job_id: str) -> None:
    """A proof or the judgement of an attempt, outside the request (`SolverJob`)."""
    services.solver_job_run(job_id=job_id)
