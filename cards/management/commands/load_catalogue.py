"""`manage.py load_catalogue`: import the project's data files (idempotent, all or nothing)."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.data_files import CatalogueFileError
from cards.services import catalogue_load
from cod_site.errors import DomainError


class Command(BaseCommand):
    help = "Import expansions, cards, abilities and the rules reference from the data folder."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--data-dir",
            type=Path,
            default=Path(settings.BASE_DIR) / "data",
            help="folder holding expansions.csv, abilities.csv, cards.csv, rules_reference.yaml "
            "and names_sv.yaml (default: the project's data/)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data_dir: Path = options["data_dir"]
        try:
            report = catalogue_load(data_dir=data_dir)
        except CatalogueFileError as exc:
            raise CommandError(
                f"Malformed data in {data_dir}; nothing was imported.\n{exc}"
            ) from exc
        except DomainError as exc:
            raise CommandError(f"{exc.message} {exc.details}") from exc
        self.stdout.write(f"Catalogue from {data_dir}: {report.summary()}.")
