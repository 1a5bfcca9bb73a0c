"""What protects the rest of the site from one client: the throttle of a signed-in account on the
tables it opens, guests and spectators throttled per seat and per link rather than by address,
and the cap on the live streams open at once."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from .conftest import create_table, join_as_guest

pytestmark = pytest.mark.django_db

AGENT = {"kind": "agent", "agent": "random"}


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set throttle rates for the test (DRF reads them once, into the throttles' class)."""

    def set_rate(scope: str, rate: str) -> None:
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, rate)

    return set_rate


def test_a_signed_in_client_opening_tables_without_end_is_throttled(
    olga_api: APIClient, rates: Any
) -> None:
    rates("games", "2/hour")
    create_table(olga_api, AGENT)
    create_table(olga_api, AGENT)
    body = {
        "format": "preconstructed",
        "seats": [{"kind": "me", "deck": {"preconstructed": 1}}, AGENT],
    }
    refused = olga_api.post("/api/v1/games/", body, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert 3500 < refused.json()["details"]["wait"] <= 3600
    # Reading my tables is not opening one.
    assert olga_api.get("/api/v1/games/").status_code == 200


def test_the_new_table_page_is_throttled_with_the_api(
    olga_api: APIClient, owner: Any, rates: Any
) -> None:
    rates("games", "1/hour")
    create_table(olga_api, AGENT)
    page = Client()
    page.force_login(owner)
    refused = page.post(
        "/play/new/",
        {"format": "preconstructed", "preconstructed": "1", "opponent": "agent:random"},
    )
    assert refused.status_code == 429
    assert "You did this too often: wait 3600 seconds and try again." in refused.content.decode()


def test_guests_behind_one_address_are_throttled_per_seat(olga_api: APIClient, rates: Any) -> None:
    rates("anon", "3/minute")
    rates("seat", "3/minute")
    guests = []
    for seed in (1, 2):
        table = create_table(olga_api, {"kind": "invite"}, seed=seed)
        # The joins count against the address: the guests have no seat yet.
        guests.append((table["id"], join_as_guest(table["id"], table["invite_code"])))
    for uid, guest in guests:
        for _ in range(3):
            assert guest.get(f"/api/v1/games/{uid}/").status_code == 200
        refused = guest.get(f"/api/v1/games/{uid}/")
        assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
    # A token that names no seat counts against the address, which the 2 joins used.
    stranger = APIClient()
    stranger.credentials(HTTP_X_SEAT_TOKEN="x" * 32)
    answers = [stranger.get(f"/api/v1/games/{guests[0][0]}/").status_code for _ in range(2)]
    assert answers == [403, 429]


def test_spectators_are_throttled_per_link(olga_api: APIClient, rates: Any) -> None:
    rates("anon", "2/minute")
    rates("seat", "3/minute")
    tables = [create_table(olga_api, AGENT, seed=seed) for seed in (3, 4)]
    for table in tables:
        answers = [APIClient().get(table["spectate_url"]).status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]


def test_live_streams_are_capped_per_address_and_per_account(
    olga_api: APIClient, owner: Any, settings: Any
) -> None:
    settings.STREAMS_PER_ADDRESS = 3
    settings.STREAMS_PER_USER = 2
    table = create_table(olga_api, AGENT)
    mine = Client()
    mine.force_login(owner)
    open_streams = [mine.get(f"/play/{table['id']}/stream/") for _ in range(2)]
    assert [stream.status_code for stream in open_streams] == [200, 200]
    refused = mine.get(f"/play/{table['id']}/stream/")
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "too_many_streams",
        "message": "Too many live updates open at once: close a table page and try again.",
        "details": {"scope": "user", "limit": 2},
    }
    watch = f"{table['watch_url']}stream/"
    assert Client().get(watch).status_code == 200
    refused = Client().get(watch)
    assert (refused.status_code, refused.json()["details"]) == (
        429,
        {"scope": "address", "limit": 3},
    )
    # A stream that ends gives its place back.
    settings.PLAY_STREAM_SECONDS = 0
    for stream in open_streams:
        assert b"".join(stream.streaming_content) == b"retry: 500\n\n"
    assert Client().get(watch).status_code == 200
