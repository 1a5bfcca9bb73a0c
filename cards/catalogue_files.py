"""Read and check the catalogue's data files before anything touches the database.

Every problem is reported with its file, line and column; the import refuses the whole set of
files if any is wrong, so a half-read catalogue never reaches the database. How a CSV table or a
YAML file is read, for these files and Duel of Chaos's alike: `cards.data_files`.
"""

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from cards.data_files import (
    RULE_ID,
    CatalogueFileError,
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

GAME_CODE = "clash-of-decks"
GAME_NAME = "Clash of Decks"

EXPANSION_COLUMNS = ("code", "slug", "name_en", "name_fr", "season", "card_count")
ABILITY_COLUMNS = (
    "code",
    "name_en",
    "name_fr",
    "malus",
    "creature_cost",
    "incantation_cost",
    "can_be_aura",
    "cost_source",
    "other_names",
    "note",
)
CARD_COLUMNS = (
    "set_code",
    "collector_number",
    "name_en",
    "name_fr",
    "type",
    "mana",
    "attack",
    "hp",
    "abilities",
    "precon_deck",
    "checked_against_card_image",
    "note",
    # Empty but for a card whose English name was corrected after its slug was published: the
    # slug stays (pages, deck codes and saved decks name the card by it).
    "slug",
)


@dataclass(frozen=True)
class ExpansionRow:
    code: str
    slug: str
    names: dict[str, str]
    season: int | None
    card_count: int
    position: int


@dataclass(frozen=True)
class AbilityRow:
    code: str
    names: dict[str, str]
    is_malus: bool
    creature_cost: Decimal | None
    incantation_cost: Decimal | None
    can_be_aura: bool
    cost_source: str
    aliases: tuple[str, ...]
    note: str
    position: int


@dataclass(frozen=True)
class CardAbilityRow:
    code: str
    is_aura: bool


@dataclass(frozen=True)
class CardRow:
    set_code: str
    collector_number: int | None
    slug: str
    names: dict[str, str]
    card_type: str
    mana: int | None
    attack: int | None
    hp: int | None
    abilities: tuple[CardAbilityRow, ...]
    precon_deck: int | None
    checked: bool
    note: str
    copies: int = 1


@dataclass(frozen=True)
class RuleRow:
    rule_id: str
    number: str
    position: int
    ability: str | None
    titles: dict[str, str]
    texts: dict[str, str]


@dataclass
class Catalogue:
    expansions: list[ExpansionRow] = field(default_factory=list)
    abilities: list[AbilityRow] = field(default_factory=list)
    cards: list[CardRow] = field(default_factory=list)
    rules: list[RuleRow] = field(default_factory=list)


def _expansions(path: Path, problems: Problems) -> list[ExpansionRow]:
    result: list[ExpansionRow] = []
    seen_codes: set[str] = set()
    seen_slugs: set[str] = set()
    for position, raw in enumerate(read_csv(path, EXPANSION_COLUMNS, problems), start=1):
        row = Row(path.name, raw, EXPANSION_COLUMNS, problems)
        code = row.text("code", required=True)
        slug = row.text("slug", required=True)
        if code in seen_codes:
            row.fail("code", f"duplicate code {code!r}")
        if slug in seen_slugs or (slug and card_slug(slug) != slug):
            row.fail("slug", f"{slug!r} is a duplicate or not a lower-case slug")
        seen_codes.add(code)
        seen_slugs.add(slug)
        result.append(
            ExpansionRow(
                code=code,
                slug=slug,
                names={
                    "en": row.text("name_en", required=True),
                    "fr": row.text("name_fr", required=True),
                },
                season=row.integer("season", required=False, low=1, high=99),
                card_count=row.integer("card_count", low=1, high=999) or 0,
                position=position,
            )
        )
    return result


def _abilities(path: Path, problems: Problems) -> list[AbilityRow]:
    result: list[AbilityRow] = []
    seen: set[str] = set()
    for position, raw in enumerate(read_csv(path, ABILITY_COLUMNS, problems), start=1):
        row = Row(path.name, raw, ABILITY_COLUMNS, problems)
        code = row.text("code", required=True)
        if code in seen:
            row.fail("code", f"duplicate code {code!r}")
        seen.add(code)
        if code and code.replace("_", "-") != card_slug(code):
            row.fail("code", f"{code!r} must be lower-case letters, digits and underscores")
        source = row.text("cost_source")
        if source not in ("generator", "fitted", "manual", ""):
            row.fail("cost_source", f"{source!r} must be generator, fitted or manual")
        aliases = tuple(name.strip() for name in row.text("other_names").split(";") if name.strip())
        result.append(
            AbilityRow(
                code=code,
                names={
                    "en": row.text("name_en", required=True),
                    "fr": row.text("name_fr", required=True),
                },
                is_malus=row.flag("malus", "1", "0"),
                creature_cost=row.decimal("creature_cost"),
                incantation_cost=row.decimal("incantation_cost"),
                can_be_aura=row.flag("can_be_aura", "1", "0"),
                cost_source=source,
                aliases=aliases,
                note=row.text("note"),
                position=position,
            )
        )
    return result


def _cards(
    path: Path,
    problems: Problems,
    expansions: dict[str, ExpansionRow],
    abilities: dict[str, AbilityRow],
) -> list[CardRow]:
    result: list[CardRow] = []
    seen: set[str] = set()
    for raw in read_csv(path, CARD_COLUMNS, problems):
        row = Row(path.name, raw, CARD_COLUMNS, problems)
        set_code = row.text("set_code", required=True)
        expansion = expansions.get(set_code)
        if set_code and expansion is None:
            row.fail("set_code", f"no expansion with code {set_code!r} in expansions.csv")
        name_en = row.text("name_en", required=True)
        kept = row.text("slug")
        if kept and card_slug(kept) != kept:
            row.fail("slug", f"{kept!r} is not a lower-case slug")
        slug = kept or card_slug(name_en)
        if name_en and not slug:
            row.fail("name_en", f"{name_en!r} gives an empty slug")
        elif slug in seen:
            row.fail("name_en", f"{name_en!r} gives the slug {slug!r} of an earlier card")
        seen.add(slug)
        card_type = row.text("type")
        if card_type not in ("creature", "incantation"):
            row.fail("type", f"{card_type!r} must be 'creature' or 'incantation'")
        is_creature = card_type == "creature"
        hp = row.integer("hp", required=is_creature, low=1, high=99)
        if not is_creature and hp is not None:
            row.fail("hp", "an incantation has no HP")
        card_abilities: list[CardAbilityRow] = []
        for part in row.text("abilities").split(";"):
            code = part.strip()
            if not code:
                continue
            is_aura = code.startswith("aura:")
            code = code.removeprefix("aura:")
            ability = abilities.get(code)
            if ability is None:
                row.fail("abilities", f"unknown ability {code!r}")
            elif is_aura and not ability.can_be_aura:
                row.fail("abilities", f"{code!r} cannot be an Aura (abilities.csv)")
            card_abilities.append(CardAbilityRow(code, is_aura))
        card_count = expansion.card_count if expansion else 999
        result.append(
            CardRow(
                set_code=set_code,
                collector_number=row.integer(
                    "collector_number", required=False, low=1, high=card_count
                ),
                slug=slug,
                names={"en": name_en, "fr": row.text("name_fr", required=True)},
                card_type=card_type,
                mana=row.integer("mana", low=0, high=99),
                attack=row.integer("attack", low=0, high=99),
                hp=hp if is_creature else None,
                abilities=tuple(card_abilities),
                precon_deck=row.integer("precon_deck", required=False, low=1, high=4),
                checked=row.flag("checked_against_card_image", "yes", "no"),
                note=row.text("note"),
            )
        )
    return result


def _rules(path: Path, problems: Problems, abilities: dict[str, AbilityRow]) -> list[RuleRow]:
    document = read_yaml(path, problems)
    if document is None:
        return []
    entries = document.get("entries") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        problems.add(path.name, *value_position(document), "expected a top-level 'entries' list")
        return []
    result: list[RuleRow] = []
    seen: set[str] = set()
    allowed = {"id", "number", "ability", "title", "text"}
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, MarkedDict):
            problems.add(path.name, 0, 0, f"entry {position}: expected a mapping")
            continue
        for key in entry:
            if key not in allowed:
                problems.add(path.name, *key_position(entry, key), f"unknown key {key!r}")
        rule_id = entry.get("id")
        if not isinstance(rule_id, str) or not rule_id:
            problems.add(path.name, *value_position(entry, "id"), "id: expected text")
            rule_id = ""
        elif not RULE_ID.fullmatch(rule_id):
            problems.add(
                path.name, *value_position(entry, "id"), f"id {rule_id!r}: use a-z, 0-9 and -"
            )
        elif rule_id in seen:
            problems.add(path.name, *value_position(entry, "id"), f"duplicate id {rule_id!r}")
        seen.add(rule_id)
        number = entry.get("number")
        if not isinstance(number, str | int | float) or isinstance(number, bool):
            problems.add(path.name, *value_position(entry, "number"), "number: expected text")
        ability = entry.get("ability")
        if ability is not None and ability not in abilities:
            problems.add(
                path.name, *value_position(entry, "ability"), f"unknown ability {ability!r}"
            )
        result.append(
            RuleRow(
                rule_id=rule_id,
                number=str(number),
                position=position,
                ability=ability,
                titles=read_translations(
                    path.name, entry, "title", problems, required=("en", "fr")
                ),
                texts=read_translations(path.name, entry, "text", problems, required=("en", "fr")),
            )
        )
    return result


def _swedish_names(
    path: Path, problems: Problems, catalogue: Catalogue
) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Names the Swedish edition prints (expansions by code, cards by slug, abilities by code)."""
    document = read_yaml(path, problems)
    if document is None:
        return {}, {}, {}
    known = {
        "expansions": {row.code for row in catalogue.expansions},
        "cards": {row.slug for row in catalogue.cards},
        "abilities": {row.code for row in catalogue.abilities},
    }
    result: dict[str, dict[str, str]] = {}
    if not isinstance(document, dict):
        problems.add(path.name, 1, 1, "expected a mapping")
        return {}, {}, {}
    for key in document:
        if key not in known:
            problems.add(path.name, *key_position(document, key), f"unknown section {key!r}")
    for section, keys in known.items():
        names = document.get(section) or {}
        if not isinstance(names, dict):
            problems.add(
                path.name, *value_position(document, section), f"{section}: expected a mapping"
            )
            names = {}
        for key, name in names.items():
            if str(key) not in keys:
                problems.add(path.name, *key_position(names, key), f"{section}: unknown {key!r}")
            elif not isinstance(name, str) or not name.strip():
                problems.add(
                    path.name, *value_position(names, key), f"{section}.{key}: expected text"
                )
        result[section] = {str(key): str(name).strip() for key, name in names.items()}
    return result["expansions"], result["cards"], result["abilities"]


STRONGHOLD_NAMES = {"en": "Stronghold", "fr": "Forteresse", "sv": "Bastion/Fort"}
BRIDGE_NAMES = {"en": "Bridge", "fr": "Pont", "sv": "Bridge"}
PRODUCT_CARD_COPIES = 2


def _product_cards(expansion: ExpansionRow) -> list[CardRow]:
    """Each product's two Strongholds and two Bridges: one row each, two copies."""
    return [
        CardRow(
            set_code=expansion.code,
            collector_number=None,
            slug=f"{card_type}-{expansion.slug}",
            names=dict(names),
            card_type=card_type,
            mana=None,
            attack=None,
            hp=None,
            abilities=(),
            precon_deck=None,
            # Nothing printed on them can be wrong: they carry no values.
            checked=True,
            note="",
            copies=PRODUCT_CARD_COPIES,
        )
        for card_type, names in (("stronghold", STRONGHOLD_NAMES), ("bridge", BRIDGE_NAMES))
    ]


def read_catalogue(data_dir: Path) -> Catalogue:
    """Every data file of `data_dir`, checked; raises CatalogueFileError listing all problems."""
    problems = Problems()
    catalogue = Catalogue()
    catalogue.expansions = _expansions(data_dir / "expansions.csv", problems)
    catalogue.abilities = _abilities(data_dir / "abilities.csv", problems)
    catalogue.cards = _cards(
        data_dir / "cards.csv",
        problems,
        {row.code: row for row in catalogue.expansions},
        {row.code: row for row in catalogue.abilities},
    )
    catalogue.rules = _rules(
        data_dir / "rules_reference.yaml", problems, {row.code: row for row in catalogue.abilities}
    )
    sv_expansions, sv_cards, sv_abilities = _swedish_names(
        data_dir / "names_sv.yaml", problems, catalogue
    )
    if problems.items:
        raise CatalogueFileError(problems.items)
    for expansion in catalogue.expansions:
        if expansion.code in sv_expansions:
            expansion.names["sv"] = sv_expansions[expansion.code]
        catalogue.cards.extend(_product_cards(expansion))
    for card in catalogue.cards:
        if card.slug in sv_cards:
            card.names["sv"] = sv_cards[card.slug]
    for ability in catalogue.abilities:
        if ability.code in sv_abilities:
            ability.names["sv"] = sv_abilities[ability.code]
    return catalogue
