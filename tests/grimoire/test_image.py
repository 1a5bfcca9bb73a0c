"""The share image of a puzzle: its size, colours that depend on the position, its cache, and
the page's social-media tags pointing at it."""

import copy
import io
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from PIL import Image

from cards.selectors import ability_names_in, card_names_in
from grimoire import display, image
from grimoire.book import book_entries
from grimoire.models import Puzzle
from grimoire.selectors import catalogue_definitions, puzzle_state
from grimoire.services import puzzle_create, puzzle_update

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

WINGS = "/grimoire/book-aerial-wings/"


@pytest.fixture
def book() -> None:
    call_command("load_starter_book")
    cache.clear()


def _png(url: str, client: Client | None = None) -> Any:
    response = (client or Client()).get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(response.content)).convert("RGB")


def test_the_image_draws_both_sides_of_the_position(book: None) -> None:
    picture = _png(f"{WINGS}image.png")
    assert picture.size == (1200, 630)
    # A (to play) holds Claw, its Bastion, F1; B its Fort then F1, F2, F3.
    assert picture.getpixel(image.hand_box(0, 0, 3).centre) == image.CARD
    assert picture.getpixel(image.hand_box(0, 1, 3).centre) == image.BASTION
    assert picture.getpixel(image.hand_box(0, 2, 3).centre) == image.CARD
    assert picture.getpixel(image.hand_box(0, 3, 3).centre) == image.PANEL_ACTIVE
    assert picture.getpixel(image.hand_box(1, 0, 4).centre) == image.FORT
    assert picture.getpixel(image.hand_box(1, 3, 4).centre) == image.CARD
    last = image.hand_box(1, 3, 4)
    assert picture.getpixel((last.right + 4, last.centre[1])) == image.PANEL_IDLE
    # One creature on each line of each side: Hawk and Ox for A, Wall and Moat for B.
    for side in (0, 1):
        for line in (0, 1):
            assert picture.getpixel(image.line_box(side, line, 0, 1).centre) == image.CREATURE
            assert picture.getpixel(image.line_box(side, line, 1, 1).centre) != image.CREATURE


def _drawn(puzzle: Puzzle, language: str) -> list[image.CardDrawing]:
    """The cards of the puzzle's image as `layout` places them in ``language``."""
    with translation.override(language):
        return image.layout(
            display.board(puzzle.scenario, puzzle_state(puzzle)),
            cards=puzzle.scenario["cards"],
            names=card_names_in(language),
            abilities=ability_names_in(language),
        )


def _says(cards: list[image.CardDrawing]) -> list[list[str]]:
    return [[run.text for run in card.runs] for card in cards]


def test_the_image_writes_each_card_s_name_abilities_and_values(book: None) -> None:
    """Issue 29: the share image left out the abilities, and its cards read at 12-16 px. Each
    card says its name, its abilities (icon and name, in the page's language) and its values
    (cost, attack, HP) with their icons, no text under 20 px."""
    puzzle = Puzzle.objects.get(uid="book-aerial-wings")
    english, french = _drawn(puzzle, "en"), _drawn(puzzle, "fr")
    # A's hand (Claw, its Bastion, F1), its lines (Hawk, Ox), then B's.
    assert _says(english) == [
        ["Claw", "Symbiote", "2 1 1"],
        ["Bastion", "1"],
        ["F1", "1 1 1"],
        ["Hawk", "Aerial", "2 2"],
        ["Ox", "1 3"],
        ["Fort", "3"],
        ["F1", "1 1 1"],
        ["F2", "1 1 1"],
        ["F3", "1 1 1"],
        ["Wall", "0 6"],
        ["Moat", "0 6"],
    ]
    assert [card.box for card in english[:5]] == [
        image.hand_box(0, 0, 3),
        image.hand_box(0, 1, 3),
        image.hand_box(0, 2, 3),
        image.line_box(0, 0, 0, 1),
        image.line_box(0, 1, 0, 1),
    ]
    claw, hawk = english[0], english[3]
    assert [[piece.icon for piece in run.pieces] for run in claw.runs] == [
        [""],
        ["ab-symbiote"],
        ["mana", "attack", "hp"],
    ]
    assert [piece.icon for piece in hawk.runs[1].pieces] == ["ab-aerial"]
    assert _says(french)[0] == ["Claw", "Symbiote", "2 1 1"]
    assert _says(french)[3] == ["Hawk", "Aérienne", "2 2"]
    assert min(run.size for card in english + french for run in card.runs) >= 20


def test_a_damaged_creature_and_a_longer_hand_change_the_picture(django_user_model: Any) -> None:
    ana = django_user_model.objects.create_user("ana", password="x")
    scenario = copy.deepcopy(book_entries()[0]["scenario"])
    players = scenario["state"]["players"]
    players["B"]["lines"]["top"] = [{"card": "Wall", "damage": 2}]
    players["A"]["hand"] = ["Claw", "F1", "F2", "STRONGHOLD", "F3"]
    puzzle = puzzle_create(
        author=ana,
        scenario=scenario,
        goal={"kind": "win"},
        difficulty=2,
        translations={"en": {"title": "Cracked wall"}},
    )
    client = Client()
    client.force_login(ana)
    picture = _png(f"/grimoire/{puzzle.uid}/image.png", client)
    assert picture.getpixel(image.line_box(1, 0, 0, 1).centre) == image.DAMAGED
    assert picture.getpixel(image.line_box(1, 1, 0, 1).centre) == image.CREATURE
    assert picture.getpixel(image.hand_box(0, 3, 5).centre) == image.BASTION
    assert picture.getpixel(image.hand_box(0, 4, 5).centre) == image.CARD
    # Private: only its author sees it, no shared cache keeps it, no search engine lists it.
    page = client.get(f"/grimoire/{puzzle.uid}/").content.decode()
    assert '<meta name="robots" content="noindex">' in page
    assert Client().get(f"/grimoire/{puzzle.uid}/image.png").status_code == 404
    assert client.get(f"/grimoire/{puzzle.uid}/image.png")["Cache-Control"] == (
        "private, max-age=3600"
    )


def test_the_image_is_cached_per_version_and_language(book: None) -> None:
    first = Client().get(f"{WINGS}image.png")
    assert first["Cache-Control"] == "public, max-age=3600"
    puzzle = Puzzle.objects.get(uid="book-aerial-wings")
    key = f"grimoire:image:3:{puzzle.uid}:en:{puzzle.updated.timestamp()}"
    assert cache.get(key) == first.content
    assert Client().get(f"{WINGS}image.png").content == first.content
    french = Client().get(f"/fr{WINGS}image.png").content
    assert french != first.content  # "Ailes et griffes", "Gagnez ce tour"...
    puzzle_update(puzzle=puzzle, translations={"en": {"title": "Claws and wings"}})
    puzzle.refresh_from_db()
    retitled = Client().get(f"{WINGS}image.png").content
    assert retitled != first.content
    assert cache.get(f"grimoire:image:3:{puzzle.uid}:en:{puzzle.updated.timestamp()}") == retitled


def test_the_page_links_its_image_for_social_media(book: None) -> None:
    page = Client().get(WINGS).content.decode()
    url = "http://testserver/grimoire/book-aerial-wings/image.png"
    assert f'<meta property="og:image" content="{url}">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert '<meta property="og:title" content="Wings and claws">' in page
    assert 'value="http://testserver/grimoire/book-aerial-wings/"' in page
    assert 'data-copy="#puzzle-link"' in page
    assert '<meta name="robots" content="noindex">' not in page


def test_a_card_says_what_changed_it_in_the_page_s_language(django_user_model: Any) -> None:
    """Catalogue cards by their names in French; a Symbiote's values added to its host's, the
    damage taken, the enchained card, a used Protection and a creature entered this turn."""
    ana = django_user_model.objects.create_user("ana", password="x")
    names = {"Sapphire dragon", "Cunning spirit", "Paladwarf", "Pacifier", "Carapace", "Dragonet"}
    lines_a = {
        "top": [{"card": "Sapphire dragon", "symbiote": "Cunning spirit", "damage": 2}],
        "bottom": [{"card": "Paladwarf", "protection_used": True}],
    }
    lines_b = {
        "top": [{"card": "Pacifier", "enchained": ["Carapace"]}],
        "bottom": [{"card": "Dragonet", "new": True}],
    }
    scenario = {
        "cards": catalogue_definitions(names),
        "state": {
            "active": "A",
            "players": {
                "A": {"hand": ["STRONGHOLD", "Pacifier"], "mana": 4, "lines": lines_a},
                "B": {"hand": ["STRONGHOLD", "Carapace"], "stronghold": "fort", "lines": lines_b},
            },
        },
    }
    puzzle = puzzle_create(
        author=ana,
        scenario=scenario,
        goal={"kind": "win"},
        difficulty=2,
        translations={"en": {"title": "Changed cards"}},
    )
    english, french = _drawn(puzzle, "en"), _drawn(puzzle, "fr")
    assert _says(english) == [
        ["Bastion", "1"],
        ["Pacifier", "Enchain", "4 3 3"],
        # Cunning spirit (3/3) on Sapphire dragon (3/6): 6/9, 2 damage taken; the name on two
        # lines leaves one for the Symbiote and the abilities' icons.
        ["Sapphire", "dragon", "+1", "6 7 −2"],
        # Its Protection spent, said in its place, on the line to spare.
        ["Paladwarf", "Protection", "used", "3 3"],
        ["Fort", "1"],
        ["Carapace", "Protection", "3 0 4"],
        ["Pacifier", "Carapace", "Enchain", "3 3"],
        ["Dragonet", "Aerial", "+1", "2 1"],
    ]
    dragon, paladwarf, dragonet = english[2], english[3], english[7]
    assert [piece.icon for piece in dragon.runs[2].pieces] == [
        "ab-symbiote",
        "ab-aquatic",
        "ab-aerial",
        "",
    ]
    assert [piece.icon for piece in english[6].runs[1].pieces] == ["ab-enchain"]
    assert [run.pieces for run in paladwarf.runs[1:3]] == [
        (image.Piece("ab-protection", "Protection"),),
        (image.Piece("", "used"),),
    ]
    assert [piece.icon for piece in dragonet.runs[2].pieces] == ["ab-protection", ""]
    assert (dragon.fill, paladwarf.fill) == (image.DAMAGED, image.CREATURE)
    assert _says(french) == [
        ["Bastion", "1"],
        ["Pacificateur", "Enchaîner", "4 3 3"],
        ["Dragon", "saphir", "+1", "6 7 −2"],
        ["Palanain", "Protection", "utilisée", "3 3"],
        ["Fort", "1"],
        ["Carapace", "Protection", "3 0 4"],
        ["Pacificateur", "Carapace", "Enchaîner", "3 3"],
        ["Dragonnet", "Aérienne", "+1", "2 1"],
    ]
    client = Client()
    client.force_login(ana)
    response = client.get(f"/fr/grimoire/{puzzle.uid}/image.png")
    picture = Image.open(io.BytesIO(response.content))
    assert (picture.format, picture.size, picture.mode) == ("PNG", (1200, 630), "RGB")
    assert picture.getpixel(image.line_box(0, 0, 0, 1).centre) == image.DAMAGED
