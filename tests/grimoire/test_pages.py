"""Grimoire pages: the gallery's search, the puzzle of the day, a puzzle page and its attempts."""

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from grimoire.book import book_entries
from grimoire.models import Puzzle
from grimoire.services import puzzle_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def book() -> None:
    call_command("load_starter_book")


def test_the_gallery_searches_by_ability_and_difficulty(book: None) -> None:
    page = Client().get("/grimoire/").content.decode()
    assert page.count('href="/grimoire/book-') == 24  # the first page of 30
    found = Client().get("/sv/grimoire/?ability=vanish").content.decode()
    assert "Få den att backa" in found
    assert found.count('href="/sv/grimoire/book-') == 1
    hard = Client().get("/grimoire/?difficulty=3", headers={"HX-Request": "true"}).content.decode()
    assert hard.startswith('<div id="puzzle-list">')
    assert hard.count('href="/grimoire/book-') == Puzzle.objects.filter(difficulty=3).count() == 8


def test_the_puzzle_of_the_day_is_a_published_puzzle(book: None) -> None:
    response = Client().get("/grimoire/today/")
    assert response.status_code == 302
    assert response["Location"].startswith("/grimoire/book-")


def test_a_puzzle_page_shows_the_position_hint_and_steps(book: None) -> None:
    page = Client().get("/fr/grimoire/book-vanish-make-it-step-back/").content.decode()
    assert "Faites-le reculer" in page
    assert "Zappez Ghost : il se dérobe derrière Pawn" in page
    assert "Dérobade" in page  # the ability's French name, from the catalogue
    assert "Lancez Zap sur Ghost (joueur B)." in page
    assert (
        "Cast Zap on Ghost (player B)."
        in Client().get("/grimoire/book-vanish-make-it-step-back/").content.decode()
    )
    assert Client().get("/grimoire/nope/").status_code == 404


def test_attempts_from_the_page(book: None) -> None:
    url = "/grimoire/book-vanish-make-it-step-back/attempt/"
    good = Client().post(url, {"actions": "- {play: Zap, target: {player: B, card: Ghost}}"})
    assert "Solved" in good.content.decode()
    wrong = Client().post(url, {"actions": "- assault"}).content.decode()
    assert "Not yet" in wrong
    refused = Client().post(url, {"actions": "- {play: Bolt, line: top}"}).content.decode()
    assert "Action 1 was refused" in refused
    assert "not valid YAML" in Client().post(url, {"actions": "- [unclosed"}).content.decode()
    puzzle = Puzzle.objects.get(uid="book-vanish-make-it-step-back")
    assert (puzzle.attempts, puzzle.solved) == (3, 1)


def test_my_puzzles_lists_the_private_ones(django_user_model: Any) -> None:
    ana = django_user_model.objects.create_user("ana", password="x")
    entry = book_entries()[0]
    puzzle_create(
        author=ana,
        scenario=entry["scenario"],
        goal=entry["goal"],
        difficulty=1,
        translations={"en": {"title": "My first puzzle"}},
    )
    assert Client().get("/grimoire/mine/").status_code == 302
    client = Client()
    client.force_login(ana)
    page = client.get("/grimoire/mine/").content.decode()
    assert "My first puzzle" in page
    assert "Private · Not proved yet" in page
    assert "My first puzzle" not in Client().get("/grimoire/").content.decode()
