"""How the site shows a Duel of Chaos game: a zone's cards with their names in the reader's
language (`cards.chaos_selectors.chaos_names` reads them from the catalogue), and the replay
viewer (one step of a game already played, as a seat or the public saw it, with its buttons),
drawn by `engine/chaos/_replay.html`.

The replays of finished tables at Play and of a test batch's games are this one viewer: each
gives the game (box, seed, options, actions) and its seats' labels."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.chaos import SPECTATOR, Action, Box, Options
from engine.chaos.events import SEATS
from engine.chaos.replay import replay_step
from engine.display import chaos_text
from engine.display.replay_steps import query_number


def named(names: Mapping[str, str]) -> Callable[[str], str]:
    return lambda name: names.get(name, name)


def card_view(card: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A card of `engine.chaos.seat_view` with its `label` in the reader's language."""
    return {**card, "label": names.get(card["name"], card["name"])}


def zone_view(cards: list[dict[str, Any]] | None, names: Mapping[str, str]) -> list[dict[str, Any]]:
    return [card_view(card, names) for card in cards or []]


def replay_context(
    query: Mapping[str, str],
    *,
    box: Box,
    seed: int,
    options: Options,
    actions: Sequence[Action],
    labels: Sequence[str],
    names: Mapping[str, str],
    here: str,
) -> dict[str, Any]:
    """What the replay viewer shows of a game at `?step=` (a number out of range: the nearest
    end) seen `?as=` A, B or the public (the default): the position, the events of that step
    as text, and its buttons' steps (`here`: the page's URL). `labels`: the seats' names."""
    total = len(actions)
    step = max(0, min(query_number(query.get("step"), 0), total))
    view_as = query.get("as", "public")
    viewer = SEATS.index(view_as) if view_as in SEATS else SPECTATOR
    view, events = replay_step(box, seed, options, actions, step, viewer)
    shown = {
        "turn": view["turn"],
        "phase_label": str(chaos_text.PHASES.get(view["phase"], view["phase"])),
        "players": [
            {
                "letter": letter,
                "label": label,
                "hand_count": data["hand_count"],
                "hand": None if data["hand"] is None else zone_view(data["hand"], names),
                "deck_count": data["deck_count"],
                "played": zone_view(data["played"], names),
                "recruited": zone_view(data["recruited"], names),
                "discard": zone_view(data["discard"], names),
            }
            for (letter, data), label in zip(view["players"].items(), labels, strict=True)
        ],
        "domain": [zone_view(slot[-1:], names) for slot in view["domain"]],
        "interventions": zone_view(view["interventions"], names),
        "void": zone_view(view["void"], names),
        "winner": view["winner"],
    }
    return {
        "here": here,
        "step": step,
        "total": total,
        "previous": max(step - 1, 0),
        "next": min(step + 1, total),
        "view_as": SEATS[viewer] if viewer != SPECTATOR else "public",
        "labels": list(zip(SEATS, labels, strict=True)),
        "shown": shown,
        "events": [
            chaos_text.event_text(event["code"], event["args"], named(names)) for event in events
        ],
    }
