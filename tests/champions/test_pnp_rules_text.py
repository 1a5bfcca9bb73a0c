"""Issue 29: the Champion's Print-and-Play sheet printed its abilities' names only, where the
deck's sheet printed their rules text."""

import io

import pdfplumber
import pytest

from cards.models import Ability
from cards.selectors import translated
from champions import services
from champions.documents import champions_pnp_pdf
from champions.pnp import SheetOptions
from tests.champions.conftest import design

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def _words(text: str) -> list[str]:
    return text.replace("\n", " ").split()


FLAVOUR = "Les murailles tombent une à une sous ses coups, et les rois se cachent. " * 3


@pytest.mark.parametrize("language", ["en", "fr", "sv"])
# Two abilities, as many as a catalogue card has; a long flavour no longer pushes their rules
# texts out (the flavour goes first). Three long rules texts do not fit at a legible size.
@pytest.mark.parametrize("abilities", [["splash", "aura:rage"], ["splash", "sprint"]])
def test_a_champion_sheet_prints_its_abilities_rules_text(
    owner: object, language: str, abilities: list[str]
) -> None:
    flavours = {"en": FLAVOUR[:200], "fr": FLAVOUR[:200], "sv": FLAVOUR[:200]}
    champion = services.champion_create(
        owner=owner,
        design=design(visibility="unlisted", abilities=abilities, flavours=flavours),
    )
    pdf = champions_pnp_pdf([(champion, 1)], SheetOptions(), language)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        printed = _words(document.pages[0].extract_text())
    rules = _words(translated(Ability.objects.get(code="splash"), "rules_text", language).text)
    assert rules
    # The rules text in order, whatever the line breaks.
    assert " ".join(rules) in " ".join(printed)
