"""An action on a game read before the lock: the game and seats already read serve while
nothing was written since, and another request's write in between is seen."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cod_site.errors import DomainError
from engine.adapters.decks import DeckChoice
from play.models import Game, GameAction, Seat, Status
from play.position_selectors import game_state
from play.selectors import game_get, seat_required
from play.services import game_act, game_concede
from play.table_services import SeatRequest, game_join

from .conftest import seeded_table

pytestmark = pytest.mark.django_db


def _read(uid: str, owner: Any) -> tuple[Game, Seat]:
    """The game and the owner's seat as a request reads them before acting."""
    game = game_get(uid=uid)
    return game, seat_required(game=game, user=owner)


def test_a_game_is_read_with_its_seats_in_two_queries_without_ordering_the_games(
    cards_db: None, owner: Any
) -> None:
    uid = seeded_table(owner).uid
    with CaptureQueriesContext(connection) as queries:
        game = game_get(uid=uid)
    assert [seat.index for seat in game.seats.all()] == [0, 1]
    assert [seat.user_id for seat in game.seats.all()] == [owner.pk, None]
    assert len(queries.captured_queries) == 2
    games, seats = (query["sql"] for query in queries.captured_queries)
    # A uid is unique: no order; the seats by index, without the games' table joined.
    assert "ORDER BY" not in games
    assert '"play_game"' not in seats
    assert seats.endswith('ORDER BY "play_seat"."index" ASC')


def test_an_action_on_a_current_game_reads_nothing_again(
    cards_db: None, owner: Any, django_assert_num_queries: Any
) -> None:
    uid = seeded_table(owner).uid
    game, seat = _read(uid, owner)
    assert (game.status, game.action_count) == (Status.PLAYING, 4)
    # The position in this process's memory, as the request that played the last action left
    # it once committed (the test's transaction never commits).
    game_state(game)
    # The savepoint of the test's transaction and its release, the lock, the client id's
    # check, the action and the game: not the seats nor their accounts again.
    with django_assert_num_queries(6):
        game = game_act(game=game, seat=seat, client_id="a1", kind="assault", card=-1, arg=-1)
    assert game.action_count == 5
    stored = GameAction.objects.get(game=game, index=4)
    assert (stored.seat, stored.client_id, stored.kind) == (0, "a1", 0)


def test_an_action_after_another_requests_action_plays_after_it(cards_db: None, owner: Any) -> None:
    # Against an invited guest: no computer answers, the turn stays with the seat that plays.
    game = seeded_table(owner, SeatRequest(kind="invite"))
    game_join(
        game=game,
        invite_code=game.invite_code,
        user=AnonymousUser(),
        guest_name="Gus",
        deck=DeckChoice(preconstructed=2),
    )
    stale = game_get(uid=game.uid)
    active = game_state(stale).active
    stale_seat = next(seat for seat in stale.seats.all() if seat.index == active)
    game = game_get(uid=game.uid)
    seat = next(seat for seat in game.seats.all() if seat.index == active)
    game_act(game=game, seat=seat, client_id="first", kind="assault", card=-1, arg=-1)
    # Read before that action: its action count is out of date, the lock reads the game anew.
    assert stale.action_count == 0
    after = game_act(
        game=stale, seat=stale_seat, client_id="second", kind="end_turn", card=-1, arg=-1
    )
    assert after.action_count == 2
    rows = GameAction.objects.filter(game=game).order_by("index")
    assert list(rows.values_list("index", "seat", "client_id")) == [
        (0, active, "first"),
        (1, active, "second"),
    ]


def test_the_same_client_id_on_a_game_read_before_it_played_plays_once(
    cards_db: None, owner: Any
) -> None:
    uid = seeded_table(owner).uid
    stale, stale_seat = _read(uid, owner)
    game, seat = _read(uid, owner)
    game_act(game=game, seat=seat, client_id="once", kind="assault", card=-1, arg=-1)
    again = game_act(game=stale, seat=stale_seat, client_id="once", kind="assault", card=-1, arg=-1)
    assert again.action_count == 5
    assert GameAction.objects.filter(game__uid=uid, client_id="once").count() == 1


def test_an_action_on_a_game_read_before_a_concede_is_refused(cards_db: None, owner: Any) -> None:
    uid = seeded_table(owner).uid
    stale, stale_seat = _read(uid, owner)
    game, seat = _read(uid, owner)
    game_concede(game=game, seat=seat)
    with pytest.raises(DomainError) as refused:
        game_act(game=stale, seat=stale_seat, client_id="late", kind="assault", card=-1, arg=-1)
    assert (refused.value.code, refused.value.status_code) == ("game_over", 409)
    assert GameAction.objects.filter(game__uid=uid).count() == 4
