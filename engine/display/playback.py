"""The events since a page's last board played out on the board, step by step (issue 29: the
board jumped to the end of an Assault while a list of lines grew above it).

A step is one event of the log, in the log's order: its words, the board it shows and what it
marks on that board. The boards are the replay viewer's frames of the new actions (`start`: the
board the page showed, then the board after each action): an event that plays out on the board
(an attack, damage, a creature leaving its line, a Stronghold's HP) shows the board before its
action, marked step after step until the action's last such event; any other event shows the
board after its action (a creature played is on it).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from django.utils.translation import gettext as _

# What an event marks on the board, by argument: (argument, role). Roles: the creature that
# attacks and the one it attacks, the creature hit (`amount` dealt, its `damage` now), the
# creature that leaves its line, the seat whose Stronghold's HP change (`hp` now), a card named.
ROLES: Final[Mapping[str, tuple[tuple[str, str], ...]]] = MappingProxyType(
    {
        "attack": (("card", "attacker"), ("target", "target")),
        "attack_stronghold": (("card", "attacker"),),
        "instinct": (("card", "attacker"),),
        "damage": (("card", "hit"), ("amount", "amount"), ("damage", "damage")),
        "destroyed": (("card", "gone"),),
        "returns_right": (("card", "gone"),),
        "returns_left": (("card", "gone"),),
        "returns_discard": (("card", "gone"),),
        "returns_pile": (("card", "gone"),),
        "stronghold_damage": (("player", "stronghold"), ("amount", "amount"), ("hp", "hp")),
        "regenerates": (("player", "stronghold"), ("hp", "hp")),
    }
)
# The roles that change the board within an action (the board after it has them all done).
PLAYED_OUT: Final = frozenset({"attacker", "target", "hit", "gone", "stronghold"})
# The event arguments that name a card, marked on the board (role "cards": their ids) when no
# role names it.
CARD_ARGS: Final = ("card", "target", "host", "source")


@dataclass(frozen=True)
class PlaybackStep:
    text: str
    board: int  # 0: the page's last board, k: the board after the k-th new action
    marks: tuple[tuple[str, str], ...]  # (role, value) the board shows for it
    note: str = ""  # what the marked creature shows of its damage once hit ("−3 damage")


def event_marks(event: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """What a seat's view of an event (`engine.rules.view.seat_events`: cards by id, None when
    hidden from the seat; seats by letter) marks on the board."""
    args = event["args"]
    roles = ROLES.get(event["code"])
    if roles is None:
        named = " ".join(str(args[key]) for key in CARD_ARGS if args.get(key) is not None)
        return (("cards", named),) if named else ()
    return tuple((role, str(args[key])) for key, role in roles if args.get(key) is not None)


def playback_steps(
    events: Sequence[Mapping[str, Any]], texts: Sequence[str], ends: Sequence[int]
) -> list[PlaybackStep]:
    """The steps of the new `events` (worded `texts`), `ends[k]` the number of them the log held
    once the k-th new action (from 0) was played: which board each shows and what it marks.
    Without `ends` (nothing to play out) every step shows the page's new board."""
    marks = [event_marks(event) for event in events]
    played = [any(role in PLAYED_OUT for role, _value in mark) for mark in marks]
    # Per action, the last event that plays out on the board before the action's own board.
    last_played: list[int] = []
    begin = 0
    for end in ends:
        inside = [index for index in range(begin, end) if played[index]]
        last_played.append(inside[-1] if inside else -1)
        begin = end
    steps = []
    action = 0
    for index, event in enumerate(events):
        while action < len(ends) and index >= ends[action]:
            action += 1
        if action == len(ends):
            board = len(ends)
        else:
            board = action if index <= last_played[action] else action + 1
        note = ""
        if event["code"] == "damage" and event["args"].get("damage") is not None:
            note = _("−%(damage)s damage") % {"damage": event["args"]["damage"]}
        steps.append(PlaybackStep(texts[index], board, marks[index], note))
    return steps
