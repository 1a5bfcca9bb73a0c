"""The OpenAPI schema says what the API does (issue 12 fault 6, issue 13)."""

from typing import Any

import pytest
from django.test import Client

ERROR_REF = "#/components/schemas/Error"


@pytest.fixture(scope="module")
def schema(django_db_setup: None, django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return Client().get("/api/v1/schema/?format=json").json()


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if method != "parameters"
    ]


def test_every_error_of_every_operation_is_the_one_envelope(schema: dict[str, Any]) -> None:
    documented = {}
    for method, path, operation in _operations(schema):
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")):
                refs = {body["schema"].get("$ref") for body in response["content"].values()}
                documented[(method, path, status)] = refs
    assert documented
    assert {key: refs for key, refs in documented.items() if refs != {ERROR_REF}} == {}
    assert schema["components"]["schemas"]["Error"]["required"] == ["code", "details", "message"]
    names = set(schema["components"]["schemas"])
    assert {"QueryError", "QueryErrorDetails"} & names == set()


def test_every_operation_documents_400_403_404_and_429(schema: dict[str, Any]) -> None:
    missing = {
        (method, path): sorted({"400", "403", "404", "429"} - set(operation["responses"]))
        for method, path, operation in _operations(schema)
    }
    assert {key: value for key, value in missing.items() if value} == {}


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/api/v1/champions/", "PaginatedChampionList"),
        ("/api/v1/simulations/", "PaginatedBatchList"),
    ],
)
def test_paged_lists_are_documented_as_pages(schema: dict[str, Any], path: str, page: str) -> None:
    body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    assert body["schema"] == {"$ref": f"#/components/schemas/{page}"}
    assert schema["components"]["schemas"][page]["required"] == ["count", "results"]


def test_plain_lists_are_documented_as_arrays(schema: dict[str, Any]) -> None:
    path = "/api/v1/mutation-sessions/{id}/costs/"
    body = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    assert body["schema"]["type"] == "array"


def test_the_constraints_the_server_enforces_are_in_the_schema(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    hp = components["ChampionWrite"]["properties"]["hp"]
    assert (hp["minimum"], hp["maximum"]) == (1, 9)
    assert components["ProposeRequest"]["properties"]["seed"]["maxLength"] == 32
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/cards/"]["get"]["parameters"]}
    assert parameters["page_size"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 200}
    assert parameters["mana"]["schema"] == {"type": "integer", "minimum": 0, "maximum": 99}


@pytest.mark.django_db
@pytest.mark.parametrize("page_size", ["-5", "0", "201", "abc", "1e3", " 5"])
def test_a_page_size_out_of_1_to_200_is_refused(client: Client, page_size: str) -> None:
    response = client.get("/api/v1/expansions/", {"page_size": page_size})
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_page_size",
        "message": "The page size is a whole number from 1 to 200.",
        "details": {"field": "page_size", "value": page_size, "max": 200},
    }


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "0", "-1", "abc", "1.5"])
def test_a_page_that_is_not_a_whole_number_from_1_is_refused(client: Client, page: str) -> None:
    # Schemathesis found `?page=` answered as page 1: DRF reads an empty page as the first.
    response = client.get("/api/v1/rules/", {"page": page})
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_page",
        "message": "The page is a whole number from 1.",
        "details": {"field": "page", "value": page},
    }


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["999", "20212370979256152064", "9" * 5000])
def test_a_page_past_the_last_is_not_found(client: Client, page: str) -> None:
    # Schemathesis: a page of twenty digits is schema-valid, so past the last page, not bad input.
    response = client.get("/api/v1/rules/", {"page": page})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("page_size", ["1", "200"])
def test_a_page_size_of_1_to_200_is_taken(client: Client, page_size: str) -> None:
    response = client.get("/api/v1/rules/", {"page_size": page_size})
    assert response.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("parameter", "value"),
    [("mana", "1e23"), ("hp", "0.5"), ("attack_min", "-1"), ("mana_max", "100")],
)
def test_a_card_filter_out_of_0_to_99_is_refused(
    client: Client, parameter: str, value: str
) -> None:
    response = client.get("/api/v1/cards/", {parameter: value})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["details"]) == [parameter]


@pytest.mark.django_db
@pytest.mark.parametrize("text", [0, 1.5, True, {"a": 1}, ["x"]])
def test_import_text_must_be_a_string(client: Client, text: Any) -> None:
    response = client.post(
        "/api/v1/decks/import/", data={"text": text}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["details"] == {"text": ["Not a valid string."]}


@pytest.mark.django_db
def test_a_number_is_not_a_deck_name(owner: Any) -> None:
    client = Client()
    client.force_login(owner)
    body = {"name": 12, "format": "constructed", "cards": []}
    response = client.post("/api/v1/decks/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["details"] == {"name": ["Not a valid string."]}


@pytest.mark.django_db
@pytest.mark.parametrize(("field", "value"), [("hp", 0), ("hp", 10), ("attack", -1)])
def test_champion_price_refuses_stats_out_of_the_documented_range(
    client: Client, schema: dict[str, Any], field: str, value: int
) -> None:
    documented = schema["components"]["schemas"]["PriceRequest"]["properties"][field]
    assert not documented["minimum"] <= value <= documented["maximum"]
    body = {"attack": 1, "hp": 1, field: value}
    response = client.post("/api/v1/champions/price/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == f"invalid_{field}"
    assert response.json()["details"] == {"field": field, "value": value}


@pytest.mark.django_db
def test_the_price_of_a_chosen_cost_out_of_range_is_refused(client: Client) -> None:
    body = {"attack": 0, "hp": 1, "abilities": [], "mana": 21}
    response = client.post("/api/v1/champions/price/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["details"] == {
        "mana": ["Ensure this value is less than or equal to 20."]
    }
