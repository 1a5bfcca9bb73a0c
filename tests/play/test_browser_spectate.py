"""In a real browser, without an account: the spectate link's page at a phone's width, checked
by axe, follows a player's action without a reload, as the players' pages do."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from engine.adapters.decks import DeckChoice
from play.services import game_act
from play.table_services import SeatRequest, game_join
from tests.foundation.test_browser_pages import overflow
from tests.play.conftest import seeded_table
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def test_a_spectator_page_follows_the_game_live(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea, SeatRequest(kind="invite"))
    game_join(
        game=game,
        invite_code=game.invite_code,
        user=AnonymousUser(),
        guest_name="Gus",
        deck=DeckChoice(preconstructed=2),
    )
    game.refresh_from_db()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/play/{game.uid}/watch/{game.spectate_code}/")
    assert (
        page.locator(".play-status")
        .inner_text()
        .startswith("You are watching: every hand is hidden.")
    )
    assert page.locator(".play-card").count() == 0
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("window.playStreaming === true")
    count = game.action_count
    active = game.seats.get(index=game.active_seat)
    game_act(game=game, seat=active, client_id="s1", kind="end_turn", card=-1, arg=-1)
    page.wait_for_function(
        "count => Number(document.querySelector('.play-board').dataset.actionCount) > count",
        arg=count,
    )
    assert page.evaluate("window.notReloaded") is True
