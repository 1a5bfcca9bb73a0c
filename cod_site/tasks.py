import socket

from celery import shared_task


@shared_task(name="cod_site.ping")
def ping(payload: str) -> dict[str, str]:
    """Round-trip check of the task pipeline: echoes the payload with the worker's host name."""
    return {"payload": payload, "worker": socket.gethostname()}
