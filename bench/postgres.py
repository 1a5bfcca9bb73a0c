"""The PostgreSQL database a benchmark runs on: its own, created when missing."""

import dj_database_url
import psycopg


def database_missing(url: str) -> str | None:
    """Why `url` cannot be the benchmark's PostgreSQL database (None: it can); creates it if the
    server is there and the database is not."""
    conf = dj_database_url.parse(url)
    if "postgresql" not in conf["ENGINE"]:
        return f"{url} is not PostgreSQL"
    server = {
        "host": conf["HOST"] or "127.0.0.1",
        "port": conf["PORT"] or 5432,
        "user": conf["USER"],
        "password": conf["PASSWORD"] or None,
    }
    try:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            exists = admin.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [conf["NAME"]]
            ).fetchone()
            if not exists:
                admin.execute(f'CREATE DATABASE "{conf["NAME"]}"')
    except psycopg.Error as error:
        return f"no PostgreSQL at {url} ({error})"
    return None
