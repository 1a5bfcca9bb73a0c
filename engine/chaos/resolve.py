"""Resolving effects: a stack of frames held in the state, so any point of a resolution can wait
for a decision, be copied and be replayed.

Each :class:`~engine.chaos.state.Frame` runs one node of an effect tree (``engine.chaos.effects``)
in small steps (:func:`advance`); a step that needs a choice sets ``state.decision`` and the
frame's stage, and the answer comes back in ``state.answer``. A finished frame leaves
``state.last_ok``: whether its part was done in full, which ``A -> B`` reads.

Reactions (rules reaction, reaction-opponent-turn): a card discarded or sacrificed whose reaction
matches is queued in ``state.triggers``; before the next step of anything, the queue becomes a
*batch* frame (a frame without a node) on top of the stack, so the reactions resolve at once,
interrupting the effect (or the opponent's turn) that caused them, each offered to its card's
owner, several in the order the active player picks (rule simultaneous-effects).
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from engine.chaos import domain
from engine.chaos.cards import DISCARDED, SACRIFICED
from engine.chaos.effects import (
    ALL_CLANS,
    CALL,
    CLAN_BITS,
    CLANS,
    COVER,
    DECK,
    DISCARD,
    DISCARD_PILE,
    DRAW,
    HAND,
    PLAN,
    PLAY_ZONE,
    RECRUIT,
    RESOURCES,
    SACRIFICE,
    SACRIFICE_THIS,
    ZONES,
    Act,
    Choose,
    Cond,
    If,
    May,
    Node,
    Seq,
    Then,
)
from engine.chaos.events import emit
from engine.chaos.state import (
    ANNOUNCE,
    NO_CARD,
    OPTION,
    ORDER,
    PICK,
    YES_NO,
    ChaosState,
    Decision,
    Frame,
)

# The announcements of a CALL of 1 or 2 clans: every set of that many clans, as masks.
ANNOUNCEMENTS: Final = {
    size: tuple(sum(CLAN_BITS[c] for c in chosen) for chosen in combinations(CLANS, size))
    for size in range(1, len(CLANS))
}


def push(state: ChaosState, node: Node, owner: int, source: int) -> None:
    """Start resolving ``node`` for ``owner`` (the "you" of the effect), card ``source``'s."""
    state.frames.append(Frame(node, owner, source))


def open_batch(state: ChaosState) -> None:
    """The waiting reactions become a batch frame; it keeps ``last_ok`` to give it back."""
    frame = Frame(None, state.active, NO_CARD)
    frame.cards = state.triggers
    frame.ok = state.last_ok
    state.triggers = []
    state.frames.append(frame)


def _ask(
    state: ChaosState,
    kind: int,
    seat: int,
    reason: str,
    options: tuple[int, ...] = (),
    source: int = NO_CARD,
) -> None:
    state.decision = Decision(kind, seat, reason, options, source)


def _answer(state: ChaosState) -> int:
    value = state.answer
    assert value is not None
    state.answer = None
    return value


def _finish(state: ChaosState, ok: bool) -> None:
    state.frames.pop()
    state.last_ok = ok


def can_awaken(state: ChaosState, seat: int) -> bool:
    """Rule keyword-awakening: in one's own turn, once per turn, with an Awakening Intervention
    beside the Domain."""
    if seat != state.active or state.players[seat].awakened:
        return False
    cards = state.setup.cards
    return any(cards[card].awakening for card in state.interventions)


def _awaken(state: ChaosState, seat: int, keyword: str) -> None:
    state.players[seat].awakened = True
    if state.log is not None:
        emit(state.log, "awaken", player=seat, keyword=keyword)


# ---- moving cards ------------------------------------------------------------------------------


def _react(state: ChaosState, card: int, condition: str) -> None:
    """Queue ``card``'s reaction if ``condition`` is its condition and its owner may apply it now:
    in their own turn, or in the other's when the reaction bears the mark ② (ruling C6)."""
    setup = state.setup
    if setup.reaction_on[card] != condition or setup.reaction[card] is None:
        return
    if state.owner[card] == state.active or setup.reaction_opponent[card]:
        state.triggers.append(card)


def discard(state: ChaosState, seat: int, card: int, zone: int) -> None:
    """Rule keyword-discard: ``card`` (already out of its zone) goes to the discard pile."""
    state.players[seat].discard.append(card)
    if state.log is not None:
        emit(state.log, "discard", player=seat, card=card, zone=ZONES[zone])
    _react(state, card, DISCARDED)


def sacrifice(state: ChaosState, seat: int, card: int, zone: int) -> None:
    """Rule keyword-sacrifice: ``card`` (already out of its zone) goes to the Void, out of the
    game; its owner stays recorded for its reaction."""
    state.void.append(card)
    if state.log is not None:
        emit(state.log, "sacrifice", player=seat, card=card, zone=ZONES[zone])
    _react(state, card, SACRIFICED)


def draw(state: ChaosState, seat: int, count: int) -> int:
    """``seat`` draws up to ``count`` cards; how many it drew."""
    player = state.players[seat]
    drawn = min(count, len(player.deck))
    cards = player.deck[:drawn]
    del player.deck[:drawn]
    player.hand.extend(cards)
    if state.log is not None and drawn:
        # Outside the set-up, a draw by the other player happens in the active player's turn.
        code = "opponent_draws" if state.turn and seat != state.active else "draw"
        emit(state.log, code, player=seat, count=drawn)
        for card in cards:
            emit(state.log, "drawn", player=seat, card=card)
    return drawn


def _zone(state: ChaosState, seat: int, zone: int) -> list[int]:
    player = state.players[seat]
    if zone == HAND:
        return player.hand
    if zone == DISCARD_PILE:
        return player.discard
    return player.played + player.recruited  # PLAY_ZONE: a new list, see _take_from


def _take_from(state: ChaosState, seat: int, zone: int, card: int) -> None:
    player = state.players[seat]
    if zone == PLAY_ZONE:
        (player.played if card in player.played else player.recruited).remove(card)
    else:
        _zone(state, seat, zone).remove(card)


def _same_cards(state: ChaosState, cards: list[int]) -> bool:
    """Whether every card of ``cards`` has the same definition (a choice among them is none)."""
    first = state.setup.cards[cards[0]]
    return all(state.setup.cards[card] is first for card in cards)


# ---- conditions ---------------------------------------------------------------------------------


def holds(state: ChaosState, cond: Cond, owner: int) -> bool:
    seat = state.other(owner) if cond.opponent else owner
    if seat == NO_CARD:
        return False
    player = state.players[seat]
    if cond.subject == 0:
        count = len(player.deck)
    elif cond.subject == 1:
        count = len(player.hand)
    elif cond.subject == 2:
        count = len(player.discard)
    elif cond.clan:
        clan = state.setup.clan
        count = sum(1 for card in player.played if clan[card] & cond.clan)
    else:
        count = len(player.played)
    if cond.operator == 0:
        return count <= cond.number
    if cond.operator == 1:
        return count >= cond.number
    return count == cond.number


# ---- the steps ----------------------------------------------------------------------------------


def advance(state: ChaosState) -> None:
    """One step of the top frame."""
    frame = state.frames[-1]
    node = frame.node
    if node is None:
        _batch(state, frame)
    elif isinstance(node, Act):
        _act(state, frame, node)
    elif isinstance(node, Seq):
        if frame.stage:
            frame.ok = frame.ok and state.last_ok
        if frame.stage < len(node.steps):
            frame.stage += 1
            push(state, node.steps[frame.stage - 1], frame.owner, frame.source)
        else:
            _finish(state, frame.ok)
    elif isinstance(node, Then):
        if frame.stage == 0:
            frame.stage = 1
            push(state, node.first, frame.owner, frame.source)
        elif frame.stage == 1 and state.last_ok:
            frame.stage = 2
            push(state, node.rest, frame.owner, frame.source)
        else:
            _finish(state, frame.stage == 2 and state.last_ok)
    elif isinstance(node, May):
        if frame.stage == 0:
            frame.stage = 1
            _ask(state, YES_NO, frame.owner, "may", source=frame.source)
        elif frame.stage == 1:
            if _answer(state):
                frame.stage = 2
                push(state, node.body, frame.owner, frame.source)
            else:
                _finish(state, False)
        else:
            _finish(state, state.last_ok)
    elif isinstance(node, Choose):
        if frame.stage == 0:
            frame.stage = 1
            options = tuple(range(len(node.options)))
            _ask(state, OPTION, frame.owner, "choose", options, frame.source)
        elif frame.stage == 1:
            chosen = _answer(state)
            if state.log is not None:
                emit(state.log, "choose", player=frame.owner, option=chosen + 1)
            frame.stage = 2
            push(state, node.options[chosen], frame.owner, frame.source)
        else:
            _finish(state, state.last_ok)
    else:
        _if(state, frame, node)


def _if(state: ChaosState, frame: Frame, node: If) -> None:
    if frame.stage == 0:
        if holds(state, node.cond, frame.owner):
            frame.stage = 1
            push(state, node.body, frame.owner, frame.source)
        else:
            _finish(state, False)
    else:
        _finish(state, state.last_ok)


def _act(state: ChaosState, frame: Frame, act: Act) -> None:
    seat = state.other(frame.owner) if act.opponent else frame.owner
    if seat == NO_CARD:  # the opponent, in the Prologue
        _finish(state, False)
        return
    verb = act.verb
    if verb == DRAW:
        _finish(state, draw(state, seat, act.amount) == act.amount)
    elif verb in (DISCARD, SACRIFICE):
        if act.zone == DECK:
            _from_deck(state, seat, act)
        else:
            _choose_and_move(state, frame, seat, act)
    elif verb == SACRIFICE_THIS:
        _sacrifice_this(state, frame)
    elif verb == PLAN:
        _plan(state, frame, act.amount)
    elif verb == CALL:
        _call(state, frame, act.amount)
    elif verb == COVER:
        _cover(state, frame)
    elif verb == RESOURCES:
        state.players[seat].bonus += act.amount
        if state.log is not None:
            emit(state.log, "resources", player=seat, count=act.amount)
        _finish(state, True)
    elif verb == RECRUIT:
        _recruit(state, frame, act.amount)
    else:  # AWAKEN is an Intervention's lasting effect: nothing to resolve
        _finish(state, False)


def _from_deck(state: ChaosState, seat: int, act: Act) -> None:
    """The top cards of the deck, all at once: their reactions are simultaneous."""
    deck = state.players[seat].deck
    count = min(act.amount, len(deck))
    cards = deck[:count]
    del deck[:count]
    move = discard if act.verb == DISCARD else sacrifice
    for card in cards:
        move(state, seat, card, DECK)
    _finish(state, count == act.amount)


def _choose_and_move(state: ChaosState, frame: Frame, seat: int, act: Act) -> None:
    """One card at a time, chosen by ``seat`` (its reactions resolve before the next)."""
    move = discard if act.verb == DISCARD else sacrifice
    if state.answer is not None:
        card = _answer(state)
        _take_from(state, seat, act.zone, card)
        frame.value += 1
        move(state, seat, card, act.zone)
        return
    if frame.value >= act.amount:
        _finish(state, True)
        return
    cards = _zone(state, seat, act.zone)
    if not cards:
        _finish(state, False)
        return
    if _same_cards(state, cards):
        card = cards[0]
        _take_from(state, seat, act.zone, card)
        frame.value += 1
        move(state, seat, card, act.zone)
        return
    reason = "discard" if act.verb == DISCARD else "sacrifice"
    _ask(state, PICK, seat, f"{reason}_{ZONES[act.zone]}", tuple(cards), frame.source)


def _sacrifice_this(state: ChaosState, frame: Frame) -> None:
    card = frame.source
    seat = state.owner[card] if card != NO_CARD else NO_CARD
    if seat == NO_CARD:
        _finish(state, False)
        return
    player = state.players[seat]
    for zone, cards in (
        (PLAY_ZONE, player.played),
        (PLAY_ZONE, player.recruited),
        (DISCARD_PILE, player.discard),
        (HAND, player.hand),
        (DECK, player.deck),
    ):
        if card in cards:
            cards.remove(card)
            sacrifice(state, seat, card, zone)
            _finish(state, True)
            return
    _finish(state, False)


def _plan(state: ChaosState, frame: Frame, amount: int) -> None:
    """Rule keyword-plan: reveal the X top cards, put them back in any order; awakened, then
    sacrifice the top card."""
    seat = frame.owner
    deck = state.players[seat].deck
    if frame.stage == 0:
        count = min(amount, len(deck))
        if count == 0:
            _finish(state, False)
            return
        frame.cards = deck[:count]
        del deck[:count]
        frame.ok = count == amount
        frame.stage = 1
        if state.log is not None:
            for card in frame.cards:
                emit(state.log, "plan_reveal", player=seat, card=card)
        return
    if frame.stage == 1:
        if state.answer is not None:
            card = _answer(state)
            frame.cards.remove(card)
            frame.placed.append(card)
        if len(frame.cards) > 1 and not _same_cards(state, frame.cards):
            _ask(state, PICK, seat, "plan_order", tuple(frame.cards), frame.source)
            return
        frame.placed.extend(frame.cards)
        frame.cards = []
        deck[0:0] = frame.placed
        if state.log is not None:
            emit(state.log, "plan_back", player=seat, count=len(frame.placed))
        frame.placed = []
        frame.stage = 2
        return
    if frame.stage == 2:
        if deck and can_awaken(state, seat):
            frame.stage = 3
            _ask(state, YES_NO, seat, "awaken_plan", source=frame.source)
            return
        _finish(state, frame.ok)
        return
    if _answer(state):
        _awaken(state, seat, "PLAN")
        sacrifice(state, seat, deck.pop(0), DECK)
    _finish(state, frame.ok)


def _call(state: ChaosState, frame: Frame, amount: int) -> None:
    """Rule keyword-call: announce X clans, reveal the top card; one of them, to the hand; else
    under the deck, or sacrificed if this CALL is awakened (ruling C9). Done in full: a hit."""
    seat = frame.owner
    player = state.players[seat]
    if frame.stage == 0:
        frame.stage = 1
        if amount >= len(CLANS):
            frame.value = ALL_CLANS
        else:
            _ask(state, ANNOUNCE, seat, "call_announce", ANNOUNCEMENTS[amount], frame.source)
        return
    if frame.stage == 1:
        if state.answer is not None:
            frame.value = _answer(state)
        if state.log is not None:
            clans = ", ".join(c for c in CLANS if CLAN_BITS[c] & frame.value)
            emit(state.log, "call_announce", player=seat, clans=clans)
        if not player.deck:
            _finish(state, False)
            return
        card = player.deck.pop(0)
        if state.log is not None:
            emit(state.log, "call_reveal", player=seat, card=card)
        if state.setup.clan[card] & frame.value:
            player.hand.append(card)
            if state.log is not None:
                emit(state.log, "call_hit", player=seat, card=card)
            _finish(state, True)
            return
        frame.cards = [card]
        if can_awaken(state, seat):
            frame.stage = 2
            _ask(state, YES_NO, seat, "awaken_call", source=frame.source)
            return
        _under(state, frame, seat)
        _finish(state, False)
        return
    if _answer(state):
        _awaken(state, seat, "CALL")
        sacrifice(state, seat, frame.cards.pop(), DECK)
    else:
        _under(state, frame, seat)
    _finish(state, False)


def _under(state: ChaosState, frame: Frame, seat: int) -> None:
    card = frame.cards.pop()
    state.players[seat].deck.append(card)
    if state.log is not None:
        emit(state.log, "call_miss", player=seat, card=card)


def _cover(state: ChaosState, frame: Frame) -> None:
    """Rule keyword-cover: reveal the Domain pile's top card, place it on another Domain card."""
    if frame.stage == 0:
        targets = domain.available(state)
        if not state.pile or not targets:
            _finish(state, False)
            return
        card = state.pile.pop(0)
        if state.log is not None:
            emit(state.log, "cover_reveal", player=frame.owner, card=card)
        frame.cards = [card]
        if len(targets) > 1:
            frame.stage = 1
            _ask(state, PICK, frame.owner, "cover", tuple(targets), frame.source)
            return
        domain.cover(state, card, targets[0])
    else:
        domain.cover(state, frame.cards[0], _answer(state))
    frame.cards = []
    _finish(state, True)


def recruit_card(state: ChaosState, seat: int, card: int) -> None:
    """``card`` leaves the Domain for ``seat``'s play zone (no effect, no resource this turn)."""
    domain.take(state, card)
    state.owner[card] = seat
    state.players[seat].recruited.append(card)


def _recruit(state: ChaosState, frame: Frame, most: int) -> None:
    """An effect recruits a Domain card costing at most ``most``, spending nothing."""
    if frame.stage == 0:
        cost = state.setup.cost
        options = [card for card in domain.available(state) if cost[card] <= most]
        if not options:
            _finish(state, False)
            return
        if len(options) > 1:
            frame.stage = 1
            _ask(state, PICK, frame.owner, "recruit", tuple(options), frame.source)
            return
        card = options[0]
    else:
        card = _answer(state)
    if state.log is not None:
        emit(state.log, "recruit_free", player=frame.owner, card=card)
    recruit_card(state, frame.owner, card)
    _finish(state, True)


def _batch(state: ChaosState, frame: Frame) -> None:
    """Reactions waiting together: the active player orders them, each owner applies or not."""
    if frame.stage == 0:
        if state.answer is not None:
            chosen = _answer(state)
            frame.cards.remove(chosen)
            frame.cards.insert(0, chosen)
        elif len(frame.cards) > 1 and not _same_cards(state, frame.cards):
            _ask(state, ORDER, state.active, "order", tuple(frame.cards))
            return
        if not frame.cards:
            state.frames.pop()
            state.last_ok = frame.ok
            return
        card = frame.cards[0]
        frame.stage = 1
        _ask(state, YES_NO, state.owner[card], "react", source=card)
        return
    card = frame.cards.pop(0)
    frame.stage = 0
    seat = state.owner[card]
    if _answer(state):
        reaction = state.setup.reaction[card]
        assert reaction is not None
        if state.log is not None:
            emit(
                state.log, "react" if seat == state.active else "interrupt", player=seat, card=card
            )
        push(state, reaction, seat, card)
    elif state.log is not None:
        emit(state.log, "decline", player=seat, card=card)
