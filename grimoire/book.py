"""The starter book's data file (``grimoire/data/starter_book.yaml``) and the lessons of Learn to
play (``grimoire/data/lessons.yaml``): Grimoire puzzles both, loaded together."""

from pathlib import Path
from typing import Any

import yaml

BOOK_FILE = Path(__file__).resolve().parent / "data" / "starter_book.yaml"
UID_PREFIX = "book-"
LESSONS_FILE = Path(__file__).resolve().parent / "data" / "lessons.yaml"
# A lesson's uid: the prefix and its key, whose number orders the lessons.
LESSON_PREFIX = "learn-"


def book_entries(path: Path = BOOK_FILE) -> list[dict[str, Any]]:
    """The book's puzzles: ``key``, ``difficulty``, ``goal``, ``translations``, ``scenario``."""
    entries: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["puzzles"]
    return entries


def lesson_entries(path: Path = LESSONS_FILE) -> list[dict[str, Any]]:
    """The lessons in order, each as a book's puzzle (``translations.hint``: the lesson)."""
    entries: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["lessons"]
    return entries
