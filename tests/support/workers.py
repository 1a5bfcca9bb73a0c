"""The suite in several processes (`make test`: pytest-xdist, `-p tests.support.workers`).

Each worker process takes a Redis database of its own, set in its environment before Django
reads its settings, so that the Celery workers and servers its tests start inherit it: the
processes share one Redis, and without this one's Celery worker would take the other's tasks
(whose rows are in another test database), and their caches and broadcast channels would mix.
A test module stays in one process (its module-scoped catalogue is loaded once), and the tests
that start `make run` or `make serve` share one (both migrate the checkout's SQLite database and
collect its static files).
"""

import os

import pytest

# Worker gwN takes Redis database FIRST_DATABASE + N.
FIRST_DATABASE = 10
# Tests of these modules run in one process, one after another.
TOGETHER = {
    "tests/foundation/test_make_run.py": "make",
    "tests/foundation/test_make_serve.py": "make",
}


def redis_database(url: str, number: int) -> str:
    """`url` with its database number replaced (or added)."""
    scheme, _sep, rest = url.partition("://")
    address, _slash, _database = rest.partition("/")
    return f"{scheme}://{address}/{number}"


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0": set by xdist before the config
if _worker.startswith("gw") and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_database(
        os.environ["REDIS_URL"], FIRST_DATABASE + int(_worker[2:])
    )


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            module = item.nodeid.split("::", 1)[0]
            item.add_marker(pytest.mark.xdist_group(TOGETHER.get(module, module)))
