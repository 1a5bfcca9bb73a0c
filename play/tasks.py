"""Celery tasks of the play app: thin calls of its services."""

from celery import shared_task

from play import services

APPLY_TURN_TIMEOUTS_TASK = "play.apply_turn_timeouts"


@shared_task(name=APPLY_TURN_TIMEOUTS_TASK, ignore_result=True)
def apply_turn_timeouts() -> int:
    """The beat's sweep: the players out of time lose on time; the count of games ended."""
    return services.game_timeouts_apply()
