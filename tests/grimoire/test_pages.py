"""Grimoire pages: the gallery's search, the puzzle of the day, a puzzle page and its attempts."""

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from grimoire.book import book_entries
from grimoire.models import Puzzle
from grimoire.selectors import catalogue_definitions
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
    visitor = Client()
    url = "/fr/grimoire/book-vanish-make-it-step-back/"
    page = visitor.get(url).content.decode()
    assert "Faites-le reculer" in page
    assert "Dérobade" in page  # the ability's French name, from the catalogue
    # The solution once the visitor asks for it.
    assert "Zappez Ghost : il se dérobe derrière Pawn" not in page
    visitor.post(f"{url}give-up/")
    page = visitor.get(url).content.decode()
    assert "Zappez Ghost : il se dérobe derrière Pawn" in page
    assert "<li>Lancez Zap sur Ghost (joueur B).</li>" in page
    english = visitor.get("/grimoire/book-vanish-make-it-step-back/").content.decode()
    assert "<li>Cast Zap on Ghost (player B).</li>" in english
    assert Client().get("/grimoire/nope/").status_code == 404


def _visitor(page: str = "/grimoire/book-vanish-make-it-step-back/") -> Client:
    """An anonymous visitor who opened the puzzle's page (and got their session there)."""
    client = Client()
    client.get(page)
    return client


def test_attempts_from_the_page(book: None) -> None:
    url = "/grimoire/book-vanish-make-it-step-back/attempt/"
    visitor = _visitor()
    wrong = visitor.post(url, {"actions": "- assault"}).content.decode()
    assert "Not yet" in wrong
    refused = visitor.post(url, {"actions": "- {play: Bolt, line: top}"}).content.decode()
    assert "Action 1 was refused" in refused
    assert "not valid YAML" in visitor.post(url, {"actions": "- [unclosed"}).content.decode()
    good = visitor.post(url, {"actions": "- {play: Zap, target: {player: B, card: Ghost}}"})
    assert "Solved" in good.content.decode()
    # The solution's section comes with the verdict.
    assert "Zap the Ghost: it vanishes behind the Pawn" in good.content.decode()
    # One person, who solved it; another who tried it.
    _visitor().post(url, {"actions": "- assault"})
    puzzle = Puzzle.objects.get(uid="book-vanish-make-it-step-back")
    assert (puzzle.attempts, puzzle.solved) == (2, 1)


def test_an_attempt_that_is_not_a_short_list_is_refused_uncounted(book: None) -> None:
    url = "/grimoire/book-vanish-make-it-step-back/attempt/"
    visitor = _visitor()
    not_a_list = visitor.post(url, {"actions": "assault"}).content.decode()
    assert "Write a list of actions, one per line, each starting with a dash." in not_a_list
    too_long = visitor.post(url, {"actions": "\n".join(["- assault"] * 41)}).content.decode()
    assert "At most 40 items in `actions`; 41 were sent." in too_long
    nothing = visitor.post(url, {}).content.decode()
    assert "Not yet" in nothing
    puzzle = Puzzle.objects.get(uid="book-vanish-make-it-step-back")
    assert (puzzle.attempts, puzzle.solved) == (1, 0)


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


WINGS = "/grimoire/book-aerial-wings/"
CLAW_ONTO_HAWK = {"play": "Claw", "onto": "Hawk"}


def _click(actions: Any, client: Client | None = None) -> Any:
    """The board after a click that sends the turn `actions` (htmx: the partial only)."""
    body = actions if isinstance(actions, str) else json.dumps(actions)
    return (client or Client()).post(
        f"{WINGS}solve/", {"actions": body}, headers={"HX-Request": "true"}
    )


def test_the_puzzle_page_draws_the_position_and_the_legal_actions(book: None) -> None:
    response = Client().get(WINGS)
    page = response.content.decode()
    assert 'aria-label="The puzzle\'s board"' in page
    assert '<span class="board-stronghold is-fort" data-hp="3">Fort: 3 HP</span>' in page
    assert '<span class="board-mana" data-mana="2">2 Mana</span>' in page
    assert [label for label, _actions in response.context["moves"]] == [
        "Go to the Assault (Phase 3).",
        "Play Claw on the upper line.",
        "Play Claw on the lower line.",
        "Place Claw onto Hawk.",
        "Place Claw onto Ox.",
        "Play F1 on the upper line.",
        "Play F1 on the lower line.",
    ]
    # Each button carries the whole turn with its own action last.
    assert response.context["moves"][3][1] == json.dumps([CLAW_ONTO_HAWK])
    assert "Try again" not in page


def test_clicks_replay_the_turn_and_the_assault_judges_it(book: None) -> None:
    visitor = _visitor(WINGS)
    placed = _click([CLAW_ONTO_HAWK], visitor)
    assert placed.context["chosen"] == ["Place Claw onto Hawk."]
    # Claw spent the 2 Mana: F1 (cost 1) cannot follow, only the Assault.
    assert [label for label, _actions in placed.context["moves"]] == [
        "Go to the Assault (Phase 3)."
    ]
    html = placed.content.decode()
    assert html.lstrip().startswith('<div id="puzzle-solve" class="puzzle-solve" data-actions="1"')
    assert '<span class="board-symbiote">+ Claw</span>' in html
    assert '<span class="board-mana" data-mana="0">0 Mana</span>' in html

    solved = _click([CLAW_ONTO_HAWK, "assault"], visitor).content.decode()
    assert 'data-actions="2" data-met="yes"' in solved
    assert "Solved: your turn meets the goal." in solved
    assert "puzzle-moves" not in solved
    assert "Try again" in solved
    # 3 Damage destroyed the Fort of 3 HP: the game is over, nobody is to play.
    assert 'data-hp="0"' in solved
    assert "board-turn" not in solved

    # A success, with the next puzzle to try (issue 29): the gallery's next one.
    wings = Puzzle.objects.get(uid="book-aerial-wings")
    public = Puzzle.objects.filter(visibility="public").order_by("difficulty", "uid")
    after = [one for one in public if (one.difficulty, one.uid) > (wings.difficulty, wings.uid)]
    assert '<div class="puzzle-solved" role="status">' in solved
    assert f'<a class="puzzle-next" href="/grimoire/{after[0].uid}/">Next puzzle: ' in solved
    page = visitor.get("/grimoire/book-aerial-wings/").content.decode()
    assert f'<a href="/grimoire/{after[0].uid}/">Next puzzle: ' in page

    failed = _click(["assault"], visitor).content.decode()
    assert 'data-met="no"' in failed
    assert '<p class="error puzzle-verdict puzzle-failed" role="alert">' in failed
    assert "puzzle-solved" not in failed
    assert "Not yet: this turn does not meet the goal. Try again." in failed
    # One person, who solved it; a visitor without a session is judged, not counted.
    assert 'data-met="yes"' in _click([CLAW_ONTO_HAWK, "assault"]).content.decode()
    puzzle = Puzzle.objects.get(uid="book-aerial-wings")
    assert (puzzle.attempts, puzzle.solved) == (1, 1)


def test_the_board_refuses_a_bad_action_and_starts_again_on_bad_input(book: None) -> None:
    refused = _click([CLAW_ONTO_HAWK, {"play": "Wall", "line": "top"}])
    assert refused.context["chosen"] == ["Place Claw onto Hawk."]
    assert refused.context["refused"] == "Wall is not in your hand."
    assert "This action was refused: Wall is not in your hand." in refused.content.decode()
    for garbage in ("not json", '{"play": "Claw"}', json.dumps(["assault"] * 41)):
        again = _click(garbage)
        assert again.status_code == 200
        assert again.context["chosen"] == []
        assert len(again.context["moves"]) == 7
    # Without htmx the whole page comes back, the board in it.
    full = Client().post(f"{WINGS}solve/", {"actions": json.dumps([CLAW_ONTO_HAWK])})
    assert "<h1>Wings and claws</h1>" in full.content.decode()
    assert full.context["chosen"] == ["Place Claw onto Hawk."]
    assert Puzzle.objects.get(uid="book-aerial-wings").attempts == 0


def test_a_catalogue_card_shows_its_face_on_demand_and_a_changed_one_does_not(
    django_user_model: Any,
) -> None:
    ana = django_user_model.objects.create_user("ana", password="x")
    cards = catalogue_definitions({"Paladwarf", "Dragonet"})
    # The puzzle's Dragonet is not the catalogue's: its face would tell other rules.
    cards["Dragonet"] = {**cards["Dragonet"], "attack": 5}
    scenario = {
        "cards": cards,
        "state": {
            "active": "A",
            "players": {
                "A": {"hand": ["STRONGHOLD", "Dragonet"], "mana": 4},
                "B": {
                    "hand": ["STRONGHOLD", "Dragonet"],
                    "lines": {"top": [{"card": "Paladwarf"}]},
                },
            },
        },
    }
    puzzle = puzzle_create(
        author=ana,
        scenario=scenario,
        goal={"kind": "win"},
        difficulty=1,
        translations={"en": {"title": "Faces"}},
    )
    client = Client()
    client.force_login(ana)
    page = client.get(f"/fr/grimoire/{puzzle.uid}/").content.decode()
    assert (
        '<button type="button" class="board-card-name card-peek" '
        'data-peek="/fr/cards/paladwarf/peek/" aria-expanded="false">Palanain</button>'
    ) in page
    assert "/cards/dragonet/peek/" not in page
    assert "cards/card_peek.js" in page
