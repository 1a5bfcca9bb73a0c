import pytest

from cod_site.errors import DomainError
from mutation.draft import (
    HAND_SIZE,
    check_pick,
    deal,
    draft_complete,
    hand_in_front,
    hand_origin,
    left_of,
    right_of,
)

CARDS = list(range(101, 165))


def test_deal_gives_sixteen_distinct_cards_to_each_seat() -> None:
    hands = deal(CARDS, seed=7)
    assert sorted(hands) == [1, 2, 3, 4]
    assert [len(hand) for hand in hands.values()] == [16, 16, 16, 16]
    assert sorted(card for hand in hands.values() for card in hand) == CARDS


def test_deal_is_reproducible_from_the_seed_whatever_the_input_order() -> None:
    assert deal(CARDS, seed=7) == deal(list(reversed(CARDS)), seed=7)
    assert deal(CARDS, seed=7) != deal(CARDS, seed=8)


def test_the_engines_procedure_deals_the_hands_the_app_always_dealt() -> None:
    # The sorted cards shuffled by the seed, 16 to each seat in turn (as before the engine's
    # procedure dealt them): a session keeps its hands.
    hands = deal(CARDS, seed=7)
    assert hands[1] == [
        111,
        121,
        113,
        132,
        151,
        156,
        120,
        157,
        144,
        146,
        101,
        122,
        102,
        117,
        109,
        123,
    ]
    assert hands[4] == [
        103,
        114,
        133,
        159,
        138,
        124,
        107,
        135,
        153,
        105,
        104,
        164,
        126,
        110,
        161,
        142,
    ]


@pytest.mark.parametrize("cards", [CARDS[:63], [*CARDS[:63], 101]])
def test_deal_needs_sixty_four_distinct_cards(cards: list[int]) -> None:
    with pytest.raises(ValueError, match="64 distinct cards"):
        deal(cards, seed=1)


def test_neighbours_and_hand_origins() -> None:
    assert [left_of(seat) for seat in (1, 2, 3, 4)] == [2, 3, 4, 1]
    assert [right_of(seat) for seat in (1, 2, 3, 4)] == [4, 1, 2, 3]
    # Seat 2 picks from its own hand, then from seat 1's, seat 4's, seat 3's, its own again…
    assert [hand_origin(2, k) for k in range(6)] == [2, 1, 4, 3, 2, 1]


def test_a_whole_draft_passes_every_hand_to_the_left() -> None:
    dealt = deal(CARDS, seed=42)
    picks: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    origins: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    for _round in range(HAND_SIZE):
        for seat in (1, 2, 3, 4):
            hand = hand_in_front(dealt, picks, seat)
            assert hand is not None
            assert len(hand) == HAND_SIZE - len(picks[seat])
            card = hand[-1]
            assert check_pick(dealt, picks, seat, card) == len(picks[seat])
            origins[seat].append(next(o for o, cards in dealt.items() if card in cards))
            picks[seat].append(card)
    assert draft_complete(picks)
    assert sorted(card for seat_picks in picks.values() for card in seat_picks) == CARDS
    # Seat 1 sees its own hand, then seat 4's (its right neighbour passed it left), then 3's…
    assert origins[1] == [1, 4, 3, 2] * 4
    assert origins[3] == [3, 2, 1, 4] * 4
    assert hand_in_front(dealt, picks, 1) == []


def test_a_hand_arrives_only_after_the_right_neighbour_picked_from_it() -> None:
    dealt = deal(CARDS, seed=3)
    picks = {1: [dealt[1][0]], 2: [], 3: [], 4: []}
    assert hand_in_front(dealt, picks, 1) is None
    with pytest.raises(DomainError) as refused:
        check_pick(dealt, picks, 1, dealt[4][0])
    assert refused.value.code == "hand_not_arrived"
    assert refused.value.message == "Seat 1 must wait: seat 4 has not passed the next hand yet."
    picks[4].append(dealt[4][5])
    assert hand_in_front(dealt, picks, 1) == [c for c in dealt[4] if c != dealt[4][5]]
    assert check_pick(dealt, picks, 1, dealt[4][0]) == 1


def test_a_card_from_another_hand_is_refused() -> None:
    dealt = deal(CARDS, seed=3)
    picks: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
    with pytest.raises(DomainError) as refused:
        check_pick(dealt, picks, 2, dealt[3][0])
    assert refused.value.code == "card_not_in_hand"
    assert refused.value.message == "That card is not in the hand in front of seat 2."
    assert refused.value.details == {"seat": 2, "card": dealt[3][0]}


def test_a_seat_with_sixteen_picks_is_done() -> None:
    picks = {seat: list(range(seat * 100, seat * 100 + 16)) for seat in (1, 2, 3, 4)}
    dealt = {seat: list(cards) for seat, cards in picks.items()}
    with pytest.raises(DomainError) as refused:
        check_pick(dealt, picks, 4, 400)
    assert refused.value.code == "draft_over"
    assert refused.value.message == "Seat 4 has already picked all its 16 cards."
