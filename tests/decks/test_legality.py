"""Every legality rule, through `decks.selectors.checks.deck_check`, with the exact errors."""

import pytest

from cards.models import Card
from decks.models import Format, GameMode
from decks.selectors.checks import deck_check
from tests.decks.conftest import CONSTRUCTED, PRECON

pytestmark = pytest.mark.usefixtures("cards_db")


def errors(**kwargs: object) -> list[dict]:
    kwargs.setdefault("language", "en")
    return [error.as_dict() for error in deck_check(**kwargs).errors]  # type: ignore[arg-type]


def test_the_catalogue_holds_the_rulebooks_preconstructed_decks() -> None:
    for number, slugs in PRECON.items():
        assert (
            sorted(Card.objects.filter(precon_deck=number).values_list("slug", flat=True)) == slugs
        )


@pytest.mark.parametrize("number", [1, 2, 3, 4])
@pytest.mark.parametrize("format_slug", ["preconstructed", "constructed"])
def test_the_four_preconstructed_decks_are_legal(number: int, format_slug: str) -> None:
    check = deck_check(format=format_slug, cards=PRECON[number], language="en")
    assert check.errors == []
    assert check.legal is True
    assert [card.slug for card in check.cards] == PRECON[number]


def test_a_constructed_deck_from_several_expansions_is_legal() -> None:
    assert errors(format="constructed", cards=CONSTRUCTED) == []
    assert errors(format="constructed", cards=CONSTRUCTED, mode="duel") == []


def test_duplicate() -> None:
    assert errors(format="constructed", cards=[*CONSTRUCTED[:7], "grrr"]) == [
        {
            "code": "duplicate_card",
            "message": "Grrr is in the deck 2 times: a deck holds different cards.",
            "cards": ["grrr"],
        }
    ]


def test_seven_cards() -> None:
    assert errors(format="constructed", cards=CONSTRUCTED[:7]) == [
        {
            "code": "deck_size",
            "message": "A Constructed deck holds exactly 8 cards; this one holds 7.",
            "cards": [],
        }
    ]


def test_a_stronghold() -> None:
    assert errors(format="constructed", cards=[*CONSTRUCTED[:7], "stronghold-initiation"]) == [
        {
            "code": "card_type_not_allowed",
            "message": "Stronghold is a Stronghold card; a Constructed deck allows only: "
            "Creatures, Incantations.",
            "cards": ["stronghold-initiation"],
        }
    ]


def test_an_unknown_name() -> None:
    assert errors(format="constructed", cards=[*CONSTRUCTED[:7], "Grr"]) == [
        {
            "code": "unknown_card",
            "message": "No card is named “Grr”. Did you mean: Grrr, Gorger, Growler, Grabber, "
            "Ogre?",
            "cards": [],
            "field": "cards",
            "input": "Grr",
            "suggestions": ["grrr", "gorger", "growler", "grabber", "ogre"],
        }
    ]


def test_an_unknown_name_without_any_close_card() -> None:
    assert errors(format="constructed", cards=[*CONSTRUCTED[:7], "zzzzqqqq"]) == [
        {
            "code": "unknown_card",
            "message": "No card is named “zzzzqqqq”.",
            "cards": [],
            "field": "cards",
            "input": "zzzzqqqq",
            "suggestions": [],
        }
    ]


def test_names_in_any_language_and_slugs_are_the_same_cards() -> None:
    mixed = [
        "Grrr", "BARON", "Dragon émeraude", "troll", "Boom!", "abyssal-grrr", "Dryad",
        "dislocation",
    ]  # fmt: skip
    check = deck_check(format="constructed", cards=mixed, language="en")
    assert check.errors == []
    assert [card.slug for card in check.cards] == CONSTRUCTED
    assert check.code == deck_check(format="constructed", cards=CONSTRUCTED).code


def test_banned_card() -> None:
    constructed = Format.objects.get(slug="constructed")
    constructed.banned_cards.add(Card.objects.get(slug="troll"))
    assert errors(format="constructed", cards=CONSTRUCTED) == [
        {
            "code": "banned_card",
            "message": "Troll is banned in the Constructed format.",
            "cards": ["troll"],
        }
    ]


def test_draft_deck_checked_against_its_pool() -> None:
    pool = [*PRECON[3], *PRECON[4]]
    assert errors(format="draft", cards=PRECON[4], pool=pool) == []
    assert errors(format="draft", cards=[*PRECON[4][:7], "troll"], pool=pool) == [
        {
            "code": "card_not_in_pool",
            "message": "Troll is not in your pool.",
            "cards": ["troll"],
        }
    ]


def test_draft_without_a_pool() -> None:
    assert errors(format="draft", cards=PRECON[4]) == [
        {
            "code": "pool_required",
            "message": "The Draft format checks the deck against the cards you drafted: "
            "give your pool.",
            "cards": [],
        }
    ]


def test_mutation_deck_from_the_16_card_pool() -> None:
    pool = [*PRECON[1], *PRECON[2]]
    assert errors(format="mutation", cards=PRECON[2], pool=pool, mode="duel") == []
    assert errors(format="mutation", cards=[*PRECON[2][:7], "grrr"], pool=pool) == [
        {"code": "card_not_in_pool", "message": "Grrr is not in your pool.", "cards": ["grrr"]}
    ]


def test_an_unknown_name_in_the_pool() -> None:
    assert errors(format="draft", cards=PRECON[1], pool=[*PRECON[1], "Trol"]) == [
        {
            "code": "unknown_card",
            "message": "The pool lists “Trol”, but no card has that name. Did you mean: Troll, "
            "Patroller, Growler, Tunnel troll, Thorntle?",
            "cards": [],
            "field": "pool",
            "input": "Trol",
            "suggestions": ["troll", "patroller", "growler", "tunnel-troll", "thorntle"],
        }
    ]


def test_not_a_preconstructed_deck() -> None:
    cards = [*PRECON[1][:7], "alpha"]
    assert errors(format="preconstructed", cards=cards) == [
        {
            "code": "not_a_preconstructed_deck",
            "message": "A Preconstructed deck is exactly one of the four preconstructed decks of "
            "the Initiation Pack. The closest is deck 1, which shares 7 of its 8 cards with this "
            "one.",
            "cards": ["alpha"],
        }
    ]


def test_preconstructed_deck_short_of_a_card() -> None:
    assert errors(format="preconstructed", cards=PRECON[2][:7]) == [
        {
            "code": "deck_size",
            "message": "A Preconstructed deck holds exactly 8 cards; this one holds 7.",
            "cards": [],
        },
        {
            "code": "not_a_preconstructed_deck",
            "message": "A Preconstructed deck is exactly one of the four preconstructed decks of "
            "the Initiation Pack. The closest is deck 2, which shares 7 of its 8 cards with this "
            "one.",
            "cards": [],
        },
    ]


@pytest.mark.parametrize(
    ("format_slug", "cards", "mode", "message"),
    [
        ("constructed", CONSTRUCTED, "solo",
         "The Constructed format cannot be played in Solo mode."),
        ("mutation", PRECON[1], "teams",
         "The Mutation format cannot be played in Team Play (2 vs 2) mode."),
        ("constructed-2021", [*PRECON[1], "alpha", "ogre"], "free-for-all",
         "The Constructed 2021 (legacy) format cannot be played in Free-For-All mode."),
    ],
)  # fmt: skip
def test_format_not_allowed_in_mode(
    format_slug: str, cards: list[str], mode: str, message: str
) -> None:
    pool = PRECON[1] if format_slug == "mutation" else None
    assert errors(format=format_slug, cards=cards, mode=mode, pool=pool) == [
        {"code": "format_not_allowed_in_mode", "message": message, "cards": []}
    ]


@pytest.mark.parametrize(
    ("format_slug", "allowed"),
    [
        ("preconstructed", ["solo", "duel", "coop", "free-for-all", "teams"]),
        ("draft", ["solo", "duel", "coop", "free-for-all", "teams"]),
        ("constructed", ["duel", "coop", "free-for-all", "teams"]),
        ("mutation", ["duel"]),
        ("constructed-2021", ["duel"]),
    ],
)
def test_the_shipped_modes_of_each_format(format_slug: str, allowed: list[str]) -> None:
    for mode in GameMode.objects.values_list("slug", flat=True):
        check = deck_check(format=format_slug, cards=[], mode=mode, pool=[])
        codes = [error.code for error in check.errors]
        assert ("format_not_allowed_in_mode" not in codes) == (mode in allowed), mode


LEGACY = [*PRECON[1], "alpha", "ogre"]


def test_constructed_2021_ten_cards_with_or_without_the_removals_recorded() -> None:
    assert errors(format="constructed-2021", cards=LEGACY) == []
    assert errors(format="constructed-2021", cards=LEGACY, removed=["troll", "alpha"]) == []
    assert errors(format="constructed-2021", cards=PRECON[1]) == [
        {
            "code": "deck_size",
            "message": "A Constructed 2021 (legacy) deck holds exactly 10 cards; this one holds 8.",
            "cards": [],
        }
    ]


def test_constructed_2021_removals() -> None:
    assert errors(format="constructed-2021", cards=LEGACY, removed=["troll"]) == [
        {
            "code": "removal_count",
            "message": "In the Constructed 2021 (legacy) format the opponent removes exactly 2 "
            "cards; 1 are marked as removed.",
            "cards": ["troll"],
        }
    ]
    assert errors(format="constructed-2021", cards=LEGACY, removed=["troll", "grrr"]) == [
        {
            "code": "removed_card_not_in_deck",
            "message": "Grrr is marked as removed but is not in the deck.",
            "cards": ["grrr"],
        }
    ]
    assert errors(format="constructed", cards=CONSTRUCTED, removed=["troll"]) == [
        {
            "code": "removal_count",
            "message": "In the Constructed format the opponent removes no card from the deck.",
            "cards": ["troll"],
        }
    ]


def test_constructed_2021_pool_is_the_starter_kit() -> None:
    cards = [*PRECON[1], "alpha", "emerald-dragon"]
    assert errors(format="constructed-2021", cards=cards) == [
        {
            "code": "card_not_in_pool",
            "message": "Emerald dragon (Submersion) is not in the Constructed 2021 (legacy) card "
            "pool: Initiation Pack.",
            "cards": ["emerald-dragon"],
        }
    ]


def test_every_violation_at_once_in_a_stable_order() -> None:
    Format.objects.get(slug="constructed-2021").banned_cards.add(Card.objects.get(slug="baron"))
    cards = [
        "baron", "baron", "Grr", "bridge-initiation", "emerald-dragon", "troll", "boom",
    ]  # fmt: skip
    result = errors(
        format="constructed-2021", cards=cards, mode="solo", removed=["troll", "troll", "Ogr"]
    )
    assert [(e["code"], e["cards"]) for e in result] == [
        ("unknown_card", []),
        ("unknown_card", []),
        ("deck_size", []),
        ("duplicate_card", ["baron"]),
        ("card_type_not_allowed", ["bridge-initiation"]),
        ("banned_card", ["baron"]),
        ("card_not_in_pool", ["emerald-dragon"]),
        ("removal_count", ["troll", "troll"]),
        ("removed_card_not_in_deck", ["troll"]),
        ("format_not_allowed_in_mode", []),
    ]
    assert [e.get("field") for e in result[:2]] == ["cards", "removed"]
    assert result[2]["message"] == (
        "A Constructed 2021 (legacy) deck holds exactly 10 cards; this one holds 7."
    )
    assert result[7]["message"] == (
        "In the Constructed 2021 (legacy) format the opponent removes exactly 2 cards; 3 are "
        "marked as removed."
    )
    assert deck_check(format="constructed-2021", cards=cards).code is None


def test_a_format_edited_in_the_admin_changes_the_rules() -> None:
    constructed = Format.objects.get(slug="constructed")
    constructed.deck_size = 7
    constructed.allowed_card_types = ["creature"]
    constructed.save()
    assert errors(format="constructed", cards=CONSTRUCTED[:7]) == [
        {
            "code": "card_type_not_allowed",
            "message": "Boom! is a Incantation card; a Constructed deck allows only: Creatures.",
            "cards": ["boom"],
        }
    ]
