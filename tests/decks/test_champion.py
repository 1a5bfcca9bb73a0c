"""A deck's optional Champion: saved, versioned, carried by the deck code, shown if visible."""

import re

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client
from rest_framework.test import APIClient

from champions.models import Champion, ChampionTranslation
from decks import services
from decks.models import Deck, DeckVersion
from decks.selectors.checks import deck_check
from decks.selectors.codes import deck_decode
from decks.selectors.formats import format_get
from decks.selectors.lookup import cards_require
from decks.selectors.versions import deck_version_diff
from tests.decks.conftest import CONSTRUCTED

pytestmark = pytest.mark.usefixtures("cards_db")


def _champion(owner: AbstractBaseUser, name: str, visibility: str = "private") -> Champion:
    champion = Champion.objects.create(owner=owner, mana=4, attack=3, hp=4, visibility=visibility)
    ChampionTranslation.objects.create(champion=champion, language_code="en", name=name)
    return champion


def _api(user: AbstractBaseUser) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_save_with_a_champion_and_decode_it(owner: AbstractBaseUser) -> None:
    hero = _champion(owner, "Hero")
    body = (
        _api(owner)
        .post(
            "/api/v1/decks/",
            {
                "name": "With hero",
                "format": "constructed",
                "cards": CONSTRUCTED,
                "champion": hero.uid,
            },
            format="json",
        )
        .json()
    )
    assert body["champion"] == hero.uid
    assert (
        body["code"] == deck_check(format="constructed", cards=CONSTRUCTED, champion=hero.uid).code
    )
    assert deck_decode(body["code"]).champion == hero.uid
    assert DeckVersion.objects.get(deck__share_id=body["share_id"]).champion == hero.uid


def test_someone_elses_private_champion_is_refused(
    owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    secret = _champion(other, "Secret")
    response = _api(owner).post(
        "/api/v1/decks/",
        {"name": "x", "format": "constructed", "cards": CONSTRUCTED, "champion": secret.uid},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "unknown_champion",
        "message": f"There is no Champion “{secret.uid}” you can use.",
        "details": {"field": "champion", "champion": secret.uid},
    }
    assert Deck.objects.count() == 0
    public = _champion(other, "Shared", "public")
    assert (
        _api(owner)
        .post(
            "/api/v1/decks/",
            {"name": "x", "format": "constructed", "cards": CONSTRUCTED, "champion": public.uid},
            format="json",
        )
        .json()["champion"]
        == public.uid
    )


def test_update_keeps_changes_or_removes_the_champion(owner: AbstractBaseUser) -> None:
    first, second = _champion(owner, "First"), _champion(owner, "Second")
    deck = services.deck_create(
        owner=owner, name="d", format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"), champion=first,
    )  # fmt: skip
    api = _api(owner)
    url = f"/api/v1/decks/{deck.share_id}/"
    assert api.patch(url, {"name": "renamed"}, format="json").json()["champion"] == first.uid
    assert api.patch(url, {"champion": second.uid}, format="json").json()["champion"] == second.uid
    assert api.patch(url, {"champion": None}, format="json").json()["champion"] is None
    versions = list(
        DeckVersion.objects.filter(deck=deck).order_by("number").values_list("champion", flat=True)
    )
    assert versions == [first.uid, first.uid, second.uid, ""]
    diff = deck_version_diff(deck, 1, 3, viewer=owner)
    assert [(c.field, c.old, c.new) for c in diff.changes] == [
        ("name", "d", "renamed"),
        ("champion", f"First ({first.uid})", f"Second ({second.uid})"),
    ]
    restored = services.deck_version_restore(deck=deck, actor=owner, number=3)
    assert restored.champion == second


def test_a_deleted_champion_leaves_the_deck_and_stays_in_history(owner: AbstractBaseUser) -> None:
    hero = _champion(owner, "Hero")
    deck = services.deck_create(
        owner=owner, name="d", format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"), champion=hero,
    )  # fmt: skip
    uid = hero.uid
    hero.delete()
    deck.refresh_from_db()
    assert deck.champion is None
    assert DeckVersion.objects.get(deck=deck).champion == uid
    restored = services.deck_version_restore(deck=deck, actor=owner, number=1)
    assert restored.champion is None


def test_fork_takes_the_champion_only_if_the_new_owner_may_see_it(
    owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    for visibility, expected in (("private", False), ("unlisted", True)):
        hero = _champion(owner, "Hero", visibility)
        deck = services.deck_create(
            owner=owner, name="d", format=format_get(slug="constructed"),
            cards=cards_require(CONSTRUCTED, "cards"), champion=hero, visibility="public",
        )  # fmt: skip
        fork = services.deck_fork(deck=deck, owner=other)
        assert (fork.champion == hero) is expected


def test_pages_show_the_champion_to_those_who_may_see_it(
    client: Client, owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    hero = _champion(owner, "Hero")
    deck = services.deck_create(
        owner=owner, name="d", format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"), champion=hero, visibility="public",
    )  # fmt: skip
    link = f'Champion: <a href="/champions/{hero.uid}/">Hero</a>'
    client.force_login(owner)
    assert link in client.get(f"/decks/{deck.share_id}/").content.decode()
    code = deck_check(format="constructed", cards=CONSTRUCTED, champion=hero.uid).code
    assert link in client.get(f"/d/{code}").content.decode()
    builder = client.get(f"/decks/new/?code={code}").content.decode()
    assert '<select id="deck-champion" name="champion">' in builder
    assert f'<option value="{hero.uid}" selected>Hero</option>' in builder
    assert "Champion: <a" in builder
    stranger = Client()
    stranger.force_login(other)
    assert "Champion:" not in stranger.get(f"/decks/{deck.share_id}/").content.decode()
    assert f"Champion: {hero.uid}" in stranger.get(f"/d/{code}").content.decode()


def test_the_champion_field_picks_among_the_champions_i_may_use(
    client: Client, owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    mine = _champion(owner, "Mine")
    public = _champion(other, "Gallery", "public")
    unlisted = _champion(other, "By link", "unlisted")
    _champion(other, "Secret")  # someone else's private Champion: never offered
    client.force_login(owner)
    html = client.get("/decks/new/").content.decode()
    picker = html[html.index('<select id="deck-champion"') :]
    picker = picker[: picker.index("</select>")]
    assert re.findall(r'<optgroup label="([^"]+)">', picker) == ["My Champions", "Public Champions"]
    # Public ones newest first (other tests' committed Champions may come along).
    newest = Champion.objects.filter(visibility="public").order_by("-created_at")[:100]
    gallery = [(one.uid, one.translations.get(language_code="en").name) for one in newest]
    assert gallery[0] == (public.uid, "Gallery")
    assert re.findall(r'<option value="([\w-]*)"[^>]*>([^<]+)</option>', picker) == [
        ("", "No Champion"), (mine.uid, "Mine"), *gallery,
    ]  # fmt: skip
    # A deck opened with an unlisted Champion keeps it, chosen, on top.
    code = deck_check(format="constructed", cards=CONSTRUCTED, champion=unlisted.uid).code
    html = client.get(f"/fr/decks/new/?code={code}").content.decode()
    picker = html[html.index('<select id="deck-champion"') :]
    picker = picker[: picker.index("</select>")]
    assert re.findall(r'<optgroup label="([^"]+)">', picker) == [
        "Le Champion de ce deck", "Mes Champions", "Champions publics",
    ]  # fmt: skip
    assert f'<option value="{unlisted.uid}" selected>By link</option>' in picker
