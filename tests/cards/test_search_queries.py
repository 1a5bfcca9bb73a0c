"""Search results against expectations computed from data/cards.csv."""

import itertools
from collections.abc import Callable

import pytest
from django.test import Client

from cards.selectors import card_search
from cards.text import fold
from tests.cards.conftest import Row, read_csv

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

ABILITY_NAMES = {
    raw["code"]: {
        fold(raw["name_en"]),
        fold(raw["name_fr"]),
        *(fold(n) for n in raw["other_names"].split(";") if n),
    }
    for raw in read_csv("abilities.csv")
}
MALUS = {raw["code"] for raw in read_csv("abilities.csv") if raw["malus"] == "1"}
SUBMERSION = next(raw["code"] for raw in read_csv("expansions.csv") if raw["slug"] == "submersion")


def names(row: Row) -> str:
    return f"{fold(row.name_en)} | {fold(row.name_fr)}"


CASES: list[tuple[str, Callable[[Row], bool]]] = [
    ("ab:splash", lambda r: "splash" in r.abilities),
    ("cost<=2 type:creature", lambda r: r.mana <= 2 and r.type == "creature"),
    ("aura:rage", lambda r: "rage" in r.auras),
    ("-ab:rage set:00", lambda r: "rage" not in r.abilities and r.set_code == "00"),
    ("ab:splash cost<=4", lambda r: "splash" in r.abilities and r.mana <= 4),
    ("ab:bondir", lambda r: "sprint" in r.abilities),
    ("ab:affûtage", lambda r: "sharpening" in r.abilities),
    ("ab:AFFUTAGE", lambda r: "sharpening" in r.abilities),
    ("ab:Réanimation", lambda r: "cursed" in r.abilities),
    ("ab:price_of_blood", lambda r: "price_of_blood" in r.abilities),
    ('ab:"prix du sang"', lambda r: "price_of_blood" in r.abilities),
    ("grrr", lambda r: "grrr" in names(r)),
    ("GRRR", lambda r: "grrr" in names(r)),
    ("dragon emeraude", lambda r: "dragon" in names(r) and "emeraude" in names(r)),
    ('"dragon emeraude"', lambda r: "dragon emeraude" in names(r)),
    ("dragon -set:02", lambda r: "dragon" in names(r) and r.set_code != "02"),
    ("set:submersion", lambda r: r.set_code == SUBMERSION),
    ("set:02", lambda r: r.set_code == "02"),
    ('set:"pack d\'initiation"', lambda r: r.set_code == "00"),
    ("set:félonie", lambda r: r.set_code == "01"),
    ("type:incantation", lambda r: r.type == "incantation"),
    ("atk>=4 hp<3", lambda r: r.attack >= 4 and r.hp is not None and r.hp < 3),
    ("hp!=3", lambda r: r.hp is not None and r.hp != 3),
    ("-hp:3", lambda r: r.hp != 3),
    ("cost>6 or cost:0", lambda r: r.mana > 6 or r.mana == 0),
    (
        "(ab:splash or ab:perforation) cost<4",
        lambda r: ("splash" in r.abilities or "perforation" in r.abilities) and r.mana < 4,
    ),
    (
        "-(ab:splash or ab:perforation) set:00",
        lambda r: not ({"splash", "perforation"} & set(r.abilities)) and r.set_code == "00",
    ),
    ("malus:yes", lambda r: bool(MALUS & (set(r.abilities) | set(r.auras)))),
    (
        "malus:no type:creature",
        lambda r: not (MALUS & (set(r.abilities) | set(r.auras))) and r.type == "creature",
    ),
    ("deck:1", lambda r: r.precon_deck == 1),
    ("deck:4 type:incantation", lambda r: r.precon_deck == 4 and r.type == "incantation"),
    ("checked:no", lambda r: not r.checked),
    ("checked:yes set:11", lambda r: r.checked and r.set_code == "11"),
    ("ab!=splash set:00", lambda r: "splash" not in r.abilities and r.set_code == "00"),
    ("", lambda r: True),
]


@pytest.mark.parametrize(("query", "predicate"), CASES, ids=[case[0] or "empty" for case in CASES])
def test_query_finds_exactly_the_cards_of_the_data_file(
    rows: list[Row], query: str, predicate: Callable[[Row], bool]
) -> None:
    expected = sorted(row.slug for row in rows if predicate(row))
    assert expected, "a case must find something to mean anything"
    assert sorted(card_search(query).values_list("slug", flat=True)) == expected


def test_the_issue_examples_through_the_api(client: Client, rows: list[Row]) -> None:
    for query, predicate in CASES[:4]:
        body = client.get("/api/v1/cards/", {"q": query, "page_size": 200}).json()
        assert body["count"] == sum(1 for row in rows if predicate(row)), query


def test_strongholds_and_bridges_only_when_asked() -> None:
    assert card_search("type:stronghold").count() == 11
    assert card_search("type:bridge set:02").count() == 1
    assert not card_search("forteresse").exists()


def test_order_by_cost_descending_then_name(rows: list[Row]) -> None:
    cards = list(card_search("ab:splash order:cost dir:desc", language="en"))
    assert [c.mana for c in cards] == sorted(
        (r.mana for r in rows if "splash" in r.abilities), reverse=True
    )
    for before, after in itertools.pairwise(cards):
        if before.mana == after.mana:
            assert (
                before.translations.get(language_code="en").name.lower()
                <= after.translations.get(language_code="en").name.lower()
            )


def test_order_by_name_follows_the_language(rows: list[Row]) -> None:
    french = [c.slug for c in card_search("set:00 order:name", language="fr")]
    expected = [
        r.slug
        for r in sorted(
            (r for r in rows if r.set_code == "00"),
            key=lambda r: (r.name_fr.lower(), r.slug),
        )
    ]
    assert french == expected


def test_order_by_set_then_collector_number() -> None:
    cards = list(card_search("deck:2 order:set"))
    numbers = [c.collector_number for c in cards]
    assert numbers == sorted(numbers)
