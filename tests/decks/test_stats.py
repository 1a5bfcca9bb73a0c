"""Deck figures: mana curve, types, abilities and the opening-hand odds, exact fractions."""

from fractions import Fraction
from types import SimpleNamespace

import pytest

from decks import stats
from decks.selectors.figures import deck_figures
from decks.selectors.lookup import cards_require
from tests.decks.conftest import PRECON


def _cards(*costs: int) -> list[SimpleNamespace]:
    return [
        SimpleNamespace(mana=cost, card_type="creature", slug=f"c{i}")
        for i, cost in enumerate(costs)
    ]


def test_hand_odds_are_exact_over_every_shuffle() -> None:
    # Four 7-Mana cards: 1 of the 70 possible leftmost fours has nothing to play with 6 Mana.
    odds = stats.hand_odds(_cards(7, 7, 7, 7, 1, 2, 3, 4))  # type: ignore[arg-type]
    assert odds == stats.HandOdds(4, Fraction(38, 8), Fraction(69, 70))
    assert stats.hand_odds(_cards(7, 8, 9)) == stats.HandOdds(3, Fraction(8), Fraction(0))  # type: ignore[arg-type]
    assert stats.hand_odds([]) is None


def test_opening_hand_is_a_reproducible_shuffle() -> None:
    cards = _cards(7, 1, 2, 3, 4, 5, 6, 8)
    hand = stats.opening_hand(cards, seed=3)  # type: ignore[arg-type]
    assert sorted(slot.card.slug for slot in hand) == sorted(card.slug for card in cards)
    assert [slot.playable for slot in hand] == [True] * 4 + [False] * 4
    assert all(slot.affordable == (slot.playable and slot.card.mana <= 6) for slot in hand)
    assert [slot.card.slug for slot in stats.opening_hand(cards, seed=3)] == [
        s.card.slug for s in hand
    ]  # type: ignore[arg-type]


def test_mana_curve_spans_at_least_zero_to_six() -> None:
    curve = stats.mana_curve(_cards(2, 2, 9))  # type: ignore[arg-type]
    assert [(bar.key, bar.count, bar.percent) for bar in curve] == [
        ("0", 0, 0), ("1", 0, 0), ("2", 2, 100), ("3", 0, 0), ("4", 0, 0), ("5", 0, 0),
        ("6", 0, 0), ("7", 0, 0), ("8", 0, 0), ("9", 1, 50),
    ]  # fmt: skip


@pytest.mark.usefixtures("cards_db")
def test_figures_of_a_real_deck() -> None:
    figures = deck_figures(cards_require(PRECON[3], "cards"), seed=1)
    assert [(bar.label, bar.count) for bar in figures.types] == [
        ("Creatures", 7),
        ("Incantations", 1),
    ]
    # Most frequent first, then by name; an Aura counts apart from the ability itself.
    assert [(bar.key, bar.label, bar.count, bar.percent) for bar in figures.abilities] == [
        ("rage", "Rage", 4, 100),
        ("perforation", "Perforation", 3, 75),
        ("berserk", "Berserk", 2, 50),
        ("splash", "Splash", 2, 50),
        ("protection", "Protection", 1, 25),
        ("aura:sprint", "Aura: Sprint", 1, 25),
    ]
