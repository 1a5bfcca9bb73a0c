"""What happened and what was refused, as codes with arguments instead of sentences.

As in the Clash of Decks engine (``engine.rules.events``): an :class:`Event` is a code and its
arguments (cards by card id, players by seat, numbers as they are); a refusal is a code of
:data:`REFUSALS` carried by ``IllegalAction``. Each code has one English template and the rule id
it belongs to (``engine.chaos.rule_ids``); the web app renders the same codes in its languages.

Events are recorded only when the game keeps a log (``Options(log=True)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

SEATS: Final = ("A", "B")
# Argument names holding a card id or a seat (the rest are shown as they are).
CARD_ARGS: Final = frozenset({"card", "target", "source"})
SEAT_ARGS: Final = frozenset({"player", "winner", "expected"})
# Events naming a card that stays hidden from everyone but its owner (a card drawn into a hand).
OWNER_ONLY: Final = frozenset({"drawn"})

Arg = int | str


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a code of :data:`EVENTS` and its arguments, in order."""

    code: str
    args: tuple[tuple[str, Arg], ...]

    @property
    def rule_id(self) -> str:
        return EVENTS[self.code][0]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "args": dict(self.args)}


def emit(log: list[Event], code: str, **args: Arg) -> None:
    """Record event ``code`` (call it only when the game keeps a log)."""
    log.append(Event(code, tuple(args.items())))


# code: (rule id, English template).
EVENTS: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(
    {
        "setup": ("setup-players", "Set-up: {player} gets the Emissaries 1 and plays first."),
        "intervention": (
            "intervention-reveal",
            "{card} comes to the top of the Domain pile: it goes beside the Domain, its effect "
            "is active.",
        ),
        "refill": ("domain-refill", "{card} is revealed in the Domain."),
        "turn": ("turn-structure", "Turn {turn}: {player} plays."),
        "play": ("combo", "{player} plays {card}."),
        "effect": ("play-effect", "{player} applies the play effect of {card}."),
        "use": ("intervention-effects", "{player} uses {card}."),
        "draw": ("play-effect", "{player} draws {count} card(s)."),
        "drawn": ("play-effect", "{player} draws {card}."),
        "opponent_draws": ("golden-rule", "{player} draws {count} card(s) in the other's turn."),
        "discard": ("keyword-discard", "{player} discards {card} from their {zone}."),
        "sacrifice": (
            "keyword-sacrifice",
            "{player} sacrifices {card} from their {zone}: it goes to the Void.",
        ),
        "plan_reveal": ("keyword-plan", "PLAN: {player} reveals {card}."),
        "plan_back": (
            "keyword-plan",
            "PLAN: {player} puts {count} card(s) back on their deck, face down, in the order "
            "they chose.",
        ),
        "call_announce": ("keyword-call", "CALL: {player} announces {clans}."),
        "call_reveal": ("keyword-call", "CALL: {player} reveals {card}."),
        "call_hit": (
            "keyword-call",
            "CALL: {card} belongs to an announced clan, it goes to the hand.",
        ),
        "call_miss": ("keyword-call", "CALL: {card} goes under {player}'s deck, face down."),
        "awaken": ("keyword-awakening", "{player} awakens the {keyword}."),
        "cover_reveal": ("keyword-cover", "Cover: {player} reveals {card} from the Domain pile."),
        "cover": ("keyword-cover", "{card} covers {target} in the Domain."),
        "uncover": ("keyword-cover", "{card} is available again in the Domain."),
        "resources": ("golden-rule", "{player} gains {count} resource(s) for this turn."),
        "recruit_free": ("golden-rule", "{player} recruits {card} without spending resources."),
        "choose": ("play-effect", "{player} chooses option {option}."),
        "react": ("reaction", "{player} applies the reaction of {card}."),
        "interrupt": (
            "reaction-opponent-turn",
            "{player} interrupts the turn, reveals {card} and applies its reaction.",
        ),
        "decline": ("reaction", "{player} does not apply the reaction of {card}."),
        "win": ("verification", "{player}'s deck is empty after the Combo: {player} wins."),
        "verified": ("verification", "{player} still has {count} card(s) in their deck."),
        "resources_count": ("recruitment", "Recruitment: {player} has {count} resource(s)."),
        "recruit": ("recruitment", "{player} recruits {card} for {cost}."),
        "end_turn": (
            "end-of-turn",
            "{player} shuffles {count} card(s) face down under their deck and draws {drawn}.",
        ),
        "turn_limit": ("site-turn-limit", "The turn limit ({turns} turns) is reached: no winner."),
        "prologue_lost": (
            "prologue",
            "The turn limit ({turns} turns) is reached: the Prologue is lost.",
        ),
    }
)

# Refusals of IllegalAction: code: (rule id, English template).
REFUSALS: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(
    {
        "game_over": ("turn-structure", "The game is over."),
        "not_your_decision": ("turn-structure", "It is {expected}'s decision, not {player}'s."),
        "not_now": ("turn-structure", "That action is not possible now: {expected} is awaited."),
        "not_in_hand": ("combo", "{card} is not in your hand."),
        "no_play_effect": ("play-effect", "{card} has no play effect to apply."),
        "hand_not_empty": ("combo", "Every card of the hand is played before the Combo ends."),
        "not_usable": (
            "intervention-effects",
            "{card} is not an active Intervention with an effect to use.",
        ),
        "already_used": ("intervention-effects", "{card} was already used this turn."),
        "not_available": ("recruitment", "{card} is not an available card of the Domain."),
        "too_expensive": (
            "recruitment",
            "{card} costs {cost} and you have {resources} resource(s) left.",
        ),
        "not_an_option": ("play-effect", "{card} is not one of the cards to choose from."),
        "bad_option": ("play-effect", "Choose an option from 1 to {count}."),
        "bad_announce": (
            "keyword-call",
            "Announce {count} different clan(s): chaos, drakon, evine.",
        ),
        "bad_trigger": ("simultaneous-effects", "{card} has no reaction waiting."),
    }
)


def fields(args: Sequence[tuple[str, Arg]], names: Sequence[str]) -> dict[str, Arg]:
    """What a template shows for each argument: a card id as its name, a seat as its letter."""
    shown: dict[str, Arg] = {}
    for key, value in args:
        if type(value) is int and key in CARD_ARGS:
            shown[key] = names[value] if 0 <= value < len(names) else f"card {value}"
        elif type(value) is int and key in SEAT_ARGS:
            shown[key] = SEATS[value]
        else:
            shown[key] = value
    return shown


def english(
    table: MappingProxyType[str, tuple[str, str]],
    code: str,
    args: tuple[tuple[str, Arg], ...],
    names: Sequence[str],
) -> str:
    return table[code][1].format(**fields(args, names))


def render(event: Event, names: Sequence[str]) -> str:
    """An event in English."""
    return english(EVENTS, event.code, event.args, names)
