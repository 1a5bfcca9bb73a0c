"""The API's contract, kept (issue 25, fault 6): unknown fields, CSRF refusals and the schema.

Unknown JSON fields were ignored (`{"bogus_field": 1}` → 201): a typo in a field name silently
did nothing. A session request without its CSRF token answered `permission_denied` where the
README promises `csrf_failed`. The schema left out limits and facts the API enforces.
"""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.api.test_unchecked_values import _example

UNKNOWN = {
    "code": "unknown_field",
    "message": "Unknown field `bogus_field`.",
    "details": {"field": "bogus_field"},
}


@pytest.fixture
def olga(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def schema(client: Client) -> dict[str, Any]:
    body: dict[str, Any] = client.get("/api/v1/schema/?format=json").json()
    return body


@pytest.mark.django_db
def test_an_unknown_field_is_refused_by_name(olga: Client) -> None:
    body = {"name": "Teeth", "format": "constructed", "cards": [], "bogus_field": 1}
    response = olga.post("/api/v1/decks/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == UNKNOWN


@pytest.mark.django_db
def test_an_unknown_field_in_a_nested_object_is_named_by_its_path(olga: Client) -> None:
    body = {
        "format": "preconstructed",
        "seats": [{"kind": "me", "deck": {"preconstructed": 1, "bogus_field": 1}}],
    }
    response = olga.post("/api/v1/games/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_field"
    assert response.json()["details"] == {"field": "seats.deck.bogus_field"}


@pytest.mark.django_db
def test_every_write_operation_refuses_an_unknown_field(
    olga: Client, schema: dict[str, Any], cards_db: None
) -> None:
    components = schema["components"]["schemas"]
    answers = {}
    for path, operations in schema["paths"].items():
        if "{" in path:
            continue  # the same serializers as their collections', behind a lookup
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" not in content:
                continue
            body = _example(content["application/json"]["schema"], components)
            if not isinstance(body, dict):
                continue
            send = getattr(olga, method)
            response = send(path, {**body, "bogus_field": 1}, content_type="application/json")
            answers[f"{method.upper()} {path}"] = (response.status_code, response.json())
    refused = {name for name, (status, body) in answers.items() if body == UNKNOWN}
    assert len(answers) >= 15
    assert set(answers) - refused == set(), {k: v for k, v in answers.items() if k not in refused}


@pytest.mark.django_db
def test_a_session_request_without_its_csrf_token_is_csrf_failed(owner: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    body = {"name": "Teeth", "format": "constructed", "cards": []}
    response = client.post("/api/v1/decks/", body, content_type="application/json")
    assert response.status_code == 403
    assert response.json() == {
        "code": "csrf_failed",
        "message": "CSRF check failed: CSRF cookie not set.",
        "details": {},
    }


def _parameter(schema: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    parameters = schema["paths"][path]["get"]["parameters"]
    found: dict[str, Any] = next(p for p in parameters if p["name"] == name)["schema"]
    return found


@pytest.mark.django_db
def test_the_schema_states_the_print_and_play_limits(schema: dict[str, Any]) -> None:
    sheet = "/api/v1/champions/{uid}/pnp.pdf"
    assert _parameter(schema, sheet, "copies") == {
        "type": "integer",
        "minimum": 1,
        "maximum": 27,
        "default": 9,
    }
    for path in (sheet, "/api/v1/champions/pnp.pdf", "/api/v1/decks/{share_id}/pnp.pdf"):
        for name in ("back_offset_x", "back_offset_y"):
            offset = _parameter(schema, path, name)
            assert (offset["minimum"], offset["maximum"]) == (-10, 10), (path, name)
        assert _parameter(schema, path, "paper")["minLength"] == 1
    components = schema["components"]["schemas"]
    item = components["PrintJobItem"]["properties"]["copies"]
    assert (item["minimum"], item["maximum"]) == (1, 90)
    job = components["PrintJobRequest"]["properties"]
    assert (job["back_offset_x"]["minimum"], job["back_offset_x"]["maximum"]) == (-10, 10)


@pytest.mark.django_db
def test_a_blank_paper_is_refused_as_the_schema_says(client: Client) -> None:
    response = client.get("/api/v1/champions/pnp.pdf?champions=x&paper=")
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "message": 'paper: "" is not a valid choice.',
        "details": {"paper": ['"" is not a valid choice.']},
    }


@pytest.mark.django_db
def test_the_schema_states_blank_fork_names_uploads_and_open_attempts(
    schema: dict[str, Any],
) -> None:
    components = schema["components"]["schemas"]
    assert components["ForkRequest"]["properties"]["name"] == {
        "type": "string",
        "maxLength": 100,
        "description": "The fork's name; blank or left out: the source's name with “(copy)”.",
    }
    assert components["IllustrationUpload"]["properties"]["file"]["format"] == "binary"
    attempts = schema["paths"]["/api/v1/puzzles/{uid}/attempts/"]["post"]
    assert {} in attempts["security"]


@pytest.mark.django_db
def test_a_blank_fork_name_takes_the_source_name(olga: Client) -> None:
    body = {"name": "Teeth", "format": "constructed", "cards": []}
    share_id = olga.post("/api/v1/decks/", body, content_type="application/json").json()["share_id"]
    response = olga.post(
        f"/api/v1/decks/{share_id}/fork/", {"name": ""}, content_type="application/json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["name"] == "Teeth (copy)"
