"""In a real browser: open a Solo table from the form and play it against the Solo AI to the end
with the keyboard, at a phone's width, the table checked by axe; a Team Play table's four
Kingdoms fit a phone too."""

from typing import Any

import pytest

from play.models import Game
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

from .test_browser import new_table_page, play_to_the_end

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def test_a_browser_plays_a_solo_game_against_the_ai_to_the_end(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    base = live_server.url
    new_table_page(page, base, django_user_model)
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    # The form shows the fields of the chosen mode only.
    assert page.locator("#id_ai_level").is_hidden()
    page.select_option("#id_mode", "solo")
    assert page.locator("#id_opponent").is_hidden() and page.locator("#id_seat_c").is_hidden()
    page.select_option("#id_preconstructed", "3")
    page.select_option("#id_ai_level", "4")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    assert page.title() == "Your turn · Solo · cod_site"
    assert page.locator("h1").inner_text() == "Solo · AI level 4"
    ai = page.locator(".board-seat[data-seat='B']")
    assert ai.locator(".play-pile").inner_text() == "Deck pile: 24 cards over its Stronghold"
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.wait_for_function("window.htmx !== undefined")
    play_to_the_end(page)
    status = page.locator(".play-status").inner_text()
    game = Game.objects.get()
    assert (game.status, game.mode, game.ai_level) == ("finished", "solo", 4)
    assert len(game.winners) == 1
    assert status.startswith(f"Game over: {'AB'[game.winners[0]]} wins.")
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    assert game.replay is not None
    assert game.replay["options"]["mode"] == "solo"
    assert len(game.replay["actions"]) == game.action_count


def test_a_team_play_table_fits_a_phone(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    base = live_server.url
    new_table_page(page, base, django_user_model)
    page.select_option("#id_mode", "teams")
    assert page.locator("#id_seat_d").is_visible() and page.locator("#id_ai_level").is_hidden()
    page.select_option("#id_opponent", "agent:random")
    page.select_option("#id_seat_c", "agent:greedy")
    page.select_option("#id_seat_d", "agent:random")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    assert page.title() == "Your turn · Team Play · cod_site"
    assert page.locator(".board-seat[data-seat='C'] h2").inner_text() == (
        "Partner: Computer (Greedy) (C)"
    )
    assert page.locator(".play-seats li").count() == 4
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
