import csv
import io

import pytest
from django.test import Client
from django.utils.http import http_date

from cards.models import Ability, Card, CardTranslation
from cards.selectors import catalogue_revision
from cards.services import catalogue_revision_record
from tests.cards.conftest import Row, read_csv

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def test_card_detail_in_each_language(client: Client) -> None:
    english = client.get("/api/v1/cards/emerald-dragon/").json()
    assert english["name"] == "Emerald dragon"
    assert english["names"] == {"en": "Emerald dragon", "fr": "Dragon émeraude"}
    assert (english["type"], english["mana"], english["attack"], english["hp"]) == (
        "creature",
        6,
        3,
        5,
    )
    assert [a["code"] for a in english["abilities"]] == ["catalyst", "regeneration", "instinct"]
    assert english["expansion"] == {"code": "02", "slug": "submersion", "name": "Submersion"}
    french = client.get("/api/v1/cards/emerald-dragon/?lang=fr").json()
    assert french["name"] == "Dragon émeraude"
    assert french["abilities"][1]["name"] == "Régénération"
    assert french["abilities"][1]["rule_id"] == "ability-regeneration"
    swedish = client.get("/api/v1/cards/emerald-dragon/", headers={"accept-language": "sv"})
    assert swedish.headers["Content-Language"] == "sv"
    assert (swedish.json()["name"], swedish.json()["name_is_fallback"]) == ("Emerald dragon", True)


def test_unknown_card_is_a_json_404(client: Client) -> None:
    response = client.get("/api/v1/cards/no-such-card/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_list_is_paginated_and_filters_like_the_data_file(client: Client, rows: list[Row]) -> None:
    body = client.get("/api/v1/cards/").json()
    assert body["count"] == 352
    assert len(body["results"]) == 50
    body = client.get(
        "/api/v1/cards/", {"set": "submersion", "type": "creature", "mana_max": 3}
    ).json()
    expected = sorted(
        r.slug for r in rows if r.set_code == "02" and r.type == "creature" and r.mana <= 3
    )
    assert sorted(card["slug"] for card in body["results"]) == expected
    body = client.get(
        "/api/v1/cards/", {"ability": "splash", "q": "cost<=4", "page_size": 200}
    ).json()
    assert body["count"] == sum(1 for r in rows if "splash" in r.abilities and r.mana <= 4)
    body = client.get("/api/v1/cards/", {"aura": "rage"}).json()
    assert [card["slug"] for card in body["results"]] == [r.slug for r in rows if "rage" in r.auras]


@pytest.mark.parametrize("page_size", [1, 10, 50, 200])
def test_the_card_list_runs_a_fixed_number_of_queries(
    client: Client, django_assert_num_queries: object, page_size: int
) -> None:
    client.get("/api/v1/cards/", {"q": "set:00", "page_size": 1})  # builds the name index
    # revision, count, page, then one query each for card names, expansion names, abilities
    # (with their rules) and ability names
    with django_assert_num_queries(7):  # type: ignore[operator]
        response = client.get("/api/v1/cards/", {"q": "type:creature", "page_size": page_size})
    assert len(response.json()["results"]) == page_size


def test_a_cached_answer_needs_one_query(client: Client, django_assert_num_queries: object) -> None:
    first = client.get("/api/v1/cards/", {"q": "ab:splash cost<=4"})
    with django_assert_num_queries(1):  # type: ignore[operator]
        second = client.get("/api/v1/cards/", {"q": "ab:splash cost<=4"})
    assert second.json() == first.json()


def test_etag_and_last_modified_answer_304(client: Client) -> None:
    response = client.get("/api/v1/cards/", {"q": "grrr"})
    etag = response.headers["ETag"]
    revision = catalogue_revision()
    assert response.headers["Last-Modified"] == http_date(int(revision.modified.timestamp()))
    assert "Accept-Language" in response.headers["Vary"]
    again = client.get("/api/v1/cards/", {"q": "grrr"}, headers={"if-none-match": etag})
    assert again.status_code == 304
    assert again.content == b""
    since = client.get(
        "/api/v1/cards/",
        {"q": "grrr"},
        headers={"if-modified-since": response.headers["Last-Modified"]},
    )
    assert since.status_code == 304
    other_language = client.get(
        "/api/v1/cards/", {"q": "grrr", "lang": "fr"}, headers={"if-none-match": etag}
    )
    assert other_language.status_code == 200


def test_a_catalogue_change_gives_a_new_etag_and_fresh_data(client: Client) -> None:
    response = client.get("/api/v1/cards/grrr/")
    translation = CardTranslation.objects.get(card__slug="grrr", language_code="en")
    translation.name = "Grrrr"
    translation.save()
    catalogue_revision_record(summary="test edit")
    changed = client.get("/api/v1/cards/grrr/", headers={"if-none-match": response.headers["ETag"]})
    assert changed.status_code == 200
    assert changed.json()["name"] == "Grrrr"
    assert changed.headers["ETag"] != response.headers["ETag"]


def test_export_json_and_csv_hold_the_whole_catalogue(client: Client, rows: list[Row]) -> None:
    body = client.get("/api/v1/cards/export.json").json()
    assert len(body) == Card.objects.count() == 352 + 22
    response = client.get("/api/v1/cards/export.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert "ETag" in response.headers
    exported = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(exported) == 374
    by_slug = {row["slug"]: row for row in exported}
    for row in rows:
        line = by_slug[row.slug]
        assert (
            line["set_code"],
            line["name_en"],
            line["name_fr"],
            line["mana"],
            line["abilities"],
        ) == (
            row.set_code,
            row.name_en,
            row.name_fr,
            str(row.mana),
            ";".join(row.raw_abilities),
        )


def test_expansions_abilities_and_rules(client: Client, rows: list[Row]) -> None:
    expansions = client.get("/api/v1/expansions/?lang=fr").json()
    assert expansions["count"] == 11
    assert [e["code"] for e in expansions["results"]] == [
        r["code"] for r in read_csv("expansions.csv")
    ]
    assert expansions["results"][1]["name"] == "Félonie"
    assert all(e["deckable_count"] == 32 and e["card_count"] == 36 for e in expansions["results"])
    abilities = client.get("/api/v1/abilities/?lang=fr").json()
    assert abilities["count"] == 27
    sprint = next(a for a in abilities["results"] if a["code"] == "sprint")
    assert sprint["aliases"] == ["Bondir"]
    assert sprint["card_count"] == sum(1 for r in rows if "sprint" in r.abilities)
    assert sprint["rules_text"].startswith("Chaque fois que le possesseur attaque")
    assert sprint["rule_id"] == "ability-sprint"
    rules = client.get("/api/v1/rules/?lang=sv&page_size=200").json()
    # 81 entries, the 19 finer Solo rules of issue 15 (11.0.1, 11.2.x, 11.4.x, 11.5.x) and its
    # 3 entries on Custom Play's points, the formats in Solo and the 2021 edition (11.6-11.8).
    assert rules["count"] == 103
    by_id = {rule["id"]: rule for rule in rules["results"]}
    assert by_id["solo-mana"]["title"] == "AI:ns Fas 1: Mana"
    assert by_id["solo-cursed"]["title"] == "AI:ns undantag: Cursed"
    assert not any(rule["is_fallback"] for rule in rules["results"])
    assert by_id["game-end"]["title"] == "Spelets slut" and not by_id["game-end"]["is_fallback"]
    assert by_id["champion"]["title"] == "Championmodulen"
    assert not by_id["champion"]["is_fallback"] and by_id["champion"]["language"] == "sv"
    assert by_id["ability-splash"]["ability"] == "splash"
    assert by_id["ability-splash"]["page_url"] == "/sv/rules/#ability-splash"


def test_unknown_language_is_refused(client: Client) -> None:
    response = client.get("/api/v1/cards/?lang=de")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_language"


def test_ability_costs_are_decimal_strings(client: Client) -> None:
    body = client.get("/api/v1/abilities/", {"page_size": 50}).json()
    aerial = next(a for a in body["results"] if a["code"] == "aerial")
    assert (aerial["creature_cost"], aerial["incantation_cost"]) == ("0.5", None)
    assert Ability.objects.get(code="aerial").creature_cost is not None
