from typing import Any

from django.core.management.base import BaseCommand, CommandError

from champions.models import Visibility
from cod_site.errors import DomainError
from grimoire.book import LESSON_PREFIX, book_entries, lesson_entries
from grimoire.services import starter_book_load


class Command(BaseCommand):
    help = (
        "Load (or update) the Grimoire's starter book and the lessons of Learn to play: every "
        "puzzle proved, then published (the lessons unlisted)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            puzzles = starter_book_load(entries=book_entries())
            lessons = starter_book_load(
                entries=lesson_entries(), prefix=LESSON_PREFIX, visibility=Visibility.UNLISTED
            )
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(f"{len(puzzles)} puzzles and {len(lessons)} lessons proved and published")
