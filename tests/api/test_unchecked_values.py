"""Values PostgreSQL refuses never reach it (issue 25, fault 4): a 400 naming the field, not a 500.

PostgreSQL text cannot hold NUL and its integers stop at 2**63 - 1 (bigint) or 2**31 - 1
(integer). The probe below walks the API's own schema: every operation with a JSON body gets,
field by field, a NUL in each string and an integer past bigint in each integer; every path
parameter gets a NUL. No answer may be a 500.
"""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

NUL = "\x00"
HUGE = 2**70


@pytest.fixture
def token_client() -> Client:
    user = User.objects.create_user("nul", password="pw-nul-123456789")
    return Client(headers={"Authorization": f"Token {Token.objects.create(user=user).key}"})


@pytest.mark.django_db
def test_a_nul_in_an_expansion_slug_is_a_400_naming_the_field(token_client: Client) -> None:
    body = {"name": "Lab", "expansion_a": "duel-of-chaos\x00", "expansion_b": "duel-of-chaos"}
    response = token_client.post(
        "/api/v1/mutation-sessions/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "message": "expansion_a: A NUL character is not allowed.",
        "details": {"expansion_a": ["A NUL character is not allowed."]},
    }


@pytest.mark.django_db
def test_a_nul_deep_in_a_body_is_named_by_its_path(token_client: Client) -> None:
    body = {"name": "Lab", "expansion_a": "a", "expansion_b": "b", "players": ["Ann", "B\x00b"]}
    response = token_client.post(
        "/api/v1/mutation-sessions/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["details"] == {"players.1": ["A NUL character is not allowed."]}


@pytest.mark.django_db
def test_a_nul_in_a_key_is_refused(token_client: Client) -> None:
    response = token_client.post(
        "/api/v1/mutation-sessions/", {"na\x00me": "x"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["details"] == {"na\\x00me": ["A NUL character is not allowed."]}


@pytest.mark.django_db
def test_a_nul_in_a_form_body_is_a_400(token_client: Client) -> None:
    response = token_client.post("/api/v1/mutation-sessions/", {"expansion_a": "a\x00"})
    assert response.status_code == 400
    assert response.json()["details"] == {"field": "expansion_a"}


@pytest.mark.django_db
def test_a_nul_in_a_path_is_a_404_in_the_api_and_on_pages(client: Client) -> None:
    for path in ["/api/v1/decks/a%00b/", "/api/v1/puzzles/a%00/", "/decks/a%00b/", "/play/a%00/"]:
        response = client.get(path)
        assert response.status_code == 404, path


@pytest.mark.django_db
def test_an_integer_past_bigint_is_a_400(token_client: Client) -> None:
    body = {"name": "Lab", "expansion_a": "a", "expansion_b": "b", "seed": HUGE}
    response = token_client.post(
        "/api/v1/mutation-sessions/", body, content_type="application/json"
    )
    assert response.status_code == 400


def _example(schema: dict[str, Any], components: dict[str, Any]) -> Any:
    if "$ref" in schema:
        return _example(components[schema["$ref"].rsplit("/", 1)[1]], components)
    for key in ("allOf", "oneOf", "anyOf"):
        if key in schema:
            return _example(schema[key][0], components)
    kind = schema.get("type")
    if "enum" in schema:
        return next((value for value in schema["enum"] if value is not None), None)
    if kind == "object" or "properties" in schema:
        return {
            name: _example(sub, components)
            for name, sub in schema.get("properties", {}).items()
            if not sub.get("readOnly")
        }
    if kind == "array":
        return [_example(schema.get("items", {}), components)]
    if kind == "integer":
        return max(schema.get("minimum", 1), 1)
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return True
    return "x"


def _spoiled(body: Any, schema: dict[str, Any], components: dict[str, Any]) -> list[Any]:
    """Copies of `body`, each with one string holding a NUL or one integer past bigint."""
    if "$ref" in schema:
        return _spoiled(body, components[schema["$ref"].rsplit("/", 1)[1]], components)
    for key in ("allOf", "oneOf", "anyOf"):
        if key in schema:
            return _spoiled(body, schema[key][0], components)
    if isinstance(body, dict):
        variants = []
        for name, value in body.items():
            for spoiled in _spoiled(value, schema.get("properties", {}).get(name, {}), components):
                variants.append({**body, name: spoiled})
        return variants
    if isinstance(body, list) and body:
        return [[item] for item in _spoiled(body[0], schema.get("items", {}), components)]
    if isinstance(body, str):
        return [body + NUL]
    if isinstance(body, bool):
        return []
    if isinstance(body, int):
        return [HUGE, -HUGE, 2**31]
    return []


@pytest.mark.django_db
def test_no_value_of_any_json_body_or_path_reaches_the_database_unchecked(
    token_client: Client, cards_db: None
) -> None:
    token_client.raise_request_exception = False
    schema = token_client.get("/api/v1/schema/?format=json").json()
    components = schema["components"]["schemas"]
    failures = []
    sent = 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            concrete = path
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    concrete = concrete.replace("{" + parameter["name"] + "}", "1")
            if "{" not in path:
                nul_path = None
            else:
                nul_path = path.split("{")[0] + "a%00b/" + path.split("}", 1)[1].lstrip("/")
            requests: list[tuple[str, Any]] = []
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                body_schema = content["application/json"]["schema"]
                body = _example(body_schema, components)
                requests += [
                    (concrete, spoiled) for spoiled in _spoiled(body, body_schema, components)
                ]
            if nul_path:
                requests.append((nul_path, None))
            for url, body in requests:
                sent += 1
                send = getattr(token_client, method)
                if body is None:
                    response = send(url)
                else:
                    response = send(url, body, content_type="application/json")
                if response.status_code >= 500:
                    failures.append((method.upper(), url, body, response.status_code))
    assert failures == []
    assert sent > 300  # the probe reached every operation's fields


@pytest.mark.django_db
def test_a_nul_in_a_page_form_is_the_400_page(client: Client) -> None:
    for data in [{"username": "a\x00", "password": "x"}]:
        response = client.post("/accounts/login/", data)
        assert response.status_code == 400
        urlencoded = client.post(
            "/accounts/login/",
            "username=a%00&password=x",
            content_type="application/x-www-form-urlencoded",
        )
        assert urlencoded.status_code == 400


@pytest.mark.django_db
def test_no_query_parameter_or_page_path_reaches_the_database_unchecked(
    token_client: Client, cards_db: None
) -> None:
    """Each query parameter of each GET operation given an integer past bigint (and text where a
    number is expected); pages whose paths take numbers given one past bigint: 400 or 404."""
    token_client.raise_request_exception = False
    schema = token_client.get("/api/v1/schema/?format=json").json()
    failures = []
    sent = 0
    for path, operations in schema["paths"].items():
        operation = operations.get("get")
        if operation is None or "{" in path:
            continue
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query":
                continue
            for value in (str(HUGE), str(-HUGE), "1e999", "é" * 3):
                sent += 1
                response = token_client.get(path, {parameter["name"]: value})
                if response.status_code >= 500:
                    failures.append((path, parameter["name"], value, response.status_code))
    pages = [
        f"/mutation/{HUGE}/",
        f"/simulations/{HUGE}/",
        f"/simulations/{HUGE}/games/{HUGE}/",
        f"/simulations/chaos/{HUGE}/games/{HUGE}/",
        f"/simulations/chaos/{HUGE}/games/",
        f"/simulations/suggestions/{HUGE}/",
        f"/champions/print-jobs/{HUGE}/",
    ]
    for page in pages:
        sent += 1
        response = token_client.get(page)
        if response.status_code >= 500:
            failures.append((page, "", "", response.status_code))
    assert failures == []
    assert sent > 50


@pytest.mark.django_db
def test_page_forms_given_numbers_past_bigint_answer_without_a_500(
    owner: User, catalogue: None
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    champion = {
        "name_en": "Åsa",
        "mana": "4",
        "attack": "4",
        "hp": "4",
        "visibility": "private",
        "illustration_x": "50",
        "illustration_y": "50",
        "illustration_zoom": "100",
    }
    for field in ("mana", "attack", "hp", "illustration_x", "illustration_y", "illustration_zoom"):
        response = client.post("/champions/new/", {**champion, field: str(HUGE)})
        assert response.status_code in (200, 400), field  # the form again, with its error
    for field in ("seed",):
        form = {"name": "Lab", "expansion_a": "1", "expansion_b": "2", field: str(HUGE)}
        assert client.post("/mutation/new/", form).status_code in (200, 400)
