"""The data migration that moved each batch's two decks from its deck_a/deck_b columns into seat
rows (engine 0004), forwards and backwards, through the real migrations."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.usefixtures("shipped_rows")

BEFORE = [("engine", "0002_batch_active_at")]
AFTER = [("engine", "0005_remove_batch_deck_columns")]
CARDS = [{"name": "Ogre", "type": "creature", "cost": 4, "attack": 4, "hp": 4}]
CHAMPION = {"name": "Åsa", "type": "champion", "cost": 5, "attack": 4, "hp": 4}


@pytest.fixture
def executor() -> Iterator[MigrationExecutor]:
    """Migrations to run by hand; the schema is back to the latest one afterwards."""
    runner = MigrationExecutor(connection)
    try:
        yield runner
    finally:
        runner.loader.build_graph()
        runner.migrate(runner.loader.graph.leaf_nodes())


def _apps(executor: MigrationExecutor, targets: list[tuple[str, str]]) -> Any:
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _old_batch(apps: Any, owner: Any, deck: Any, **changes: Any) -> Any:
    values = {
        "requested_by": owner,
        "deck_a_source": "deck",
        "deck_a": deck,
        "deck_a_code": "CODEA",
        "deck_a_name": "Olga's deck",
        "deck_b_source": "preconstructed",
        "deck_b": None,
        "deck_b_code": "CODEB",
        "deck_b_name": "Preconstructed deck 2",
        "decks": [
            {"cards": CARDS, "slugs": ["ogre"], "champion": CHAMPION, "preconstructed": None},
            {"cards": CARDS[::-1], "slugs": ["ogre"], "champion": None, "preconstructed": 2},
        ],
        "agent_a": "lookahead",
        "agent_b": "random",
        "games": 10,
        "chunk_size": 10,
        "seed": 3,
        "rules_version": "cod-2022.1",
        **changes,
    }
    return apps.get_model("engine", "SimulationBatch").objects.create(**values)


def test_each_batch_s_two_decks_become_two_seats_and_back(executor: MigrationExecutor) -> None:
    old = _apps(executor, BEFORE)
    owner = old.get_model("auth", "User").objects.create(username="olga")
    deck = old.get_model("decks", "Deck").objects.create(
        share_id="d1", owner=owner, name="Olga's deck",
        format=old.get_model("decks", "Format").objects.get(slug="constructed"),
    )  # fmt: skip
    first = _old_batch(old, owner, deck)
    # A batch from before the preconstructed number was kept in its decks document.
    legacy = _old_batch(
        old, owner, None, deck_a_source="code", deck_a_name="Deck code AQAB…",
        decks=[{"cards": CARDS, "slugs": ["ogre"], "champion": None},
               {"cards": CARDS, "slugs": ["ogre"], "champion": None}],
    )  # fmt: skip

    new = _apps(executor, AFTER)
    seats = new.get_model("engine", "SimulationSeat").objects.order_by("batch_id", "index")
    assert [
        (s.batch_id, s.index, s.source, s.deck_id, s.code, s.name, s.preconstructed, s.agent,
         s.cards, s.slugs, s.champion)
        for s in seats
    ] == [
        (first.pk, 0, "deck", deck.pk, "CODEA", "Olga's deck", None, "lookahead", CARDS,
         ["ogre"], CHAMPION),
        (first.pk, 1, "preconstructed", None, "CODEB", "Preconstructed deck 2", 2, "random",
         CARDS[::-1], ["ogre"], None),
        (legacy.pk, 0, "code", None, "CODEA", "Deck code AQAB…", None, "lookahead", CARDS,
         ["ogre"], None),
        (legacy.pk, 1, "preconstructed", None, "CODEB", "Preconstructed deck 2", None, "random",
         CARDS, ["ogre"], None),
    ]  # fmt: skip
    batch = new.get_model("engine", "SimulationBatch").objects.get(pk=first.pk)
    assert not hasattr(batch, "deck_a_name") and not hasattr(batch, "decks")
    assert batch.engine_digest == ""  # unknown: no replay of its games (see engine.selectors)

    back = _apps(executor, BEFORE)
    batch = back.get_model("engine", "SimulationBatch").objects.get(pk=first.pk)
    assert (batch.deck_a_id, batch.deck_a_name, batch.agent_a) == (
        deck.pk,
        "Olga's deck",
        "lookahead",
    )
    assert (batch.deck_b_source, batch.deck_b_code, batch.agent_b) == (
        "preconstructed",
        "CODEB",
        "random",
    )
    assert batch.decks == [
        {"cards": CARDS, "slugs": ["ogre"], "champion": CHAMPION, "preconstructed": None},
        {"cards": CARDS[::-1], "slugs": ["ogre"], "champion": None, "preconstructed": 2},
    ]
