"""One seat's view of a game as JSON (the games API's, Play's stored answers): the serialisation
of ``engine.rules.observation``'s observation, with the events as that seat sees them.

The rulebook's hidden information is the hands: a player sees their own hand in order with the
Stronghold among it, and of the others' hands only the backs, so how many cards and where their
Stronghold sits, Bastion or Fort side up. Everything on the table is public (lines, Symbiotes,
enchained cards, which the Enchain rule reveals before it turns them face down, the Champions,
the Mana). Once the game is over, every hand is shown.

Events are filtered the same way. A card becomes public when an event shows it on the table
(played, cast, attacking, returning from play, revealed by Enchain); the events that move a card
that never left a hand (Exhaustion removing the rightmost card, Counter-order moving one) name it
only to its owner, the others get ``None`` in its place. The view is plain JSON data, so the web
app and the API send it as it is.

A spectator, sitting at no seat, gets the public view: ``seat_view`` of ``SPECTATOR`` shows no hand
and names no card that never left one, until the game is over.
"""

from __future__ import annotations

from typing import Any, Final

from engine.rules.actions import ASSAULT, CAST, END_TURN, PLAY, PLAY_ONTO
from engine.rules.events import LINE_NAMES, PLAYER_NAMES, SEAT_ARGS, Event
from engine.rules.observation import (
    SPECTATOR,
    CardSeen,
    CreatureSeen,
    Observation,
    SeatSeen,
    observe,
)
from engine.rules.state import NO_CARD, OVER, GameState

ACTION_KINDS: Final = {
    ASSAULT: "assault",
    END_TURN: "end_turn",
    PLAY: "play",
    PLAY_ONTO: "play_onto",
    CAST: "cast",
}
ACTION_CODES: Final = {name: code for code, name in ACTION_KINDS.items()}

# Event arguments that hold a card id ("source": the card that dealt Stronghold damage).
CARD_KEYS: Final = frozenset({"card", "target", "host", "source"})
# Events naming a card that stays hidden in (or leaves from) a hand without being shown.
HAND_ONLY_EVENTS: Final = frozenset({"exhaustion", "counter_order"})


def action_json(action: tuple[int, int, int]) -> dict[str, Any]:
    """An engine action as the view lists it: its kind's name, the card and the line or the
    creature (``arg``: a lane for ``play``, a creature's card id for ``play_onto`` and ``cast``)."""
    kind, card, arg = action
    return {"kind": ACTION_KINDS[kind], "card": card, "arg": arg}


def action_from_json(kind: str, card: int, arg: int) -> tuple[int, int, int]:
    """The engine action of a kind name (``apply`` checks the rest); ``KeyError`` if unknown."""
    return (ACTION_CODES[kind], card, arg)


def public_cards(log: list[Event], upto: int) -> set[int]:
    """The card ids shown on the table by events ``0 .. upto - 1``."""
    shown: set[int] = set()
    for event in log[:upto]:
        if event.code not in HAND_ONLY_EVENTS:
            for key, value in event.args:
                if key in CARD_KEYS and type(value) is int and value != NO_CARD:
                    shown.add(value)
    return shown


def seat_events(
    state: GameState, seat: int, start: int = 0, reveal: bool = False
) -> list[dict[str, Any]]:
    """The events from index ``start`` as ``seat`` sees them (``state`` must keep a log);
    ``reveal``: the game ended outside the rules (a player conceded), show every card."""
    log = state.log if state.log is not None else []
    over = state.phase == OVER or reveal
    origin = state.setup.origin
    shown = public_cards(log, start)
    events = []
    for event in log[start:]:
        args: dict[str, Any] = {}
        hand_only = event.code in HAND_ONLY_EVENTS
        for key, value in event.args:
            if key in CARD_KEYS and type(value) is int and value != NO_CARD:
                if not hand_only:
                    shown.add(value)
                if not (over or value in shown or origin[value] == seat):
                    args[key] = None
                    continue
            args[key] = _arg(key, value)
        events.append({"code": event.code, "args": args})
    return events


def _arg(key: str, value: Any) -> Any:
    if key in SEAT_ARGS and type(value) is int:
        return PLAYER_NAMES[value]
    if key == "line" and type(value) is int:
        return LINE_NAMES[value]
    return value


def card_json(card: CardSeen) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.name,
        "cost": card.cost,
        "attack": card.attack,
        "hp": card.hp,
        "creature": card.creature,
        "abilities": list(card.abilities),
    }


def _hand_or_piles(player: SeatSeen) -> dict[str, Any]:
    """A hand player's hand (its cards when shown) and Stronghold; the automaton's face-down
    deck pile over its Stronghold (its hit points: the pile's cards) and its face-up discard,
    bottom card first."""
    stronghold: dict[str, Any] = {
        "side": "fort" if player.fort else "bastion",
        "hit_points": player.hit_points,
    }
    if player.automaton:
        return {
            "controller": "automaton",
            "hand_count": 0,
            "hand": None,
            "pile_count": player.pile_count,
            "discard": [card_json(card) for card in reversed(player.discard)],
            "stronghold": {"position": None, **stronghold},
        }
    return {
        "controller": "hand",
        "hand_count": player.hand_count,
        "hand": None if player.hand is None else [card_json(card) for card in player.hand],
        "stronghold": {"position": player.stronghold_at, **stronghold},
    }


def _creature_json(creature: CreatureSeen) -> dict[str, Any]:
    data = card_json(creature.card)
    data.update(
        attack=creature.attack,
        hp=creature.hp,
        damage=creature.damage,
        symbiote=None if creature.symbiote is None else card_json(creature.symbiote),
        chained=[card_json(card) for card in creature.chained],
    )
    return data


def observation_json(observation: Observation) -> dict[str, Any]:
    """An observation as the API sends it (the schema of ``seat_view``, events aside)."""
    players = [
        {
            "seat": player.letter,
            **_hand_or_piles(player),
            "mana": player.mana,
            "lines": [[_creature_json(creature) for creature in line] for line in player.lines],
            "removed_count": player.removed_count,
            "removed": None
            if player.removed is None
            else [card_json(card) for card in player.removed],
            "champion": None if player.champion is None else card_json(player.champion),
            "champion_exhausted": player.champion_exhausted,
        }
        for player in observation.seats
    ]
    outcome = observation.outcome
    seat = observation.seat
    return {
        "seat": None if seat == SPECTATOR else PLAYER_NAMES[seat],
        "active": PLAYER_NAMES[observation.active],
        "phase": observation.phase,
        "turn": observation.turn,
        "players": players,
        "legal_actions": [action_json(action) for action in observation.legal_actions],
        "outcome": None
        if outcome is None
        else {
            "winners": [PLAYER_NAMES[winner] for winner in outcome.winners],
            "loser": PLAYER_NAMES[outcome.loser],
            "reason": outcome.reason,
        },
    }


def seat_view(
    state: GameState, seat: int, events_from: int = 0, reveal: bool = False
) -> dict[str, Any]:
    """What ``seat`` sees of ``state`` (``SPECTATOR``: what anyone at no seat sees; its ``seat``
    is None), and the events from index ``events_from`` on; ``reveal``: the game ended outside
    the rules (a player conceded), show every hand. The JSON of ``observe``'s observation."""
    return {
        **observation_json(observe(state, seat, reveal=reveal)),
        "events": seat_events(state, seat, events_from, reveal),
        "events_next": len(state.log) if state.log is not None else 0,
    }
