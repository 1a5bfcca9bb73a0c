"""The decks API end to end: validate, decode, import, CRUD, versions, restore, fork, export."""

import pytest
from django.contrib.auth.models import AbstractBaseUser
from rest_framework.test import APIClient

from decks.models import Deck, DeckVersion
from decks.selectors.checks import deck_check
from tests.decks.conftest import CONSTRUCTED, PRECON

pytestmark = pytest.mark.usefixtures("cards_db")


@pytest.fixture
def api(owner: AbstractBaseUser) -> APIClient:
    client = APIClient()
    client.force_login(owner)
    return client


def _create(api: APIClient, **extra: object) -> dict:
    body = {"name": "Sharp teeth", "format": "constructed", "cards": CONSTRUCTED, **extra}
    response = api.post("/api/v1/decks/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_validate_is_open_to_visitors_and_lists_every_violation() -> None:
    response = APIClient().post(
        "/api/v1/decks/validate/",
        {"format": "constructed", "cards": ["grrr", "grrr", "baron"], "mode": "solo"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False
    assert body["errors"] == [
        {
            "code": "deck_size",
            "message": "A Constructed deck holds exactly 8 cards; this one holds 3.",
            "cards": [],
        },
        {
            "code": "duplicate_card",
            "message": "Grrr is in the deck 2 times: a deck holds different cards.",
            "cards": ["grrr"],
        },
        {
            "code": "format_not_allowed_in_mode",
            "message": "The Constructed format cannot be played in Solo mode.",
            "cards": [],
        },
    ]
    assert [card["slug"] for card in body["cards"]] == ["grrr", "grrr", "baron"]
    assert body["code"] == deck_check(format="constructed", cards=["grrr", "grrr", "baron"]).code


def test_validate_a_legal_deck_gives_its_code() -> None:
    response = APIClient().post(
        "/api/v1/decks/validate/", {"format": "preconstructed", "cards": PRECON[1]}, format="json"
    )
    assert response.json() == {
        "legal": True,
        "errors": [],
        "code": "AdNHAAgmfMwnxu9n6Sd9Jx6Z7O6wbx_Ui8fePiVwQwD9",
        "cards": response.json()["cards"],
    }
    assert response.json()["cards"][0] == {
        "slug": "annihilation",
        "name": "Annihilation",
        "card_type": "incantation",
        "mana": 4,
        "attack": 6,
        "hp": None,
        "expansion": "00",
    }


@pytest.mark.parametrize(
    ("body", "code", "details"),
    [
        (
            {"format": "modern", "cards": []},
            "unknown_format",
            {
                "format": "modern",
                "choices": [
                    "constructed",
                    "constructed-2021",
                    "draft",
                    "mutation",
                    "preconstructed",
                ],
            },
        ),
        (
            {"format": "constructed", "cards": [], "mode": "raid"},
            "unknown_mode",
            {"mode": "raid", "choices": ["coop", "duel", "free-for-all", "solo", "teams"]},
        ),
    ],
)
def test_validate_refuses_unknown_formats_and_modes(body: dict, code: str, details: dict) -> None:
    response = APIClient().post("/api/v1/decks/validate/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert {
        k: sorted(v) if isinstance(v, list) else v for k, v in response.json()["details"].items()
    } == details


def test_validate_refuses_a_malformed_request() -> None:
    response = APIClient().post("/api/v1/decks/validate/", {"cards": "grrr"}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert set(response.json()["details"]) == {"format", "cards"}


def test_decode_opens_any_deck_without_an_account() -> None:
    code = deck_check(
        format="constructed-2021", cards=[*PRECON[1], "alpha", "ogre"], removed=["troll", "ogre"]
    ).code
    response = APIClient().get(f"/api/v1/decks/decode/?code={code}")
    assert response.status_code == 200
    body = response.json()
    assert body["format"] == "constructed-2021"
    assert sorted(card["slug"] for card in body["cards"]) == sorted([*PRECON[1], "alpha", "ogre"])
    assert [card["slug"] for card in body["removed"]] == ["ogre", "troll"]
    assert body["legal"] is True
    assert body["errors"] == []
    assert body["url"] == f"http://testserver/d/{code}"
    assert body["champion"] is None


def test_decode_carries_a_champion_share_id() -> None:
    code = deck_check(format="constructed", cards=CONSTRUCTED, champion="Xy_Z-12ab34").code
    body = APIClient().get(f"/api/v1/decks/decode/?code={code}").json()
    assert body["champion"] == "Xy_Z-12ab34"


MISTYPED = "This deck code is mistyped: its checksum does not match."


@pytest.mark.parametrize(
    ("code", "reason", "message"),
    [
        ("", "empty", "The deck code is empty."),
        ("AdNHAAgmfMwnxu9n6Sd9Jx6Z7O6wbx_Ui8fePiVwQwD8", "checksum", MISTYPED),
        ("AdNHAAgmfMwnxu9n6Sd9Jx6Z7O6wbx_Ui8fePiVwQw", "checksum", MISTYPED),
        ("Ad%2BHAA", "bad_character", "A deck code holds only letters, digits, “-” and “_”."),
    ],
)  # fmt: skip
def test_decode_refuses_bad_codes_with_400(code: str, reason: str, message: str) -> None:
    response = APIClient().get(f"/api/v1/decks/decode/?code={code}")
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_deck_code",
        "message": message,
        "details": {"reason": reason},
    }


def test_import_answers_every_line() -> None:
    text = "# My list\n\nGrrr\n1x Dragon émeraude (02)\n2 Baron\nGrr\nTroll (03)\n// end\n"
    response = APIClient().post("/api/v1/decks/import/", {"text": text}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert [
        (line["line"], line["card"] and line["card"]["slug"], line["problem"])
        for line in body["lines"]
    ] == [
        (3, "grrr", None),
        (4, "emerald-dragon", None),
        (5, "baron", None),
        (5, "baron", None),
        (6, None, "unknown"),
        (7, None, "not_in_set"),
    ]
    assert body["cards"] == ["grrr", "emerald-dragon", "baron", "baron"]
    assert body["unknown"] == 2
    assert [card["slug"] for card in body["lines"][4]["suggestions"]] == [
        "grrr", "gorger", "growler", "grabber", "ogre",
    ]  # fmt: skip
    assert body["lines"][5]["suggestions"][0]["slug"] == "troll"
    assert body["lines"][5]["set_code"] == "03"


def test_create_then_read(api: APIClient, owner: AbstractBaseUser) -> None:
    body = _create(api, description="**Fast** <script>alert(1)</script>", visibility="unlisted")
    deck = Deck.objects.get(share_id=body["share_id"])
    assert body["name"] == "Sharp teeth"
    assert body["owner"] == "olga"
    assert body["version"] == 1
    assert body["visibility"] == "unlisted"
    assert [card["slug"] for card in body["cards"]] == CONSTRUCTED
    assert body["legal"] is True
    assert body["errors"] == []
    assert body["code"] == deck_check(format="constructed", cards=CONSTRUCTED).code
    assert body["description_html"] == "<p><strong>Fast</strong> </p>"
    assert body["url"] == f"http://testserver/decks/{deck.share_id}/"
    assert deck.owner == owner
    assert list(deck.versions.values_list("number", "kind")) == [(1, "created")]


def test_create_accepts_names_in_any_language(api: APIClient) -> None:
    body = _create(api, cards=["Grrr", "Dragon émeraude"], format="constructed")
    assert [card["slug"] for card in body["cards"]] == ["grrr", "emerald-dragon"]
    assert [error["code"] for error in body["errors"]] == ["deck_size"]


def test_create_refuses_unknown_cards_and_saves_nothing(api: APIClient) -> None:
    response = api.post(
        "/api/v1/decks/",
        {"name": "X", "format": "constructed", "cards": ["grrr", "Grr", "zzzzqqqq"]},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_card"
    assert body["message"] == (
        "No card is named “Grr”. Did you mean: Grrr, Gorger, Growler, Grabber, Ogre? "
        "No card is named “zzzzqqqq”."
    )
    assert [error["input"] for error in body["details"]["errors"]] == ["Grr", "zzzzqqqq"]
    assert body["details"]["field"] == "cards"
    assert Deck.objects.count() == 0


def test_visitors_cannot_save() -> None:
    response = APIClient().post(
        "/api/v1/decks/",
        {"name": "X", "format": "constructed", "cards": CONSTRUCTED},
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"
    assert Deck.objects.count() == 0


def test_every_save_is_a_version_and_history_can_be_compared_and_restored(api: APIClient) -> None:
    share_id = _create(api)["share_id"]
    url = f"/api/v1/decks/{share_id}/"
    api.patch(url, {"cards": [*CONSTRUCTED[:7], "vortex"]}, format="json")
    api.patch(url, {"name": "Sharper", "description": "v3"}, format="json")
    api.put(
        url, {"name": "Sharper", "format": "constructed", "cards": CONSTRUCTED[:6]}, format="json"
    )
    versions = api.get(f"{url}versions/").json()
    assert versions["count"] == 4
    assert [(v["number"], v["kind"], v["name"], len(v["cards"])) for v in versions["results"]] == [
        (4, "edited", "Sharper", 6),
        (3, "edited", "Sharper", 8),
        (2, "edited", "Sharp teeth", 8),
        (1, "created", "Sharp teeth", 8),
    ]
    diff = api.get(f"{url}diff/?from=1&to=3").json()
    assert diff == {
        "old": 1,
        "new": 3,
        "added": ["vortex"],
        "dropped": ["dislocation"],
        "kept": CONSTRUCTED[:7],
        "changes": [
            {"field": "name", "old": "Sharp teeth", "new": "Sharper"},
            {"field": "description", "old": "", "new": "v3"},
        ],
    }
    restored = api.post(f"{url}versions/2/restore/").json()
    assert restored["version"] == 5
    assert restored["name"] == "Sharp teeth"
    assert [card["slug"] for card in restored["cards"]] == [*CONSTRUCTED[:7], "vortex"]
    latest = api.get(f"{url}versions/5/").json()
    assert (latest["kind"], latest["source_number"], latest["author"]) == ("restored", 2, "olga")
    assert api.get(f"{url}versions/9/").status_code == 404
    assert api.post(f"{url}versions/9/restore/").status_code == 404
    assert api.get(f"{url}diff/?from=1").status_code == 400


def test_fork_copies_and_remembers_its_parent(api: APIClient, other: AbstractBaseUser) -> None:
    original = _create(api, visibility="public", description="mine")
    client = APIClient()
    client.force_login(other)
    response = client.post(f"/api/v1/decks/{original['share_id']}/fork/", {}, format="json")
    assert response.status_code == 201
    fork = response.json()
    assert fork["owner"] == "oscar"
    assert fork["parent"] == original["share_id"]
    assert fork["visibility"] == "private"
    assert fork["share_id"] != original["share_id"]
    assert [c["slug"] for c in fork["cards"]] == [c["slug"] for c in original["cards"]]
    assert fork["description"] == "mine"
    version = DeckVersion.objects.get(deck__share_id=fork["share_id"])
    assert (version.number, version.kind, version.source_number) == (1, "forked", 1)
    # The fork is the other player's own: the original's owner cannot change it.
    assert (
        api.patch(f"/api/v1/decks/{fork['share_id']}/", {"name": "x"}, format="json").status_code
        == 404
    )


def test_legacy_deck_records_the_removals(api: APIClient) -> None:
    deck = _create(
        api,
        format="constructed-2021",
        cards=[*PRECON[1], "alpha", "ogre"],
        removed=["Troll", "ogre"],
    )
    assert [(c["slug"], c["removed"]) for c in deck["cards"] if c["removed"]] == [
        ("troll", True),
        ("ogre", True),
    ]
    assert deck["legal"] is True
    decoded = APIClient().get(f"/api/v1/decks/decode/?code={deck['code']}").json()
    assert [c["slug"] for c in decoded["removed"]] == ["ogre", "troll"]
    refused = api.patch(f"/api/v1/decks/{deck['share_id']}/", {"removed": ["grrr"]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "removed_card_not_in_deck"


def test_draft_deck_keeps_its_pool(api: APIClient) -> None:
    pool = [*PRECON[3], *PRECON[4]]
    deck = _create(api, format="draft", cards=PRECON[3], pool=pool)
    assert deck["pool"] == sorted(pool)
    assert deck["legal"] is True
    changed = api.patch(
        f"/api/v1/decks/{deck['share_id']}/", {"pool": PRECON[4]}, format="json"
    ).json()
    assert [e["code"] for e in changed["errors"]] == ["card_not_in_pool"] * 8


def test_export_as_text_json_and_code(api: APIClient) -> None:
    deck = _create(api, cards=["grrr", "emerald-dragon"])
    url = f"/api/v1/decks/{deck['share_id']}/export/"
    text = api.get(f"{url}?as=text&lang=fr")
    assert text["Content-Type"] == "text/plain; charset=utf-8"
    assert text.content.decode() == (
        "# Sharp teeth\n"
        "# Format : Construit\n"
        f"# Code du deck : {deck['code']}\n"
        "Grrr (00)\n"
        "Dragon émeraude (02)\n"
    )
    assert api.get(f"{url}?as=code").content.decode() == deck["code"] + "\n"
    assert api.get(f"{url}?as=json").json()["share_id"] == deck["share_id"]
    assert api.get(f"{url}?as=pdf").status_code == 400
    imported = APIClient().post(
        "/api/v1/decks/import/", {"text": text.content.decode()}, format="json"
    )
    assert imported.json()["cards"] == ["grrr", "emerald-dragon"]


def test_public_list_search_and_sort(api: APIClient, other: AbstractBaseUser) -> None:
    a = _create(api, name="Alpha strike", visibility="public")
    b = _create(api, name="Bogged", visibility="public", cards=PRECON[1], format="preconstructed")
    _create(api, name="Hidden", visibility="unlisted")
    client = APIClient()
    client.force_login(other)
    client.post(f"/api/v1/decks/{b['share_id']}/fork/", {}, format="json")

    def names(query: str) -> list[str]:
        response = APIClient().get(f"/api/v1/decks/?{query}")
        assert response.status_code == 200, response.json()
        return [row["name"] for row in response.json()["results"]]

    assert names("sort=name") == ["Alpha strike", "Bogged"]
    assert names("sort=forks") == ["Bogged", "Alpha strike"]
    assert names("card=emerald-dragon") == ["Alpha strike"]
    assert names("card=Dragon émeraude") == ["Alpha strike"]
    assert names("card=grrr&card=troll") == ["Alpha strike"]
    assert names("ability=catalyst") == ["Alpha strike"]
    assert names("ability=Catalyseur") == ["Alpha strike"]
    assert names("format=preconstructed") == ["Bogged"]
    assert names("author=OLGA&sort=name") == ["Alpha strike", "Bogged"]
    assert names("author=oscar") == []
    assert names("q=strike") == ["Alpha strike"]
    row = APIClient().get("/api/v1/decks/?q=bogged").json()["results"][0]
    assert (row["card_count"], row["fork_count"], row["format"]) == (8, 1, "preconstructed")
    assert a["share_id"] in [
        r["share_id"] for r in APIClient().get("/api/v1/decks/").json()["results"]
    ]
    bad = APIClient().get("/api/v1/decks/?card=Grr")
    assert bad.status_code == 400
    assert bad.json()["code"] == "unknown_card"
    assert APIClient().get("/api/v1/decks/?ability=flying").json()["code"] == "unknown_ability"


def test_formats_and_modes_endpoints() -> None:
    formats = APIClient().get("/api/v1/formats/?lang=sv").json()
    assert [f["slug"] for f in formats] == [
        "preconstructed", "draft", "constructed", "mutation", "constructed-2021",
    ]  # fmt: skip
    legacy = formats[4]
    assert legacy == {
        "slug": "constructed-2021",
        "name": "Konstruerat 2021 (äldre regel)",
        "description": legacy["description"],
        "deck_size": 10,
        "removals": 2,
        "allowed_card_types": ["creature", "incantation"],
        "pool_kind": "catalogue",
        "expansions": ["00"],
        "banned_cards": [],
        "modes": [{"slug": "duel", "name": "Duell", "players": 2}],
    }
    assert APIClient().get("/api/v1/formats/draft/").json()["pool_kind"] == "supplied"
    assert APIClient().get("/api/v1/formats/nope/").status_code == 404
    modes = APIClient().get("/api/v1/game-modes/?lang=fr").json()
    assert [(m["slug"], m["name"], m["players"]) for m in modes] == [
        ("solo", "Solo", 1),
        ("duel", "Duel", 2),
        ("coop", "Coopératif", 2),
        ("free-for-all", "Chacun pour soi", 4),
        ("teams", "Par équipe (2 contre 2)", 4),
    ]
