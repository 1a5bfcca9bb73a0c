"""Sign-up, password change and reset, and the account page with its API token."""

import re
from html import unescape
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-phrase-42"


def test_sign_up_logs_in_and_returns_to_the_builder(client: Client) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "nina",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": "/decks/new/?code=abc",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == "/decks/new/?code=abc"
    assert client.get("/decks/mine/").status_code == 200
    refused = Client().post(
        "/accounts/signup/", {"username": "nina", "password1": "x", "password2": "y"}
    )
    assert refused.status_code == 200
    assert "A user with that username already exists." in refused.content.decode()
    outside = Client().post(
        "/accounts/signup/",
        {
            "username": "mo",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": "https://evil.example/",
        },
    )
    assert outside["Location"] == "/decks/mine/"


def test_login_page_offers_sign_up_and_password_reset(client: Client) -> None:
    html = client.get("/accounts/login/?next=/decks/new/").content.decode()
    assert 'href="/accounts/signup/?next=/decks/new/"' in html
    assert 'href="/accounts/password_reset/"' in html


def _reset_link(message: mail.EmailMessage) -> str:
    found = re.search(r"http://testserver(/\S+/reset/\S+/\S+/)", message.body)
    assert found is not None, message.body
    return found.group(1)


def test_password_reset_by_email(client: Client, django_user_model: Any) -> None:
    user = django_user_model.objects.create_user(
        "nina", email="nina@example.org", password="a-long-pass-phrase"
    )
    # The sign-up page promises it: it was a 404.
    assert client.get("/accounts/password_reset/").status_code == 200
    sent = client.post("/accounts/password_reset/", {"email": "nina@example.org"})
    assert sent["Location"] == "/accounts/password_reset/done/"
    assert "Check your email" in client.get(sent["Location"]).content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert (message.subject, message.to) == ("Your Clash of Decks password", ["nina@example.org"])
    assert message.from_email == "Clash of Decks <noreply@localhost>"
    link = _reset_link(message)
    assert link.startswith("/accounts/reset/")
    # Django swaps the token in the link for one in the session before showing the form.
    form_url = client.get(link)["Location"]
    assert form_url.endswith("/set-password/")
    done = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == "/accounts/reset/done/"
    assert "Your new password is in use." in client.get(done["Location"]).content.decode()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # The link works once.
    again = Client().get(link, follow=True).content.decode()
    assert "This link does not work: it was used already or is too old." in again


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    client: Client, owner: Any
) -> None:
    sent = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert sent["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_password_reset_in_french(client: Client, django_user_model: Any) -> None:
    django_user_model.objects.create_user("nina", email="nina@example.org", password="x")
    page = client.get("/fr/accounts/password_reset/").content.decode()
    assert "<h1>Réinitialiser votre mot de passe</h1>" in page
    client.post("/fr/accounts/password_reset/", {"email": "nina@example.org"})
    message = mail.outbox[0]
    assert message.subject == "Votre mot de passe Clash of Decks"
    assert _reset_link(message).startswith("/fr/accounts/reset/")
    assert "Si vous ne l'avez pas demandé, ne faites rien" in message.body


def test_password_change_keeps_the_session(client: Client, owner: Any) -> None:
    client.force_login(owner)
    assert client.get("/accounts/password_change/").status_code == 200
    wrong = client.post(
        "/accounts/password_change/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert wrong.status_code == 200
    owner.refresh_from_db()
    assert owner.check_password("pw-olga-123456")
    changed = client.post(
        "/accounts/password_change/",
        {
            "old_password": "pw-olga-123456",
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert changed["Location"] == "/accounts/password_change/done/"
    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD)
    assert client.get("/accounts/").status_code == 200


def _token_on_page(html: str) -> str | None:
    found = re.search(r'id="api-token" class="token-key" type="text" value="([0-9a-f]+)"', html)
    return found.group(1) if found else None


def _refused(api: Client, key: str) -> bool:
    answer = api.get("/api/v1/formats/", HTTP_AUTHORIZATION=f"Token {key}")
    return (answer.status_code, answer.json()) == (
        403,
        {"code": "authentication_failed", "message": "Invalid token.", "details": {}},
    )


def test_the_account_page_creates_shows_and_revokes_the_api_token(
    client: Client, owner: Any
) -> None:
    assert client.get("/accounts/")["Location"] == "/accounts/login/?next=/accounts/"
    client.force_login(owner)
    page = client.get("/accounts/")
    assert "no-store" in page["Cache-Control"]
    html = page.content.decode()
    assert "You have no API token." in html
    assert _token_on_page(html) is None
    assert '<a class="whoami" href="/accounts/">olga</a>' in html

    created = client.post("/accounts/token/")
    assert created["Location"] == "/accounts/"
    key = Token.objects.get(user=owner).key
    html = client.get("/accounts/").content.decode()
    assert _token_on_page(html) == key
    # The first token replaces none: no word of a previous one (issue 29).
    assert "Your API token is ready." in html
    assert "no longer works" not in html
    api = Client()
    assert api.get("/api/v1/formats/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200

    client.post("/accounts/token/")
    new_key = Token.objects.get(user=owner).key
    assert new_key != key
    html = client.get("/accounts/").content.decode()
    assert _token_on_page(html) == new_key
    assert "Your new API token is ready; the previous one no longer works." in html
    assert _refused(api, key)

    revoked = client.post("/accounts/token/revoke/")
    assert revoked["Location"] == "/accounts/"
    html = client.get("/accounts/").content.decode()
    assert "Your API token is revoked: it no longer works." in html
    assert "You have no API token." in html
    assert not Token.objects.filter(user=owner).exists()
    assert _refused(api, new_key)


def test_tokens_are_made_and_revoked_only_by_a_logged_in_post(client: Client, owner: Any) -> None:
    assert client.post("/accounts/token/")["Location"] == "/accounts/login/?next=/accounts/token/"
    client.force_login(owner)
    assert client.get("/accounts/token/").status_code == 405
    assert client.get("/accounts/token/revoke/").status_code == 405
    assert not Token.objects.exists()
    csrf_checked = Client(enforce_csrf_checks=True)
    csrf_checked.force_login(owner)
    assert csrf_checked.post("/accounts/token/").status_code == 403
    assert not Token.objects.exists()


@pytest.mark.parametrize(
    ("prefix", "title", "no_token"),
    [
        ("", "Your account", "You have no API token."),
        ("/fr", "Votre compte", "Vous n'avez pas de jeton d'API."),
        ("/sv", "Ditt konto", "Du har ingen API-token."),
    ],
)
def test_the_account_page_speaks_each_language(
    client: Client, owner: Any, prefix: str, title: str, no_token: str
) -> None:
    client.force_login(owner)
    html = unescape(client.get(f"{prefix}/accounts/").content.decode())
    assert f"<h1>{title}</h1>" in html
    assert no_token in html


def test_the_token_date_ends_with_one_period_in_every_language(client: Client, owner: Any) -> None:
    """Issue 29: "Created Nov. 29, 2026, 3:31 a.m.." (the English time ends with a period)."""
    from datetime import UTC, datetime

    client.force_login(owner)
    client.post("/accounts/token/")
    Token.objects.filter(user=owner).update(created=datetime(2026, 11, 29, 3, 31, tzinfo=UTC))
    found = {}
    for prefix in ("", "/fr", "/sv"):
        html = client.get(f"{prefix}/accounts/").content.decode()
        found[prefix] = re.search(r'<p class="token-created">(.*?)</p>', html)[1]  # type: ignore[index]
    assert found == {
        "": "Created Nov. 29, 2026, 3:31 a.m.",
        "/fr": "Créé le 29 novembre 2026 03:31.",
        "/sv": "Skapad 29 november 2026 03:31.",
    }
