"""In a real browser: solve a starter puzzle on its board by clicking the legal actions (the page
checked by axe at a phone's width), fail it, and try again."""

from typing import Any

import pytest
from django.core.management import call_command

from grimoire.models import Puzzle
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def _click(page: Any, name: str, actions: int) -> None:
    """Click the button `name` on the board and wait for the board of `actions` actions."""
    page.locator("#puzzle-solve").get_by_role("button", name=name, exact=True).click()
    page.wait_for_selector(f'#puzzle-solve[data-actions="{actions}"]')


def test_a_browser_solves_a_puzzle_on_its_board(page: Any, live_server: Any) -> None:
    call_command("load_starter_book")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/grimoire/book-aerial-wings/")
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("window.htmx !== undefined")
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    assert page.locator(".puzzle-moves button").count() == 7

    _click(page, "Place Claw onto Hawk.", 1)
    assert page.locator(".board-symbiote").inner_text() == "+ Claw"
    assert page.locator(".puzzle-moves button").all_inner_texts() == [
        "Go to the Assault (Phase 3)."
    ]
    _click(page, "Go to the Assault (Phase 3).", 2)
    assert page.locator(".puzzle-verdict").inner_text() == "Solved: your turn meets the goal."
    assert page.locator("#puzzle-solve").get_attribute("data-met") == "yes"
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    _click(page, "Try again", 0)
    _click(page, "Go to the Assault (Phase 3).", 1)
    assert page.locator("#puzzle-solve").get_attribute("data-met") == "no"
    # htmx swapped the board each time: the page itself never reloaded.
    assert page.evaluate("window.notReloaded") is True
    puzzle = Puzzle.objects.get(uid="book-aerial-wings")
    assert (puzzle.attempts, puzzle.solved) == (2, 1)
