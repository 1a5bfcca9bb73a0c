"""Where a replay viewer stands and where its buttons and keys lead.

A position is a turn (0: the first, the last: the end of the game) and a step within it: step 0
is the position at the start of the turn with all it will do, step k the position just after
its k-th action. The URL counts turns from 1 as the page does and steps as the actions played
(`?turn=5&step=2`: Turn 5 after its second action), so a shared link names what its sender saw.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.display.board import board_of
from engine.display.event_text import engine_text
from engine.display.faces import ENGLISH, UNLINKED, CardFace
from engine.rules import Arg, Observation

Position = tuple[int, int]  # turn, step (both from 0)


class Frame(Protocol):
    """A turn of a replay as the viewer reads it (`engine.simulation.Frame`): the position at
    its start and after each action (every hand shown), its actions and its events."""

    @property
    def turn(self) -> int: ...

    @property
    def players(self) -> Observation: ...

    @property
    def actions(self) -> tuple[Any, ...]: ...

    def position(self, step: int) -> Observation: ...

    def events_of(self, step: int) -> tuple[tuple[str, tuple[tuple[str, Arg], ...]], ...]: ...


@dataclass(frozen=True)
class ReplayNavigation:
    here: Position
    first: Position
    last: Position
    previous_step: Position | None
    next_step: Position | None
    previous_turn: Position | None
    next_turn: Position | None


def query_number(text: str | None, default: int) -> int:
    """A replay page's number parameter (`?turn=`, `?step=`), else `default`."""
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def replay_position(query: Mapping[str, str], actions: Sequence[int]) -> Position:
    """The position `?turn=&step=` asks for, within the game's turns (`actions`: how many
    actions each turn has), a number out of range taken as the nearest end."""
    turn = max(0, min(query_number(query.get("turn"), 1) - 1, len(actions) - 1))
    step = max(0, min(query_number(query.get("step"), 0), actions[turn]))
    return turn, step


def replay_navigation(here: Position, actions: Sequence[int]) -> ReplayNavigation:
    turn, step = here
    last = len(actions) - 1
    if step < actions[turn]:
        next_step: Position | None = (turn, step + 1)
    else:
        next_step = (turn + 1, 0) if turn < last else None
    if step > 0:
        previous_step: Position | None = (turn, step - 1)
    else:
        previous_step = (turn - 1, actions[turn - 1]) if turn > 0 else None
    return ReplayNavigation(
        here=here,
        first=(0, 0),
        last=(last, 0),
        previous_step=previous_step,
        next_step=next_step,
        previous_turn=(turn - 1, 0) if turn > 0 else None,
        next_turn=(turn + 1, 0) if turn < last else None,
    )


def position_query(position: Position) -> str:
    turn, step = position
    return f"?turn={turn + 1}" + (f"&step={step}" if step else "")


def replay_context(
    query: Mapping[str, str],
    frames: Sequence[Frame],
    here: str,
    *,
    cards: Sequence[str],
    faces: Mapping[str, CardFace],
    local: Mapping[str, str] = ENGLISH,
    abilities: Mapping[str, str] = ENGLISH,
    labels: Mapping[str, str],
    letters: Sequence[str],
    titles: Sequence[str],
    slugs: Mapping[str, str] = UNLINKED,
) -> dict[str, Any]:
    """What a replay page shows of `frames` (`engine.simulation.replay_frames`) at the position
    `query` asks for: its board, its actions and events, and the links of its buttons (`here`:
    the page's URL). `cards`: the engine's card names by card id; `faces` and `labels`: how the
    page shows a card by engine name (a card `faces` lacks: drawn from its played values, named
    in the page's language by `local`), `abilities` the abilities' names in it by code;
    `letters` and `titles`: how it names each seat, in the events and on the board; `slugs` the
    catalogue cards' slugs by engine name (each card links to its face, as at a table)."""
    actions = [len(frame.actions) for frame in frames]
    number, step = replay_position(query, actions)
    navigation = replay_navigation((number, step), actions)
    links = {
        name: here + position_query(position) if position is not None else None
        for name, position in (
            ("first", navigation.first),
            ("last", navigation.last),
            ("previous_step", navigation.previous_step),
            ("next_step", navigation.next_step),
            ("previous_turn", navigation.previous_turn),
            ("next_turn", navigation.next_turn),
        )
    }
    frame = frames[number]
    over = number == len(frames) - 1
    return {
        "here": here,
        "frame": frame,
        "events": [
            engine_text("event", code, args, cards, letters) for code, args in frame.events_of(step)
        ],
        "decks": {
            player.letter: letter
            for player, letter in zip(frame.players.seats, letters, strict=True)
        },
        "number": number,
        "step": step,
        "last": len(frames) - 1,
        "links": links,
        "labels": labels,
        "board": board_of(
            frame.position(step),
            titles=titles,
            local=local,
            faces=faces,
            ended=over,
            abilities=abilities,
            slugs=slugs,
        ),
    }
