"""The Duel of Chaos catalogue: imported from data/chaos with the rest, a round trip through the
export, a bad card refused naming its field, and nothing of Clash of Decks changed."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from cards.chaos_files import read_chaos_catalogue, write_chaos_catalogue
from cards.chaos_selectors import chaos_catalogue_snapshot
from cards.data_files import CatalogueFileError
from cards.models import (
    Ability,
    Card,
    ChaosCard,
    ChaosKeyword,
    ChaosRuleEntry,
    ChaosSet,
    Expansion,
    Game,
    RuleEntry,
)
from cards.services import catalogue_load
from engine.chaos.rule_ids import RULES
from tests.support.database import DATA_DIR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]
CHAOS = DATA_DIR / "chaos"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_counts_match_the_files() -> None:
    rows = _rows(CHAOS / "cards.csv")
    game = Game.objects.get(code="duel-of-chaos")
    assert game.name == "Duel of Chaos"
    assert list(ChaosSet.objects.values_list("code", "kind")) == [
        ("DOC", "published"),
        ("EX", "example"),
    ]
    assert ChaosCard.objects.count() == len(rows) == 33
    assert ChaosCard.objects.filter(chaos_set__code="DOC", complete=False).count() == 8
    assert ChaosKeyword.objects.count() == 6
    assert set(ChaosRuleEntry.objects.values_list("rule_id", flat=True)) == {
        *RULES,
        "goal",
        "contents",
    }
    # The example set has the published box's shape: 20 Emissaries, 22 + 22 Domain cards.
    example = ChaosCard.objects.filter(chaos_set__code="EX")
    emissaries = sum(
        card.copies * (2 if card.deck == "both" else 1)
        for card in example.filter(card_type="emissary")
    )
    assert emissaries == 20
    assert sum(example.filter(clan="drakon").values_list("copies", flat=True)) == 22
    assert (
        sum(example.filter(clan="evine", card_type="domain").values_list("copies", flat=True)) == 22
    )


def test_the_rulebook_cards_keep_only_what_the_rulebook_gives() -> None:
    domania = ChaosCard.objects.get(slug="domania")
    assert (domania.card_type, domania.clan, domania.cost, domania.complete) == (
        "",
        "",
        None,
        False,
    )
    assert domania.play_effect == "discard 1 from hand -> draw 1"
    assert (domania.reaction_on, domania.reaction_effect) == ("discarded", "discard 1 from deck")
    assert domania.reaction_opponent_turn is None
    assert list(domania.translations.values_list("language_code", "name", "play_text")) == [
        ("fr", "Domania", "")
    ]
    assert ChaosCard.objects.get(slug="fenryr").cost == 4
    assert ChaosCard.objects.get(slug="nereus").cost == 2
    assert ChaosCard.objects.get(slug="eveil-de-chaos").play_effect == "awaken"
    assert ChaosCard.objects.get(slug="eveil-de-chaos").depth is None


def test_keywords_and_search_text_are_derived() -> None:
    herald = ChaosCard.objects.get(slug="molten-herald")
    assert herald.keywords == " discard "
    assert herald.search_text == "| molten herald | heraut en fusion | smalt harold |"
    assert ChaosCard.objects.get(slug="cinder-tactician").keywords == " plan "


def test_a_second_run_changes_nothing() -> None:
    assert catalogue_load(data_dir=DATA_DIR).summary() == "no change"


def _cod_snapshot() -> list[list[tuple[object, ...]]]:
    return [
        sorted(model.objects.values_list()) for model in (Game, Expansion, Card, Ability, RuleEntry)
    ]


def test_the_clash_of_decks_catalogue_does_not_change(tmp_path: Path) -> None:
    """Loading the files without chaos/ deletes no Duel of Chaos row and touches no Clash of
    Decks one; loading them with it again changes nothing either."""
    before = _cod_snapshot()
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("chaos"))
    assert catalogue_load(data_dir=data).summary() == "no change"
    assert _cod_snapshot() == before
    assert ChaosCard.objects.count() == 33
    assert Card.objects.filter(slug__in=ChaosCard.objects.values("slug")).count() == 0


def test_the_example_set_round_trips(tmp_path: Path) -> None:
    """Exported from the database, the example set's rows are the shipped ones, byte for byte;
    the whole export read back loads without a change."""
    target = tmp_path / "export"
    call_command("export_chaos_catalogue", str(target), "--set", "EX")
    shipped = (CHAOS / "cards.csv").read_text(encoding="utf-8").splitlines()
    exported = (target / "cards.csv").read_text(encoding="utf-8").splitlines()
    assert exported == [shipped[0], *(line for line in shipped if line.startswith("EX,"))]
    again = read_chaos_catalogue(target)
    snapshot = chaos_catalogue_snapshot(["EX"])
    assert again.cards == snapshot.cards
    assert again.rules == snapshot.rules
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("chaos"))
    write_chaos_catalogue(chaos_catalogue_snapshot(), data / "chaos")
    assert catalogue_load(data_dir=data).summary() == "no change"


@pytest.mark.parametrize(
    ("change", "problems"),
    [
        (
            (
                "EX,EX-07,Scale Scout,Éclaireur d'écailles,domain,drakon,1,",
                "EX,EX-07,Scale Scout,Éclaireur d'écailles,domain,drakon,one,",
            ),
            ["chaos/cards.csv, line 16, column 7: cost: 'one' is not a whole number"],
        ),
        (
            (",plan 2,,,,,yes,,\n", ",plna 2,,,,,yes,,\n"),
            [
                "chaos/cards.csv, line 12, column 10: play: unknown step 'plna'; did you mean "
                "'plan'? (column 1 of the effect)",
                "chaos/cards.csv, line 16, column 10: play: unknown step 'plna'; did you mean "
                "'plan'? (column 1 of the effect)",
            ],
        ),
        (
            (
                "EX,EX-23,Open Gate,Porte ouverte,intervention,none,,,1,cover,,,,0,",
                "EX,EX-23,Open Gate,Porte ouverte,intervention,drakon,2,,1,cover,,,,,",
            ),
            [
                "chaos/cards.csv, line 32, column 6: clan: an intervention card has no clan (none)",
                "chaos/cards.csv, line 32, column 7: cost: an intervention card has no cost",
                "chaos/cards.csv, line 32, column 14: depth: a complete Intervention says where "
                "it goes in the Domain pile",
            ],
        ),
    ],
)
def test_a_bad_card_is_refused_naming_its_field(
    tmp_path: Path, change: tuple[str, str], problems: list[str]
) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "chaos" / "cards.csv"
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(*change), encoding="utf-8")
    with pytest.raises(CatalogueFileError) as caught:
        catalogue_load(data_dir=data)
    assert [str(problem) for problem in caught.value.problems] == problems
    assert ChaosCard.objects.get(slug="scale-scout").cost == 1
