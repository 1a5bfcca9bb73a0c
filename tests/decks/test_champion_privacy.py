"""A Champion reaches only those who may see it, by every deck route (issue 12, fault 1).

Olga (the owner) attaches her private Champion to her public deck. For Oscar (another user) and
for a visitor the deck has no Champion at all: no share id, no name, and deck codes without it.
"""

import io
from dataclasses import dataclass
from typing import Any

import pdfplumber
import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from rest_framework.test import APIClient

from champions import services as champion_services
from champions.designs import ChampionDesign
from champions.models import Champion
from decks import services
from decks.models import Deck, DeckVersion
from decks.selectors.checks import deck_check
from decks.selectors.codes import deck_decode
from decks.selectors.formats import format_get
from decks.selectors.lookup import cards_require
from tests.champions.conftest import design
from tests.decks.conftest import CONSTRUCTED

pytestmark = pytest.mark.usefixtures("cards_db")

NAME = "Åsa the Bold"  # the Champion's English name (tests.champions.conftest.design)


@pytest.fixture
def plain_code() -> str:
    """The deck's code without a Champion: what everyone who may not see it gets."""
    return deck_check(format="constructed", cards=CONSTRUCTED).code or ""


@pytest.fixture
def secret(owner: AbstractBaseUser) -> Champion:
    return champion_services.champion_create(owner=owner, design=design())


@pytest.fixture
def deck(owner: AbstractBaseUser, secret: Champion) -> Deck:
    """Version 1 without a Champion, version 2 with the private one; the deck is public."""
    deck = services.deck_create(
        owner=owner,
        name="Sharp teeth",
        format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"),
        visibility="public",
    )
    return services.deck_update(deck=deck, actor=owner, champion=secret)


def _api(user: AbstractBaseUser | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _page_client(user: AbstractBaseUser | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@dataclass(frozen=True)
class Stranger:
    """Oscar or a visitor, before Olga's deck: their clients, and what must not reach them."""

    api: APIClient
    pages: Client
    deck: Deck
    secret: Champion
    plain_code: str

    @property
    def deck_api(self) -> str:
        return f"/api/v1/decks/{self.deck.share_id}/"

    def assert_no_trace(self, response: Any) -> None:
        _assert_no_trace(_text(response), self.secret)


@pytest.fixture(params=["other", "anonymous"])
def stranger(
    request: pytest.FixtureRequest,
    other: AbstractBaseUser,
    deck: Deck,
    secret: Champion,
    plain_code: str,
) -> Stranger:
    user = {"other": other, "anonymous": None}[request.param]
    return Stranger(_api(user), _page_client(user), deck, secret, plain_code)


def _text(response: Any) -> str:
    return response.content.decode()


def _assert_no_trace(text: str, champion: Champion) -> None:
    assert NAME not in text
    assert champion.uid not in text


def _state(deck: Deck) -> tuple[Any, ...]:
    """What a denied request must leave as it was."""
    deck.refresh_from_db()
    versions = list(DeckVersion.objects.filter(deck=deck).values_list("number", "champion"))
    return deck.champion_id, deck.version, deck.name, versions


def test_the_deck_api_and_every_export_show_no_hidden_champion(stranger: Stranger) -> None:
    plain_code = stranger.plain_code
    detail = stranger.api.get(stranger.deck_api)
    assert detail.status_code == 200
    assert detail.json()["champion"] is None
    assert detail.json()["code"] == plain_code
    stranger.assert_no_trace(detail)
    exported = stranger.api.get(f"{stranger.deck_api}export/?as=json")
    assert (exported.json()["champion"], exported.json()["code"]) == (None, plain_code)
    stranger.assert_no_trace(exported)
    code = stranger.api.get(f"{stranger.deck_api}export/?as=code")
    assert _text(code) == plain_code + "\n"
    assert deck_decode(plain_code).champion is None
    text = stranger.api.get(f"{stranger.deck_api}export/?as=text")
    assert f"# Deck code: {plain_code}" in _text(text)
    stranger.assert_no_trace(text)


def test_versions_and_their_diff_show_no_hidden_champion(stranger: Stranger) -> None:
    plain_code = stranger.plain_code
    versions = stranger.api.get(f"{stranger.deck_api}versions/")
    assert [(v["number"], v["champion"], v["code"]) for v in versions.json()["results"]] == [
        (2, "", plain_code),
        (1, "", plain_code),
    ]
    stranger.assert_no_trace(versions)
    one = stranger.api.get(f"{stranger.deck_api}versions/2/")
    assert (one.json()["champion"], one.json()["code"]) == ("", plain_code)
    diff = stranger.api.get(f"{stranger.deck_api}diff/?from=1&to=2")
    assert diff.json()["changes"] == []
    stranger.assert_no_trace(diff)
    page = stranger.pages.get(f"/decks/{stranger.deck.share_id}/diff/?from=1&to=2")
    assert page.status_code == 200
    stranger.assert_no_trace(page)


def test_the_deck_page_and_its_sheet_show_no_hidden_champion(stranger: Stranger) -> None:
    page = stranger.pages.get(f"/decks/{stranger.deck.share_id}/")
    assert page.status_code == 200
    stranger.assert_no_trace(page)
    # "Open a copy in the deckbuilder" opens the code without the Champion.
    assert f"/decks/new/?code={stranger.plain_code}" in _text(page)
    sheet = stranger.pages.get(f"{stranger.deck_api}pnp.pdf")
    assert sheet.status_code == 200
    with pdfplumber.open(io.BytesIO(sheet.content)) as document:
        text = "".join(page.extract_text() for page in document.pages)
    assert "Åsa" not in text
    asked = stranger.pages.get(f"{stranger.deck_api}pnp.pdf?champion={stranger.secret.uid}")
    assert asked.status_code == 404
    assert "Åsa" not in _text(asked)  # (the share id in its message is the one they sent)


def test_the_owner_still_sees_her_champion_everywhere(
    owner: AbstractBaseUser, deck: Deck, secret: Champion, plain_code: str
) -> None:
    with_champion = deck_check(format="constructed", cards=CONSTRUCTED, champion=secret.uid).code
    api = _api(owner)
    detail = api.get(f"/api/v1/decks/{deck.share_id}/").json()
    assert (detail["champion"], detail["code"]) == (secret.uid, with_champion)
    code = api.get(f"/api/v1/decks/{deck.share_id}/export/?as=code")
    assert _text(code) == f"{with_champion}\n"
    versions = api.get(f"/api/v1/decks/{deck.share_id}/versions/").json()["results"]
    assert [(v["champion"], v["code"]) for v in versions] == [
        (secret.uid, with_champion),
        ("", plain_code),
    ]
    diff = api.get(f"/api/v1/decks/{deck.share_id}/diff/?from=1&to=2").json()
    assert diff["changes"] == [{"field": "champion", "old": "—", "new": f"{NAME} ({secret.uid})"}]
    html = _text(_page_client(owner).get(f"/decks/{deck.share_id}/"))
    assert f'Champion: <a href="/champions/{secret.uid}/">{NAME}</a>' in html


def test_a_public_champion_is_shown_to_everyone(
    owner: AbstractBaseUser, other: AbstractBaseUser, deck: Deck, secret: Champion
) -> None:
    champion_services.champion_update(
        champion=secret, actor=owner, design=design(visibility="public")
    )
    for viewer in (other, None):
        body = _api(viewer).get(f"/api/v1/decks/{deck.share_id}/").json()
        assert body["champion"] == secret.uid
        assert deck_decode(body["code"]).champion == secret.uid
        html = _text(_page_client(viewer).get(f"/decks/{deck.share_id}/"))
        assert f'Champion: <a href="/champions/{secret.uid}/">{NAME}</a>' in html


def test_a_champion_made_private_leaves_the_decks_of_others(
    owner: AbstractBaseUser, other: AbstractBaseUser, deck: Deck, secret: Champion
) -> None:
    """Oscar forked the deck while the Champion was public; then Olga made it private: in
    Oscar's copy, for Oscar, there is no Champion any more (the row still points at it)."""
    champion_services.champion_update(
        champion=secret, actor=owner, design=design(visibility="public")
    )
    fork = services.deck_fork(deck=deck, owner=other)
    assert fork.champion == secret
    champion_services.champion_update(champion=secret, actor=owner, design=design())
    body = _api(other).get(f"/api/v1/decks/{fork.share_id}/").json()
    assert (body["champion"], deck_decode(body["code"]).champion) == (None, None)
    versions = _api(other).get(f"/api/v1/decks/{fork.share_id}/versions/").json()["results"]
    assert [v["champion"] for v in versions] == [""]
    _assert_no_trace(_text(_page_client(other).get(f"/decks/{fork.share_id}/")), secret)
    edit = _text(_page_client(other).get(f"/decks/{fork.share_id}/edit/"))
    picker = edit[edit.index('<select id="deck-champion" name="champion">') :]
    picker = picker[: picker.index("</select>")]
    assert '<option value="">No Champion</option>' in picker and " selected" not in picker
    _assert_no_trace(edit, secret)


def test_denied_requests_change_nothing(
    other: AbstractBaseUser, deck: Deck, secret: Champion
) -> None:
    before = _state(deck)
    api = _api(other)
    patched = api.patch(f"/api/v1/decks/{deck.share_id}/", {"champion": None}, format="json")
    assert patched.status_code == 403
    restored = api.post(f"/api/v1/decks/{deck.share_id}/versions/1/restore/")
    assert restored.status_code == 403
    created = api.post(
        "/api/v1/decks/",
        {"name": "Mine", "format": "constructed", "cards": CONSTRUCTED, "champion": secret.uid},
        format="json",
    )
    assert created.json() == {
        "code": "unknown_champion",
        "message": f"There is no Champion “{secret.uid}” you can use.",
        "details": {"field": "champion", "champion": secret.uid},
    }
    anonymous = _api(None).patch(f"/api/v1/decks/{deck.share_id}/", {"name": "x"}, format="json")
    assert anonymous.status_code == 403
    assert _state(deck) == before
    assert Deck.objects.count() == 1


def _carols_champion(django_user_model: Any, visibility: str) -> tuple[Any, Champion]:
    carol = django_user_model.objects.create_user("carol", password="pw-carol-123456")
    champion = champion_services.champion_create(
        owner=carol,
        design=ChampionDesign(
            names={"en": "Carol's own"}, mana=2, attack=1, hp=2, visibility=visibility
        ),
    )
    return carol, champion


def test_staff_cannot_attach_a_champion_the_owner_may_not_use(
    staff: AbstractBaseUser, deck: Deck, django_user_model: Any
) -> None:
    _carol, private = _carols_champion(django_user_model, "private")
    before = _state(deck)
    response = _api(staff).patch(
        f"/api/v1/decks/{deck.share_id}/", {"champion": private.uid}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "unknown_champion",
        "message": f"There is no Champion “{private.uid}” you can use.",
        "details": {"field": "champion", "champion": private.uid},
    }
    assert _state(deck) == before


def test_a_restore_leaves_out_a_champion_the_owner_may_no_longer_use(
    owner: AbstractBaseUser, deck: Deck, django_user_model: Any
) -> None:
    carol, borrowed = _carols_champion(django_user_model, "public")
    services.deck_update(deck=deck, actor=owner, champion=borrowed)  # version 3
    services.deck_update(deck=deck, actor=owner, champion=None)  # version 4
    champion_services.champion_update(
        champion=borrowed,
        actor=carol,
        design=ChampionDesign(names={"en": "Carol's own"}, mana=2, attack=1, hp=2),
    )
    restored = services.deck_version_restore(deck=deck, actor=owner, number=3)
    assert restored.champion is None
    assert DeckVersion.objects.get(deck=deck, number=5).champion == ""
