"""Every API failure leaves in the JSON error shape, never as an HTML page."""

import json
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client


@pytest.fixture
def client_no_raise() -> Client:
    client = Client(raise_request_exception=False)
    return client


def test_unknown_api_url_is_a_json_404(client: Client) -> None:
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "not_found",
        "message": "No API endpoint at /api/v1/no-such-thing/.",
        "details": {},
    }


def test_unknown_api_url_is_json_even_with_debug_on(client: Client, settings) -> None:
    settings.DEBUG = True
    response = client.post("/api/v1/nothing/here", data="{}", content_type="application/json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_malformed_json_body_is_a_json_400(client: Client) -> None:
    response = client.post(
        "/api/v1/auth/token/", data='{"username": ', content_type="application/json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_json"
    assert body["message"] == (
        "The body is not valid JSON: Expecting value: line 1 column 14 (char 13)."
    )
    assert body["details"] == {}


@pytest.mark.django_db
def test_validation_errors_name_the_field(client: Client) -> None:
    response = client.post("/api/v1/auth/token/", data={"username": "x"})
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "message": "password: This field is required.",
        "details": {"password": ["This field is required."]},
    }


@pytest.mark.django_db
def test_token_authentication_round_trip(client: Client) -> None:
    User.objects.create_user("ana", password="correct horse battery")
    response = client.post(
        "/api/v1/auth/token/", data={"username": "ana", "password": "correct horse battery"}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert len(token) == 40


@pytest.mark.django_db
def test_api_500_is_json_without_traceback(client_no_raise: Client, settings) -> None:
    settings.DEBUG = False
    with mock.patch(
        "drf_spectacular.views.SpectacularAPIView._get_schema_response",
        side_effect=RuntimeError("secret internals"),
    ):
        response = client_no_raise.get("/api/v1/schema/")
    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "message": "Something went wrong on our side.",
        "details": {},
    }
    assert b"secret internals" not in response.content


@pytest.mark.django_db
def test_page_500_is_a_plain_page_without_traceback(client_no_raise: Client, settings) -> None:
    settings.DEBUG = False
    with mock.patch("cod_site.views.render", side_effect=RuntimeError("secret internals")):
        response = client_no_raise.get("/")
    assert response.status_code == 500
    assert b"Something went wrong on our side" in response.content
    assert b"secret internals" not in response.content
    assert b"Traceback" not in response.content


@pytest.mark.django_db
def test_page_404_is_the_site_page(client: Client) -> None:
    response = client.get("/fr/no-such-page/")
    assert response.status_code == 404
    assert b"<html" in response.content
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_anonymous_throttle_answers_429_in_the_error_shape(client: Client, settings) -> None:
    from rest_framework.throttling import AnonRateThrottle

    with mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", {"anon": "2/minute"}):
        statuses = [client.get("/api/v1/schema/?format=json").status_code for _ in range(3)]
        response = client.get("/api/v1/schema/?format=json")
    assert statuses == [200, 200, 429]
    body = json.loads(response.content)
    assert body["code"] == "throttled"
    assert 0 < body["details"]["wait"] <= 60
