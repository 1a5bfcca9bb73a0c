"""The deck code codec on its own (no database): round trips, canonical form, error detection."""

import base64
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks import deck_code
from decks.deck_code import DeckCodeContent, DeckCodeError, card_identity, decode, encode

ALPHABET = string.ascii_letters + string.digits + "-_"

card_ids = st.integers(min_value=0, max_value=2**24 - 1)
champions = st.none() | st.text(alphabet=ALPHABET, min_size=1, max_size=16)


@st.composite
def contents(draw: st.DrawFn) -> DeckCodeContent:
    cards = draw(st.lists(card_ids, max_size=deck_code.MAX_CARDS))
    removed = draw(st.lists(st.sampled_from(cards), unique=True)) if cards else []
    return DeckCodeContent(
        draw(st.integers(min_value=0, max_value=2**16 - 1)),
        tuple(cards),
        tuple(removed),
        draw(champions),
    )


def _raw(body: bytes) -> str:
    """A code from raw body bytes with a correct checksum: to reach the checks behind it."""
    data = body + deck_code.checksum(body)
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# The Initiation Pack's deck 1 in Preconstructed: this code was shared, it must keep working.
PRECON_1 = ["annihilation", "baron", "boom", "brute", "carapace", "partisan", "revenant", "troll"]
PRECON_1_CODE = "AdNHAAgmfMwnxu9n6Sd9Jx6Z7O6wbx_Ui8fePiVwQwD9"


def _precon_1() -> DeckCodeContent:
    return DeckCodeContent(
        deck_code.format_identity("preconstructed"), tuple(card_identity(s) for s in PRECON_1)
    )


def test_codes_are_stable_across_releases() -> None:
    assert card_identity("grrr") == 0xDFEE1F
    assert encode(_precon_1()) == PRECON_1_CODE
    assert decode(PRECON_1_CODE) == _precon_1().canonical()
    assert len(PRECON_1_CODE) == 44
    assert set(PRECON_1_CODE) <= set(ALPHABET)


@given(contents())
@settings(max_examples=400)
def test_round_trip(content: DeckCodeContent) -> None:
    code = encode(content)
    assert set(code) <= set(ALPHABET)
    assert decode(code) == content.canonical()


@given(contents(), st.randoms(use_true_random=False))
def test_same_deck_in_any_order_gives_the_same_code(content: DeckCodeContent, rng) -> None:
    cards, removed = list(content.card_ids), list(content.removed_ids)
    rng.shuffle(cards)
    rng.shuffle(removed)
    shuffled = DeckCodeContent(content.format_id, tuple(cards), tuple(removed), content.champion)
    assert encode(shuffled) == encode(content)


def test_different_decks_give_different_codes() -> None:
    other = DeckCodeContent(
        deck_code.format_identity("constructed"), tuple(card_identity(s) for s in PRECON_1)
    )
    assert encode(other) != PRECON_1_CODE
    fewer = DeckCodeContent(_precon_1().format_id, _precon_1().card_ids[:7])
    assert encode(fewer) != PRECON_1_CODE


@pytest.mark.parametrize(
    "content",
    [
        _precon_1(),
        DeckCodeContent(
            deck_code.format_identity("constructed-2021"),
            tuple(range(1000, 1010)),
            (1003, 1007),
            "AbCdEfGhIjK",
        ),
        DeckCodeContent(7, ()),
    ],
    ids=["precon", "legacy-with-champion", "empty"],
)
def test_every_single_mistyped_character_is_detected(content: DeckCodeContent) -> None:
    code = encode(content)
    for position, original in enumerate(code):
        for replacement in ALPHABET:
            if replacement == original:
                continue
            typo = code[:position] + replacement + code[position + 1 :]
            with pytest.raises(DeckCodeError):
                decode(typo)


def test_swapped_neighbours_dropped_and_extra_characters_are_detected() -> None:
    code = PRECON_1_CODE
    variants = set()
    for i in range(len(code) - 1):
        variants.add(code[:i] + code[i + 1] + code[i] + code[i + 2 :])
    for i in range(len(code)):
        variants.add(code[:i] + code[i + 1 :])
        for extra in "A_9":
            variants.add(code[:i] + extra + code[i:])
    for length in range(len(code)):
        variants.add(code[:length])
    variants.discard(code)
    assert len(variants) > 200
    for variant in variants:
        with pytest.raises(DeckCodeError):
            decode(variant)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("AdNH AAgm", "bad_character"),
        ("AdNH=", "bad_character"),
        ("Ad+HAAgm", "bad_character"),
        ("A" * 601, "too_long"),
        ("A", "bad_length"),
        ("AAAA", "truncated"),
        (PRECON_1_CODE[:-2] + "AA", "checksum"),
        (_raw(bytes([2, 0, 0, 0, 0])), "unsupported_version"),
        (_raw(bytes([1, 0, 0, 0b100, 0])), "not_canonical"),
        # Two cards in descending order: a valid checksum, but not how codes are written.
        (_raw(bytes([1, 0, 0, 0, 2, 0, 0, 9, 0, 0, 1])), "not_canonical"),
        # A removed card that is not in the deck.
        (_raw(bytes([1, 0, 0, 0b10, 1, 0, 0, 1, 1, 0, 0, 2])), "not_canonical"),
        # Says 3 cards, holds 1.
        (_raw(bytes([1, 0, 0, 0, 3, 0, 0, 1])), "truncated"),
        # A byte after the end.
        (_raw(bytes([1, 0, 0, 0, 1, 0, 0, 1, 0])), "not_canonical"),
        # A Champion share id with a character outside base64url.
        (_raw(bytes([1, 0, 0, 0b01, 0, 2]) + b"a!"), "not_canonical"),
    ],
)
def test_rejections_name_their_reason(text: str, reason: str) -> None:
    with pytest.raises(DeckCodeError) as error:
        decode(text)
    assert error.value.reason == reason


def test_surrounding_whitespace_is_forgiven() -> None:
    assert decode(f"  {PRECON_1_CODE}\n") == _precon_1().canonical()


@pytest.mark.parametrize(
    "content",
    [
        DeckCodeContent(1, (5, 6), (7,)),
        DeckCodeContent(1, (5,), (5, 5)),
        DeckCodeContent(1, tuple(range(deck_code.MAX_CARDS + 1))),
        DeckCodeContent(1, (5,), (), "has space"),
        DeckCodeContent(1, (5,), (), "x" * 17),
        DeckCodeContent(2**16, (5,)),
        DeckCodeContent(1, (2**24,)),
    ],
)
def test_encode_refuses_what_no_code_can_say(content: DeckCodeContent) -> None:
    with pytest.raises(ValueError):
        encode(content)


def test_the_longest_code_fits_the_length_limit() -> None:
    content = DeckCodeContent(
        1,
        tuple(range(deck_code.MAX_CARDS)),
        tuple(range(deck_code.MAX_CARDS)),
        "x" * deck_code.CHAMPION_MAX_LENGTH,
    )
    code = encode(content)
    assert len(code) == 548
    assert len(code) <= deck_code.MAX_CODE_LENGTH
    assert decode(code) == content.canonical()
