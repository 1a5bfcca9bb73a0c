from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cod_site.errors import DomainError
from grimoire.book import book_entries
from grimoire.services import starter_book_load


class Command(BaseCommand):
    help = "Load (or update) the Grimoire's starter book: every puzzle proved, then published."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            puzzles = starter_book_load(entries=book_entries())
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{len(puzzles)} puzzles proved and published")
