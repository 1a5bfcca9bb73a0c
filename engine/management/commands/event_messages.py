"""`manage.py event_messages`: bring the engine app's catalogues in step with the rules engine's
event and refusal templates (`engine.rules.events`).

`makemessages` reads only source code, where the engine's templates are plain strings: this writes
them as `pgettext_lazy` calls (a keyword `makemessages` knows; it has no `pgettext_noop`) into
`engine/display/event_messages.py`, which nothing imports, then runs `makemessages` for the
engine app (French and Swedish), which adds the new templates and marks the gone ones obsolete.
`--check` only says whether the module is current (exit status 1 if not).
"""

import os
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.display.event_text import messages

APP_DIR = Path(__file__).resolve().parents[2]
MODULE = APP_DIR / "display" / "event_messages.py"
LANGUAGES = ["fr", "sv"]
WIDTH = 100

HEADER = '''"""The rules engine's event and refusal templates and its line words, as the gettext
messages `makemessages` reads (engine.display.event_text words the events with them).

Generated from engine.rules.events by `manage.py event_messages`: do not edit.
"""

from django.utils.translation import pgettext_lazy

MESSAGES = (
'''


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pieces(text: str, room: int) -> list[str]:
    """`text` cut after spaces into quoted pieces of at most `room` characters."""
    pieces, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and len(_quoted(candidate + " ")) > room:
            pieces.append(current + " ")
            current = word
        else:
            current = candidate
    pieces.append(current)
    return [_quoted(piece) for piece in pieces]


def _comment(note: str) -> list[str]:
    lines, current = [], "    # Translators:"
    for word in note.split(" "):
        if len(current) + 1 + len(word) > WIDTH:
            lines.append(current)
            current = "    #"
        current += " " + word
    return [*lines, current]


def module_source() -> str:
    """What `engine/display/event_messages.py` holds for the current templates."""
    out = [HEADER]
    for message in messages():
        out.extend(line + "\n" for line in _comment(message.note))
        call = f"    pgettext_lazy({_quoted(message.context)}, {_quoted(message.msgid)}),"
        if len(call) <= WIDTH:
            out.append(call + "\n")
            continue
        out.append("    pgettext_lazy(\n")
        out.append(f"        {_quoted(message.context)},\n")
        pieces = _pieces(message.msgid, WIDTH - 8)
        out.extend(f"        {piece}\n" for piece in pieces[:-1])
        out.append(f"        {pieces[-1]},\n")
        out.append("    ),\n")
    out.append(")\n")
    return "".join(out)


class Command(BaseCommand):
    help = "Write the engine's event and refusal templates for makemessages, and run it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help=(
                "only check that engine/display/event_messages.py is current (exit status 1 if not)"
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = module_source()
        current = MODULE.is_file() and MODULE.read_text() == source
        if options["check"]:
            if not current:
                raise CommandError(f"{MODULE} is out of date: run `manage.py event_messages`.")
            return
        if not current:
            MODULE.write_text(source)
            self.stdout.write(f"Wrote {MODULE}.")
        # makemessages works on the current folder's app.
        here = Path.cwd()
        os.chdir(APP_DIR)
        try:
            call_command("makemessages", locale=LANGUAGES, verbosity=options["verbosity"])
        finally:
            os.chdir(here)
