"""The Mutation draft over plain card ids: the rules engine's `mutation` procedure (ruling D7 of
docs/rulings.md: a seeded deal of 16 cards to each seat, then each seat takes one card of the
hand in front of it and passes the rest to its left-hand neighbour until the hands are empty).

Seats are numbered 1-4 around the table here (the engine's seats A-D are 0-3); a player's left
neighbour is the next seat number (4 passes to 1). Pick `k` (counted from 0) of seat `s` comes
from the hand dealt to seat `s - k`, so every hand visits every seat and each card is picked
exactly once. The app stores the deal and the picks; each read rebuilds the engine's draft from
them, and each pick is checked by the engine's `pick`.
"""

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.rules import (
    INCANTATION,
    PROCEDURES,
    CardDef,
    Draft,
    IllegalAction,
    new_draft,
    pending_for,
    pick,
    restore,
)
from engine.rules import hand_origin as draft_hand_origin
from engine.rules import left_of as draft_left_of
from engine.rules import right_of as draft_right_of

MUTATION = PROCEDURES["mutation"]
SEATS = MUTATION.seats
HAND_SIZE = MUTATION.cards
DRAFT_SIZE = MUTATION.pool_size


def _pool(card_ids: Sequence[int]) -> list[CardDef]:
    # A draft deals and passes cards by identity and never reads their values: each card id is
    # a stand-in card named after it.
    return [CardDef(f"#{card}", INCANTATION, cost=0) for card in card_ids]


def deal(card_ids: Sequence[int], *, seed: int) -> dict[int, list[int]]:
    """Shuffle the 64 cards with `seed` and deal 16 to each seat: the same seed, the same hands."""
    if len(card_ids) != DRAFT_SIZE or len(set(card_ids)) != DRAFT_SIZE:
        raise ValueError(f"a Mutation draft deals {DRAFT_SIZE} distinct cards, got {len(card_ids)}")
    # Sorted first so the deal depends on the seed and the cards, not on the order they came in.
    cards = sorted(card_ids)
    draft = new_draft(MUTATION, _pool(cards), seed)
    return {seat: [cards[card] for card in draft.hands[seat - 1]] for seat in seat_numbers()}


def seat_numbers() -> range:
    return range(1, SEATS + 1)


def left_of(seat: int) -> int:
    return draft_left_of(MUTATION, seat - 1) + 1


def right_of(seat: int) -> int:
    return draft_right_of(MUTATION, seat - 1) + 1


def hand_origin(seat: int, pick_index: int) -> int:
    """The seat whose dealt hand `seat` picks from at its pick number `pick_index` (from 0)."""
    return draft_hand_origin(MUTATION, seat - 1, pick_index) + 1


class _Table:
    """The engine's draft where a session stands: the hands as dealt, then every pick made."""

    def __init__(
        self, dealt: Mapping[int, Sequence[int]], picks: Mapping[int, Sequence[int]]
    ) -> None:
        self.cards = [card for seat in seat_numbers() for card in dealt[seat]]
        self.index = {card: number for number, card in enumerate(self.cards)}
        # The pile in dealing order, not shuffled again: seat 1's hand first.
        self.draft: Draft = new_draft(MUTATION, _pool(self.cards), None)
        restore(
            self.draft,
            [[self.index[card] for card in picks.get(seat, ())] for seat in seat_numbers()],
        )


def hand_in_front(
    dealt: Mapping[int, Sequence[int]], picks: Mapping[int, Sequence[int]], seat: int
) -> list[int] | None:
    """The cards `seat` may choose from now, in dealt order; None while the hand is still on its
    way (the right-hand neighbour has not picked from it yet); [] once the draft is over for it."""
    table = _Table(dealt, picks)
    offer = pending_for(table.draft, seat - 1)
    if offer is not None:
        return [table.cards[card] for card in offer.revealed]
    return [] if len(table.draft.decks[seat - 1]) >= HAND_SIZE else None


def check_pick(
    dealt: Mapping[int, Sequence[int]], picks: Mapping[int, Sequence[int]], seat: int, card: int
) -> int:
    """Refuse a pick the draft does not allow; return the pick's number (from 0) otherwise."""
    table = _Table(dealt, picks)
    try:
        # A card of no hand is one the engine was not shown: it refuses it as not revealed.
        pick(table.draft, seat - 1, [table.index.get(card, -1)])
    except IllegalAction as refusal:
        raise _refusal(refusal, seat, card) from None
    return len(picks.get(seat, ()))


def _refusal(refusal: IllegalAction, seat: int, card: int) -> DomainError:
    """The app's words for the engine's refusal of `seat`'s pick of `card`."""
    if refusal.code in ("draft_seat_done", "draft_over"):
        return DomainError(
            "draft_over",
            _("Seat %(seat)s has already picked all its %(count)s cards.")
            % {"seat": seat, "count": HAND_SIZE},
            {"seat": seat},
        )
    if refusal.code == "draft_hand_not_passed":
        return DomainError(
            "hand_not_arrived",
            _("Seat %(seat)s must wait: seat %(right)s has not passed the next hand yet.")
            % {"seat": seat, "right": right_of(seat)},
            {"seat": seat, "waiting_for": right_of(seat)},
        )
    if refusal.code == "draft_not_revealed":
        return DomainError(
            "card_not_in_hand",
            _("That card is not in the hand in front of seat %(seat)s.") % {"seat": seat},
            {"seat": seat, "card": card},
        )
    # A seat outside 1-4 (the forms and the API check it first).
    return DomainError(refusal.code, refusal.message_en, {"seat": seat})


def draft_complete(picks: Mapping[int, Sequence[int]]) -> bool:
    return all(len(picks.get(seat, ())) == HAND_SIZE for seat in seat_numbers())
