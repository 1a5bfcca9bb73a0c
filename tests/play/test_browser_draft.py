"""In a real browser, at a phone's width and by keyboard: a Solo Draft table opened from the
form, its 8 picks made with the pack form, then the drafted game, the page checked by axe."""

from typing import Any

import pytest

from play.models import Game
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

from .test_browser import new_table_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def test_a_browser_drafts_a_solo_deck_then_plays_it(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    base = live_server.url
    new_table_page(page, base, django_user_model)
    page.select_option("#id_mode", "solo")
    page.select_option("#id_format", "draft")
    # The form shows the pool, not the deck fields.
    assert page.locator("#id_preconstructed").is_hidden()
    # Ticked from the list of expansions, not typed (issue 29).
    page.check("input[name=pool][value=initiation]")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    assert page.title() == "Your turn · Solo · cod_site"
    assert page.locator(".play-draft .play-status").inner_text() == (
        "Your pick: choose 1 card. The cards you leave go to the AI."
    )
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.wait_for_function("window.htmx !== undefined")
    for pick in range(8):
        assert page.locator(".play-pack input[type=radio]").count() == 4
        # Keyboard: the first card's radio button, Space, then Enter on "Pick".
        page.locator(".play-pack input").first.focus()
        page.keyboard.press("Space")
        page.get_by_role("button", name="Pick", exact=True).focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "count => document.querySelector('.play-board').dataset.pickCount === count",
            arg=str(pick + 1),
        )
    page.wait_for_selector(".board-seat[data-seat='A']")
    game = Game.objects.get()
    assert (game.status, game.pick_count) == ("playing", 8)
    assert page.locator(".board-seat[data-seat='B'] .play-pile").inner_text() == (
        "Deck pile: 24 cards over its Stronghold"
    )
    assert page.locator(".board-seat[data-seat='A'] .board-hand .play-card").count() == 8
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def test_a_picks_late_answer_keeps_the_card_chosen_on_the_board_the_stream_brought(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    """The stream's board can come before the answer to the pick that caused it; that answer,
    no newer, was swapped in again and threw away the card chosen meanwhile: the next "Pick"
    sent nothing (a CI run met it)."""
    base = live_server.url
    new_table_page(page, base, django_user_model)
    page.select_option("#id_mode", "solo")
    page.select_option("#id_format", "draft")
    page.check("input[name=pool][value=initiation]")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    page.wait_for_function("window.playStreaming === true")
    held: list[tuple[Any, Any]] = []
    page.route("**/act/", lambda route: held.append((route, route.fetch())))
    page.locator(".play-pack input").first.check()
    page.get_by_role("button", name="Pick", exact=True).click()
    page.wait_for_function("document.querySelector('.play-board').dataset.pickCount === '1'")
    page.locator(".play-pack input").nth(1).check()
    [(route, answer)] = held
    # (Its form left the page with the board it was on: htmx announces the answer on the target.)
    page.evaluate(
        "() => document.addEventListener('htmx:beforeSwap', () => { window.answered = true; })"
    )
    route.fulfill(response=answer)
    page.wait_for_function("window.answered === true")
    page.wait_for_timeout(200)
    assert page.locator(".play-pack input").nth(1).is_checked()
    page.unroute("**/act/")
    page.get_by_role("button", name="Pick", exact=True).click()
    page.wait_for_function("document.querySelector('.play-board').dataset.pickCount === '2'")


def test_the_new_table_form_offers_co_op_only_what_can_start(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    """Issue 29: Co-op with the form's defaults (Preconstructed) failed after submitting. The
    form switches to the Co-op Draft, says why, and the table it opens starts drafting."""
    base = live_server.url
    new_table_page(page, base, django_user_model)
    page.select_option("#id_mode", "coop")
    assert page.locator("#id_format").input_value() == "draft"
    assert page.locator("#id_format option[value=preconstructed]").is_disabled()
    assert page.get_by_text("The preconstructed decks leave too few").is_visible()
    assert page.locator("#id_preconstructed").is_hidden()
    page.check("input[name=pool][value=treachery]")
    page.check("input[name=pool][value=submersion]")
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")
    game = Game.objects.get()
    assert (game.mode, game.status, game.draft_expansion) == (
        "coop",
        "drafting",
        "treachery,submersion",
    )
    assert page.locator("#play-draft-title").inner_text() == "Draft from Treachery, Submersion"
    # Another mode gives the Preconstructed format back.
    page.goto(f"{base}/play/new/")
    page.select_option("#id_mode", "coop")
    page.select_option("#id_mode", "duel")
    assert not page.locator("#id_format option[value=preconstructed]").is_disabled()
