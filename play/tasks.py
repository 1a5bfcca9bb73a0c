"""Celery tasks of the play app: thin calls of its services."""

from celery import shared_task

from play import chaos_services, services

APPLY_TURN_TIMEOUTS_TASK = "play.apply_turn_timeouts"


@shared_task(name=APPLY_TURN_TIMEOUTS_TASK, ignore_result=True)
def apply_turn_timeouts() -> int:
    """The beat's sweep: the players out of time lose on time; the count of games ended."""
    return services.game_timeouts_apply()


@shared_task(name=chaos_services.CHAOS_AGENT_TASK, acks_late=True, ignore_result=True)
def chaos_agent_play(table_id: int) -> None:
    """The computer seat of a Duel of Chaos table decides, outside the person's request."""
    chaos_services.chaos_table_agent_play(table_id=table_id)


@shared_task(name=chaos_services.RESEND_CHAOS_AGENTS_TASK, ignore_result=True)
def resend_chaos_agents() -> int:
    """The beat's sweep: computer decisions whose task was lost are sent again; their count."""
    return chaos_services.chaos_agent_turns_resend()
