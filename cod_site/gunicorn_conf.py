"""Gunicorn settings of `make serve`, the production server, read from the environment.

- HOST, PORT: the address to listen on (default 127.0.0.1:8000, as `make run`);
- WEB_CONCURRENCY: worker processes (default: 2 per core plus one);
- GUNICORN_CMD_ARGS: any other gunicorn option, e.g. "--pid /run/cod_site.pid --timeout 60".

Send the master process HUP to restart gracefully: it starts new workers on the current code
and settings, and the old ones finish their requests before they exit.
"""

import os

from cod_site.env import env_int, env_str


def _address(host: str, port: int) -> str:
    # An IPv6 literal needs its brackets in a bind address ("[::1]:8000").
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


wsgi_app = "cod_site.wsgi:application"
bind = [_address(env_str("HOST", "127.0.0.1"), env_int("PORT", 8000))]
# Sync workers: a request is CPU work (templates, serialisation) or a short database query, so
# processes, not threads, use the cores; the extra ones cover a worker waiting on the database.
workers = env_int("WEB_CONCURRENCY", 2 * len(os.sched_getaffinity(0)) + 1)
# Not preloaded: HUP then loads the new code in the new workers.
preload_app = False
accesslog = "-"
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'
errorlog = "-"
# Gunicorn's control socket has one default path per user: a second server on this machine (a
# test, the load bench) would take it over. Signals (HUP, TERM) control the server instead.
control_socket_disable = True
