"""The rules engine's events and refusals in the page's language.

The engine records what happened (an event) and what it refused (an illegal action's refusal) as a
code with arguments, and keeps one English template per code (`engine.rules.events`). Here each
template is the msgid of a gettext message, under the context “engine event” or “engine refusal”
(an event and a refusal may share a code), so every page words the same codes in English, French
or Swedish: card names as the caller gives them (the page's language), seats by their letters (as
the pages name them), lines by the words of the context “engine line”.

`makemessages` reads only source code, and the engine's table is plain strings:
`manage.py event_messages` writes them into `engine/display/event_messages.py` for it (and runs
it), and a test fails while a code has no French or Swedish translation with the same placeholders.
"""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from string import Formatter
from types import MappingProxyType

from django.utils.translation import pgettext

from engine.rules import (
    CARD_ARGS,
    EVENTS,
    LANE_ARGS,
    LINE_NAMES,
    REFUSALS,
    SEAT_ARGS,
    Arg,
    fields,
)

LINE_CONTEXT = "engine line"
# Each kind of text: its template table and its gettext context.
KINDS: dict[str, tuple[MappingProxyType[str, tuple[str, str]], str]] = {
    "event": (EVENTS, "engine event"),
    "refusal": (REFUSALS, "engine refusal"),
}


def engine_text(
    kind: str,
    code: str,
    args: Sequence[tuple[str, Arg]],
    names: Sequence[str],
    seats: Sequence[str] = (),
) -> str:
    """Event or refusal (`kind`) `code` with `args` in the current language; `names`: the card
    names by card id, as the page shows them; `seats`: how the page names each seat, if not by
    its letter (the replay viewer names the deck sitting there)."""
    table, context = KINDS[kind]
    lines = [pgettext(LINE_CONTEXT, line) for line in LINE_NAMES]
    if seats:
        args = [
            (key, seats[value]) if key in SEAT_ARGS and type(value) is int else (key, value)
            for key, value in args
        ]
    return pgettext(context, table[code][1]).format(**fields(args, names, lines))


def refusal_text(code: str, args: Sequence[tuple[str, Arg]], seen: Mapping[int, str]) -> str:
    """Refusal `code` with `args` in the current language as one seat may read it: a card it
    may see by its name in `seen` (card id: name), any other card by the id it was asked with,
    never its name. Card ids are positions in the decks (or the Draft's pool), so a refusal that
    named the card behind any id would list the hidden ones; this way the refusal of a card the
    seat cannot see reads as that of a card that does not exist."""
    shown: list[tuple[str, Arg]] = []
    for key, value in args:
        if key in CARD_ARGS and type(value) is int and value not in seen:
            # Translators: a card a refusal names only by the id it was asked with.
            value = pgettext("engine refusal", "card %(id)s") % {"id": value}
        elif key in CARD_ARGS and type(value) is int:
            value = seen[value]
        shown.append((key, value))
    return engine_text("refusal", code, shown, ())


@dataclass(frozen=True)
class Message:
    """One message of the catalogues: its context, its msgid, and a note for translators."""

    context: str
    msgid: str
    note: str


def placeholders(template: str) -> list[str]:
    """The argument names a template shows, each once, in order."""
    return list(dict.fromkeys(name for _, name, _, _ in Formatter().parse(template) if name))


def _note(template: str) -> str:
    kinds = []
    for name in placeholders(template):
        if name in CARD_ARGS:
            kinds.append(f"{{{name}}} a card name")
        elif name in SEAT_ARGS:
            kinds.append(f"{{{name}}} a seat letter")
        elif name in LANE_ARGS:
            kinds.append(f"{{{name}}} a line's word (context “{LINE_CONTEXT}”)")
        else:
            kinds.append(f"{{{name}}} a number")
    return "; ".join(kinds)


def messages() -> Iterator[Message]:
    """Every message the engine's texts need, in table order: events, refusals, line words."""
    for kind, (table, context) in KINDS.items():
        for code, (rule_id, template) in table.items():
            shown = _note(template)
            note = f"{kind} {code}, rule {rule_id}" + (f". {shown}." if shown else ".")
            yield Message(context, template, note)
    for line in LINE_NAMES:
        yield Message(LINE_CONTEXT, line, f"the {line} line, as {{line}} shows it in events.")
