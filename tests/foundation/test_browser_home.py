import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_language_switch_in_a_real_browser(page, live_server) -> None:
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.select_option("#language-select", "fr")
    page.wait_for_url(live_server.url + "/fr/")
    assert page.locator("h1").inner_text() == "Clash of Decks"
    assert "Consultez les cartes" in page.locator("main").inner_text()
