"""The Domain: its pile, its five slots (each a stack, Cover puts a card on another) and the
Interventions beside it.

Rules domain-refill ("si un emplacement du Domaine est vide …, complétez-le immédiatement en
révélant la première carte de la pile") and intervention-reveal ("Si une carte Intervention
apparaît au sommet de la pile, placez-la immédiatement à proximité du Domaine : son effet devient
actif"): every change of the pile is followed by :func:`settle`.
"""

from __future__ import annotations

from engine.chaos.cards import INTERVENTION
from engine.chaos.events import emit
from engine.chaos.modes import DOMAIN_SLOTS
from engine.chaos.state import NO_CARD, ChaosState


def _interventions_out(state: ChaosState) -> None:
    """Interventions at the top of the pile go beside the Domain, in the order they appear."""
    pile = state.pile
    cards = state.setup.cards
    while pile and cards[pile[0]].type == INTERVENTION:
        card = pile.pop(0)
        state.interventions.append(card)
        if state.log is not None:
            emit(state.log, "intervention", card=card)


def settle(state: ChaosState) -> None:
    """Interventions out of the pile's top, then every empty slot refilled from the pile."""
    _interventions_out(state)
    for slot in state.domain:
        if not slot and state.pile:
            card = state.pile.pop(0)
            slot.append(card)
            if state.log is not None:
                emit(state.log, "refill", card=card)
            _interventions_out(state)


def build(state: ChaosState, domain_cards: list[int], interventions: list[int]) -> None:
    """Set-up (rule setup-domain): the shuffled Domain cards with each Intervention inserted
    under as many of them as its ``depth`` says, then the 5 slots revealed."""
    pile = list(domain_cards)
    cards = state.setup.cards
    # Deepest first, so a shallower one's depth still counts Domain cards only; at one depth,
    # the first given ends on top.
    for card in sorted(interventions, key=lambda c: (-cards[c].depth, -c)):
        pile.insert(min(cards[card].depth, len(pile)), card)
    state.pile = pile
    state.domain = [[] for _ in range(DOMAIN_SLOTS)]
    settle(state)


def available(state: ChaosState) -> list[int]:
    """The Domain cards that can be recruited: the top card of each slot."""
    return [slot[-1] for slot in state.domain if slot]


def take(state: ChaosState, card: int) -> None:
    """``card`` leaves the Domain (recruited): what it covered is available again, an empty
    slot is refilled."""
    for slot in state.domain:
        if slot and slot[-1] == card:
            slot.pop()
            if slot and state.log is not None:
                emit(state.log, "uncover", card=slot[-1])
            break
    settle(state)


def cover(state: ChaosState, card: int, target: int) -> None:
    """``card`` (revealed from the pile) is placed on the slot whose top card is ``target``."""
    for slot in state.domain:
        if slot and slot[-1] == target:
            slot.append(card)
            break
    if state.log is not None:
        emit(state.log, "cover", card=card, target=target)
    settle(state)


def slot_of(state: ChaosState, card: int) -> int:
    for index, slot in enumerate(state.domain):
        if card in slot:
            return index
    return NO_CARD
