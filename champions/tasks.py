"""Celery tasks of the Champions app: ids in, a service does the work."""

from celery import shared_task

from champions.services import RENDER_PRINT_JOB_TASK, print_job_run


@shared_task(name=RENDER_PRINT_JOB_TASK, acks_late=True)
def render_print_job(job_id: str) -> str:
    """Generate a print job's PDF; returns the job's final status."""
    return print_job_run(job_id=job_id).status
