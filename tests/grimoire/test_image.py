"""The share image of a puzzle: its size, colours that depend on the position, its cache, and
the page's social-media tags pointing at it."""

import copy
import io
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from PIL import Image

from grimoire import image
from grimoire.book import book_entries
from grimoire.models import Puzzle
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
    assert picture.getpixel(image.hand_box(1, 4, 4).centre) == image.PANEL_IDLE
    # One creature on each line of each side: Hawk and Ox for A, Wall and Moat for B.
    for side in (0, 1):
        for line in (0, 1):
            assert picture.getpixel(image.line_box(side, line, 0, 1).centre) == image.CREATURE
            assert picture.getpixel(image.line_box(side, line, 1, 1).centre) != image.CREATURE


def _inked(picture: Any, box: image.Box) -> int:
    """The dark pixels of the band of a card where its abilities are written."""
    top = box.top + image.ABILITY_TOP
    return sum(
        1
        for x in range(box.left + 4, box.right - 4)
        for y in range(top, top + image.ABILITY_SIZE + 2)
        if sum(picture.getpixel((x, y))) < 200
    )


def test_the_image_writes_each_card_s_abilities(book: None) -> None:
    """Issue 29: the share image left out the abilities. Hawk (Aerial) and Claw (Symbiote)
    have theirs written under their names; Ox and F1, without abilities, nothing there."""
    picture = _png(f"{WINGS}image.png")
    hawk, ox = image.line_box(0, 0, 0, 1), image.line_box(0, 1, 0, 1)
    claw, f1 = image.hand_box(0, 0, 3), image.hand_box(0, 2, 3)
    assert _inked(picture, hawk) > 20 and _inked(picture, claw) > 20
    assert (_inked(picture, ox), _inked(picture, f1)) == (0, 0)


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
    key = f"grimoire:image:2:{puzzle.uid}:en:{puzzle.updated.timestamp()}"
    assert cache.get(key) == first.content
    assert Client().get(f"{WINGS}image.png").content == first.content
    french = Client().get(f"/fr{WINGS}image.png").content
    assert french != first.content  # "Ailes et griffes", "Gagnez ce tour"...
    puzzle_update(puzzle=puzzle, translations={"en": {"title": "Claws and wings"}})
    puzzle.refresh_from_db()
    retitled = Client().get(f"{WINGS}image.png").content
    assert retitled != first.content
    assert cache.get(f"grimoire:image:2:{puzzle.uid}:en:{puzzle.updated.timestamp()}") == retitled


def test_the_page_links_its_image_for_social_media(book: None) -> None:
    page = Client().get(WINGS).content.decode()
    url = "http://testserver/grimoire/book-aerial-wings/image.png"
    assert f'<meta property="og:image" content="{url}">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert '<meta property="og:title" content="Wings and claws">' in page
    assert 'value="http://testserver/grimoire/book-aerial-wings/"' in page
    assert 'data-copy="#puzzle-link"' in page
    assert '<meta name="robots" content="noindex">' not in page
