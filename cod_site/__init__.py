# Importing the Celery app here makes @shared_task bind to it as soon as Django starts.
from cod_site.celery import app as celery_app

__all__ = ("celery_app",)
