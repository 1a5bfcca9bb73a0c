"""Duel of Chaos events, refusals, phases and decisions in the page's language: the engine's codes
(`engine.chaos.events`) with their arguments, each code a sentence of the .po files. Cards are
named by the caller (translated names of the catalogue); a card the seat may not see is never
named (`card_word`)."""

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

EVENTS: Mapping[str, Promise] = {
    "setup": gettext_lazy("Set-up: %(player)s gets the Emissaries 1 and plays first."),
    "intervention": gettext_lazy(
        "%(card)s comes to the top of the Domain pile: it goes beside the Domain, its effect is "
        "active."
    ),
    "refill": gettext_lazy("%(card)s is revealed in the Domain."),
    "turn": gettext_lazy("Turn %(turn)s: %(player)s plays."),
    "play": gettext_lazy("%(player)s plays %(card)s."),
    "effect": gettext_lazy("%(player)s applies the play effect of %(card)s."),
    "use": gettext_lazy("%(player)s uses %(card)s."),
    "draw": gettext_lazy("%(player)s draws %(count)s card(s)."),
    "drawn": gettext_lazy("%(player)s draws %(card)s."),
    "opponent_draws": gettext_lazy("%(player)s draws %(count)s card(s) in the other's turn."),
    "discard": gettext_lazy("%(player)s discards %(card)s from their %(zone)s."),
    "sacrifice": gettext_lazy(
        "%(player)s sacrifices %(card)s from their %(zone)s: it goes to the Void."
    ),
    "plan_reveal": gettext_lazy("PLAN: %(player)s reveals %(card)s."),
    "plan_back": gettext_lazy(
        "PLAN: %(player)s puts %(count)s card(s) back on their deck, face down, in the order "
        "they chose."
    ),
    "call_announce": gettext_lazy("CALL: %(player)s announces %(clans)s."),
    "call_reveal": gettext_lazy("CALL: %(player)s reveals %(card)s."),
    "call_hit": gettext_lazy("CALL: %(card)s belongs to an announced clan, it goes to the hand."),
    "call_miss": gettext_lazy("CALL: %(card)s goes under %(player)s's deck, face down."),
    "awaken": gettext_lazy("%(player)s awakens the %(keyword)s."),
    "cover_reveal": gettext_lazy("Cover: %(player)s reveals %(card)s from the Domain pile."),
    "cover": gettext_lazy("%(card)s covers %(target)s in the Domain."),
    "uncover": gettext_lazy("%(card)s is available again in the Domain."),
    "resources": gettext_lazy("%(player)s gains %(count)s resource(s) for this turn."),
    "recruit_free": gettext_lazy("%(player)s recruits %(card)s without spending resources."),
    "choose": gettext_lazy("%(player)s chooses option %(option)s."),
    "react": gettext_lazy("%(player)s applies the reaction of %(card)s."),
    "interrupt": gettext_lazy(
        "%(player)s interrupts the turn, reveals %(card)s and applies its reaction."
    ),
    "decline": gettext_lazy("%(player)s does not apply the reaction of %(card)s."),
    "win": gettext_lazy("%(player)s's deck is empty after the Combo: %(player)s wins."),
    "verified": gettext_lazy("%(player)s still has %(count)s card(s) in their deck."),
    "resources_count": gettext_lazy("Recruitment: %(player)s has %(count)s resource(s)."),
    "recruit": gettext_lazy("%(player)s recruits %(card)s for %(cost)s."),
    "end_turn": gettext_lazy(
        "%(player)s shuffles %(count)s card(s) face down under their deck and draws %(drawn)s."
    ),
    "turn_limit": gettext_lazy("The turn limit (%(turns)s turns) is reached: no winner."),
    "prologue_lost": gettext_lazy(
        "The turn limit (%(turns)s turns) is reached: the Prologue is lost."
    ),
}

REFUSALS: Mapping[str, Promise] = {
    "game_over": gettext_lazy("The game is over."),
    "not_your_decision": gettext_lazy("It is %(expected)s's decision, not %(player)s's."),
    "not_now": gettext_lazy("That action is not possible now."),
    "not_in_hand": gettext_lazy("%(card)s is not in your hand."),
    "no_play_effect": gettext_lazy("%(card)s has no play effect to apply."),
    "hand_not_empty": gettext_lazy("Every card of the hand is played before the Combo ends."),
    "not_usable": gettext_lazy("%(card)s is not an active Intervention with an effect to use."),
    "already_used": gettext_lazy("%(card)s was already used this turn."),
    "not_available": gettext_lazy("%(card)s is not an available card of the Domain."),
    "too_expensive": gettext_lazy(
        "%(card)s costs %(cost)s and you have %(resources)s resource(s) left."
    ),
    "not_an_option": gettext_lazy("%(card)s is not one of the cards to choose from."),
    "bad_option": gettext_lazy("Choose an option from 1 to %(count)s."),
    "bad_announce": gettext_lazy("Announce %(count)s different clan(s): chaos, drakon, evine."),
    "bad_trigger": gettext_lazy("%(card)s has no reaction waiting."),
}

PHASES: Mapping[str, Promise] = {
    "combo": gettext_lazy("Combo"),
    "verification": gettext_lazy("Verification"),
    "recruitment": gettext_lazy("Recruitment"),
    "end_of_turn": gettext_lazy("End of turn"),
    "over": gettext_lazy("Game over"),
}

ZONES: Mapping[str, Promise] = {
    "hand": gettext_lazy("hand"),
    "deck": gettext_lazy("deck"),
    "discard": gettext_lazy("discard pile"),
    "play": gettext_lazy("play zone"),
}

# What a pending decision is for (`Decision.reason` of `engine.chaos.resolve`).
REASONS: Mapping[str, Promise] = {
    "combo": gettext_lazy("Play the cards of your hand one by one."),
    "recruitment": gettext_lazy("Recruit Domain cards with your resources, then end the turn."),
    "may": gettext_lazy("Apply this effect?"),
    "choose": gettext_lazy("Choose one option of the effect."),
    "discard_hand": gettext_lazy("Choose a card of the hand to discard."),
    "discard_deck": gettext_lazy("Choose a card of the deck to discard."),
    "sacrifice_hand": gettext_lazy("Choose a card of the hand to sacrifice."),
    "sacrifice_deck": gettext_lazy("Choose a card of the deck to sacrifice."),
    "sacrifice_discard": gettext_lazy("Choose a card of the discard pile to sacrifice."),
    "sacrifice_play": gettext_lazy("Choose a card of the play zone to sacrifice."),
    "plan_order": gettext_lazy("PLAN: choose the next card to put back on the deck."),
    "awaken_plan": gettext_lazy("Awaken PLAN: sacrifice the top card of the deck?"),
    "call_announce": gettext_lazy("CALL: announce the clans."),
    "awaken_call": gettext_lazy("Awaken CALL: sacrifice the revealed card?"),
    "cover": gettext_lazy("Cover: choose the Domain card to cover."),
    "recruit": gettext_lazy("Choose the Domain card to recruit."),
    "order": gettext_lazy("Several reactions trigger: choose the one to apply first."),
    "react": gettext_lazy("Apply the reaction of this card?"),
}

CLANS: Mapping[str, Promise] = {
    "chaos": gettext_lazy("Chaos"),
    "drakon": gettext_lazy("Drakon"),
    "evine": gettext_lazy("Evine"),
}


def card_word(card: Any, name_of: Callable[[int], str | None]) -> str:
    """A card argument as the seat may read it: its name, or "a card" (never named if unseen)."""
    if type(card) is int:
        name = name_of(card)
        return name if name is not None else _("a card")
    if card is None:
        return _("a card")
    return str(card)


def event_text(code: str, args: Mapping[str, Any], card_name: Callable[[str], str]) -> str:
    """An event of `engine.chaos.view.seat_events` (cards by English name, None when hidden)."""
    template = EVENTS.get(code)
    shown: dict[str, Any] = {}
    for key, value in args.items():
        if key in ("card", "target", "source"):
            shown[key] = _("a card") if value is None else card_name(str(value))
        elif key == "zone":
            shown[key] = ZONES.get(str(value), value)
        elif key == "clans":
            shown[key] = ", ".join(
                str(CLANS.get(clan.strip(), clan.strip())) for clan in str(value).split(",")
            )
        else:
            shown[key] = value
    if template is None:
        return code
    try:
        return str(template) % shown
    except (KeyError, TypeError, ValueError):
        return code


def refusal_text(code: str, args: Mapping[str, Any], name_of: Callable[[int], str | None]) -> str:
    template = REFUSALS.get(code)
    if template is None:
        return code
    shown = {
        key: card_word(value, name_of) if key == "card" else value for key, value in args.items()
    }
    try:
        return str(template) % shown
    except (KeyError, TypeError, ValueError):
        return code
