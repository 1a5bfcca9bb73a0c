"""Two sessions saving the same deck at the same time: every save becomes a version, none lost.

Needs PostgreSQL: the row lock (`select_for_update`) is what serialises the saves; SQLite has no
row locks and one writer at a time, so the race cannot even be staged there.
"""

import threading

import pytest
from django.conf import settings
from django.db import connections
from rest_framework.test import APIClient

from decks import services
from decks.models import Deck, DeckVersion
from decks.selectors.formats import format_get
from decks.selectors.lookup import cards_require
from tests.decks.conftest import CONSTRUCTED, PRECON

ON_POSTGRESQL = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
pytestmark = [
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
    pytest.mark.skipif(
        not ON_POSTGRESQL,
        reason="concurrent saves need PostgreSQL row locks: run with DATABASE_URL=postgres://…",
    ),
]

SAVES_PER_SESSION = 10


def test_concurrent_saves_from_two_sessions_keep_every_version(
    owner: object, django_user_model: object
) -> None:
    deck = services.deck_create(
        owner=owner,  # type: ignore[arg-type]
        name="Contested",
        format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"),
    )
    sessions = {"a": APIClient(), "b": APIClient()}
    for client in sessions.values():
        client.force_login(owner)  # type: ignore[arg-type]
    decks = {"a": PRECON[1], "b": PRECON[2]}
    start = threading.Barrier(len(sessions))
    failures: list[str] = []

    def save_many(session: str) -> None:
        try:
            start.wait()
            for n in range(SAVES_PER_SESSION):
                response = sessions[session].patch(
                    f"/api/v1/decks/{deck.share_id}/",
                    {"name": f"{session}-{n}", "cards": decks[session]},
                    format="json",
                )
                if response.status_code != 200:
                    failures.append(f"{session}-{n}: {response.status_code} {response.content!r}")
        except BaseException as error:  # noqa: BLE001 - the test client re-raises server errors
            failures.append(f"{session}: {error!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save_many, args=(name,)) for name in sessions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []

    total = 1 + len(sessions) * SAVES_PER_SESSION
    deck = Deck.objects.get(pk=deck.pk)
    versions = list(DeckVersion.objects.filter(deck=deck).order_by("number"))
    assert deck.version == total
    assert [version.number for version in versions] == list(range(1, total + 1))
    names = [version.name for version in versions[1:]]
    assert sorted(names) == sorted(f"{s}-{n}" for s in sessions for n in range(SAVES_PER_SESSION))
    # Each session's saves are in its own order, and each version holds that session's cards.
    for session, cards in decks.items():
        own = [v for v in versions[1:] if v.name.startswith(f"{session}-")]
        assert [v.name for v in own] == [f"{session}-{n}" for n in range(SAVES_PER_SESSION)]
        assert all(v.cards == cards for v in own)
    # The deck is the last version, cards included.
    assert deck.name == versions[-1].name
    assert [row.card.slug for row in deck.deck_cards.order_by("position")] == versions[-1].cards


def test_concurrent_service_calls_number_versions_without_gaps(owner: object) -> None:
    deck = services.deck_create(
        owner=owner,  # type: ignore[arg-type]
        name="Busy",
        format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"),
    )
    workers = 6
    start = threading.Barrier(workers)
    errors: list[BaseException] = []

    def save(index: int) -> None:
        try:
            start.wait()
            services.deck_update(deck=deck, actor=owner, name=f"w{index}")  # type: ignore[arg-type]
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    numbers = list(DeckVersion.objects.filter(deck=deck).values_list("number", flat=True))
    assert sorted(numbers) == list(range(1, workers + 2))
