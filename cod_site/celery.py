"""The Celery application.

Without REDIS_URL the settings make every task run in-process (eager), so the app needs no
services; with REDIS_URL a real broker and result backend are used (`make worker`).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")

app = Celery("cod_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
