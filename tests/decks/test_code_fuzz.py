"""Deck codes against the real catalogue: random legal decks round-trip, mutated codes never 500."""

import random
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cards.models import Card
from decks import deck_code
from decks.selectors.checks import deck_check
from decks.selectors.codes import deck_decode
from tests.decks.conftest import PRECON

pytestmark = pytest.mark.usefixtures("cards_db")

ALPHABET = string.ascii_letters + string.digits + "-_"
# Hypothesis draws indexes; the tests map them onto the catalogue's cards.
DECKABLE = st.lists(st.integers(min_value=0, max_value=351), min_size=8, max_size=8, unique=True)
LEGACY_POOL = st.lists(
    st.integers(min_value=0, max_value=31), min_size=10, max_size=10, unique=True
)


def _deckable() -> list[str]:
    return list(Card.objects.deckable().order_by("slug").values_list("slug", flat=True))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(indexes=DECKABLE, shuffle=st.randoms(use_true_random=False))
def test_random_legal_constructed_decks_round_trip(
    indexes: list[int], shuffle: random.Random
) -> None:
    slugs = [_deckable()[i] for i in indexes]
    check = deck_check(format="constructed", cards=slugs)
    assert check.legal, check.errors
    decoded = deck_decode(check.code)
    assert decoded.format.slug == "constructed"
    assert sorted(card.slug for card in decoded.cards) == sorted(slugs)
    assert decoded.removed == []
    shuffle.shuffle(slugs)
    assert deck_check(format="constructed", cards=slugs).code == check.code


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    indexes=LEGACY_POOL,
    removed=st.lists(st.integers(min_value=0, max_value=9), min_size=2, max_size=2, unique=True),
)
def test_random_legal_legacy_decks_round_trip_with_their_removals(
    indexes: list[int], removed: list[int]
) -> None:
    starter = list(
        Card.objects.filter(expansion__code="00")
        .deckable()
        .order_by("slug")
        .values_list("slug", flat=True)
    )
    slugs = [starter[i] for i in indexes]
    gone = [slugs[i] for i in removed]
    check = deck_check(format="constructed-2021", cards=slugs, removed=gone)
    assert check.legal, check.errors
    body = APIClient().get(f"/api/v1/decks/decode/?code={check.code}").json()
    assert body["format"] == "constructed-2021"
    assert sorted(card["slug"] for card in body["cards"]) == sorted(slugs)
    assert sorted(card["slug"] for card in body["removed"]) == sorted(gone)
    assert body["legal"] is True


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_preconstructed_decks_round_trip(number: int) -> None:
    check = deck_check(format="preconstructed", cards=PRECON[number])
    decoded = deck_decode(check.code)
    assert (decoded.format.slug, sorted(c.slug for c in decoded.cards)) == (
        "preconstructed",
        PRECON[number],
    )


def _mutate(code: str, rng: random.Random) -> str:
    kind = rng.randrange(8)
    i = rng.randrange(len(code))
    if kind == 0:
        return code[:i] + rng.choice(ALPHABET) + code[i + 1 :]
    if kind == 1:
        return code[:i] + rng.choice(ALPHABET) + code[i:]
    if kind == 2:
        return code[:i] + code[i + 1 :]
    if kind == 3 and i < len(code) - 1:
        return code[:i] + code[i + 1] + code[i] + code[i + 2 :]
    if kind == 4:
        return code[: rng.randrange(len(code))]
    if kind == 5:
        j = rng.randrange(len(code))
        return code[:i] + code[j:] + code[i:j]
    if kind == 6:
        return "".join(ch.swapcase() if rng.random() < 0.2 else ch for ch in code)
    return "".join(rng.choice(ALPHABET + "=+/ .~%") for _ in range(rng.randrange(1, 80)))


def test_a_thousand_mutated_codes_are_refused_never_a_server_error(owner: object) -> None:
    rng = random.Random(20211122)
    deckable = _deckable()
    codes = [
        deck_check(format=fmt, cards=rng.sample(deckable, 8), champion=champion).code
        for fmt, champion in [("constructed", None), ("draft", "AbCdEfGhIjK"), ("mutation", None)]
    ]
    codes.append(deck_check(format="preconstructed", cards=PRECON[2]).code)
    client = APIClient()
    client.force_login(owner)  # members are not throttled: a thousand calls in a row
    outcomes = {"refused": 0, "other deck": 0}
    tried = set(codes)
    while sum(outcomes.values()) < 1000:
        original = rng.choice(codes)
        mutated = _mutate(original, rng)
        if mutated in tried:
            continue
        tried.add(mutated)
        response = client.get("/api/v1/decks/decode/", {"code": mutated})
        assert response.status_code in (200, 400), (mutated, response.status_code)
        if response.status_code == 400:
            assert response.json()["code"] == "invalid_deck_code"
            assert response.json()["details"]["reason"] in {
                "empty", "too_long", "bad_character", "bad_length", "truncated", "checksum",
                "unsupported_version", "not_canonical", "unknown_format", "unknown_card",
            }  # fmt: skip
            outcomes["refused"] += 1
        else:
            # Only a code whose checksum holds may open, and then as a deck of its own.
            data = deck_code.code_bytes(mutated)
            assert deck_code.checksum(data[:-4]) == data[-4:]
            assert response.json()["code"] == mutated != original
            outcomes["other deck"] += 1
    assert outcomes == {"refused": 1000, "other deck": 0}
