"""How the catalogue's data files are read, for Clash of Decks (`cards.catalogue_files`) and Duel
of Chaos (`cards.chaos_files`) alike: CSV tables and YAML texts, each value with its line and
column, every problem gathered (`FileProblem`) so that the import refuses the whole set of files
at once (`CatalogueFileError`).
"""

import csv
import io
import re
from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

LANGUAGES = ("en", "fr", "sv")
RULE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class FileProblem:
    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}, column {self.column}: {self.message}"


class CatalogueFileError(Exception):
    """One or more data files are malformed; nothing was imported."""

    def __init__(self, problems: list[FileProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


class Problems:
    def __init__(self) -> None:
        self.items: list[FileProblem] = []

    def add(self, file: str, line: int, column: int, message: str) -> None:
        self.items.append(FileProblem(file, line, column, message))


@dataclass
class CsvRow:
    line: int
    values: dict[str, str]


def read_csv(path: Path, columns: tuple[str, ...], problems: Problems) -> list[CsvRow]:
    name = path.name
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.add(name, 0, 0, "file not found")
        return []
    except UnicodeDecodeError as exc:
        line = text_line_of_offset(path.read_bytes(), exc.start)
        problems.add(name, line, 1, "not valid UTF-8")
        return []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[CsvRow] = []
    try:
        header = next(reader, None)
        if header is None:
            problems.add(name, 1, 1, "empty file")
            return []
        for index, column in enumerate(header, start=1):
            if column not in columns:
                problems.add(name, 1, index, f"unknown column {column!r}")
        for column in columns:
            if column not in header:
                problems.add(name, 1, len(header) + 1, f"missing column {column!r}")
        if problems.items:
            return []
        line = reader.line_num + 1
        for record in reader:
            if record and len(record) != len(header):
                problems.add(
                    name,
                    line,
                    min(len(record), len(header)) + 1,
                    f"{len(record)} fields where the header has {len(header)}",
                )
            elif record:
                rows.append(CsvRow(line, dict(zip(header, record, strict=True))))
            line = reader.line_num + 1
    except csv.Error as exc:
        problems.add(name, reader.line_num, 1, f"CSV syntax: {exc}")
    return rows


def text_line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


class Row:
    """Typed access to one CSV row; each failed conversion is a problem at its line and column."""

    def __init__(
        self, file: str, row: CsvRow, columns: tuple[str, ...], problems: Problems
    ) -> None:
        self.file = file
        self.row = row
        self.columns = columns
        self.problems = problems

    def column(self, name: str) -> int:
        return list(self.row.values).index(name) + 1

    def fail(self, name: str, message: str) -> None:
        self.problems.add(self.file, self.row.line, self.column(name), f"{name}: {message}")

    def text(self, name: str, *, required: bool = False) -> str:
        value = self.row.values[name].strip()
        if required and not value:
            self.fail(name, "must not be empty")
        return value

    def integer(
        self, name: str, *, required: bool = True, low: int | None = None, high: int | None = None
    ) -> int | None:
        raw = self.text(name)
        if not raw:
            if required:
                self.fail(name, "must not be empty")
            return None
        try:
            value = int(raw)
        except ValueError:
            self.fail(name, f"{raw!r} is not a whole number")
            return None
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low if low is not None else '…'}..{high if high is not None else '…'}"
            self.fail(name, f"{value} is outside {bounds}")
            return None
        return value

    def decimal(self, name: str) -> Decimal | None:
        raw = self.text(name)
        if not raw:
            return None
        try:
            value = Decimal(raw)
        except InvalidOperation:
            self.fail(name, f"{raw!r} is not a number")
            return None
        if value != value.quantize(Decimal("0.1")) or abs(value) >= 100:
            self.fail(name, f"{raw!r} must have at most one decimal and be below 100")
            return None
        return value

    def flag(self, name: str, true: str, false: str) -> bool:
        raw = self.text(name)
        if raw not in (true, false):
            self.fail(name, f"{raw!r} must be {true!r} or {false!r}")
        return raw == true


class _MarkedLoader(yaml.SafeLoader):
    """Keeps each mapping's position so a bad value can be reported at its line and column."""


# A YAML mapping's keys are whatever the file wrote (`1:` is an int): the readers check them.
class MarkedDict(dict[Hashable, Any]):
    line: int = 0
    column: int = 0
    key_positions: dict[str, tuple[int, int]]
    key_starts: dict[str, tuple[int, int]]


def _construct_marked_mapping(loader: _MarkedLoader, node: yaml.MappingNode) -> MarkedDict:
    mapping = MarkedDict(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    mapping.column = node.start_mark.column + 1
    mapping.key_positions = {
        str(key.value): (value.start_mark.line + 1, value.start_mark.column + 1)
        for key, value in node.value
    }
    mapping.key_starts = {
        str(key.value): (key.start_mark.line + 1, key.start_mark.column + 1)
        for key, _ in node.value
    }
    return mapping


_MarkedLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_marked_mapping
)


def read_yaml(path: Path, problems: Problems) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.add(path.name, 0, 0, "file not found")
        return None
    try:
        return yaml.load(text, Loader=_MarkedLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problems.add(path.name, line, column, f"YAML syntax: {exc.problem or exc.context}")
    except yaml.YAMLError as exc:
        problems.add(path.name, 0, 0, f"YAML: {exc}")
    return None


def key_position(mapping: Any, key: Hashable) -> tuple[int, int]:
    # key_starts holds keys as the file spelled them: `12:` is the int 12 in the mapping.
    if isinstance(mapping, MarkedDict) and str(key) in mapping.key_starts:
        return mapping.key_starts[str(key)]
    return value_position(mapping)


def value_position(mapping: Any, key: str | None = None) -> tuple[int, int]:
    if isinstance(mapping, MarkedDict):
        if key is not None and key in mapping.key_positions:
            return mapping.key_positions[key]
        return mapping.line, mapping.column
    return 0, 0


def read_translations(
    file: str, entry: MarkedDict, key: str, problems: Problems, *, required: tuple[str, ...]
) -> dict[str, str]:
    value = entry.get(key)
    if not isinstance(value, dict):
        problems.add(
            file, *value_position(entry, key), f"{key}: expected a mapping of language: text"
        )
        return {}
    result: dict[str, str] = {}
    for language, text in value.items():
        if language not in LANGUAGES:
            problems.add(
                file, *key_position(value, language), f"{key}: unknown language {language!r}"
            )
        elif not isinstance(text, str) or not text.strip():
            problems.add(file, *value_position(value, language), f"{key}.{language}: expected text")
        else:
            result[language] = text.strip()
    for language in required:
        if language not in result and language not in value:
            problems.add(file, *value_position(entry, key), f"{key}: missing {language!r}")
    return result
