import pytest

from cards.services import catalogue_load
from tests.cards.conftest import DATA_DIR, read_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_search_open_a_card_and_switch_to_french(page, live_server) -> None:
    # A transactional test sees no session data once another one flushed it: load it here.
    catalogue_load(data_dir=DATA_DIR)
    rows = [row for row in read_rows() if "splash" in row.abilities and row.mana <= 4]
    expected = sorted(row.slug for row in rows)
    creatures = sorted(row.slug for row in rows if row.type == "creature")
    page.goto(live_server.url + "/cards/")
    page.fill("#card-query", "ab:splash cost<=4")
    # htmx swaps the results without a page load and pushes the query into the address bar.
    page.wait_for_selector(f'.result-count[data-count="{len(expected)}"]')
    faces = page.locator("#results .card-face")
    assert faces.count() == len(expected)
    assert sorted(faces.evaluate_all("els => els.map(e => e.dataset.slug)")) == expected
    assert "q=ab%3Asplash" in page.url

    # A chip adds its term to the query without reloading the page.
    page.locator('.chip[data-term="type:creature"]').click()
    page.wait_for_selector('.chip.is-active[data-term="type:creature"]')
    page.wait_for_selector(f'.result-count[data-count="{len(creatures)}"]')
    assert sorted(faces.evaluate_all("els => els.map(e => e.dataset.slug)")) == creatures
    assert page.input_value("#card-query") == "ab:splash cost<=4 type:creature"

    first = page.locator("#results .card-face").first
    slug = first.get_attribute("data-slug")
    first.locator("a").click()
    page.wait_for_url(f"{live_server.url}/cards/{slug}/")
    assert page.locator("h1").inner_text().strip() != ""

    page.select_option("#language-select", "fr")
    page.wait_for_url(f"{live_server.url}/fr/cards/{slug}/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h2", has_text="Capacités spéciales").count() == 1
    assert "Splash" in page.locator(".ability-rules").inner_text()
