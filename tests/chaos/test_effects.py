"""The effect language: its canonical text round-trips, and every refusal says where."""

from __future__ import annotations

import pytest

from engine.chaos.cards import DATA_DIR, read_cards_csv
from engine.chaos.effects import (
    Act,
    EffectError,
    Seq,
    Then,
    keywords_of,
    parse,
    to_text,
)

TEXTS = [
    "draw 1",
    "discard 1 from hand -> draw 1",
    "draw 1; plan 2",
    "choose(draw 1 | cover | recruit 1)",
    "if played drakon >= 2 (draw 2)",
    "if opponent hand <= 3 (opponent discard 1 from deck)",
    "may(sacrifice 1 from hand -> draw 2)",
    "(draw 1; plan 1) -> draw 1",
    "draw 1 -> plan 2 -> call 1",
    "(draw 1 -> plan 2) -> call 1",
    "discard 1 from hand -> (draw 1; plan 1)",
    "sacrifice this",
    "resources +2",
    "awaken",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_canonical_text_round_trips(text: str) -> None:
    node = parse(text)
    assert to_text(node) == text
    assert parse(to_text(node)) == node


def test_words_are_case_insensitive_and_spaces_free() -> None:
    assert to_text(parse("  DISCARD 1 FROM hand->Draw 1 ")) == "discard 1 from hand -> draw 1"
    assert parse("") is None
    assert to_text(None) == ""


def test_the_tree() -> None:
    assert parse("discard 1 from hand -> draw 2; plan 3") == Seq(
        (Then(Act(1, 1, 0), Act(0, 2)), Act(4, 3))
    )


def test_every_stored_effect_is_canonical() -> None:
    for card in read_cards_csv(DATA_DIR / "cards.csv"):
        for node in (card.play, card.reaction):
            assert parse(to_text(node)) == node


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("drow 1", "unknown step 'drow'; did you mean 'draw'?", 1),
        (
            "dance",
            "unknown step 'dance' (known: draw, discard, sacrifice, plan, call, cover, "
            "resources, recruit, awaken, may, choose, if, opponent)",
            1,
        ),
        ("discard 1 from void", "'discard' takes from hand or deck, not 'void'", 16),
        ("draw 0", "the number after 'draw' must be from 1 to 9, not 0", 6),
        ("draw x", "the number after 'draw' must be a whole number, not 'x'", 6),
        ("choose(draw 1)", "'choose' needs at least two options separated by '|'", 1),
        ("draw 1 plan 2", "unexpected 'plan'", 8),
        (
            "opponent plan 2",
            "'opponent' goes with draw, discard or sacrifice from hand or deck",
            10,
        ),
        ("if played drakon > 2 (draw 1)", "expected one of <=, >=, =, found '>'", 18),
        ("if deck drakon <= 2 (draw 1)", "only 'played' counts the cards of a clan", 9),
        ("draw 1;", "the effect ends too early", 8),
        ("may(draw 1", "expected ')', found the end", 11),
        ("draw 1 $", "unexpected character '$'", 8),
        ("((((((((draw 1))))))))", "too deeply nested", 8),
    ],
)
def test_refusals_name_the_column(text: str, message: str, column: int) -> None:
    with pytest.raises(EffectError) as caught:
        parse(text)
    assert (caught.value.message, caught.value.column) == (message, column)


def test_keywords_of_an_effect() -> None:
    assert keywords_of(parse("draw 1; call 2 -> sacrifice this; plan 1; cover")) == [
        "plan",
        "call",
        "sacrifice",
        "cover",
    ]
    assert keywords_of(parse("awaken")) == ["awakening"]
    assert keywords_of(None) == []
