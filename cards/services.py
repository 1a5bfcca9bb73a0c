"""Writes to the catalogue: the import of the data files and the upkeep of derived fields."""

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import models, transaction
from django.db.models.deletion import ProtectedError

from cards import chaos_files
from cards.catalogue_files import GAME_CODE, GAME_NAME, Catalogue, read_catalogue
from cards.chaos_files import ChaosCatalogue, keywords_of_texts, read_chaos_catalogue
from cards.data_files import CatalogueFileError, FileProblem
from cards.models import (
    Ability,
    AbilityAlias,
    AbilityTranslation,
    Card,
    CardAbility,
    CardTranslation,
    CatalogueRevision,
    ChaosCard,
    ChaosCardTranslation,
    ChaosKeyword,
    ChaosKeywordTranslation,
    ChaosRuleEntry,
    ChaosRuleEntryTranslation,
    ChaosSet,
    ChaosSetTranslation,
    Expansion,
    ExpansionTranslation,
    Game,
    RuleEntry,
    RuleEntryTranslation,
)
from cards.text import search_text
from cod_site.errors import DomainError

# The models of a catalogue row's text in one language.
Translation = (
    ExpansionTranslation
    | CardTranslation
    | RuleEntryTranslation
    | AbilityTranslation
    | ChaosSetTranslation
    | ChaosCardTranslation
    | ChaosRuleEntryTranslation
    | ChaosKeywordTranslation
)
CHAOS_DIR = "chaos"


@dataclass
class LoadReport:
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    deleted: Counter[str] = field(default_factory=Counter)
    revision: CatalogueRevision | None = None

    @property
    def changed(self) -> bool:
        return bool(+self.created or +self.updated or +self.deleted)

    def summary(self) -> str:
        def part(label: str, counts: Counter[str]) -> str:
            items = ", ".join(f"{count} {name}" for name, count in sorted(counts.items()) if count)
            return f"{label} {items}" if items else ""

        parts = [
            part("created", self.created),
            part("updated", self.updated),
            part("deleted", self.deleted),
        ]
        return "; ".join(p for p in parts if p) or "no change"


def _sync(
    model: type[models.Model],
    existing: dict[Any, Any],
    wanted: dict[Any, dict[str, Any]],
    report: LoadReport,
    *,
    delete_missing: bool,
) -> None:
    """Make the rows of `model` keyed like `wanted` hold its values (and only those, if asked)."""
    label = model._meta.model_name or model.__name__
    to_create = []
    to_update = []
    fields_changed: set[str] = set()
    for key, values in wanted.items():
        row = existing.get(key)
        if row is None:
            to_create.append(model(**values))
            continue
        changed = [name for name, value in values.items() if getattr(row, name) != value]
        if changed:
            for name in changed:
                setattr(row, name, values[name])
            fields_changed.update(changed)
            to_update.append(row)
    if delete_missing:
        stale = [row.pk for key, row in existing.items() if key not in wanted]
        if stale:
            model._default_manager.filter(pk__in=stale).delete()
            report.deleted[label] += len(stale)
    if to_update:
        model._default_manager.bulk_update(to_update, sorted(fields_changed))
        report.updated[label] += len(to_update)
    if to_create:
        model._default_manager.bulk_create(to_create)
        report.created[label] += len(to_create)


def _translations(
    model: type[Translation],
    parent_field: str,
    parents: dict[Any, models.Model],
    wanted: dict[Any, dict[str, dict[str, Any]]],
    report: LoadReport,
) -> None:
    """Upsert the translations the files give; languages only added in the admin stay."""
    existing = {
        (getattr(row, f"{parent_field}_id"), row.language_code): row
        for row in model._default_manager.filter(
            **{f"{parent_field}__in": [parent.pk for parent in parents.values()]}
        )
    }
    rows: dict[Any, dict[str, Any]] = {}
    for key, by_language in wanted.items():
        parent = parents[key]
        for language, values in by_language.items():
            rows[(parent.pk, language)] = {
                parent_field: parent,
                "language_code": language,
                **values,
            }
    _sync(model, existing, rows, report, delete_missing=False)


def _refresh_by(model: type[models.Model], field_name: str, keys: Any) -> dict[Any, Any]:
    return {getattr(row, field_name): row for row in model._default_manager.filter(**keys)}


def _load_rules(catalogue: Catalogue, game: Game, report: LoadReport) -> dict[str, RuleEntry]:
    existing = _refresh_by(RuleEntry, "rule_id", {"game": game})
    wanted = {
        rule.rule_id: {
            "game": game,
            "rule_id": rule.rule_id,
            "number": rule.number,
            "position": rule.position,
        }
        for rule in catalogue.rules
    }
    _sync(RuleEntry, existing, wanted, report, delete_missing=True)
    entries = _refresh_by(RuleEntry, "rule_id", {"game": game})
    _translations(
        RuleEntryTranslation,
        "entry",
        entries,
        {
            rule.rule_id: {
                language: {"title": rule.titles[language], "text": rule.texts[language]}
                for language in rule.titles
                if language in rule.texts
            }
            for rule in catalogue.rules
        },
        report,
    )
    return entries


def _load_expansions(catalogue: Catalogue, game: Game, report: LoadReport) -> dict[str, Expansion]:
    existing = _refresh_by(Expansion, "code", {"game": game})
    wanted = {
        row.code: {
            "game": game,
            "code": row.code,
            "slug": row.slug,
            "season": row.season,
            "card_count": row.card_count,
            "position": row.position,
        }
        for row in catalogue.expansions
    }
    _sync(Expansion, existing, wanted, report, delete_missing=False)
    expansions = _refresh_by(Expansion, "code", {"game": game})
    _translations(
        ExpansionTranslation,
        "expansion",
        {code: expansions[code] for code in wanted},
        {
            row.code: {lang: {"name": name} for lang, name in row.names.items()}
            for row in catalogue.expansions
        },
        report,
    )
    return expansions


def _load_abilities(
    catalogue: Catalogue, game: Game, rules: dict[str, RuleEntry], report: LoadReport
) -> dict[str, Ability]:
    rule_of = {rule.ability: rule for rule in catalogue.rules if rule.ability}
    existing = _refresh_by(Ability, "code", {"game": game})
    wanted = {
        row.code: {
            "game": game,
            "code": row.code,
            "is_malus": row.is_malus,
            "creature_cost": row.creature_cost,
            "incantation_cost": row.incantation_cost,
            "can_be_aura": row.can_be_aura,
            "cost_source": row.cost_source,
            "note": row.note,
            "rule": rules[rule_of[row.code].rule_id] if row.code in rule_of else None,
            "position": row.position,
        }
        for row in catalogue.abilities
    }
    _sync(Ability, existing, wanted, report, delete_missing=False)
    abilities = _refresh_by(Ability, "code", {"game": game})
    texts: dict[str, dict[str, dict[str, str]]] = {}
    for row in catalogue.abilities:
        rule = rule_of.get(row.code)
        texts[row.code] = {
            language: {"name": name, "rules_text": rule.texts.get(language, "") if rule else ""}
            for language, name in row.names.items()
        }
    _translations(
        AbilityTranslation, "ability", {code: abilities[code] for code in wanted}, texts, report
    )
    existing_aliases = {
        (alias.ability_id, alias.name): alias
        for alias in AbilityAlias.objects.filter(ability__game=game)
    }
    wanted_aliases = {
        (abilities[row.code].pk, name): {"ability": abilities[row.code], "name": name}
        for row in catalogue.abilities
        for name in row.aliases
    }
    _sync(AbilityAlias, existing_aliases, wanted_aliases, report, delete_missing=True)
    return abilities


def _load_cards(
    catalogue: Catalogue,
    game: Game,
    expansions: dict[str, Expansion],
    abilities: dict[str, Ability],
    report: LoadReport,
) -> None:
    existing = _refresh_by(Card, "slug", {"expansion__game": game})
    wanted = {
        row.slug: {
            "expansion": expansions[row.set_code],
            "collector_number": row.collector_number,
            "slug": row.slug,
            "card_type": row.card_type,
            "mana": row.mana,
            "attack": row.attack,
            "hp": row.hp,
            "precon_deck": row.precon_deck,
            "checked_against_card_image": row.checked,
            "note": row.note,
            "copies": row.copies,
        }
        for row in catalogue.cards
    }
    try:
        _sync(Card, existing, wanted, report, delete_missing=True)
    except ProtectedError as exc:
        slugs = sorted({str(obj) for obj in exc.protected_objects})
        raise DomainError(
            "catalogue_card_in_use",
            "Cards no longer in the data files are still used elsewhere; nothing was imported.",
            {"removed_cards": sorted(set(existing) - set(wanted)), "used_by": slugs[:20]},
        ) from exc
    cards = _refresh_by(Card, "slug", {"expansion__game": game})
    _translations(
        CardTranslation,
        "card",
        cards,
        {
            row.slug: {lang: {"name": name} for lang, name in row.names.items()}
            for row in catalogue.cards
        },
        report,
    )
    existing_links = {
        (link.card_id, link.position): link
        for link in CardAbility.objects.filter(card__expansion__game=game)
    }
    wanted_links = {
        (cards[row.slug].pk, position): {
            "card": cards[row.slug],
            "ability": abilities[ability.code],
            "position": position,
            "is_aura": ability.is_aura,
        }
        for row in catalogue.cards
        for position, ability in enumerate(row.abilities, start=1)
    }
    _sync(CardAbility, existing_links, wanted_links, report, delete_missing=True)
    _refresh_search_text(Card.objects.filter(expansion__game=game), report)


def _refresh_search_text(cards: models.QuerySet[Card], report: LoadReport | None) -> int:
    names: dict[int, list[str]] = {}
    for card_id, name in CardTranslation.objects.filter(card__in=cards).values_list(
        "card_id", "name"
    ):
        names.setdefault(card_id, []).append(name)
    changed = []
    for card in cards.only("id", "slug", "search_text"):
        text = search_text([*names.get(card.pk, []), card.slug.replace("-", " ")])
        if card.search_text != text:
            card.search_text = text
            changed.append(card)
    Card.objects.bulk_update(changed, ["search_text"])
    if report is not None and changed:
        report.updated["card search text"] += len(changed)
    return len(changed)


def catalogue_revision_record(*, summary: str) -> CatalogueRevision:
    """Mark the catalogue as changed: new ETag/Last-Modified; answers cached per revision expire."""
    return CatalogueRevision.objects.create(summary=summary[:200])


def catalogue_load(*, data_dir: Path) -> LoadReport:
    """Import the data files of `data_dir` (and of its `chaos/` folder, the Duel of Chaos files,
    if there is one): all or nothing, and a second run changes nothing."""
    # Every file is read and checked before any write; all their problems are raised together.
    problems: list[FileProblem] = []
    try:
        catalogue = read_catalogue(data_dir)
    except CatalogueFileError as exc:
        problems.extend(exc.problems)
    chaos: ChaosCatalogue | None = None
    if (data_dir / CHAOS_DIR).is_dir():
        try:
            chaos = read_chaos_catalogue(data_dir / CHAOS_DIR)
        except CatalogueFileError as exc:
            problems.extend(exc.problems)
    if problems:
        raise CatalogueFileError(problems)
    report = LoadReport()
    with transaction.atomic():
        game, created = Game.objects.get_or_create(code=GAME_CODE, defaults={"name": GAME_NAME})
        if created:
            report.created["game"] += 1
        rules = _load_rules(catalogue, game, report)
        expansions = _load_expansions(catalogue, game, report)
        abilities = _load_abilities(catalogue, game, rules, report)
        _load_cards(catalogue, game, expansions, abilities, report)
        if chaos is not None:
            _load_chaos(chaos, report)
        if report.changed:
            report.revision = catalogue_revision_record(
                summary=f"load_catalogue: {report.summary()}"
            )
    return report


def card_search_text_refresh(*, card: Card) -> None:
    """After an edit of a card's names (admin): keep its search text in step."""
    with transaction.atomic():
        if _refresh_search_text(Card.objects.filter(pk=card.pk), None):
            catalogue_revision_record(summary=f"names of {card.slug} edited")


# ---- Duel of Chaos --------------------------------------------------------------------------


def _card_search_text(slug: str, names: list[str]) -> str:
    return search_text([*names, slug.replace("-", " ")])


def _keywords_field(codes: list[str] | tuple[str, ...]) -> str:
    """The keywords as `ChaosCard.keywords` keeps them: " plan call " (a code is " code ")."""
    return f" {' '.join(codes)} " if codes else ""


def _load_chaos(catalogue: ChaosCatalogue, report: LoadReport) -> None:
    game, created = Game.objects.get_or_create(
        code=chaos_files.GAME_CODE, defaults={"name": chaos_files.GAME_NAME}
    )
    if created:
        report.created["game"] += 1
    existing_rules = _refresh_by(ChaosRuleEntry, "rule_id", {"game": game})
    _sync(
        ChaosRuleEntry,
        existing_rules,
        {
            rule.rule_id: {
                "game": game,
                "rule_id": rule.rule_id,
                "number": rule.number,
                "position": rule.position,
            }
            for rule in catalogue.rules
        },
        report,
        delete_missing=True,
    )
    rules = _refresh_by(ChaosRuleEntry, "rule_id", {"game": game})
    _translations(
        ChaosRuleEntryTranslation,
        "entry",
        rules,
        {
            rule.rule_id: {
                language: {"title": rule.titles[language], "text": rule.texts[language]}
                for language in rule.titles
                if language in rule.texts
            }
            for rule in catalogue.rules
        },
        report,
    )
    _sync_named(
        ChaosKeyword,
        ChaosKeywordTranslation,
        "keyword",
        game,
        {
            row.code: {
                "game": game,
                "code": row.code,
                "clan": row.clan,
                "rule": rules.get(row.rule_id),
                "position": row.position,
            }
            for row in catalogue.keywords
        },
        {row.code: row.names for row in catalogue.keywords},
        report,
    )
    sets = _sync_named(
        ChaosSet,
        ChaosSetTranslation,
        "chaos_set",
        game,
        {
            row.code: {
                "game": game,
                "code": row.code,
                "slug": row.slug,
                "kind": row.kind,
                "card_count": row.card_count,
                "position": row.position,
            }
            for row in catalogue.sets
        },
        {row.code: row.names for row in catalogue.sets},
        report,
    )
    _load_chaos_cards(catalogue, game, sets, report)


def _sync_named(
    model: type[ChaosKeyword] | type[ChaosSet],
    translation: type[ChaosKeywordTranslation] | type[ChaosSetTranslation],
    parent_field: str,
    game: Game,
    wanted: dict[str, dict[str, Any]],
    names: dict[str, dict[str, str]],
    report: LoadReport,
) -> dict[str, Any]:
    """The rows of `model` keyed by code (one no longer in the files stays), and their names."""
    _sync(model, _refresh_by(model, "code", {"game": game}), wanted, report, delete_missing=False)
    rows = _refresh_by(model, "code", {"game": game})
    _translations(
        translation,
        parent_field,
        {code: rows[code] for code in wanted},
        {
            code: {language: {"name": name} for language, name in by_language.items()}
            for code, by_language in names.items()
        },
        report,
    )
    return rows


def _load_chaos_cards(
    catalogue: ChaosCatalogue, game: Game, sets: dict[str, ChaosSet], report: LoadReport
) -> None:
    existing = _refresh_by(ChaosCard, "slug", {"chaos_set__game": game})
    wanted = {
        row.slug: {
            "chaos_set": sets[row.set_code],
            "identifier": row.identifier,
            "slug": row.slug,
            **row.values,
            "position": row.position,
            "keywords": _keywords_field(row.keywords),
            "search_text": _card_search_text(row.slug, list(row.names.values())),
        }
        for row in catalogue.cards
    }
    _sync(ChaosCard, existing, wanted, report, delete_missing=True)
    cards = _refresh_by(ChaosCard, "slug", {"chaos_set__game": game})
    _translations(
        ChaosCardTranslation,
        "card",
        {row.slug: cards[row.slug] for row in catalogue.cards},
        {
            row.slug: {
                language: {
                    "name": name,
                    "play_text": row.texts.get(language, {}).get("play", ""),
                    "reaction_text": row.texts.get(language, {}).get("reaction", ""),
                }
                for language, name in row.names.items()
            }
            for row in catalogue.cards
        },
        report,
    )


def chaos_card_derived_refresh(*, card: ChaosCard) -> None:
    """After an admin edit of a Duel of Chaos card: its keywords and search text follow its
    effects and names, and the catalogue records a revision."""
    names = list(card.translations.values_list("name", flat=True))
    card.keywords = _keywords_field(keywords_of_texts(card.play_effect, card.reaction_effect))
    card.search_text = _card_search_text(card.slug, names)
    with transaction.atomic():
        ChaosCard.objects.filter(pk=card.pk).update(
            keywords=card.keywords, search_text=card.search_text
        )
        catalogue_revision_record(summary=f"admin: Duel of Chaos card {card.slug}")
