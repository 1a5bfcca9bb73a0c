"""The Mutation draft over plain card ids: a seeded deal, then pick one and pass the rest left.

Seats are numbered 1-4 around the table; a player's left neighbour is the next seat number
(4 passes to 1). Pick `k` (counted from 0) of seat `s` comes from the hand dealt to seat
`s - k`, so every hand visits every seat and each card is picked exactly once.
"""

import random
from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _

from cod_site.errors import DomainError

SEATS = 4
HAND_SIZE = 16
DRAFT_SIZE = SEATS * HAND_SIZE


def deal(card_ids: Sequence[int], *, seed: int) -> dict[int, list[int]]:
    """Shuffle the 64 cards with `seed` and deal 16 to each seat: the same seed, the same hands."""
    if len(card_ids) != DRAFT_SIZE or len(set(card_ids)) != DRAFT_SIZE:
        raise ValueError(f"a Mutation draft deals {DRAFT_SIZE} distinct cards, got {len(card_ids)}")
    # Sorted first so the deal depends on the seed and the cards, not on the order they came in.
    cards = sorted(card_ids)
    random.Random(seed).shuffle(cards)
    return {seat: cards[(seat - 1) * HAND_SIZE : seat * HAND_SIZE] for seat in seat_numbers()}


def seat_numbers() -> range:
    return range(1, SEATS + 1)


def left_of(seat: int) -> int:
    return seat % SEATS + 1


def right_of(seat: int) -> int:
    return (seat - 2) % SEATS + 1


def hand_origin(seat: int, pick_index: int) -> int:
    """The seat whose dealt hand `seat` picks from at its pick number `pick_index` (from 0)."""
    return (seat - 1 - pick_index) % SEATS + 1


def hand_in_front(
    dealt: Mapping[int, Sequence[int]], picks: Mapping[int, Sequence[int]], seat: int
) -> list[int] | None:
    """The cards `seat` may choose from now, in dealt order; None while the hand is still on its
    way (the right-hand neighbour has not picked from it yet); [] once the draft is over for it."""
    made = len(picks.get(seat, ()))
    if made >= HAND_SIZE:
        return []
    if made > 0 and len(picks.get(right_of(seat), ())) < made:
        return None
    taken = {card for seat_picks in picks.values() for card in seat_picks}
    return [card for card in dealt[hand_origin(seat, made)] if card not in taken]


def check_pick(
    dealt: Mapping[int, Sequence[int]], picks: Mapping[int, Sequence[int]], seat: int, card: int
) -> int:
    """Refuse a pick the draft does not allow; return the pick's number (from 0) otherwise."""
    hand = hand_in_front(dealt, picks, seat)
    if hand == []:
        raise DomainError(
            "draft_over",
            _("Seat %(seat)s has already picked all its %(count)s cards.")
            % {"seat": seat, "count": HAND_SIZE},
            {"seat": seat},
        )
    if hand is None:
        raise DomainError(
            "hand_not_arrived",
            _("Seat %(seat)s must wait: seat %(right)s has not passed the next hand yet.")
            % {"seat": seat, "right": right_of(seat)},
            {"seat": seat, "waiting_for": right_of(seat)},
        )
    if card not in hand:
        raise DomainError(
            "card_not_in_hand",
            _("That card is not in the hand in front of seat %(seat)s.") % {"seat": seat},
            {"seat": seat, "card": card},
        )
    return len(picks.get(seat, ()))


def draft_complete(picks: Mapping[int, Sequence[int]]) -> bool:
    return all(len(picks.get(seat, ())) == HAND_SIZE for seat in seat_numbers())
