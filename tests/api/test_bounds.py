"""Every list in a request is refused by its length before any lookup (issue 12, fault 2).

The refusals are counted in queries, not timed: a list that is too long costs none of the
lookups its items would have cost, so the answer takes the same few milliseconds at any length.
"""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from champions.models import Champion, PrintJob
from cod_site.errors import DomainError
from engine.models import SimulationBatch
from mutation.api.serializers import MutationDeckChoiceSerializer

MANY = 5000


def _too_many(field: str, limit: int, count: int = MANY) -> dict[str, Any]:
    return {
        "code": "too_many",
        "message": f"At most {limit} items in `{field}`; {count} were sent.",
        "details": {"field": field, "limit": limit, "count": count},
    }


@pytest.fixture
def token_client() -> Client:
    user = User.objects.create_user("ana", password="pw-ana-123456789")
    return Client(headers={"Authorization": f"Token {Token.objects.create(user=user).key}"})


def _post(client: Client, path: str, body: Any) -> Any:
    return client.post(path, data=body, content_type="application/json")


@pytest.mark.django_db
def test_hundreds_of_champions_on_a_sheet_are_refused_without_a_query(
    client: Client, django_assert_num_queries: Any
) -> None:
    # 900 names of 8 characters fit under the request-line limit: the view refuses them.
    ids = ",".join(f"id{number:05d}" for number in range(900))
    with django_assert_num_queries(0):
        response = client.get(f"/api/v1/champions/pnp.pdf?champions={ids}")
    assert response.status_code == 400
    assert response.json() == _too_many("champions", 27, count=900)


@pytest.mark.django_db
def test_thousands_of_champions_on_a_sheet_are_refused_before_the_view(
    client: Client, django_assert_num_queries: Any
) -> None:
    ids = ",".join(f"id{number:05d}" for number in range(MANY))
    with django_assert_num_queries(0):
        response = client.get(f"/api/v1/champions/pnp.pdf?champions={ids}")
    assert response.status_code == 414
    # "GET " + the 36-byte path and query name + 5,000 ids of 7 bytes and 4,999 commas + " HTTP/1.1"
    assert response.json() == {
        "code": "request_line_too_long",
        "message": "The request line is longer than 8190 bytes.",
        "details": {"limit": 8190, "size": 40048},
    }


@pytest.mark.django_db
def test_too_many_copies_on_a_sheet_are_refused_before_the_champions_are_looked_up(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/api/v1/champions/pnp.pdf?champions=nobody*20,noone*20")
    assert response.status_code == 400
    assert response.json()["code"] == "too_many_cards"
    assert response.json()["details"] == {"field": "copies", "count": 40, "max": 27}


@pytest.mark.django_db
def test_a_print_job_of_thousands_of_items_is_refused_before_any_lookup(
    token_client: Client,
) -> None:
    items = [{"champion": f"id{number:05d}", "copies": 1} for number in range(MANY)]
    with CaptureQueriesContext(connection) as queries:
        response = _post(token_client, "/api/v1/champions/print-jobs/", {"items": items})
    assert response.status_code == 400
    assert response.json() == _too_many("items", 900)
    assert [q["sql"] for q in queries if "champions_" in q["sql"]] == []
    assert PrintJob.objects.count() == 0


@pytest.mark.django_db
def test_a_print_job_of_too_many_copies_is_refused_before_any_lookup(
    token_client: Client,
) -> None:
    items = [{"champion": "nobody", "copies": 90}] * 11
    with CaptureQueriesContext(connection) as queries:
        response = _post(token_client, "/api/v1/champions/print-jobs/", {"items": items})
    assert response.status_code == 400
    assert response.json()["code"] == "too_many_cards"
    assert [q["sql"] for q in queries if "champions_champion" in q["sql"]] == []
    assert PrintJob.objects.count() == 0


@pytest.mark.django_db
def test_thousands_of_seats_are_refused_before_any_deck_is_read(token_client: Client) -> None:
    seats = [{"preconstructed": 1}] * MANY
    with CaptureQueriesContext(connection) as queries:
        response = _post(token_client, "/api/v1/simulations/", {"seats": seats, "games": 1})
    assert response.status_code == 400
    assert response.json() == _too_many("seats", 4)
    assert [q["sql"] for q in queries if "decks_" in q["sql"] or "cards_" in q["sql"]] == []
    assert SimulationBatch.objects.count() == 0


@pytest.mark.django_db
def test_too_many_card_filters_on_the_deck_list_are_refused_without_a_query(
    client: Client, django_assert_num_queries: Any
) -> None:
    query = "&".join(f"card=card{number}" for number in range(11))
    with django_assert_num_queries(0):
        response = client.get(f"/api/v1/decks/?{query}")
    assert response.status_code == 400
    assert response.json() == _too_many("card", 10, 11)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body", "field", "limit"),
    [
        ("/api/v1/decks/validate/", {"format": "constructed", "cards": ["x"] * MANY}, "cards", 64),
        (
            "/api/v1/decks/validate/",
            {"format": "draft", "cards": [], "pool": ["x"] * MANY},
            "pool",
            400,
        ),
        (
            "/api/v1/champions/price/",
            {"attack": 1, "hp": 1, "abilities": ["x"] * MANY},
            "abilities",
            20,
        ),
        ("/api/v1/champions/propose/", {"mana": 3, "abilities": ["x"] * MANY}, "abilities", 5),
    ],
)
def test_anonymous_body_lists_are_refused_by_length_without_a_query(
    client: Client,
    django_assert_num_queries: Any,
    path: str,
    body: dict[str, Any],
    field: str,
    limit: int,
) -> None:
    with django_assert_num_queries(0):
        response = _post(client, path, body)
    assert response.status_code == 400
    assert response.json() == _too_many(field, limit)


@pytest.mark.django_db
def test_a_champion_with_thousands_of_names_is_refused(token_client: Client) -> None:
    names = {f"l{number}": "x" for number in range(MANY)}
    body = {"names": names, "mana": 1, "attack": 1, "hp": 1}
    response = _post(token_client, "/api/v1/champions/", body)
    assert response.status_code == 400
    assert response.json() == _too_many("names", 3)
    assert Champion.objects.count() == 0


@pytest.mark.django_db
def test_a_mutation_deck_of_thousands_of_cards_is_refused_before_any_card_is_read(
    django_assert_num_queries: Any,
) -> None:
    serializer = MutationDeckChoiceSerializer(data={"seat": 1, "cards": ["grrr"] * MANY})
    with django_assert_num_queries(0), pytest.raises(DomainError) as refusal:
        serializer.is_valid()
    assert (refusal.value.code, refusal.value.details) == (
        "too_many",
        {"field": "cards", "limit": 16, "count": MANY},
    )
