"""Actions: every choice, legal-action generation and ``apply``.

An action is a ``(kind, value)`` pair of ints: the card for PLAY, PLAY_PASS, USE, RECRUIT, PICK
and REACTION, an option's index for OPTION, a mask of clans for ANNOUNCE, nothing (-1) for the
rest. The one deciding is ``state.to_move``: the active player, or the other player when a
reaction or an effect makes them choose in the middle of the active player's turn. For replays,
scenarios and a table, :func:`to_json` / :func:`from_json` give a readable form
(``{"play": "Courier"}``, ``"yes"``, ``{"announce": ["drakon"]}``).
"""

from __future__ import annotations

from typing import Any, Final

from engine.chaos import domain
from engine.chaos.effects import CLAN_BITS, CLANS
from engine.chaos.errors import IllegalAction, InputError
from engine.chaos.events import SEATS, emit
from engine.chaos.resolve import recruit_card
from engine.chaos.state import (
    ANNOUNCE,
    COMBO,
    KIND_NAMES,
    MAIN,
    OPTION,
    ORDER,
    OVER,
    PICK,
    YES_NO,
    ChaosState,
)
from engine.chaos.turn import (
    affordable,
    end_turn,
    play_card,
    run,
    usable_interventions,
    use_intervention,
    verify,
)

Action = tuple[int, int]

PLAY: Final = 0  # play a card of the hand and apply its play effect
PLAY_PASS: Final = 1  # play it without applying its play effect
USE: Final = 2  # use an Intervention's effect
END_COMBO: Final = 3  # the hand is empty: stop using Interventions
RECRUIT: Final = 4
END_TURN: Final = 5
PICK_CARD: Final = 6
YES: Final = 7
NO: Final = 8
CHOOSE: Final = 9
ANNOUNCE_CLANS: Final = 10
REACTION: Final = 11

END_COMBO_ACTION: Final[Action] = (END_COMBO, -1)
END_TURN_ACTION: Final[Action] = (END_TURN, -1)
YES_ACTION: Final[Action] = (YES, -1)
NO_ACTION: Final[Action] = (NO, -1)

# The action kinds each decision kind takes.
_KINDS_OF: Final = {
    PICK: (PICK_CARD,),
    YES_NO: (YES, NO),
    OPTION: (CHOOSE,),
    ANNOUNCE: (ANNOUNCE_CLANS,),
    ORDER: (REACTION,),
}


def legal_actions(state: ChaosState) -> list[Action]:
    """Every legal action of ``state.to_move``."""
    decision = state.decision
    if decision is None:
        return []
    kind = decision.kind
    if kind == MAIN:
        if state.phase == COMBO:
            play = state.setup.play
            actions: list[Action] = []
            for card in state.players[state.active].hand:
                if play[card] is not None:
                    actions.append((PLAY, card))
                actions.append((PLAY_PASS, card))
            actions.extend((USE, card) for card in usable_interventions(state))
            if not state.players[state.active].hand:
                actions.append(END_COMBO_ACTION)
            return actions
        return [*((RECRUIT, card) for card in affordable(state)), END_TURN_ACTION]
    if kind == YES_NO:
        return [YES_ACTION, NO_ACTION]
    (action_kind,) = _KINDS_OF[kind]
    return [(action_kind, value) for value in decision.options]


def _expected(state: ChaosState) -> str:
    decision = state.decision
    assert decision is not None
    if decision.kind == MAIN:
        return f"the {decision.reason} of {SEATS[decision.seat]}"
    return f"a {KIND_NAMES[decision.kind]} ({decision.reason}) of {SEATS[decision.seat]}"


def check(state: ChaosState, action: Action, seat: int | None = None) -> None:
    """Raise IllegalAction unless ``action`` is legal for ``seat`` (default: whoever decides)."""
    names = state.setup.names
    decision = state.decision
    if decision is None or state.phase == OVER:
        raise IllegalAction("game_over", names)
    if seat is not None and seat != decision.seat:
        raise IllegalAction("not_your_decision", names, expected=decision.seat, player=seat)
    kind, value = action
    if decision.kind == MAIN:
        _check_main(state, kind, value)
        return
    if kind not in _KINDS_OF[decision.kind]:
        raise IllegalAction("not_now", names, expected=_expected(state))
    if decision.kind in (YES_NO,) or value in decision.options:
        return
    if decision.kind == OPTION:
        raise IllegalAction("bad_option", names, count=len(decision.options))
    if decision.kind == ANNOUNCE:
        count = bin(decision.options[0]).count("1")
        raise IllegalAction("bad_announce", names, count=count)
    if decision.kind == ORDER:
        raise IllegalAction("bad_trigger", names, card=value)
    raise IllegalAction("not_an_option", names, card=value)


def _check_main(state: ChaosState, kind: int, card: int) -> None:
    names = state.setup.names
    player = state.players[state.active]
    if state.phase == COMBO:
        if kind in (PLAY, PLAY_PASS):
            if card not in player.hand:
                raise IllegalAction("not_in_hand", names, card=card)
            if kind == PLAY and state.setup.play[card] is None:
                raise IllegalAction("no_play_effect", names, card=card)
            return
        if kind == USE:
            if card in player.used and card in state.interventions:
                raise IllegalAction("already_used", names, card=card)
            if card not in usable_interventions(state):
                raise IllegalAction("not_usable", names, card=card)
            return
        if kind == END_COMBO:
            if player.hand:
                raise IllegalAction("hand_not_empty", names)
            return
        raise IllegalAction("not_now", names, expected=_expected(state))
    if kind == RECRUIT:
        if card not in domain.available(state):
            raise IllegalAction("not_available", names, card=card)
        cost = state.setup.cost[card]
        if cost > player.resources():
            raise IllegalAction(
                "too_expensive", names, card=card, cost=cost, resources=player.resources()
            )
        return
    if kind != END_TURN:
        raise IllegalAction("not_now", names, expected=_expected(state))


def apply(state: ChaosState, action: Action, seat: int | None = None) -> None:
    """Perform ``action`` in place (the position is unchanged if it is refused), then go on to
    the next decision."""
    check(state, action, seat)
    kind, value = action
    state.decision = None
    if kind in (PLAY, PLAY_PASS):
        play_card(state, value, kind == PLAY)
    elif kind == USE:
        use_intervention(state, value)
    elif kind == END_COMBO:
        verify(state)
    elif kind == RECRUIT:
        seat = state.active
        state.players[seat].spent += state.setup.cost[value]
        if state.log is not None:
            emit(state.log, "recruit", player=seat, card=value, cost=state.setup.cost[value])
        recruit_card(state, seat, value)
    elif kind == END_TURN:
        end_turn(state)
    elif kind in (YES, NO):
        state.answer = 1 if kind == YES else 0
    else:
        state.answer = value
    run(state)


# ---- the readable form ---------------------------------------------------------------------------

_SIMPLE: Final = {END_COMBO: "end_combo", END_TURN: "end_turn", YES: "yes", NO: "no"}
_CARD_KEYS: Final = {
    PLAY: "play",
    USE: "use",
    RECRUIT: "recruit",
    PICK_CARD: "pick",
    REACTION: "reaction",
}


def to_json(state: ChaosState, action: Action) -> Any:
    """The readable form of ``action`` (cards by name)."""
    kind, value = action
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    names = state.setup.names
    if kind == PLAY_PASS and state.setup.play[value] is not None:
        return {"play": names[value], "effect": False}
    if kind == PLAY_PASS:
        return {"play": names[value]}
    if kind == CHOOSE:
        return {"option": value + 1}
    if kind == ANNOUNCE_CLANS:
        return {"announce": [clan for clan in CLANS if CLAN_BITS[clan] & value]}
    slot = domain.slot_of(state, value)
    if slot >= 0:
        # Copies of a card in two slots differ by what lies under them (Cover): name the slot.
        return {_CARD_KEYS[kind]: names[value], "slot": slot + 1}
    return {_CARD_KEYS[kind]: names[value]}


def _card_named(state: ChaosState, name: Any, kind: int) -> int:
    """The card id ``name`` means for an action of ``kind``: a legal one if any (copies of a card
    are alike), else any card of that name (``apply`` then says why it is refused)."""
    if not isinstance(name, str):
        raise InputError(f"expected a card name, not {name!r}")
    ids = [card for card, other in enumerate(state.setup.names) if other == name]
    if not ids:
        raise InputError(f"no card named {name!r} in this game")
    for action_kind, card in legal_actions(state):
        if action_kind == kind and card in ids:
            return card
    if kind in (PLAY, PLAY_PASS):
        hand = state.players[state.active].hand
        ids.sort(key=lambda card: card not in hand)
    return ids[0]


def _card_in_slot(state: ChaosState, name: Any, slot: Any) -> int:
    """The available card of Domain slot ``slot`` (from 1), which must be ``name``."""
    if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= len(state.domain):
        raise InputError(f"'slot' must be a Domain slot from 1 to {len(state.domain)}")
    cards = state.domain[slot - 1]
    if not cards or state.setup.names[cards[-1]] != name:
        raise InputError(f"{name!r} is not the available card of Domain slot {slot}")
    return cards[-1]


def from_json(state: ChaosState, data: Any) -> Action:
    """The action of a readable form; InputError if it is not one (never IllegalAction: a
    well-formed action is refused by ``apply``)."""
    if data is True or data is False:  # YAML reads a bare yes/no as a boolean
        return YES_ACTION if data else NO_ACTION
    if isinstance(data, dict) and len(data) == 1:
        # ``{end_turn: null}``: the mapping form, where a scenario adds ``illegal``.
        (key,) = data
        if key in _SIMPLE.values() and data[key] is None:
            data = key
    for kind, text in _SIMPLE.items():
        if data == text:
            return (kind, -1)
    if not isinstance(data, dict) or not data:
        raise InputError(f"not an action: {data!r}")
    keys = set(data)
    if keys <= {"play", "effect"} and "play" in keys:
        effect = data.get("effect")
        if effect is not None and not isinstance(effect, bool):
            raise InputError("'effect' must be true or false")
        card = _card_named(state, data["play"], PLAY_PASS)
        # Without "effect", a card is played with its play effect if it has one.
        if effect is None:
            effect = state.setup.play[card] is not None
        return (PLAY if effect else PLAY_PASS, card)
    slot = data.get("slot")
    if slot is not None:
        keys.discard("slot")
    if len(keys) != 1:
        raise InputError(f"not an action: {data!r}")
    (key,) = keys
    value = data[key]
    for kind, text in _CARD_KEYS.items():
        if key == text:
            if slot is not None:
                return (kind, _card_in_slot(state, value, slot))
            return (kind, _card_named(state, value, kind))
    if key == "option":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError("'option' must be a whole number from 1")
        return (CHOOSE, value - 1)
    if key == "announce":
        if not isinstance(value, list) or any(clan not in CLAN_BITS for clan in value):
            raise InputError(f"'announce' takes a list of clans among {', '.join(CLANS)}")
        mask = 0
        for clan in value:
            mask |= CLAN_BITS[clan]
        return (ANNOUNCE_CLANS, mask if len(set(value)) == len(value) else -1)
    raise InputError(f"unknown action key {key!r}")
