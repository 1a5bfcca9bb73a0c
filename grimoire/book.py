"""The starter book's data file (``grimoire/data/starter_book.yaml``)."""

from pathlib import Path
from typing import Any

import yaml

BOOK_FILE = Path(__file__).resolve().parent / "data" / "starter_book.yaml"
UID_PREFIX = "book-"


def book_entries(path: Path = BOOK_FILE) -> list[dict[str, Any]]:
    """The book's puzzles: ``key``, ``difficulty``, ``goal``, ``translations``, ``scenario``."""
    entries: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["puzzles"]
    return entries
