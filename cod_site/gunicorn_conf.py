"""Gunicorn settings of `make serve`, the production server, read from the environment.

- HOST, PORT: the address to listen on (default 127.0.0.1:8000, as `make run`);
- WEB_CONCURRENCY: worker processes (default: two per core);
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


# The app under ASGI (cod_site/asgi.py), served by uvicorn in each gunicorn worker process
# (`cod_site.server.Worker`): a live stream waits on an event in the process's loop instead of
# holding a thread, and the ordinary (sync) views run in threads of their own, one per request
# under way, each taking a database connection from the process's pool (settings: DATABASES).
wsgi_app = "cod_site.asgi:application"
bind = [_address(env_str("HOST", "127.0.0.1"), env_int("PORT", 8000))]
worker_class = "cod_site.server.Worker"
# Two processes per core: a process's threads share one interpreter lock, so a process uses at
# most about one core, and a request waits for the lock behind its process's other requests (5 ms
# a turn); the kernel shares the cores among processes more finely. bench/live_bench.py on 2
# cores, quiet: act p95 180 ms and /healthz p99 244 ms with 2 processes; 97-152 and 122-174 ms
# with 3 or 4 (at 115 MB a process). Connections are spread over the processes (cod_site/server.py).
workers = env_int("WEB_CONCURRENCY", 2 * len(os.sched_getaffinity(0)))
# Kept-alive connections idle this long are closed.
keepalive = 5
# Not preloaded: HUP then loads the new code in the new workers.
preload_app = False
accesslog = "-"
# The access log's lines (cod_site.server.AccessLog) end with the worker's pid ("<1234>"):
# which worker served what (the load bench counts them).
errorlog = "-"
# Gunicorn's control socket has one default path per user: a second server on this machine (a
# test, the load bench) would take it over. Signals (HUP, TERM) control the server instead.
control_socket_disable = True
