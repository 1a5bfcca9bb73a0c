"""The catalogue, loaded once per test session from the project's data files.

Expected values in these tests are computed from `data/*.csv` with the csv module, never typed by
hand, so a change of the published data changes the expectations with it.
"""

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

from cards.services import catalogue_load
from cards.text import card_slug

DATA_DIR = Path(settings.BASE_DIR) / "data"


@dataclass(frozen=True)
class Row:
    set_code: str
    collector_number: int | None
    name_en: str
    name_fr: str
    type: str
    mana: int
    attack: int
    hp: int | None
    abilities: tuple[str, ...]  # codes borne by the card itself
    auras: tuple[str, ...]  # codes granted by an Aura
    raw_abilities: tuple[str, ...]
    precon_deck: int | None
    checked: bool
    slug: str  # the published slug: from the English name unless the row keeps an older one


def read_rows() -> list[Row]:
    rows = []
    with (DATA_DIR / "cards.csv").open(encoding="utf-8", newline="") as handle:
        for raw in csv.DictReader(handle):
            codes = tuple(code for code in raw["abilities"].split(";") if code)
            rows.append(
                Row(
                    set_code=raw["set_code"],
                    collector_number=int(raw["collector_number"])
                    if raw["collector_number"]
                    else None,
                    name_en=raw["name_en"],
                    name_fr=raw["name_fr"],
                    type=raw["type"],
                    mana=int(raw["mana"]),
                    attack=int(raw["attack"]),
                    hp=int(raw["hp"]) if raw["hp"] else None,
                    abilities=tuple(code for code in codes if not code.startswith("aura:")),
                    auras=tuple(code[5:] for code in codes if code.startswith("aura:")),
                    raw_abilities=codes,
                    precon_deck=int(raw["precon_deck"]) if raw["precon_deck"] else None,
                    checked=raw["checked_against_card_image"] == "yes",
                    slug=raw["slug"] or card_slug(raw["name_en"]),
                )
            )
    return rows


def read_csv(name: str) -> list[dict[str, str]]:
    with (DATA_DIR / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="session")
def rows() -> list[Row]:
    return read_rows()


@pytest.fixture(scope="session")
def catalogue(django_db_setup: None, django_db_blocker: object) -> Iterator[None]:
    """Import the data files into the test database once; each test then runs in a transaction."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        catalogue_load(data_dir=DATA_DIR)
    yield
