"""The account pages in a real browser on a phone's width: the API token page, and every page
of the accounts free of axe-core's accessibility violations in each language."""

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from tests.support.browser import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_WIDTH = 390
PASSWORD = "pw-olga-123456"


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": 844})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def olga(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(
        "olga", email="olga@example.org", password=PASSWORD
    )


def page_width(page: Any) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def log_in(page: Any, origin: str, next_path: str, language: str = "") -> None:
    page.goto(f"{origin}{language}/accounts/login/?next={language}{next_path}")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"{origin}{language}{next_path}")


def test_the_api_token_page_on_a_phone(phone: Any, live_server: Any, olga: Any) -> None:
    log_in(phone, live_server.url, "/accounts/")
    assert phone.locator("h1").inner_text() == "Your account"
    assert phone.locator("main").get_by_text("You have no API token.").is_visible()
    assert (axe_violations(phone), page_width(phone)) == ([], PHONE_WIDTH)

    phone.get_by_role("button", name="Create a token").click()
    phone.wait_for_selector("#api-token")
    key = Token.objects.get(user=olga).key
    assert phone.get_by_label("Your token").input_value() == key
    assert phone.get_by_role("status").inner_text() == "Your API token is ready."
    assert (axe_violations(phone), page_width(phone)) == ([], PHONE_WIDTH)
    # The whole key is visible on the phone: nothing of it hides past the field's edge.
    assert phone.evaluate(
        "(() => { const f = document.getElementById('api-token');"
        " return f.scrollWidth <= f.clientWidth; })()"
    )

    phone.get_by_role("button", name="Revoke the token").click()
    phone.get_by_text("Your API token is revoked: it no longer works.").wait_for()
    assert phone.locator("#api-token").count() == 0
    assert not Token.objects.filter(user=olga).exists()


@pytest.mark.parametrize("language", ["", "/fr", "/sv"])
def test_the_account_pages_are_accessible_on_a_phone(
    phone: Any, live_server: Any, olga: Any, language: str
) -> None:
    base = live_server.url + language
    for path in ("/accounts/signup/", "/accounts/login/", "/accounts/password_reset/"):
        phone.goto(base + path)
        assert (path, axe_violations(phone), page_width(phone)) == (path, [], PHONE_WIDTH)
    log_in(phone, live_server.url, "/accounts/password_change/", language)
    Token.objects.create(user=olga)
    for path in ("/accounts/password_change/", "/accounts/"):
        phone.goto(base + path)
        assert (path, axe_violations(phone), page_width(phone)) == (path, [], PHONE_WIDTH)
