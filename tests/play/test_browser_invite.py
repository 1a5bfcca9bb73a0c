"""In a real browser at a phone's width: a player invites a friend by username from the new-table
form; the friend finds the invitation in the header, follows it and takes the seat; another
player with the share link is refused. Each page checked by axe."""

from typing import Any

import pytest

from play.models import Game
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

from .test_browser import _log_in, new_table_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def _clean(page: Any) -> None:
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def test_a_friend_invited_by_username_takes_the_seat_from_the_header(
    page: Any, browser: Any, live_server: Any, django_user_model: Any
) -> None:
    base = live_server.url
    for name in ("cal", "dan"):
        django_user_model.objects.create_user(name, password=f"pw-{name}-123456")
    new_table_page(page, base, django_user_model)
    # The username shows only for a seat given to an invited friend.
    username = page.locator("#id_opponent_username")
    assert username.is_hidden()
    page.select_option("#id_opponent", "invite")
    assert username.is_visible()
    _clean(page)
    # A name that is no one's: refused at the field, the form kept.
    username.fill("nobody")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_load_state()
    assert page.locator("#id_opponent_username_error").inner_text() == "No player is named nobody."
    assert page.locator("#id_opponent").input_value() == "invite"
    _clean(page)
    page.locator("#id_opponent_username").fill("cal")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    game = Game.objects.get()
    invite = page.locator("#invite-link").input_value()

    others = [
        browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        for _ in range(2)
    ]
    cal, dan = (context.new_page() for context in others)
    # Dan has the share link, but the seat is kept for Cal.
    _log_in(dan, base, "dan", invite.removeprefix(base))
    assert dan.locator(".nav-turns", has_text="Invited").count() == 0
    dan.select_option("#id_preconstructed", "2")
    dan.get_by_role("button", name="Take the seat").click()
    dan.wait_for_load_state()
    assert dan.locator(".message-error").inner_text() == (
        "The open seats of this table are kept for the players invited to them."
    )
    _clean(dan)
    # Cal finds the invitation in the header, on whatever page, and follows it.
    _log_in(cal, base, "cal", "/")
    invitation = cal.locator(".site-header a.nav-turns")
    assert invitation.inner_text() == "Invited by bea"
    _clean(cal)
    invitation.click()
    cal.wait_for_url(f"{base}/play/{game.uid}/invitation/")
    assert (
        cal.locator("main p").first.inner_text() == "Players: bea, cal (invited) · Preconstructed"
    )
    _clean(cal)
    cal.select_option("#id_preconstructed", "2")
    cal.get_by_role("button", name="Take the seat").click()
    cal.wait_for_url(f"{base}/play/{game.uid}/")
    assert cal.locator(".site-header", has_text="Invited by").count() == 0
    game.refresh_from_db()
    assert game.status == "playing"
    assert [seat.user.get_username() for seat in game.seats.all()] == ["bea", "cal"]
    for context in others:
        context.close()
