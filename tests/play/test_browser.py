"""In a real browser: open a table against the greedy computer player and play the Duel to the
end with the keyboard (the table page checked by axe at a phone's width on the way)."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from engine.adapters.decks import DeckChoice
from play.models import Game
from play.services import SeatRequest, game_act, game_create, game_join
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def _press(page: Any, button: Any) -> None:
    """Press `button` with the keyboard and wait for the board that its action brought."""
    # Not while a board is on its way: its swap would take the focus from the button.
    page.wait_for_function("document.querySelector('.htmx-request') === null")
    before = page.locator(".play-board").get_attribute("data-action-count")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "count => document.querySelector('.play-board').dataset.actionCount !== count", arg=before
    )


def new_table_page(page: Any, base: str, django_user_model: Any) -> None:
    """Sign in as a new user, bea, on a phone-sized page: the new-table form opens."""
    django_user_model.objects.create_user("bea", password="pw-bea-123456")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/accounts/login/?next=/play/new/")
    page.fill("#id_username", "bea")
    page.fill("#id_password", "pw-bea-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/play/new/")


def play_to_the_end(page: Any) -> None:
    """Each turn, play the first highlighted card if there is one (its first placement), then
    end the turn, all by keyboard, until the game is over."""
    for _turn in range(60):
        if page.locator(".play-status", has_text="Game over").count():
            return
        playable = page.locator(".play-playable button")
        if playable.count():
            _press(page, playable.first)
        end = page.get_by_role("button", name="End turn")
        if end.count():
            _press(page, end)


def test_a_browser_plays_a_duel_against_greedy_to_the_end(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    base = live_server.url
    new_table_page(page, base, django_user_model)
    page.select_option("#id_preconstructed", "2")
    page.select_option("#id_opponent", "agent:greedy")
    page.check("#id_exhaustion")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    assert page.title() == "Your turn · Duel · cod_site"
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("window.htmx !== undefined")
    play_to_the_end(page)
    status = page.locator(".play-status")
    assert "Game over" in status.inner_text()
    assert page.evaluate("window.notReloaded") is True
    game = Game.objects.get()
    assert game.status == "finished"
    assert game.replay is not None
    assert len(game.replay["actions"]) == game.action_count


def test_the_table_follows_the_other_players_action_without_a_reload(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = game_create(
        creator=bea,
        format="preconstructed",
        seats=[
            SeatRequest(kind="me", deck=DeckChoice(preconstructed=1)),
            SeatRequest(kind="invite"),
        ],
        seed=8,
    )
    guest, _token = game_join(
        game=game,
        invite_code=game.invite_code,
        user=AnonymousUser(),
        guest_name="Gus",
        deck=DeckChoice(preconstructed=2),
    )
    game.refresh_from_db()
    if game.active_seat == 0:  # the guest must have the turn: Bea ends hers first
        game_act(
            game=game,
            seat=game.seats.get(index=0),
            client_id="b0",
            kind="end_turn",
            card=-1,
            arg=-1,
        )
        game.refresh_from_db()
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/play/{game.uid}/")
    page.fill("#id_username", "bea")
    page.fill("#id_password", "pw-bea-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/play/{game.uid}/")
    assert page.title() == "Duel · cod_site"
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("window.playStreaming === true")
    game_act(game=game, seat=guest, client_id="g1", kind="end_turn", card=-1, arg=-1)
    # The stream tells the page, which reloads the board: Bea's turn, in the title too.
    page.wait_for_function("document.title === 'Your turn · Duel · cod_site'", timeout=5000)
    assert page.locator(".play-status").inner_text().startswith("Your turn")
    assert page.evaluate("window.notReloaded") is True
