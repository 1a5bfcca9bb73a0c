"""Card definitions, the catalogue, the ability registry and the rule ids."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

# Importing the engine registers every handler.
from engine.rules import actions  # noqa: F401
from engine.rules.abilities import registry
from engine.rules.abilities.registry import REGISTRY, parse_abilities, registered_hooks
from engine.rules.cards import CardDef, load_catalogue, validate_deck
from engine.rules.errors import InputError
from engine.rules.rule_ids import RULES, ability_rule_id, title

DATA = Path(__file__).resolve().parents[2] / "data"


def test_catalogue_holds_every_card() -> None:
    catalogue = load_catalogue()
    assert len(catalogue) == 352
    assert sum(1 for e in catalogue.cards if e.card.type == "incantation") == 45


@pytest.mark.parametrize(
    ("number", "names"),
    [
        (
            1,
            [
                "Baron",
                "Brute",
                "Carapace",
                "Troll",
                "Revenant",
                "Partisan",
                "Annihilation",
                "Boom!",
            ],
        ),
        (
            2,
            [
                "Microctopus",
                "Scribe",
                "Alpha",
                "Lieutenant",
                "Ogre",
                "Abomination",
                "Shaman",
                "Combustion",
            ],
        ),
        (3, ["Parasite", "Grrr", "Vortex", "Disciple", "Brigand", "Martyr", "Gnome", "Meteorite"]),
        (
            4,
            [
                "Mutant",
                "Assassin",
                "Reptile",
                "Aberration",
                "Carnivore",
                "Machine",
                "Zombie",
                "Cyclone",
            ],
        ),
    ],
)
def test_preconstructed_decks(number: int, names: list[str]) -> None:
    assert [c.name for c in load_catalogue().precon(number)] == names


def test_names_are_found_in_english_or_french_whatever_the_case_and_accents() -> None:
    catalogue = load_catalogue()
    emerald = catalogue.find("dragon EMERAUDE")
    assert (emerald.name, emerald.name_fr, emerald.cost, emerald.attack, emerald.hp) == (
        "Emerald dragon",
        "Dragon émeraude",
        6,
        3,
        5,
    )
    assert emerald.abilities == ("catalyst", "regeneration", "instinct")
    assert catalogue.find("  déserteur   DAMNÉ ").name == "Damned deserter"
    assert catalogue.find("deserteur damne").name == "Damned deserter"


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(
        InputError, match=r"^unknown card 'Trol'; did you mean 'Troll', 'Patroller'\?$"
    ):
        load_catalogue().find("Trol")
    with pytest.raises(InputError, match=r"^unknown card 'Zzzzzz'$"):
        load_catalogue().find("Zzzzzz")


def test_parse_deck() -> None:
    catalogue = load_catalogue()
    assert catalogue.parse_deck(" 3 ") == catalogue.precon(3)
    assert [c.name for c in catalogue.parse_deck("baron, BRUTE")] == ["Baron", "Brute"]
    with pytest.raises(InputError, match=r"^there is no preconstructed deck 5"):
        catalogue.parse_deck("5")
    with pytest.raises(InputError, match=r"^empty card name in deck list \(check the commas\)$"):
        catalogue.parse_deck("Baron,,Brute")


def test_card_definition_masks() -> None:
    card = CardDef("Vortex", "creature", 2, 0, 3, ("aura:sprint",))
    assert card.mask == 0
    assert card.aura_mask == REGISTRY["sprint"].bit
    both = CardDef("Druid", "creature", 2, 1, 1, ("aura:indestructible", "indestructible"))
    assert both.mask == both.aura_mask == REGISTRY["indestructible"].bit


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"abilities": ("splsh",)},
            "unknown ability code 'splsh' on card 'X'; did you mean 'splash'?",
        ),
        ({"abilities": ("aura:symbiote",)}, "'symbiote' cannot be paired with an Aura on card 'X'"),
        ({"hp": 0}, "card 'X': a creature needs hp >= 1"),
        ({"cost": -1}, "card 'X': cost must be a whole number >= 0, not -1"),
        ({"attack": 1.5}, "card 'X': attack must be a whole number >= 0, not 1.5"),
        ({"type": "spell"}, "card 'X': type must be one of creature, incantation, champion"),
        ({"type": "incantation", "hp": 2}, "card 'X': an incantation has no hp"),
        (
            {"type": "incantation", "hp": 0, "abilities": ("rage",)},
            "card 'X': ability 'rage' only applies to creatures",
        ),
        (
            {"type": "incantation", "hp": 0, "abilities": ("aura:splash",)},
            "card 'X': an incantation cannot have an Aura",
        ),
    ],
)
def test_bad_card_definitions_are_refused(kwargs: dict, message: str) -> None:
    values = {"name": "X", "type": "creature", "cost": 1, "attack": 1, "hp": 1, **kwargs}
    with pytest.raises(InputError) as raised:
        CardDef(**values)
    assert str(raised.value).startswith(message)


def test_json_round_trip_and_errors() -> None:
    card = CardDef("Naga", "creature", 6, 4, 6, ("aquatic", "protection", "mercenary"), "Naga")
    assert card.to_json() == {
        "name": "Naga",
        "type": "creature",
        "cost": 6,
        "attack": 4,
        "hp": 6,
        "abilities": ["aquatic", "protection", "mercenary"],
        "name_fr": "Naga",
    }
    assert CardDef.from_json(card.to_json()) == card
    with pytest.raises(InputError, match=r"^deck\[2\]: unknown key 'atk'$"):
        CardDef.from_json({"name": "N", "type": "creature", "cost": 1, "atk": 1}, "deck[2]")
    with pytest.raises(InputError, match=r"^deck\[2\]: missing key 'cost'$"):
        CardDef.from_json({"name": "N", "type": "creature"}, "deck[2]")


def test_deck_validation() -> None:
    deck = load_catalogue().precon(1)
    assert validate_deck(deck) == deck
    with pytest.raises(
        InputError, match=r"^deck: 7 cards; a deck holds exactly 8 different cards$"
    ):
        validate_deck(deck[:7])
    twice = [*deck[:7], CardDef("BARON", "creature", 1, 1, 1)]
    with pytest.raises(InputError, match=r"^deck: duplicate card 'BARON' \(a deck holds 8"):
        validate_deck(twice)


def test_registry_matches_the_data_copy() -> None:
    with (DATA / "abilities.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 27
    assert {r["code"]: (r["name_en"], r["name_fr"]) for r in rows} == {
        a.code: (a.name_en, a.name_fr) for a in REGISTRY.values()
    }
    assert len({a.bit for a in REGISTRY.values()}) == 27


def test_every_ability_has_a_handler_and_a_rule_id() -> None:
    for code in REGISTRY:
        assert registered_hooks(code), code
        assert ability_rule_id(code) in RULES
    assert registered_hooks("symbiote") == ["placement"]
    assert registered_hooks("enchain") == ["damaged", "on_play"]


def test_every_catalogue_card_parses() -> None:
    for entry in load_catalogue().cards:
        mask, aura = parse_abilities(entry.card.abilities)
        assert (mask, aura) == (entry.card.mask, entry.card.aura_mask)


def test_codes_of_and_rule_titles() -> None:
    assert registry.codes_of(REGISTRY["rage"].bit | REGISTRY["aerial"].bit) == ["aerial", "rage"]
    assert title("phase-2-available-cards") == "Only the 4 leftmost cards can be played"
    assert title("phase-2-available-cards", "fr") == (
        "Seules les 4 cartes les plus à gauche peuvent être jouées"
    )
    assert ability_rule_id("price_of_blood") == "ability-price-of-blood"
