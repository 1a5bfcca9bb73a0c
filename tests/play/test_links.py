"""Invite and spectate codes are whatever a link says: a code of any text that is not the
table's answers as a wrong one does (a 404, a 403 `bad_invite`), never a server error."""

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from play.models import Game

from .conftest import create_table

pytestmark = pytest.mark.django_db

# Not ASCII (`secrets.compare_digest` took only ASCII text), or plainly wrong.
CODES = ["%C3%A9", "%E2%80%AE", "nope"]


@pytest.fixture
def table(olga_api: APIClient) -> dict[str, Any]:
    return create_table(olga_api, {"kind": "invite"})


@pytest.mark.parametrize("code", CODES)
def test_a_spectate_link_of_another_code_is_a_404(table: dict[str, Any], code: str) -> None:
    uid = table["id"]
    api = APIClient().get(f"/api/v1/games/{uid}/spectate/?code={code}")
    assert api.status_code == 404
    assert api.json()["code"] == "not_found"
    for page in ("", "board/", "stream/", "replay/"):
        assert Client().get(f"/play/{uid}/watch/{code}/{page}").status_code == 404


@pytest.mark.parametrize("code", ["é", "\u202e", "nope"])
def test_joining_with_another_invite_code_is_a_403(table: dict[str, Any], code: str) -> None:
    response = APIClient().post(
        f"/api/v1/games/{table['id']}/join/",
        {"invite_code": code, "guest_name": "Gus", "deck": {"preconstructed": 2}},
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["code"] == "bad_invite"


@pytest.mark.parametrize("code", CODES)
def test_the_join_page_with_another_code_says_the_link_is_not_valid(
    table: dict[str, Any], code: str
) -> None:
    page = Client().post(
        f"/play/{table['id']}/join/{code}/", {"guest_name": "Gus", "preconstructed": "2"}
    )
    assert page.status_code == 200
    assert "This invitation link is not valid." in page.content.decode()
    assert [seat.taken for seat in Game.objects.get(uid=table["id"]).seats.all()] == [True, False]
