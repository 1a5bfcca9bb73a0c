"""The app under ASGI: `make serve` (gunicorn + uvicorn, cod_site/server.py)."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")
# WhiteNoise answers a static file with a sync iterator, which Django reads in a thread under
# ASGI and warns about at every file; a file is read in a few blocks, and static files are
# collected for a proxy or a CDN to serve in front of a busy site.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)
application = get_asgi_application()

# Without a broker, simulated games run in this process's thread pool: its sweep resumes the
# batches a previous server left unfinished (a page or API view only reads).
from engine.services import pool_sweep_start  # noqa: E402 - needs the apps loaded just above

pool_sweep_start()
