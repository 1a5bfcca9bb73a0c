"""Database connections around tasks on a worker: kept between tasks, closed when Django would
close them around a request (obsolete, or broken by an error), never around an eager task."""

from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection

from cod_site.celery import app, close_old_connections

pytestmark = pytest.mark.django_db(transaction=True)


def _task(eager: bool) -> Any:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


def test_celery_no_longer_closes_the_connection_after_every_task() -> None:
    # Celery's Django fixup closes it around every task unless this is set.
    assert app.conf.get("CELERY_DB_REUSE_MAX") >= 1_000_000


def test_a_healthy_connection_is_kept_between_tasks() -> None:
    connection.ensure_connection()
    kept = connection.connection
    if connection.settings_dict["OPTIONS"].get("pool"):
        # PostgreSQL's pool (settings: DATABASE_POOL): handed back, and the next task takes
        # one of the pool's again: no new connection to the server.
        opened = connection.pool.get_stats()["connections_num"]
        close_old_connections(sender=_task(eager=False))
        assert connection.connection is None
        connection.ensure_connection()
        assert connection.pool.get_stats()["connections_num"] == opened
    else:
        close_old_connections(sender=_task(eager=False))
        assert connection.connection is kept


def test_a_connection_broken_by_an_error_is_closed_before_the_next_task(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    connection.ensure_connection()
    monkeypatch.setattr(connection, "errors_occurred", True)
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    close_old_connections(sender=_task(eager=True))
    assert connection.connection is not None
    close_old_connections(sender=_task(eager=False))
    assert connection.connection is None
