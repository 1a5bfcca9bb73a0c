"""Every answer under /api/v1/ is JSON `{code, message, details}` (issue 12, faults 3 to 5)."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from decks.models import Format

NOT_FOUND = "No API endpoint at {path}."


@pytest.fixture
def csrf_client() -> Client:
    """A client that enforces CSRF as browsers' requests meet it (the test client skips it)."""
    return Client(enforce_csrf_checks=True)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "anonymous"),
    [
        ("/api/v1/decks/validate/", True),
        ("/api/v1/champions/price/", True),
        ("/api/v1/auth/token/", True),
        ("/api/v1/simulations/", False),
        ("/api/v1/mutation-sessions/", False),
    ],
)
def test_deeply_nested_json_is_a_400_invalid_json(path: str, anonymous: bool) -> None:
    client = Client()
    if not anonymous:
        client.force_login(User.objects.create_user("ana", password="pw-ana-123456789"))
    response = client.post(path, data=_nested(1000), content_type="application/json")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "invalid_json",
        "message": "The body is not valid JSON: it nests too deeply.",
        "details": {},
    }


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize(
    "path", ["/api/v1/no-such-thing/", "/api/v1/simulations/null%2Cnull/cancel/"]
)
def test_unmatched_api_paths_are_a_json_404_for_every_method(
    csrf_client: Client, method: str, path: str
) -> None:
    response = getattr(csrf_client, method)(path, data="{}", content_type="application/json")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "not_found",
        "message": NOT_FOUND.format(path=path.replace("%2C", ",")),
        "details": {},
    }


@pytest.mark.django_db
def test_a_session_post_without_csrf_token_is_a_json_403(csrf_client: Client) -> None:
    csrf_client.force_login(User.objects.create_user("ana", password="pw-ana-123456789"))
    response = csrf_client.post(
        "/api/v1/decks/", data={"name": "x"}, content_type="application/json"
    )
    assert response.status_code == 403
    # `csrf_failed`, as the README promises (issue 25, fault 6), not `permission_denied`.
    assert response.json() == {
        "code": "csrf_failed",
        "message": "CSRF check failed: CSRF cookie not set.",
        "details": {},
    }


@pytest.mark.django_db
def test_a_token_post_needs_no_csrf_token(csrf_client: Client) -> None:
    token = Token.objects.create(user=User.objects.create_user("ana", password="pw-ana-1234567"))
    response = csrf_client.post(
        "/api/v1/decks/validate/",
        data={"format": "nope", "cards": []},
        content_type="application/json",
        headers={"Authorization": f"Token {token.key}"},
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_format"


def test_csrf_failure_under_the_api_is_json(rf: object) -> None:
    from cod_site.views import csrf_failure

    response = csrf_failure(rf.post("/api/v1/anything/"), reason="CSRF cookie not set.")  # type: ignore[attr-defined]
    assert response.status_code == 403
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {
        "code": "csrf_failed",
        "message": "CSRF check failed: CSRF cookie not set.",
        "details": {},
    }


def test_csrf_failure_on_a_page_is_the_html_page(rf: object) -> None:
    from cod_site.views import csrf_failure

    response = csrf_failure(rf.post("/accounts/login/"), reason="CSRF cookie not set.")  # type: ignore[attr-defined]
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_an_unknown_format_in_the_path_is_a_404(client: Client) -> None:
    response = client.get("/api/v1/formats/duel/")
    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "message": "There is no format “duel”.",
        "details": {
            "format": "duel",
            "choices": list(Format.objects.values_list("slug", flat=True)),
        },
    }


@pytest.mark.django_db
def test_an_unknown_format_in_a_body_stays_a_400(client: Client) -> None:
    response = client.post(
        "/api/v1/decks/validate/",
        data={"format": "duel", "cards": []},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_format"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "query"),
    [("/api/v1/decks/", "card=%00v"), ("/api/v1/cards/", "q=a%00"), ("/api/v1/decks/", "%00=1")],
)
def test_a_nul_character_in_the_query_is_a_400(client: Client, path: str, query: str) -> None:
    # Schemathesis on PostgreSQL: `?card=%00v` was a 500 (PostgreSQL text cannot hold NUL).
    response = client.get(f"{path}?{query}")
    assert response.status_code == 400
    name = "\\x00" if query.startswith("%00") else query.split("=")[0]
    assert response.json() == {
        "code": "invalid_parameter",
        "message": f"The query parameter `{name}` holds a NUL character.",
        "details": {"field": name},
    }


@pytest.mark.django_db
def test_a_nul_character_in_a_page_query_is_the_400_page(client: Client) -> None:
    response = client.get("/en/cards/?q=a%00")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
