"""Card definitions: one validator naming each problem's field; the shipped cards; the box."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.chaos.cards import (
    DATA_DIR,
    box_from_cards,
    card_from_fields,
    card_problems,
    example_box,
    read_cards_csv,
)
from engine.chaos.errors import InputError

GOOD = {
    "name": "Courier",
    "type": "emissary",
    "clan": "chaos",
    "cost": "0",
    "deck": "both",
    "copies": "2",
    "play": "draw 1",
    "reaction_on": "discarded",
    "reaction_opponent_turn": "yes",
    "reaction": "draw 1",
    "depth": "",
    "complete": "yes",
}


def test_a_good_card_round_trips() -> None:
    assert card_problems(GOOD) == []
    card = card_from_fields(GOOD)
    assert card.to_fields() == GOOD


@pytest.mark.parametrize(
    ("change", "problems"),
    [
        (
            {"type": "creature"},
            [("type", "'creature' must be one of emissary, domain, intervention, aid")],
        ),
        ({"cost": "2"}, [("cost", "an Emissary costs 0")]),
        ({"clan": ""}, [("clan", "must not be empty on a complete card (none: no clan)")]),
        ({"deck": "3"}, [("deck", "'3' must be 1, 2 or both")]),
        (
            {"play": "drow 1"},
            [("play", "unknown step 'drow'; did you mean 'draw'? (column 1 of the effect)")],
        ),
        ({"play": "awaken"}, [("play", "'awaken' is an Intervention's effect")]),
        ({"reaction_on": "burnt"}, [("reaction_on", "'burnt' must be discarded or sacrificed")]),
        (
            {"reaction_on": ""},
            [
                ("reaction_on", "a reaction needs its condition: discarded or sacrificed"),
                ("reaction_opponent_turn", "only a reaction can apply in the opponent's turn"),
            ],
        ),
        ({"copies": "0"}, [("copies", "0 is outside 1..44")]),
        ({"depth": "3"}, [("depth", "only an Intervention is placed in the Domain pile")]),
        ({"complete": "maybe"}, [("complete", "'maybe' must be yes or no")]),
        (
            {"colour": "red"},
            [
                (
                    "colour",
                    "unknown field (known: name, type, clan, cost, deck, copies, play, "
                    "reaction_on, reaction_opponent_turn, reaction, depth, complete)",
                )
            ],
        ),
    ],
)
def test_one_problem_per_field(change: dict[str, str], problems: list[tuple[str, str]]) -> None:
    assert card_problems({**GOOD, **change}) == problems


def test_type_rules() -> None:
    domain = {"name": "D", "type": "domain", "clan": "chaos", "cost": "", "copies": "1"}
    assert card_problems(domain) == [
        ("clan", "a Domain card is Drakon or Evine"),
        ("cost", "must not be empty on a complete Domain card"),
    ]
    intervention = {
        "name": "I",
        "type": "intervention",
        "clan": "drakon",
        "cost": "1",
        "play": "awaken; draw 1",
    }
    assert card_problems(intervention) == [
        ("clan", "an intervention card has no clan (none)"),
        ("cost", "an intervention card has no cost"),
        ("play", "'awaken' is an Intervention's whole effect"),
        ("depth", "a complete Intervention says where it goes in the Domain pile"),
    ]
    aid = {
        "name": "Aid",
        "type": "aid",
        "clan": "none",
        "play": "draw 1",
        "reaction_on": "discarded",
        "reaction": "draw 1",
    }
    assert card_problems(aid) == [
        ("play", "a player aid has no effect"),
        ("reaction_on", "an aid card has no reaction"),
    ]


def test_an_incomplete_card_may_leave_facts_unknown() -> None:
    domania = {
        "name": "Domania",
        "play": "discard 1 from hand -> draw 1",
        "reaction_on": "discarded",
        "reaction": "discard 1 from deck",
        "complete": "no",
    }
    assert card_problems(domania) == []
    assert card_from_fields(domania).type == ""


def test_the_first_problem_is_raised_with_where() -> None:
    with pytest.raises(InputError, match=r"^cards\.csv line 3\.cost: an Emissary costs 0$"):
        card_from_fields({**GOOD, "cost": "1"}, "cards.csv line 3")


def test_the_shipped_cards() -> None:
    cards = read_cards_csv(DATA_DIR / "cards.csv")
    incomplete = [card.name for card in cards if not card.complete]
    assert incomplete == [
        "Domania",
        "Fenryr",
        "Nereus",
        "Ignitia Livia",
        "Homnipax",
        "Murmure de Chaos",
        "Éveil de Chaos",
        "Aide de jeu",
    ]
    by_name = {card.name: card for card in cards}
    assert (by_name["Fenryr"].cost, by_name["Nereus"].cost) == (4, 2)
    assert by_name["Éveil de Chaos"].awakening


def test_the_example_box_has_the_published_box_shape() -> None:
    box = example_box()
    assert [len(deck) for deck in box.decks] == [10, 10]
    assert Counter(card.clan for card in box.domain) == {"drakon": 22, "evine": 22}
    assert [(card.name, card.depth) for card in box.interventions] == [
        ("Open Gate", 0),
        ("Rift Beacon", 12),
        ("Void Tithe", 24),
    ]


def test_a_box_with_rulebook_cards_is_refused() -> None:
    cards = read_cards_csv(DATA_DIR / "cards.csv", "DOC")
    with pytest.raises(InputError, match="'Domania' is incomplete"):
        box_from_cards(cards)
