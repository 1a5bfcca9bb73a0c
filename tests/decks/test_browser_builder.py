"""The deckbuilder in a real browser: build a legal Constructed deck from scratch, watch an error
come and go, save it (logging in on the way) and open it from its code in a fresh context."""

import re

import pytest

from decks.selectors.checks import deck_check
from tests.decks.conftest import CONSTRUCTED, PRECON
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


NAMES = {
    "grrr": "Grrr",
    "baron": "Baron",
    "emerald-dragon": "Emerald dragon",
    "troll": "Troll",
    "boom": "Boom!",
    "abyssal-grrr": "Abyssal grrr",
    "dryad": "Dryad",
    "dislocation": "Dislocation",
}


def _add(page: object, slug: str) -> None:
    """Search the card by name, click it, wait for the deck to hold one more card."""
    before = len(_entries(page))
    page.fill("#card-query", NAMES[slug])  # type: ignore[attr-defined]
    page.locator(f".search-result[data-card='{slug}'] button.add-card").click()  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        f"document.querySelectorAll('#deck-panel .deck-entry').length === {before + 1}"
    )


def _entries(page: object) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined]
        "#deck-panel .deck-entry", "items => items.map(item => item.dataset.card)"
    )


def test_build_save_and_reopen_a_constructed_deck(
    page: object, live_server: object, browser: object, django_user_model: object
) -> None:
    django_user_model.objects.create_user("bea", password="pw-bea-123456")  # type: ignore[attr-defined]
    base = live_server.url  # type: ignore[attr-defined]
    page.goto(f"{base}/decks/new/")  # type: ignore[attr-defined]
    status = page.locator("#deck-status")  # type: ignore[attr-defined]

    for slug in CONSTRUCTED[:7]:
        _add(page, slug)
    assert _entries(page) == CONSTRUCTED[:7]
    size_error = page.locator(".deck-error[data-code='deck_size']")  # type: ignore[attr-defined]
    assert size_error.inner_text() == "A Constructed deck holds exactly 8 cards; this one holds 7."

    # Grrr again: the results mark it as in the deck and offer no button to add a second copy;
    # its attack, HP and abilities show in the result.
    page.fill("#card-query", "grrr")  # type: ignore[attr-defined]
    grrr = page.locator(".search-result[data-card='grrr']")  # type: ignore[attr-defined]
    grrr.locator(".in-deck-mark").wait_for()
    assert (grrr.locator("button").count(), grrr.locator(".in-deck-mark").inner_text()) == (
        0,
        "in the deck",
    )
    assert grrr.locator(".entry-type").inner_text() == "Creature · Initiation Pack · ⚔ 1 · ♥ 3"
    assert _entries(page) == CONSTRUCTED[:7]

    _add(page, CONSTRUCTED[7])
    page.wait_for_selector("#deck-status[data-legal='true']")  # type: ignore[attr-defined]
    assert status.inner_text().startswith("Legal Constructed deck")
    assert page.locator(".deck-error").count() == 0  # type: ignore[attr-defined]
    assert page.locator("#chart-curve svg rect").count() == 7  # type: ignore[attr-defined]
    label = page.locator("#chart-curve text.bar-label").first  # type: ignore[attr-defined]
    assert label.evaluate("text => text.getBoundingClientRect().height") >= 12
    assert page.locator(".hand-card.is-playable").count() == 4  # type: ignore[attr-defined]
    code = page.input_value("#deck-code")  # type: ignore[attr-defined]
    assert page.input_value("#share-link") == f"{base}/d/{code}"  # type: ignore[attr-defined]

    # Saving needs an account: log in, come back to the same deck, name it, save.
    page.click("#save-deck")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r".*/accounts/login/.*"))  # type: ignore[attr-defined]
    page.fill("#id_username", "bea")  # type: ignore[attr-defined]
    page.fill("#id_password", "pw-bea-123456")  # type: ignore[attr-defined]
    page.click("main button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/decks/new/?code={code}")  # type: ignore[attr-defined]
    assert sorted(_entries(page)) == sorted(CONSTRUCTED)
    page.fill("#deck-name", "Grrr and friends")  # type: ignore[attr-defined]
    page.select_option("#deck-visibility", "unlisted")  # type: ignore[attr-defined]
    page.click("#save-deck")  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(rf"{re.escape(base)}/decks/[A-Za-z0-9_-]{{11}}/$"))  # type: ignore[attr-defined]
    assert page.locator("h1").inner_text() == "Grrr and friends"  # type: ignore[attr-defined]
    assert page.input_value("#deck-code") == code  # type: ignore[attr-defined]

    # A stranger, in a fresh browser context with no cookies, opens the code.
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    try:
        stranger = context.new_page()
        stranger.goto(f"{base}/d/{code}")
        assert stranger.locator("h1").inner_text() == "A Constructed deck"
        assert sorted(
            stranger.eval_on_selector_all(".deck-entry", "items => items.map(i => i.dataset.card)")
        ) == sorted(CONSTRUCTED)
        assert stranger.locator("#deck-status[data-legal='true']").count() == 1
        # Works on a phone: nothing wider than the screen.
        assert stranger.evaluate("document.documentElement.scrollWidth") <= 390
        stranger.click("text=Open in the deckbuilder")
        stranger.wait_for_url(f"{base}/decks/new/?code={code}")
        assert stranger.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_copy_buttons_put_the_code_and_link_on_the_clipboard(
    browser: object, live_server: object
) -> None:
    base = live_server.url  # type: ignore[attr-defined]
    context = browser.new_context(bypass_csp=True)  # type: ignore[attr-defined]  # see `page`
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    try:
        page = context.new_page()
        page.goto(f"{base}/decks/new/")
        _add(page, "grrr")
        code = page.input_value("#deck-code")
        page.click("button[data-copy='#deck-code']")
        page.wait_for_selector("button[data-copy='#deck-code'][data-state='copied']")
        assert page.evaluate("navigator.clipboard.readText()") == code
        page.click("button[data-copy='#share-link']")
        page.wait_for_selector("button[data-copy='#share-link'][data-state='copied']")
        assert page.evaluate("navigator.clipboard.readText()") == f"{base}/d/{code}"
        # The opening hand re-shuffles on click (a new seed each time).
        seed = page.get_attribute(".hand", "data-seed")
        page.click("text=Shuffle again")
        page.wait_for_function(f"document.querySelector('.hand').dataset.seed !== '{seed}'")
    finally:
        context.close()


def test_paste_a_share_link_into_the_builder(page: object, live_server: object) -> None:
    code = deck_check(format="preconstructed", cards=PRECON[2]).code
    base = live_server.url  # type: ignore[attr-defined]
    page.goto(f"{base}/decks/new/")  # type: ignore[attr-defined]
    page.get_by_text("Paste a deck code, a share link or a card list").click()  # type: ignore[attr-defined]
    page.fill("#import-text", f"{base}/d/{code}")  # type: ignore[attr-defined]
    page.get_by_role("button", name="Replace the deck with this list").click()  # type: ignore[attr-defined]
    page.wait_for_selector("#deck-status[data-legal='true']")  # type: ignore[attr-defined]
    assert sorted(_entries(page)) == sorted(PRECON[2])
    assert page.input_value("#deck-format") == "preconstructed"  # type: ignore[attr-defined]


def test_the_deck_list_box_opens_a_share_link_in_the_builder(
    page: object, live_server: object
) -> None:
    base = live_server.url  # type: ignore[attr-defined]
    code = deck_check(format="preconstructed", cards=PRECON[3]).code
    page.goto(f"{base}/decks/")  # type: ignore[attr-defined]
    page.get_by_label(  # type: ignore[attr-defined]
        "Open a deck code, a share link or a card list in the builder"
    ).fill(f"{base}/d/{code}")
    page.get_by_role("button", name="Open in the builder").click()  # type: ignore[attr-defined]
    page.wait_for_url(re.compile(r".*/decks/new/\?paste=.*"))  # type: ignore[attr-defined]
    assert sorted(_entries(page)) == sorted(PRECON[3])
    assert page.input_value("#deck-format") == "preconstructed"  # type: ignore[attr-defined]
    page.set_viewport_size({"width": 390, "height": 800})  # type: ignore[attr-defined]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # type: ignore[attr-defined]


def test_a_search_result_previews_its_card_face(page: object, live_server: object) -> None:
    page.set_viewport_size({"width": 390, "height": 844})  # type: ignore[attr-defined]
    page.goto(f"{live_server.url}/decks/new/")  # type: ignore[attr-defined]
    page.fill("#card-query", "Emerald dragon")  # type: ignore[attr-defined]
    result = page.locator(".search-result[data-card='emerald-dragon']")  # type: ignore[attr-defined]
    popover = result.locator(".card-popover")
    result.wait_for()
    assert not popover.is_visible()

    # By keyboard: Tab from the search box (past its button and hint link) to the result shows
    # the face, inside the window.
    page.focus("#card-query")  # type: ignore[attr-defined]
    for _ in range(3):
        page.keyboard.press("Tab")  # type: ignore[attr-defined]
    assert page.evaluate("document.activeElement.value") == "emerald-dragon"  # type: ignore[attr-defined]
    popover.wait_for(state="visible")
    assert popover.locator(".card-name").inner_text() == "Emerald dragon"
    assert popover.locator(".card-art svg").count() == 1
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] >= 0
    assert page.evaluate("document.documentElement.scrollWidth") == 390  # type: ignore[attr-defined]
    assert axe_violations(page) == []
    # It hides nothing from the pointer, and holds no link of its own to Tab to.
    assert popover.evaluate("el => getComputedStyle(el).pointerEvents") == "none"
    assert popover.locator("a, button, input").count() == 0
    # Esc dismisses it; the focus stays on the result.
    page.keyboard.press("Escape")  # type: ignore[attr-defined]
    popover.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.value") == "emerald-dragon"  # type: ignore[attr-defined]

    # By mouse, on a wide screen: hovering shows it, leaving hides it.
    page.set_viewport_size({"width": 1366, "height": 900})  # type: ignore[attr-defined]
    page.locator("h1").click()  # type: ignore[attr-defined]
    assert not popover.is_visible()
    result.locator(".entry-name").hover()
    popover.wait_for(state="visible")
    page.locator("h1").hover()  # type: ignore[attr-defined]
    popover.wait_for(state="hidden")


def test_seven_quick_adds_50_ms_apart_give_seven_cards(page: object, live_server: object) -> None:
    """Issue 29: seven "add" clicks 50 ms apart gave a 4-card deck (each request carried the
    deck as it was when it left, the last answer overwrote the others)."""
    page.goto(f"{live_server.url}/decks/new/")  # type: ignore[attr-defined]
    page.fill("#card-query", "cost<=3")  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "document.querySelectorAll('#search-results button.add-card').length >= 7"
    )
    slugs = page.eval_on_selector_all(  # type: ignore[attr-defined]
        "#search-results button.add-card", "buttons => buttons.slice(0, 7).map(b => b.value)"
    )
    # Clicked by the page itself 50 ms apart, each button looked up when it is clicked (the
    # results are re-drawn as the deck changes).
    page.evaluate(  # type: ignore[attr-defined]
        """async (slugs) => {
            for (const slug of slugs) {
                document.querySelector(`#search-results [data-card='${slug}'] .add-card`).click();
                await new Promise((done) => setTimeout(done, 50));
            }
        }""",
        slugs,
    )
    page.wait_for_function(  # type: ignore[attr-defined]
        "document.querySelectorAll('#deck-panel .deck-entry').length >= 7"
    )
    page.wait_for_timeout(500)  # type: ignore[attr-defined]
    assert _entries(page) == slugs
    assert page.locator("#deck-status .deck-count").inner_text() == "7 / 8 cards"  # type: ignore[attr-defined]
