"""Gunicorn settings of `make serve`, the production server, read from the environment.

- HOST, PORT: the address to listen on (default 127.0.0.1:8000, as `make run`);
- WEB_CONCURRENCY: worker processes (default: one per two cores, at least one);
- WEB_THREADS: threads per worker process (default 4);
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
# Threaded workers ("gthread"): processes use the cores, and each one's threads serve other
# requests while one waits on the database or a slow client. Unlike sync workers they keep a
# client's connection open between requests (keep-alive): sync workers cost 4.5-5.7 ms of CPU
# a request on the load bench's mix, against 2.8-3.3 ms for these (bench/load_bench.py), the
# difference being a new connection for every request and the sync workers all waking up for
# each one.
worker_class = "gthread"
# One process per two cores: a process's threads keep about one core busy (they share its
# interpreter lock) and PostgreSQL needs the others; more processes only split the kept-alive
# connections unevenly (see `keepalive`), some queueing behind a worker's busy threads while
# another idles. bench/play_bench.py (50 games, 1 s between a game's actions) on the 2-core
# machine, shared with other jobs that move p95 up to 3x between runs: action round trip p95
# 52-377 ms, median 121 ms, with 1 process of 4 threads (10 runs), 57-260 ms, median 198 ms,
# with 3 (6 runs), 99-310 ms with 2 (4 runs); 6 or 8 threads in 1 process: 115-258 ms (4 runs).
workers = env_int("WEB_CONCURRENCY", max(1, len(os.sched_getaffinity(0)) // 2))
threads = env_int("WEB_THREADS", 4)
# A kept-alive connection stays with the worker that accepted it, and a worker accepts all it can:
# a few busy long-lived connections (the load bench's 20, a proxy's upstream pool) may all land on
# one worker. Capping them (worker_connections = 2 * threads) stalled requests for seconds with
# this gunicorn (27.0); a proxy that opens a connection per request (nginx's default) spreads them.
keepalive = 5
# Not preloaded: HUP then loads the new code in the new workers.
preload_app = False
accesslog = "-"
# Ends with the worker's pid ("<1234>"): which worker served what (the load bench counts them).
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s" %(p)s'
errorlog = "-"
# Gunicorn's control socket has one default path per user: a second server on this machine (a
# test, the load bench) would take it over. Signals (HUP, TERM) control the server instead.
control_socket_disable = True
