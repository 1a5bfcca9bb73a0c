"""Replays: a game is its box, its seed, its options and its actions; playing them again gives the
same game (the engine is deterministic: every shuffle comes from the seeded RNG of the state).

A replay is plain JSON: the cards as the fields of ``engine.chaos.cards`` (each with its copies),
the options, the seed and the actions in their readable form (``engine.chaos.actions.to_json``).
``replay_step`` is one step of a game already played, as a seat or the public saw it: the replay
viewers of the site (a finished table, a test batch's game) show a game through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from engine.chaos.actions import Action, apply, from_json, to_json
from engine.chaos.cards import Box, ChaosCardDef, box_from_cards, card_from_fields
from engine.chaos.errors import IllegalAction, InputError
from engine.chaos.events import SEATS
from engine.chaos.state import RULES_VERSION, ChaosState, Options
from engine.chaos.turn import new_game
from engine.chaos.view import seat_events, seat_view


def box_cards(box: Box) -> list[ChaosCardDef]:
    """The distinct cards of a box, each with the copies it has there (Emissaries counted per
    deck: a card in both decks says ``both``)."""
    seen: dict[int, ChaosCardDef] = {}
    for card in (*box.decks[0], *box.decks[1], *box.domain, *box.interventions):
        seen.setdefault(id(card), card)
    return list(seen.values())


def record(box: Box, seed: int, options: Options, actions: Sequence[Any]) -> dict[str, Any]:
    """A replay of the game of ``box`` and ``seed`` whose actions (readable form) were played."""
    state = replay(
        {
            "cards": [card.to_fields() for card in box_cards(box)],
            "seed": seed,
            "options": options.to_json(),
            "actions": list(actions),
        }
    )
    return {
        "rules_version": RULES_VERSION,
        "game": "duel-of-chaos",
        "seed": seed,
        "options": options.to_json(),
        "cards": [card.to_fields() for card in box_cards(box)],
        "actions": list(actions),
        "result": {
            "winner": None if state.winner is None else SEATS[state.winner],
            "turns": state.turn,
        },
    }


def _options(data: Any) -> Options:
    if not isinstance(data, dict):
        raise InputError("options: expected a mapping")
    first = data.get("first_player")
    if first is not None and first not in SEATS:
        raise InputError("options.first_player: expected A or B")
    limit = data.get("turn_limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError("options.turn_limit: expected a whole number from 1")
    return Options(
        mode=str(data.get("mode", "duel")),
        first_player=None if first is None else SEATS.index(first),
        turn_limit=limit,
        log=True,
    )


def replay(data: Any) -> ChaosState:
    """The final position of a replay; ReplayError-like InputError naming the failing action."""
    if not isinstance(data, dict):
        raise InputError("a replay is a mapping")
    cards = data.get("cards")
    if not isinstance(cards, list):
        raise InputError("cards: expected a list")
    box = box_from_cards(
        [card_from_fields(fields, f"cards[{i}]") for i, fields in enumerate(cards)], "cards"
    )
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError("seed: expected a whole number")
    state = new_game(box, seed, _options(data.get("options", {})))
    for index, raw in enumerate(data.get("actions") or []):
        try:
            apply(state, from_json(state, raw))
        except (IllegalAction, InputError) as exc:
            raise InputError(f"actions[{index}] {raw!r}: {exc}") from None
    return state


def readable(state: ChaosState, actions: Iterable[Action]) -> list[Any]:
    """Actions in their readable form, each read in the position where it is played (``state``
    is played on)."""
    shown = []
    for action in actions:
        shown.append(to_json(state, action))
        apply(state, action)
    return shown


def replay_step(
    box: Box, seed: int, options: Options, actions: Sequence[Action], step: int, viewer: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The position after the first ``step`` actions of a game as ``viewer`` (a seat or
    ``SPECTATOR``) saw it then (``seat_view``: the other hand counted, every hand once over),
    and the events of the ``step``-th action as it saw them (step 0: the set-up's)."""
    state = new_game(box, seed, replace(options, log=True))
    before = 0
    for index, action in enumerate(actions[:step]):
        if index == step - 1:
            before = len(state.log or [])
        apply(state, action)
    return seat_view(state, viewer), seat_events(state, viewer, before)
