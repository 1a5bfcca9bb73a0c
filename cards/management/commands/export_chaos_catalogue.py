"""`manage.py export_chaos_catalogue DIR [--set CODE ...]`: the Duel of Chaos catalogue written as
data files of the shape of `data/chaos/` (what `load_catalogue` reads back unchanged): cards
entered in the admin become files, and a set can be shared."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.chaos_files import write_chaos_catalogue
from cards.chaos_selectors import chaos_catalogue_snapshot, chaos_sets


class Command(BaseCommand):
    help = "Write the Duel of Chaos sets, cards, keywords and rules as data files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("target", type=Path, help="the folder to write (made if missing)")
        parser.add_argument(
            "--set", dest="sets", action="append", help="a set's code (default: every set)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        codes = options["sets"]
        known = {chaos_set.code for chaos_set in chaos_sets()}
        for code in codes or []:
            if code not in known:
                raise CommandError(
                    f"no Duel of Chaos set {code!r} (known: {', '.join(sorted(known))})"
                )
        snapshot = chaos_catalogue_snapshot(codes)
        write_chaos_catalogue(snapshot, options["target"])
        written = f"{len(snapshot.cards)} cards of {len(snapshot.sets)} set(s)"
        self.stdout.write(f"{written} written to {options['target']}.")
