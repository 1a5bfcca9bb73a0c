import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")
application = get_wsgi_application()

# Without a broker, simulated games run in this process's thread pool: its sweep resumes the
# batches a previous server left unfinished (a page or API view only reads).
from engine.services import pool_sweep_start  # noqa: E402 - needs the apps loaded just above

pool_sweep_start()
