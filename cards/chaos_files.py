"""Read and check the Duel of Chaos data files (``data/chaos/``) before anything is written.

The same shape as the Clash of Decks files (``cards.catalogue_files``): CSV tables, YAML texts,
every problem reported with its file, line and column, all or nothing. A card's fields are
checked by the engine's own validator (``engine.chaos.cards.card_problems``: the one the admin and
the scenarios use), one problem per field, at that field's column. Effects are stored in their
canonical text (``engine.chaos.effects.to_text``).
"""

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cards.data_files import (
    LANGUAGES,
    RULE_ID,
    CatalogueFileError,
    CsvRow,
    MarkedDict,
    Problems,
    Row,
    key_position,
    read_csv,
    read_translations,
    read_yaml,
    value_position,
)
from cards.text import card_slug
from engine.chaos.cards import FIELDS, card_problems
from engine.chaos.effects import KEYWORDS, EffectError, keywords_of, parse, to_text

GAME_CODE = "duel-of-chaos"
GAME_NAME = "Duel of Chaos"
SET_KINDS = ("published", "example")

SET_COLUMNS = ("code", "slug", "kind", "name_en", "name_fr", "name_sv", "card_count")
KEYWORD_COLUMNS = ("code", "clan", "rule_id", "name_en", "name_fr", "name_sv")
# The card validator's fields, with the names in each language instead of "name", between the
# catalogue's own columns.
CARD_COLUMNS = (
    "set_code",
    "identifier",
    "name_en",
    "name_fr",
    *(name for name in FIELDS if name != "name"),
    "note",
    # Empty but where a card keeps a slug published before its name was corrected.
    "slug",
)
TEXT_KEYS = ("name", "play", "reaction")
# The values of a card row that are columns of cards.models.ChaosCard as they are.
CHAOS_CARD_VALUES = (
    "card_type",
    "clan",
    "cost",
    "deck",
    "copies",
    "play_effect",
    "reaction_on",
    "reaction_opponent_turn",
    "reaction_effect",
    "depth",
    "complete",
    "note",
)


@dataclass(frozen=True)
class ChaosSetRow:
    code: str
    slug: str
    kind: str
    names: dict[str, str]
    card_count: int
    position: int


@dataclass(frozen=True)
class ChaosKeywordRow:
    code: str
    clan: str
    rule_id: str
    names: dict[str, str]
    position: int


@dataclass(frozen=True)
class ChaosCardRow:
    set_code: str
    identifier: str
    slug: str
    names: dict[str, str]
    # The card's model values (cards.models.ChaosCard), effects in canonical text.
    values: dict[str, Any]
    keywords: tuple[str, ...]
    position: int
    texts: dict[str, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class ChaosRuleRow:
    rule_id: str
    number: str
    position: int
    keyword: str | None
    titles: dict[str, str]
    texts: dict[str, str]


@dataclass
class ChaosCatalogue:
    sets: list[ChaosSetRow] = field(default_factory=list)
    keywords: list[ChaosKeywordRow] = field(default_factory=list)
    cards: list[ChaosCardRow] = field(default_factory=list)
    rules: list[ChaosRuleRow] = field(default_factory=list)


def _prefixed(problems: Problems, start: int) -> None:
    """The problems found from ``start`` on are in ``chaos/<file>``."""
    for index in range(start, len(problems.items)):
        problem = problems.items[index]
        problems.items[index] = type(problem)(
            f"chaos/{problem.file}", problem.line, problem.column, problem.message
        )


def _names(row: Row, required: tuple[str, ...]) -> dict[str, str]:
    names = {}
    for language in LANGUAGES:
        column = f"name_{language}"
        if column in row.row.values:
            text = row.text(column, required=language in required)
            if text:
                names[language] = text
    return names


def _sets(path: Path, problems: Problems) -> list[ChaosSetRow]:
    result: list[ChaosSetRow] = []
    seen: set[str] = set()
    for position, raw in enumerate(read_csv(path, SET_COLUMNS, problems), start=1):
        row = Row(path.name, raw, SET_COLUMNS, problems)
        code = row.text("code", required=True)
        if code in seen:
            row.fail("code", f"duplicate code {code!r}")
        seen.add(code)
        slug = row.text("slug", required=True)
        if slug and card_slug(slug) != slug:
            row.fail("slug", f"{slug!r} is not a lower-case slug")
        kind = row.text("kind")
        if kind not in SET_KINDS:
            row.fail("kind", f"{kind!r} must be published or example")
        result.append(
            ChaosSetRow(
                code=code,
                slug=slug,
                kind=kind,
                names=_names(row, ("en", "fr")),
                card_count=row.integer("card_count", low=1, high=999) or 0,
                position=position,
            )
        )
    return result


def _keywords(path: Path, problems: Problems) -> list[ChaosKeywordRow]:
    result: list[ChaosKeywordRow] = []
    for position, raw in enumerate(read_csv(path, KEYWORD_COLUMNS, problems), start=1):
        row = Row(path.name, raw, KEYWORD_COLUMNS, problems)
        code = row.text("code", required=True)
        if code and code not in KEYWORDS:
            row.fail("code", f"{code!r} is not a keyword of the effect language")
        clan = row.text("clan")
        if clan not in ("", "drakon", "evine", "chaos"):
            row.fail("clan", f"{clan!r} must be drakon, evine, chaos or empty")
        result.append(
            ChaosKeywordRow(
                code=code,
                clan=clan,
                rule_id=row.text("rule_id", required=True),
                names=_names(row, ("en", "fr")),
                position=position,
            )
        )
    return result


def _opponent_turn(raw: str) -> bool | None:
    """Blank: no reaction, or not known (an incomplete card)."""
    return {"yes": True, "no": False}.get(raw)


def _card(row: Row, sets: dict[str, ChaosSetRow], position: int) -> ChaosCardRow | None:
    set_code = row.text("set_code", required=True)
    if set_code and set_code not in sets:
        row.fail("set_code", f"no set with code {set_code!r} in sets.csv")
    names = _names(row, ("fr",))
    kept = row.text("slug")
    if kept and card_slug(kept) != kept:
        row.fail("slug", f"{kept!r} is not a lower-case slug")
    slug = kept or card_slug(names.get("en") or names.get("fr", ""))
    fields = {name: row.text(name) for name in FIELDS if name != "name"}
    fields["name"] = names.get("en") or names.get("fr", "")
    for name, message in card_problems(fields):
        row.fail(name, message)
    if not slug:
        return None
    cost = fields["cost"]
    depth = fields["depth"]
    play, reaction = _canonical(fields["play"]), _canonical(fields["reaction"])
    return ChaosCardRow(
        set_code=set_code,
        identifier=row.text("identifier"),
        slug=slug,
        names=names,
        values={
            "card_type": fields["type"],
            "clan": fields["clan"],
            "cost": int(cost) if cost.isdigit() else None,
            "deck": fields["deck"],
            "copies": int(fields["copies"]) if fields["copies"].isdigit() else 1,
            "play_effect": play,
            "reaction_on": fields["reaction_on"],
            "reaction_opponent_turn": _opponent_turn(fields["reaction_opponent_turn"]),
            "reaction_effect": reaction,
            "depth": int(depth) if depth.isdigit() else None,
            "complete": fields["complete"] != "no",
            "note": row.text("note"),
        },
        keywords=tuple(keywords_of_texts(play, reaction)),
        position=position,
    )


def _canonical(text: str) -> str:
    """An effect's canonical text ("" when it does not parse: its problem is already reported)."""
    try:
        return to_text(parse(text))
    except EffectError:
        return ""


def keywords_of_texts(play: str, reaction: str) -> list[str]:
    """The keywords a card's two (canonical, valid) effects use, in the keywords' order."""
    used = set(keywords_of(parse(play))) | set(keywords_of(parse(reaction)))
    return [keyword for keyword in KEYWORDS if keyword in used]


def _cards(path: Path, problems: Problems, sets: dict[str, ChaosSetRow]) -> list[ChaosCardRow]:
    result: list[ChaosCardRow] = []
    seen: set[str] = set()
    raws: list[CsvRow] = read_csv(path, CARD_COLUMNS, problems)
    for position, raw in enumerate(raws, start=1):
        row = Row(path.name, raw, CARD_COLUMNS, problems)
        card = _card(row, sets, position)
        if card is None:
            continue
        if card.slug in seen:
            row.fail("name_en", f"the slug {card.slug!r} is an earlier card's")
        seen.add(card.slug)
        result.append(card)
    return result


def _card_texts(path: Path, problems: Problems, cards: list[ChaosCardRow]) -> None:
    """Swedish names and printed texts by card slug, added to ``cards``' rows."""
    document = read_yaml(path, problems)
    if document is None:
        return
    entries = document.get("cards") if isinstance(document, dict) else None
    if not isinstance(entries, dict):
        problems.add(path.name, *value_position(document), "expected a top-level 'cards' mapping")
        return
    by_slug = {card.slug: card for card in cards}
    for slug, languages in entries.items():
        card = by_slug.get(str(slug))
        if card is None:
            problems.add(path.name, *key_position(entries, slug), f"unknown card {slug!r}")
            continue
        if not isinstance(languages, MarkedDict):
            problems.add(
                path.name, *value_position(entries, str(slug)), f"{slug}: expected a mapping"
            )
            continue
        for language, texts in languages.items():
            where = f"{slug}.{language}"
            if language not in LANGUAGES:
                problems.add(
                    path.name, *key_position(languages, language), f"{where}: unknown language"
                )
                continue
            if not isinstance(texts, MarkedDict):
                problems.add(
                    path.name,
                    *value_position(languages, str(language)),
                    f"{where}: expected a mapping",
                )
                continue
            for key, text in texts.items():
                if key not in TEXT_KEYS:
                    problems.add(
                        path.name, *key_position(texts, key), f"{where}: unknown key {key!r}"
                    )
                elif not isinstance(text, str) or not text.strip():
                    problems.add(
                        path.name, *value_position(texts, str(key)), f"{where}.{key}: expected text"
                    )
                elif key == "name":
                    card.names[language] = text.strip()
                else:
                    card.texts.setdefault(language, {})[key] = text.strip()


def _rules(path: Path, problems: Problems) -> list[ChaosRuleRow]:
    document = read_yaml(path, problems)
    if document is None:
        return []
    entries = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        problems.add(path.name, *value_position(document), "expected a top-level 'entries' list")
        return []
    result: list[ChaosRuleRow] = []
    seen: set[str] = set()
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, MarkedDict):
            problems.add(path.name, 0, 0, f"entry {position}: expected a mapping")
            continue
        for key in entry:
            if key not in ("id", "number", "keyword", "title", "text"):
                problems.add(path.name, *key_position(entry, key), f"unknown key {key!r}")
        rule_id = entry.get("id")
        if not isinstance(rule_id, str) or not RULE_ID.fullmatch(rule_id):
            problems.add(
                path.name, *value_position(entry, "id"), f"id {rule_id!r}: use a-z, 0-9 and -"
            )
            rule_id = ""
        elif rule_id in seen:
            problems.add(path.name, *value_position(entry, "id"), f"duplicate id {rule_id!r}")
        seen.add(rule_id)
        keyword = entry.get("keyword")
        if keyword is not None and keyword not in KEYWORDS:
            problems.add(
                path.name, *value_position(entry, "keyword"), f"unknown keyword {keyword!r}"
            )
        required = ("fr", "en")
        result.append(
            ChaosRuleRow(
                rule_id=rule_id,
                number=str(entry.get("number", "")),
                position=position,
                keyword=keyword,
                titles=read_translations(path.name, entry, "title", problems, required=required),
                texts=read_translations(path.name, entry, "text", problems, required=required),
            )
        )
    return result


def read_chaos_catalogue(data_dir: Path) -> ChaosCatalogue:
    """Every Duel of Chaos file of ``data_dir``, checked; raises CatalogueFileError listing all
    the problems (their files named ``chaos/…``)."""
    found = Problems()
    catalogue = ChaosCatalogue()
    catalogue.sets = _sets(data_dir / "sets.csv", found)
    catalogue.keywords = _keywords(data_dir / "keywords.csv", found)
    catalogue.cards = _cards(data_dir / "cards.csv", found, {s.code: s for s in catalogue.sets})
    _card_texts(data_dir / "card_texts.yaml", found, catalogue.cards)
    catalogue.rules = _rules(data_dir / "rules_reference.yaml", found)
    rule_ids = {rule.rule_id for rule in catalogue.rules}
    for keyword in catalogue.keywords:
        if keyword.rule_id and keyword.rule_id not in rule_ids:
            found.add("keywords.csv", 0, 0, f"{keyword.code}: no rule {keyword.rule_id!r}")
    if found.items:
        _prefixed(found, 0)
        raise CatalogueFileError(found.items)
    return catalogue


# ---- writing: the same shape, from rows (the export of what the catalogue holds) -------------

_TEXTS_HEADER = """\
# The printed texts of the cards, by card slug: names in Swedish (the English and French names
# are columns of cards.csv), and the play (white) and reaction (black) texts in each language.
"""
_RULES_HEADER = """\
# The Duel of Chaos rules reference, by entry: `id` (as engine/chaos/rule_ids.py), `number`,
# `keyword` where the entry defines one, and the titles and texts in each language.
"""


def _yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def _csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def card_csv_row(card: ChaosCardRow) -> dict[str, str]:
    """A card as its row of cards.csv."""
    values = card.values
    derived = card_slug(card.names.get("en") or card.names.get("fr", ""))
    return {
        "set_code": card.set_code,
        "identifier": card.identifier,
        "name_en": card.names.get("en", ""),
        "name_fr": card.names.get("fr", ""),
        "type": values["card_type"],
        "clan": values["clan"],
        "cost": "" if values["cost"] is None else str(values["cost"]),
        "deck": values["deck"],
        "copies": str(values["copies"]),
        "play": values["play_effect"],
        "reaction_on": values["reaction_on"],
        "reaction_opponent_turn": _yes_no(values["reaction_opponent_turn"]),
        "reaction": values["reaction_effect"],
        "depth": "" if values["depth"] is None else str(values["depth"]),
        "complete": _yes_no(values["complete"]),
        "note": values["note"],
        "slug": "" if card.slug == derived else card.slug,
    }


def write_chaos_catalogue(catalogue: ChaosCatalogue, target: Path) -> None:
    """The files of ``catalogue`` in ``target`` (made if missing), read back by
    :func:`read_chaos_catalogue` into the same rows."""
    target.mkdir(parents=True, exist_ok=True)
    _csv(
        target / "sets.csv",
        SET_COLUMNS,
        [
            {
                "code": row.code,
                "slug": row.slug,
                "kind": row.kind,
                **{f"name_{lang}": row.names.get(lang, "") for lang in LANGUAGES},
                "card_count": str(row.card_count),
            }
            for row in catalogue.sets
        ],
    )
    _csv(
        target / "keywords.csv",
        KEYWORD_COLUMNS,
        [
            {
                "code": row.code,
                "clan": row.clan,
                "rule_id": row.rule_id,
                **{f"name_{lang}": row.names.get(lang, "") for lang in LANGUAGES},
            }
            for row in catalogue.keywords
        ],
    )
    _csv(target / "cards.csv", CARD_COLUMNS, [card_csv_row(card) for card in catalogue.cards])
    texts: dict[str, dict[str, dict[str, str]]] = {}
    for card in catalogue.cards:
        for language in LANGUAGES:
            entry = dict(card.texts.get(language, {}))
            if language not in ("en", "fr") and language in card.names:
                entry = {"name": card.names[language], **entry}
            if entry:
                texts.setdefault(card.slug, {})[language] = entry
    (target / "card_texts.yaml").write_text(
        _TEXTS_HEADER + _yaml({"cards": texts}), encoding="utf-8"
    )
    entries: list[dict[str, object]] = []
    for rule in catalogue.rules:
        head: dict[str, object] = {"id": rule.rule_id, "number": rule.number}
        if rule.keyword:
            head["keyword"] = rule.keyword
        entries.append({**head, "title": rule.titles, "text": rule.texts})
    (target / "rules_reference.yaml").write_text(
        _RULES_HEADER + _yaml({"entries": entries}), encoding="utf-8"
    )


def _yaml(data: object) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
