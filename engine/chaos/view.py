"""One seat's view of a game: what a player sitting there may see (rule hidden-information).

"Les cartes dans votre main sont secrètes"; "les joueurs peuvent consulter les cartes dans chaque
défausse et les cartes dans le Néant"; "les joueurs peuvent compter les cartes dans leur pioche,
mais ne peuvent pas les consulter"; cards put on or under a deck go face down. So a seat sees its
own hand, the other's hand as a count, every deck as a count only (its own too), every play zone,
discard pile, the Void, the Domain and the Interventions, and the cards an effect has revealed
and not yet put back (PLAN, CALL, Cover). A pending decision shows its options only to the seat
that decides (they may be cards of its hand). Events are filtered the same way: a card drawn is
named to its owner only. A spectator (``SPECTATOR``) sees no hand. The view is plain JSON data.
"""

from __future__ import annotations

from typing import Any, Final

from engine.chaos.actions import legal_actions, to_json
from engine.chaos.effects import to_text
from engine.chaos.events import CARD_ARGS, OWNER_ONLY, SEAT_ARGS, SEATS
from engine.chaos.state import KIND_NAMES, NO_CARD, OVER, PHASE_NAMES, ChaosState

SPECTATOR: Final = -1


def card_json(state: ChaosState, card: int) -> dict[str, Any]:
    definition = state.setup.cards[card]
    return {
        "id": card,
        "name": definition.name,
        "type": definition.type,
        "clan": definition.clan,
        "cost": definition.cost,
        "play": to_text(definition.play),
        "reaction_on": definition.reaction_on,
        "reaction_opponent_turn": definition.reaction_opponent_turn,
        "reaction": to_text(definition.reaction),
    }


def _cards(state: ChaosState, cards: list[int]) -> list[dict[str, Any]]:
    return [card_json(state, card) for card in cards]


def revealed(state: ChaosState) -> list[int]:
    """Cards an effect has taken out and shown, not yet put back (its frames hold them)."""
    return [card for frame in state.frames if frame.node is not None for card in frame.cards]


def seat_view(state: ChaosState, seat: int) -> dict[str, Any]:
    over = state.phase == OVER
    players = {}
    for index, player in enumerate(state.players):
        mine = index == seat or over
        players[SEATS[index]] = {
            "hand_count": len(player.hand),
            "hand": _cards(state, player.hand) if mine else None,
            "deck_count": len(player.deck),
            "played": _cards(state, player.played),
            "recruited": _cards(state, player.recruited),
            "discard": _cards(state, player.discard),
            "resources": player.resources(),
            "awakened": player.awakened,
            "used": list(player.used),
            "turns": player.turns,
        }
    decision = state.decision
    shown_decision: dict[str, Any] | None = None
    if decision is not None:
        shown_decision = {
            "seat": SEATS[decision.seat],
            "kind": KIND_NAMES[decision.kind],
            "reason": decision.reason,
            "source": None if decision.source == NO_CARD else card_json(state, decision.source),
        }
        if decision.seat == seat:
            shown_decision["actions"] = [to_json(state, a) for a in legal_actions(state)]
    return {
        "mode": state.setup.mode.name,
        "seat": SEATS[seat] if seat != SPECTATOR else None,
        "turn": state.turn,
        "active": SEATS[state.active],
        "phase": PHASE_NAMES[state.phase],
        "players": players,
        "domain": [_cards(state, slot) for slot in state.domain],
        "pile_count": len(state.pile),
        "interventions": _cards(state, state.interventions),
        "void": _cards(state, state.void),
        "revealed": _cards(state, revealed(state)),
        "decision": shown_decision,
        "winner": SEATS[state.winner] if state.winner is not None else None,
        "returns": list(state.returns()) if over else None,
    }


def seat_events(state: ChaosState, seat: int, start: int = 0) -> list[dict[str, Any]]:
    """The events from index ``start`` as ``seat`` sees them (``state`` must keep a log)."""
    log = state.log or []
    over = state.phase == OVER
    shown = []
    for event in log[start:]:
        args: dict[str, Any] = {}
        hidden = event.code in OWNER_ONLY and not over and dict(event.args).get("player") != seat
        for key, value in event.args:
            if key in CARD_ARGS and type(value) is int:
                args[key] = None if hidden else state.setup.names[value]
            elif key in SEAT_ARGS and type(value) is int:
                args[key] = SEATS[value]
            else:
                args[key] = value
        shown.append({"code": event.code, "args": args})
    return shown
