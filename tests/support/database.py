"""Rows that data migrations ship, put back after every flush.

A transactional test (threads, a live server, real worker processes) ends with a flush that
empties the tables, the rows of the data migrations too. `serialized_rollback` cannot be relied on
to bring them back: once Playwright's event loop runs in the test thread, Django hands out another
connection object, one without the serialized copy of the database. So the flush's post_migrate
signal re-runs the (idempotent) data migrations: a worker of `make test` (`--dist loadgroup`) runs
a module of committed tests, then maybe a module of plain ones, which need the formats, the cost
table and the difficulty levels as much (in one process pytest-django puts the transactional tests
last; run after tests/play/test_browser_spectate.py, tests/play/test_spectate.py had every table
refused: "unknown format").
"""

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import AppConfig
from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_migrate

DATA_DIR = Path(settings.BASE_DIR) / "data"

SHIPPED_BY_MIGRATIONS = [
    ("decks.migrations.0002_formats", "ship"),
    ("mutation.migrations.0002_default_cost_table", "add_defaults"),
    ("engine.migrations.0007_difficulty_data", "load"),
    ("engine.migrations.0015_current_edition_difficulty_table", "remove"),
    ("engine.migrations.0017_ordered_difficulty_levels", "reorder"),
]


def _ship() -> None:
    from django.apps import apps

    for module, function in SHIPPED_BY_MIGRATIONS:
        getattr(importlib.import_module(module), function)(apps, None)


def _shipped_again(sender: AppConfig, plan: object = None, **_kwargs: object) -> None:
    """After a flush (`migrate` passes its plan: its data migrations ran), once per flush."""
    if plan is None and sender.label == "play":
        _ship()


post_migrate.connect(_shipped_again, dispatch_uid="tests.support.database")


@pytest.fixture
def shipped_rows(transactional_db: None) -> None:
    """Committed data with the shipped rows (put back by the last test's flush, if any)."""


@pytest.fixture(scope="module")
def catalogue(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """The real catalogue (data/), loaded once per module inside a transaction rolled back at
    its end. Each test's own transaction nests inside (a savepoint), so tests stay isolated while
    the import runs once per module. Modules of tests on committed data use
    `committed_catalogue` instead.
    """
    from cards.services import catalogue_load

    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        outer = transaction.atomic()
        outer.__enter__()
        try:
            catalogue_load(data_dir=DATA_DIR)
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def cards_db(catalogue: None, db: None) -> None:
    """A test with the catalogue in the database."""


@pytest.fixture
def committed_catalogue(shipped_rows: None) -> None:
    """For tests on committed data (threads, a live server, worker processes): loaded anew."""
    from cards.services import catalogue_load

    catalogue_load(data_dir=DATA_DIR)
