"""`manage.py metagame_refresh`: the metagame's round robin now, as the Celery beat runs it
every METAGAME_REFRESH_SECONDS (only the pairs where a deck changed are played again).

Without a broker (`make run`) there is no beat, and threads of this command would die with it:
the pairs are played here, one after the other; `--wait` does the same with workers.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cod_site.background import in_process
from engine.metagame import selectors, services


class Command(BaseCommand):
    help = "Refresh the metagame's round robin of the most popular public decks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--wait", action="store_true", help="play the pairs here rather than on the workers"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        here = options["wait"] or in_process()
        refresh = services.metagame_refresh(send=not here)
        if refresh is None:
            self.stdout.write("Fewer than two public decks to rank: no metagame.")
            return
        played = services.play_unplayed(refresh) if here else 0
        done, total = selectors.refresh_progress(refresh)
        self.stdout.write(
            f"Metagame refresh #{refresh.pk}: {len(refresh.entries)} decks, {done} of {total} "
            f"pairs played ({played} here)."
        )
