import shutil
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards import services
from cards.catalogue_files import read_catalogue
from cards.data_files import CatalogueFileError
from cards.models import (
    Ability,
    AbilityAlias,
    AbilityTranslation,
    Card,
    CardAbility,
    CardTranslation,
    CatalogueRevision,
    Expansion,
    ExpansionTranslation,
    Game,
    RuleEntry,
    RuleEntryTranslation,
)
from cards.services import catalogue_load
from tests.cards.conftest import DATA_DIR, Row, read_csv

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

MODELS = [
    Game,
    Expansion,
    ExpansionTranslation,
    Card,
    CardTranslation,
    CardAbility,
    Ability,
    AbilityTranslation,
    AbilityAlias,
    RuleEntry,
    RuleEntryTranslation,
    CatalogueRevision,
]


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every catalogue table, primary keys included."""
    return {
        model.__name__: sorted(model.objects.values_list(), key=lambda row: row[0])
        for model in MODELS
    }


def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def replace_line(path: Path, line_number: int, new_line: str) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line_number - 1] = new_line
    path.write_text("\n".join(lines), encoding="utf-8")


def test_counts_match_the_issue_and_the_files(rows: list[Row]) -> None:
    assert Expansion.objects.count() == 11 == len(read_csv("expansions.csv"))
    assert Card.objects.deckable().count() == 352 == len(rows)
    assert Ability.objects.count() == 27 == len(read_csv("abilities.csv"))
    decks = Counter(Card.objects.exclude(precon_deck=None).values_list("precon_deck", flat=True))
    assert decks == {1: 8, 2: 8, 3: 8, 4: 8}
    assert decks == Counter(row.precon_deck for row in rows if row.precon_deck)


def test_every_card_matches_its_row(rows: list[Row]) -> None:
    cards = {
        card.slug: card
        for card in Card.objects.deckable()
        .select_related("expansion")
        .prefetch_related("translations", "card_abilities__ability")
    }
    assert len(cards) == len(rows)
    for row in rows:
        card = cards[row.slug]
        names = {t.language_code: t.name for t in card.translations.all()}
        assert (
            card.expansion.code,
            card.collector_number,
            names["en"],
            names["fr"],
            card.card_type,
            card.mana,
            card.attack,
            card.hp,
            card.precon_deck,
            card.checked_against_card_image,
        ) == (
            row.set_code,
            row.collector_number,
            row.name_en,
            row.name_fr,
            row.type,
            row.mana,
            row.attack,
            row.hp,
            row.precon_deck,
            row.checked,
        ), row.name_en
        printed = tuple(
            f"{'aura:' if link.is_aura else ''}{link.ability.code}"
            for link in sorted(card.card_abilities.all(), key=lambda link: link.position)
        )
        assert printed == row.raw_abilities, row.name_en


def test_strongholds_and_bridges_complete_each_product() -> None:
    for expansion in Expansion.objects.prefetch_related("cards"):
        by_type = Counter()
        for card in expansion.cards.all():
            by_type[card.card_type] += card.copies
        assert by_type["stronghold"] == 2 and by_type["bridge"] == 2, expansion.code
        assert sum(by_type.values()) == expansion.card_count == 36
    assert not Card.objects.deckable().filter(card_type__in=["stronghold", "bridge"]).exists()
    assert (
        Card.objects.get(slug="stronghold-submersion").translations.get(language_code="fr").name
        == "Forteresse"
    )


def test_abilities_match_their_file() -> None:
    for raw in read_csv("abilities.csv"):
        ability = Ability.objects.get(code=raw["code"])
        names = {t.language_code: t.name for t in ability.translations.all()}
        assert names["en"] == raw["name_en"] and names["fr"] == raw["name_fr"]
        assert ability.is_malus == (raw["malus"] == "1")
        assert ability.can_be_aura == (raw["can_be_aura"] == "1")
        for field in ("creature_cost", "incantation_cost"):
            expected = Decimal(raw[field]) if raw[field] else None
            assert getattr(ability, field) == expected, (raw["code"], field)
        aliases = sorted(ability.aliases.values_list("name", flat=True))
        assert aliases == sorted(name for name in raw["other_names"].split(";") if name)


def test_swedish_names_only_where_the_swedish_edition_prints_them() -> None:
    swedish = set(
        CardTranslation.objects.filter(
            language_code="sv", card__card_type__in=["creature", "incantation"]
        ).values_list("card__slug", flat=True)
    )
    assert swedish == set(Card.objects.exclude(precon_deck=None).values_list("slug", flat=True))
    assert ExpansionTranslation.objects.get(language_code="sv").expansion.code == "00"
    assert sorted(
        AbilityTranslation.objects.filter(language_code="sv").values_list(
            "ability__code", flat=True
        )
    ) == ["berserk", "indestructible", "perforation", "protection", "rage", "splash", "sprint"]


def test_a_second_run_changes_nothing() -> None:
    before = snapshot()
    report = catalogue_load(data_dir=DATA_DIR)
    assert not report.changed
    assert report.summary() == "no change"
    assert report.revision is None
    assert snapshot() == before


def test_the_command_reports_no_change_on_a_second_run(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("load_catalogue")
    assert "no change" in capsys.readouterr().out


def test_a_changed_row_updates_in_place(tmp_path: Path) -> None:
    data = copy_data(tmp_path)
    grrr = Card.objects.get(slug="grrr")
    revisions = CatalogueRevision.objects.count()
    text = (data / "cards.csv").read_text(encoding="utf-8")
    original = next(line for line in text.splitlines() if line.split(",")[2] == "Grrr")
    fields = original.split(",")
    fields[5] = str(int(fields[5]) + 1)  # mana
    fields[8] = "sprint;aura:rage"
    text = text.replace(original, ",".join(fields))
    (data / "cards.csv").write_text(text, encoding="utf-8")

    report = catalogue_load(data_dir=data)

    grrr_after = Card.objects.get(slug="grrr")
    assert grrr_after.pk == grrr.pk
    assert grrr_after.mana == grrr.mana + 1
    assert [
        (link.ability.code, link.is_aura) for link in grrr_after.card_abilities.order_by("position")
    ] == [("sprint", False), ("rage", True)]
    assert report.updated["card"] == 1
    assert CatalogueRevision.objects.count() == revisions + 1


def test_a_corrected_english_name_keeps_the_published_slug(tmp_path: Path) -> None:
    """ "Ardent aplha" was a slip of the data: the name is corrected, the slug that pages, deck
    codes and saved decks use stays."""
    alpha = Card.objects.get(slug="ardent-aplha")
    assert alpha.translations.get(language_code="en").name == "Ardent alpha"
    assert alpha.translations.get(language_code="fr").name == "Alpha ardant"
    assert not Card.objects.filter(slug="ardent-alpha").exists()
    assert report_of_reload(tmp_path).updated.get("card", 0) == 0
    data = copy_data(tmp_path)
    text = (data / "cards.csv").read_text(encoding="utf-8")
    assert text.count(",ardent-aplha\n") == 1
    (data / "cards.csv").write_text(text.replace(",ardent-aplha\n", ",Ardent-Aplha\n"))
    with pytest.raises(CatalogueFileError) as error:
        read_catalogue(data)
    assert [str(problem) for problem in error.value.problems] == [
        "cards.csv, line 226, column 13: slug: 'Ardent-Aplha' is not a lower-case slug"
    ]


def report_of_reload(tmp_path: Path) -> services.LoadReport:
    return catalogue_load(data_dir=copy_data(tmp_path / "again"))


@pytest.mark.parametrize(
    ("file", "line", "new_line", "expected"),
    [
        (
            "cards.csv",
            3,
            "00,2,Microctopus,Microctopus,creature,two,5,1,,2,yes,,",
            "cards.csv, line 3, column 6: mana: 'two' is not a whole number",
        ),
        (
            "cards.csv",
            4,
            "00,3,Scribe,Scribe,creature,4,3,3,rage;flying,2,yes,,",
            "cards.csv, line 4, column 9: abilities: unknown ability 'flying'",
        ),
        (
            "cards.csv",
            5,
            "00,4,Baron,Baron,creature,3,3,5,,7,yes,,",
            "cards.csv, line 5, column 10: precon_deck: 7 is outside 1..4",
        ),
        (
            "cards.csv",
            6,
            "99,5,Alpha,Alpha,creature,3,3,5,,1,yes,,",
            "cards.csv, line 6, column 1: set_code: no expansion with code '99' in expansions.csv",
        ),
        (
            "cards.csv",
            7,
            "00,6,Brute,Brute,creature,3,3",
            "cards.csv, line 7, column 8: 7 fields where the header has 13",
        ),
        (
            "cards.csv",
            8,
            "00,7,Carapace,Carapace,incantation,3,3,5,,1,yes,,",
            "cards.csv, line 8, column 8: hp: an incantation has no HP",
        ),
        (
            "abilities.csv",
            2,
            "aerial,Aerial,Aérienne,0,lots,,1,generator,,",
            "abilities.csv, line 2, column 5: creature_cost: 'lots' is not a number",
        ),
        (
            "expansions.csv",
            3,
            "01,treachery,Treachery,Félonie,2",
            "expansions.csv, line 3, column 6: 5 fields where the header has 6",
        ),
    ],
)
def test_a_malformed_file_is_refused_with_line_and_column(
    tmp_path: Path, file: str, line: int, new_line: str, expected: str
) -> None:
    data = copy_data(tmp_path)
    replace_line(data / file, line, new_line)
    before = snapshot()
    with pytest.raises(CatalogueFileError) as caught:
        catalogue_load(data_dir=data)
    assert expected in str(caught.value)
    assert snapshot() == before


def test_a_yaml_syntax_error_names_its_line_and_column(tmp_path: Path) -> None:
    data = copy_data(tmp_path)
    replace_line(data / "rules_reference.yaml", 9, '    number: ["1"')
    with pytest.raises(CatalogueFileError) as caught:
        read_catalogue(data)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line) == ("rules_reference.yaml", 10)
    assert problem.column > 0


def _rules_problems(tmp_path: Path, old: str, new: str, count: int = -1) -> tuple[str, list[str]]:
    """The rules file with `old` replaced by `new`, and the problems reading the catalogue finds."""
    data = copy_data(tmp_path)
    text = (data / "rules_reference.yaml").read_text(encoding="utf-8").replace(old, new, count)
    (data / "rules_reference.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueFileError) as caught:
        read_catalogue(data)
    return text, [str(problem) for problem in caught.value.problems]


def test_an_unknown_rule_key_and_ability_are_refused(tmp_path: Path) -> None:
    text, problems = _rules_problems(
        tmp_path, "    ability: splash\n", "    ability: splsh\n    colour: red\n"
    )
    line = text.splitlines().index("    ability: splsh") + 1
    assert problems == [
        f"rules_reference.yaml, line {line + 1}, column 5: unknown key 'colour'",
        f"rules_reference.yaml, line {line}, column 14: unknown ability 'splsh'",
    ]


def test_an_unknown_numeric_key_is_placed_at_its_line(tmp_path: Path) -> None:
    text, problems = _rules_problems(
        tmp_path, "    ability: splash\n", "    ability: splash\n    12: red\n", count=1
    )
    line = text.splitlines().index("    12: red") + 1
    assert problems == [f"rules_reference.yaml, line {line}, column 5: unknown key 12"]


def test_the_command_refuses_a_malformed_folder(tmp_path: Path) -> None:
    data = copy_data(tmp_path)
    replace_line(
        data / "cards.csv",
        2,
        "00,1,Parasite,Parasite,creature,4,1,1,rage;splash;perforation;berserk,3,maybe,,",
    )
    with pytest.raises(CommandError) as caught:
        call_command("load_catalogue", data_dir=data)
    message = str(caught.value)
    assert "nothing was imported" in message
    assert (
        "cards.csv, line 2, column 11: checked_against_card_image: 'maybe' must be 'yes' or 'no'"
        in message
    )


def test_a_failure_during_the_import_rolls_everything_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = copy_data(tmp_path)
    text = (data / "cards.csv").read_text(encoding="utf-8")
    (data / "cards.csv").write_text(
        text.replace(
            "00,2,Microctopus,Microctopus,creature,2,", "00,2,Microctopus,Microctopus,creature,3,"
        ),
        encoding="utf-8",
    )
    before = snapshot()

    def fail(*args: object, **kwargs: object) -> int:
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_refresh_search_text", fail)
    with pytest.raises(RuntimeError):
        catalogue_load(data_dir=data)
    assert snapshot() == before
    assert Card.objects.get(slug="microctopus").mana == 2


def test_a_card_removed_from_the_file_is_removed(tmp_path: Path) -> None:
    data = copy_data(tmp_path)
    lines = (data / "cards.csv").read_text(encoding="utf-8").split("\n")
    (data / "cards.csv").write_text(
        "\n".join(line for line in lines if ",Emerald dragon," not in line), encoding="utf-8"
    )
    report = catalogue_load(data_dir=data)
    assert report.deleted["card"] == 1
    assert not Card.objects.filter(slug="emerald-dragon").exists()
