"""The Celery application.

Without REDIS_URL the settings make every task run in-process (eager), so the app needs no
services; with REDIS_URL a real broker and result backend are used (`make worker`).
"""

import os
from typing import Any

from celery import Celery, Task, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")

app = Celery("cod_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_old_connections(sender: Task | None = None, **kwargs: Any) -> None:
    """Around a task on a worker, what Django does around a request: close the database
    connection once it is older than CONN_MAX_AGE or broken by an error, so a worker survives a
    database restart (with CELERY_DB_REUSE_MAX set, Celery no longer closes it after every task).
    Not for eager tasks, which run inside the caller's request or transaction."""
    if sender is not None and not getattr(sender.request, "is_eager", False):
        from django.db import close_old_connections as close

        close()
