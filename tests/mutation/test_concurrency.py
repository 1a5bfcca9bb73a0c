"""Two requests racing for the same budget or the same Laboratory element: exactly one wins.

Real threads, each with its own PostgreSQL connection; SQLite serialises every write anyway
and has no row locks, so these tests only run against PostgreSQL.
"""

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from cod_site.errors import DomainError
from mutation import services
from mutation.access import Actor
from mutation.models import CoveredBox, Mutation
from tests.mutation.conftest import card_id

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def catalogue(committed_catalogue: None) -> None:
    """These tests run on committed data: the module-wide rolled-back catalogue would not do."""


@pytest.fixture(autouse=True)
def _postgresql_only(shipped_rows: None) -> None:
    if connection.vendor != "postgresql":
        reason = "row locks need PostgreSQL: run with DATABASE_URL=postgres://…"
        print(f"skipped: {reason}")
        pytest.skip(reason)


def race(*attempts: Callable[[], object]) -> list[object]:
    """Run the attempts at the same instant in threads; return each one's result or error."""
    barrier = threading.Barrier(len(attempts))
    outcomes: list[object] = [None] * len(attempts)

    def run(index: int) -> None:
        from django.db import connection as thread_connection

        try:
            thread_connection.ensure_connection()  # connect first, so both start level
            barrier.wait()
            outcomes[index] = attempts[index]()
        except DomainError as error:
            outcomes[index] = error
        finally:
            thread_connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.fixture
def playing_session(ready_session):
    """Games under way (the first result recorded): no status change left to serialise on."""
    services.game_result_record(
        session=ready_session,
        actor=Actor(user=ready_session.organiser),
        round_number=1,
        table=1,
        winner_seat=1,
    )
    ready_session.refresh_from_db()
    assert ready_session.status == "playing"
    return ready_session


def attempt(session, target: str, source: str, element: str, covers=()) -> Callable[[], object]:
    def apply() -> object:
        return services.mutation_apply(
            session=session,
            actor=Actor(user=session.organiser),
            seat_number=1,
            target_card_id=card_id(target),
            source_card_id=card_id(source),
            element=element,
            covers=covers,
        )

    return apply


@pytest.mark.parametrize("repeat", range(3))
def test_two_mutations_spending_the_same_budget(playing_session, repeat: int) -> None:
    # 1.5 and 2 points: each fits in the 2.5 of the phase, both together do not.
    outcomes = race(
        attempt(playing_session, "mad-scientist", "titan", "hp"),  # 5 → 8: 1.5
        attempt(playing_session, "crocosaurus", "titan", "attack"),  # 4 → 8: 2.0
    )
    winners = [o for o in outcomes if isinstance(o, Mutation)]
    losers = [o for o in outcomes if isinstance(o, DomainError)]
    assert (len(winners), len(losers)) == (1, 1)
    assert losers[0].code == "over_budget"
    assert Mutation.objects.count() == 1


@pytest.mark.parametrize("repeat", range(3))
def test_two_mutations_cutting_the_same_element(playing_session, repeat: int) -> None:
    outcomes = race(
        attempt(playing_session, "mad-scientist", "swarmer", "ability:1", covers=[1]),
        attempt(playing_session, "reaper", "swarmer", "ability:1", covers=[1]),
    )
    winners = [o for o in outcomes if isinstance(o, Mutation)]
    losers = [o for o in outcomes if isinstance(o, DomainError)]
    assert (len(winners), len(losers)) == (1, 1)
    assert losers[0].code == "element_used"
    assert Mutation.objects.count() == 1
    assert CoveredBox.objects.count() == 1


def test_two_picks_of_the_same_seat(catalogue, organiser) -> None:
    from mutation import selectors
    from mutation.models import DraftCard
    from tests.mutation.conftest import new_session

    session = new_session(organiser)
    hand = selectors.draft_seat_view(session, session.seats.get(number=1)).hand

    def pick(card: int) -> Callable[[], object]:
        return lambda: services.draft_pick(
            session=session, actor=Actor(user=organiser), seat_number=1, card_id=card
        )

    outcomes = race(pick(hand[0].card_id), pick(hand[1].card_id))
    picks = DraftCard.objects.filter(session=session, picked_by__number=1).order_by("pick_number")
    # Both picks are legal one after the other only if seat 4 has passed its hand: it has not,
    # so the second one waits for it.
    assert [row.pick_number for row in picks] == [0]
    errors = [o for o in outcomes if isinstance(o, DomainError)]
    assert [error.code for error in errors] == ["hand_not_arrived"]
