"""In a real browser: a Duel against the greedy computer player played to its end shows the
result screen (who won, how) at a phone's width and at 1366x768, axe-clean, with the header's
turn count gone; Rematch opens a new table where the other seat plays first. At a table of two
people, the other sees the rematch offered on their result screen and joins it with one click."""

from typing import Any

import pytest

from engine.adapters.decks import DeckChoice
from play.models import Game
from play.position_selectors import game_state
from play.selectors import game_get
from play.services import game_concede
from play.table_services import SeatRequest, game_create, game_join
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

from .test_browser import _log_in, _open_table, play_to_the_end

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def test_a_finished_duel_shows_the_result_and_its_rematch_swaps_the_first_player(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    base = live_server.url
    django_user_model.objects.create_user("bea", password="pw-bea-123456")
    page.set_viewport_size({"width": 390, "height": 844})
    _open_table(page, base, "2", "agent:greedy")
    assert page.locator(".nav-turns").inner_text() == "Your turn: 1 game"
    page.wait_for_function("window.htmx !== undefined")
    play_to_the_end(page)
    game = Game.objects.get()
    assert game.status == "finished"
    won = game.winners == [0]
    result = page.locator(".play-result")
    assert result.locator("h2").inner_text() == ("You won" if won else "You lost")
    loser = "Computer (Greedy) (B)"
    how = result.locator(".play-result-how").inner_text()
    assert how.startswith(
        f"The Stronghold of {loser} was destroyed" if won else "Your Stronghold was destroyed"
    )
    # The game ended: the header no longer counts it among the games waiting for my move.
    assert page.locator(".nav-turns").count() == 0
    assert page.locator(".play-card", has_text="can be played").count() == 0
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.set_viewport_size({"width": 1366, "height": 768})
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    # The result and its buttons are in the first screen.
    rematch = page.get_by_role("button", name="Rematch", exact=True)
    assert rematch.bounding_box()["y"] + rematch.bounding_box()["height"] <= 768
    assert page.get_by_role("button", name="Play again against the computer").count() == 1
    assert page.get_by_role("link", name="Watch the replay").count() == 1
    rematch.click()
    page.wait_for_url(lambda url: url != f"{base}/play/{game.uid}/" and "/play/" in url)
    new = Game.objects.get(rematch_of=game)
    assert page.url == f"{base}/play/{new.uid}/"
    first = game_state(game).first_player
    assert (new.status, new.first_player, game_state(new).first_player) == (
        "playing", 1 - first, 1 - first,
    )  # fmt: skip
    assert page.locator(".play-board").get_attribute("data-status") == "playing"
    assert axe_violations(page, ("serious", "critical")) == []


def test_the_other_player_sees_the_rematch_offered_and_joins_it_with_one_click(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    bea_user, cal_user = (
        django_user_model.objects.create_user(name, password=f"pw-{name}-123456")
        for name in ("bea", "cal")
    )
    game = game_create(
        creator=bea_user,
        format="preconstructed",
        seats=[
            SeatRequest(kind="me", deck=DeckChoice(preconstructed=1)),
            SeatRequest(kind="invite", username="cal"),
        ],
    )
    game_join(
        game=game, invite_code="", user=cal_user, guest_name="", deck=DeckChoice(preconstructed=2)
    )
    game = game_get(uid=game.uid)
    game_concede(game=game, seat=next(seat for seat in game.seats.all() if seat.index == 1))
    base = live_server.url
    contexts = [
        browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        for _ in range(2)
    ]
    bea, cal = (context.new_page() for context in contexts)
    table = f"/play/{game.uid}/"
    _log_in(bea, base, "bea", table)
    _log_in(cal, base, "cal", table)
    assert bea.locator(".play-result h2").inner_text() == "You won"
    assert cal.locator(".play-result h2").inner_text() == "You lost"
    assert cal.locator(".play-result-how").inner_text() == "You conceded."
    cal.evaluate("window.notReloaded = true")
    bea.get_by_role("button", name="Rematch", exact=True).click()
    bea.wait_for_url(lambda url: url != f"{base}{table}")
    assert bea.locator(".play-board").get_attribute("data-status") == "waiting"
    # Cal's result screen offers it (the finished board's poll), without a reload.
    offer = cal.locator(".play-rematch-offer")
    offer.wait_for()
    assert offer.inner_text() == "bea offers a rematch."
    assert cal.evaluate("window.notReloaded") is True
    assert axe_violations(cal, ("serious", "critical")) == []
    cal.get_by_role("button", name="Join the rematch").click()
    rematch = Game.objects.get(rematch_of=game)
    cal.wait_for_url(f"{base}/play/{rematch.uid}/")
    # Bea's waiting table follows: the game has started.
    bea.wait_for_function("document.querySelector('.play-board').dataset.status === 'playing'")
    first = game_state(game).first_player
    assert (rematch.first_player, game_state(rematch).first_player) == (1 - first, 1 - first)
