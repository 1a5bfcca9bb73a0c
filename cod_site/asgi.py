"""The app under ASGI: `make serve` (gunicorn + uvicorn, cod_site/server.py), with
WEB_THREADS threads per process for the sync views (cod_site/hybrid.py)."""

import os

from cod_site.env import env_int
from cod_site.hybrid import hybrid_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")
application = hybrid_application(threads=env_int("WEB_THREADS", 8))

# Without a broker, simulated games run in this process's thread pool: its sweep resumes the
# batches a previous server left unfinished (a page or API view only reads).
from engine.services import pool_sweep_start  # noqa: E402 - needs the apps loaded just above

pool_sweep_start()
