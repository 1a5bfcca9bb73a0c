"""Who may read, list, change and delete which deck: the exact status of every combination."""

import pytest
from django.contrib.auth.models import AbstractBaseUser
from rest_framework.test import APIClient

from decks import services
from decks.models import Deck, DeckVersion
from decks.selectors.formats import format_get
from decks.selectors.lookup import cards_require
from tests.decks.conftest import CONSTRUCTED

pytestmark = pytest.mark.usefixtures("cards_db")

ACTORS = ["anonymous", "other", "owner", "staff"]
VISIBILITIES = ["private", "unlisted", "public"]

READ = {
    "anonymous": {"private": 404, "unlisted": 200, "public": 200},
    "other": {"private": 404, "unlisted": 200, "public": 200},
    "owner": {"private": 200, "unlisted": 200, "public": 200},
    "staff": {"private": 200, "unlisted": 200, "public": 200},
}
# Visitors are stopped before the deck is looked up (403 `not_authenticated`), so nothing is
# learned about private decks; others who cannot see a deck get 404, those who can see it 403.
UPDATE = {
    "anonymous": {"private": 403, "unlisted": 403, "public": 403},
    "other": {"private": 404, "unlisted": 403, "public": 403},
    "owner": {"private": 200, "unlisted": 200, "public": 200},
    "staff": {"private": 200, "unlisted": 200, "public": 200},
}
DELETE = {
    "anonymous": {"private": 403, "unlisted": 403, "public": 403},
    "other": {"private": 404, "unlisted": 403, "public": 403},
    "owner": {"private": 204, "unlisted": 204, "public": 204},
    "staff": {"private": 204, "unlisted": 204, "public": 204},
}
# The public list shows public decks only, to everyone; unlisted decks are reached by their link.
LISTED = {"private": False, "unlisted": False, "public": True}


@pytest.fixture
def users(owner: AbstractBaseUser, other: AbstractBaseUser, staff: AbstractBaseUser) -> dict:
    return {"anonymous": None, "owner": owner, "other": other, "staff": staff}


def _deck(owner: AbstractBaseUser, visibility: str) -> Deck:
    return services.deck_create(
        owner=owner,
        name="Sharp teeth",
        format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"),
        visibility=visibility,
    )


def _client(user: AbstractBaseUser | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _state(deck: Deck) -> tuple:
    row = Deck.objects.filter(pk=deck.pk).values_list("name", "version", "updated_at").first()
    return row, DeckVersion.objects.filter(deck_id=deck.pk).count(), deck.deck_cards.count()


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_read(users: dict, actor: str, visibility: str) -> None:
    deck = _deck(users["owner"], visibility)
    response = _client(users[actor]).get(f"/api/v1/decks/{deck.share_id}/")
    assert response.status_code == READ[actor][visibility]
    if response.status_code == 200:
        assert response.json()["share_id"] == deck.share_id
        assert response.json()["visibility"] == visibility
    else:
        assert response.json() == {
            "code": "not_found",
            "message": f"There is no deck “{deck.share_id}”.",
            "details": {},
        }


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_list(users: dict, actor: str, visibility: str) -> None:
    deck = _deck(users["owner"], visibility)
    response = _client(users[actor]).get("/api/v1/decks/")
    assert response.status_code == 200
    listed = [row["share_id"] for row in response.json()["results"]]
    assert listed == ([deck.share_id] if LISTED[visibility] else [])


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_update(users: dict, actor: str, visibility: str) -> None:
    deck = _deck(users["owner"], visibility)
    before = _state(deck)
    response = _client(users[actor]).patch(
        f"/api/v1/decks/{deck.share_id}/",
        {"name": "Renamed", "cards": CONSTRUCTED[:7]},
        format="json",
    )
    assert response.status_code == UPDATE[actor][visibility]
    if response.status_code == 200:
        assert response.json()["name"] == "Renamed"
        assert response.json()["version"] == 2
        assert _state(deck)[1:] == (2, 7)
    else:
        assert _state(deck) == before
        assert (
            response.json()["code"]
            == {
                403: "not_authenticated" if actor == "anonymous" else "permission_denied",
                404: "not_found",
            }[response.status_code]
        )


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_delete(users: dict, actor: str, visibility: str) -> None:
    deck = _deck(users["owner"], visibility)
    before = _state(deck)
    response = _client(users[actor]).delete(f"/api/v1/decks/{deck.share_id}/")
    assert response.status_code == DELETE[actor][visibility]
    if response.status_code == 204:
        assert not Deck.objects.filter(pk=deck.pk).exists()
        assert not DeckVersion.objects.filter(deck_id=deck.pk).exists()
    else:
        assert _state(deck) == before


@pytest.mark.parametrize("visibility", VISIBILITIES)
@pytest.mark.parametrize("actor", ACTORS)
def test_versions_restore_and_fork_follow_the_same_rules(
    users: dict, actor: str, visibility: str
) -> None:
    deck = _deck(users["owner"], visibility)
    services.deck_update(deck=deck, actor=users["owner"], name="Second")
    before = _state(deck)
    client = _client(users[actor])
    versions = client.get(f"/api/v1/decks/{deck.share_id}/versions/")
    assert versions.status_code == READ[actor][visibility]
    restore = client.post(f"/api/v1/decks/{deck.share_id}/versions/1/restore/")
    assert restore.status_code == UPDATE[actor][visibility]
    if restore.status_code != 200:
        assert _state(deck) == before
    fork = client.post(f"/api/v1/decks/{deck.share_id}/fork/", {}, format="json")
    expected_fork = (
        403 if actor == "anonymous" else (201 if READ[actor][visibility] == 200 else 404)
    )
    assert fork.status_code == expected_fork


def test_my_decks_list_every_visibility_to_their_owner_only(users: dict) -> None:
    decks = {visibility: _deck(users["owner"], visibility) for visibility in VISIBILITIES}
    mine = _client(users["owner"]).get("/api/v1/decks/?mine=true").json()
    assert sorted(row["share_id"] for row in mine["results"]) == sorted(
        deck.share_id for deck in decks.values()
    )
    assert _client(users["other"]).get("/api/v1/decks/?mine=true").json()["results"] == []
    assert _client(None).get("/api/v1/decks/?mine=true").json()["results"] == []


@pytest.mark.parametrize(
    ("actor", "status"), [("anonymous", 404), ("other", 404), ("owner", 200), ("staff", 200)]
)
def test_private_deck_pages_are_not_found_for_others(
    users: dict, actor: str, status: int, client: object
) -> None:
    deck = _deck(users["owner"], "private")
    if users[actor] is not None:
        client.force_login(users[actor])  # type: ignore[attr-defined]
    for path in (f"/decks/{deck.share_id}/", f"/decks/{deck.share_id}/diff/?from=1&to=1"):
        assert client.get(path).status_code == status  # type: ignore[attr-defined]
