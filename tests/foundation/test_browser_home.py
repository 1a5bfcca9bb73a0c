import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_language_switch_in_a_real_browser(page, live_server) -> None:
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.select_option("#language-select", "fr")
    page.wait_for_url(live_server.url + "/fr/")
    assert page.locator("h1").inner_text() == "Clash of Decks"
    assert "Consultez les cartes" in page.locator("main").inner_text()


def test_the_chosen_language_is_kept_on_links_without_prefix(page, live_server, browser) -> None:
    """Issue 29: a shared link without /fr/ opened in English for a French reader."""
    page.goto(live_server.url + "/")
    page.select_option("#language-select", "sv")
    page.wait_for_url(live_server.url + "/sv/")
    page.goto(live_server.url + "/decks/")
    assert page.url == live_server.url + "/sv/decks/"
    assert page.locator("html").get_attribute("lang") == "sv"
    # A French browser that never chose: its Accept-Language.
    french = browser.new_context(locale="fr-FR")
    try:
        other = french.new_page()
        other.goto(live_server.url + "/grimoire/")
        assert other.url == live_server.url + "/fr/grimoire/"
        assert other.locator("html").get_attribute("lang") == "fr"
    finally:
        french.close()
