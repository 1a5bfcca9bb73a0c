"""One seat's view of a game: what a player sitting at that seat of the table sees.

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

from engine.rules.actions import ASSAULT, CAST, END_TURN, PLAY, PLAY_ONTO, legal_actions
from engine.rules.events import LINE_NAMES, PLAYER_NAMES, SEAT_ARGS, Event
from engine.rules.kingdom import AutomatonKingdom, HandKingdom, Kingdom
from engine.rules.state import ASSAULT_DONE, NO_CARD, OVER, Creature, GameState

ACTION_KINDS: Final = {
    ASSAULT: "assault",
    END_TURN: "end_turn",
    PLAY: "play",
    PLAY_ONTO: "play_onto",
    CAST: "cast",
}
ACTION_CODES: Final = {name: code for code, name in ACTION_KINDS.items()}
PHASES: Final = {ASSAULT_DONE: "assault_done", OVER: "over"}

# Event arguments that hold a card id ("source": the card that dealt Stronghold damage).
CARD_KEYS: Final = frozenset({"card", "target", "host", "source"})
# Events naming a card that stays hidden in (or leaves from) a hand without being shown.
HAND_ONLY_EVENTS: Final = frozenset({"exhaustion", "counter_order"})
# The seat of a spectator: no seat's, so no hand or card of a hand is its own.
SPECTATOR: Final = -1


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


def card_json(state: GameState, card: int) -> dict[str, Any]:
    setup = state.setup
    definition = setup.cards[card]
    return {
        "id": card,
        "name": setup.names[card],
        "cost": setup.cost[card],
        "attack": setup.attack[card],
        "hp": setup.hp[card],
        "creature": setup.creature[card],
        "abilities": list(definition.abilities),
    }


def _hand_or_piles(state: GameState, kingdom: Kingdom, visible: bool) -> dict[str, Any]:
    """A hand player's hand (its cards when ``visible``) and Stronghold; the automaton's face-down
    deck pile over its Stronghold (its hit points: the pile's cards) and its face-up discard."""
    stronghold: dict[str, Any] = {
        "side": "fort" if kingdom.fort else "bastion",
        "hit_points": kingdom.hit_points(),
    }
    if isinstance(kingdom, AutomatonKingdom):
        return {
            "controller": "automaton",
            "hand_count": 0,
            "hand": None,
            "pile_count": len(kingdom.pile),
            "discard": [card_json(state, card) for card in kingdom.discard],
            "stronghold": {"position": None, **stronghold},
        }
    assert isinstance(kingdom, HandKingdom)
    return {
        "controller": "hand",
        "hand_count": len(kingdom.hand),
        "hand": [card_json(state, card) for card in kingdom.hand] if visible else None,
        "stronghold": {"position": kingdom.sh, **stronghold},
    }


def _creature_json(state: GameState, creature: Creature) -> dict[str, Any]:
    data = card_json(state, creature.card)
    data.update(
        attack=creature.attack,
        hp=creature.hp,
        damage=creature.damage,
        symbiote=None if creature.symbiote == NO_CARD else card_json(state, creature.symbiote),
        chained=[card_json(state, card) for card, _owner in creature.chained],
    )
    return data


def seat_view(
    state: GameState, seat: int, events_from: int = 0, reveal: bool = False
) -> dict[str, Any]:
    """What ``seat`` sees of ``state`` (``SPECTATOR``: what anyone at no seat sees; its ``seat``
    is None), and the events from index ``events_from`` on; ``reveal``: the game ended outside
    the rules (a player conceded), show every hand."""
    over = state.phase == OVER or reveal
    players = []
    for kingdom in state.players:
        visible = over or kingdom.seat == seat
        champion = kingdom.champion
        players.append(
            {
                "seat": PLAYER_NAMES[kingdom.seat],
                **_hand_or_piles(state, kingdom, visible),
                "mana": kingdom.mana,
                "lines": [
                    [_creature_json(state, creature) for creature in line] for line in kingdom.lines
                ],
                "removed_count": len(kingdom.removed),
                "removed": (
                    [card_json(state, card) for card in kingdom.removed] if visible else None
                ),
                "champion": None if champion == NO_CARD else card_json(state, champion),
                "champion_exhausted": kingdom.champion_exhausted,
            }
        )
    mine = state.active == seat and not over
    outcome = state.outcome
    return {
        "seat": None if seat == SPECTATOR else PLAYER_NAMES[seat],
        "active": PLAYER_NAMES[state.active],
        "phase": "over" if over else PHASES.get(state.phase, "summoning"),
        "turn": state.turn,
        "players": players,
        "legal_actions": [action_json(action) for action in legal_actions(state)] if mine else [],
        "outcome": None
        if outcome is None
        else {
            "winners": [PLAYER_NAMES[winner] for winner in outcome.winners()],
            "loser": PLAYER_NAMES[outcome.loser],
            "reason": outcome.reason,
        },
        "events": seat_events(state, seat, events_from, reveal),
        "events_next": len(state.log) if state.log is not None else 0,
    }
