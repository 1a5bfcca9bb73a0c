"""In a real browser: solve a starter puzzle on its board by clicking the legal actions (the page
checked by axe at a phone's width), fail it, and try again; give up another to see its solution."""

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

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
    # A success with the way on (issue 29), not the failure's red.
    solved = page.locator(".puzzle-solved")
    assert solved.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb(31, 111, 58)"
    assert page.locator(".puzzle-next").inner_text().startswith("Next puzzle: ")
    # Solved: the solution's section holds the proved line, swapped in beside the board,
    # folded until asked for.
    assert page.locator("#puzzle-solution li").first.is_hidden()
    page.get_by_text("See the proved solution", exact=True).click()
    assert page.locator("#puzzle-solution li").first.is_visible()
    assert page.locator("#puzzle-solution li").all_inner_texts() == [
        "Place Claw onto Hawk.",
        "Go to the Assault (Phase 3).",
    ]
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    _click(page, "Try again", 0)
    _click(page, "Go to the Assault (Phase 3).", 1)
    assert page.locator("#puzzle-solve").get_attribute("data-met") == "no"
    # htmx swapped the board each time: the page itself never reloaded.
    assert page.evaluate("window.notReloaded") is True
    # One person (the session the page gave), who solved it.
    puzzle = Puzzle.objects.get(uid="book-aerial-wings")
    assert (puzzle.attempts, puzzle.solved) == (1, 1)


def test_a_browser_builds_a_puzzle_in_the_editor_and_saves_it(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    # Signed in by a session cookie: the login form has its own browser test.
    client = Client()
    client.force_login(django_user_model.objects.create_user("ana", password="x"))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/grimoire/new/")
    page.wait_for_function("window.htmx !== undefined")
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    page.select_option("#id_goal_kind", "destroy_stronghold")
    page.fill("#id_a_mana", "2")
    page.fill("#id_a_hand_0", "Mental strike")
    page.fill("#id_a_hand_1", "Fresh recruit")
    page.fill("#id_a_stronghold_at", "1")
    page.fill("#id_a_top_0_card", "Zombie")
    page.fill("#id_b_hand_0", "Boom!")
    page.fill("#id_b_hand_1", "Swarmer")
    page.fill("#id_b_top_0_card", "Nonesuch")
    page.fill("#id_title_en", "Clear the way")
    page.locator("#id_title_en").blur()
    # The check after each change names the problem (htmx queues the checks: the last one
    # reflects every field)...
    problem = page.locator(".editor-problems li", has_text="Nonesuch")
    problem.wait_for()
    assert problem.inner_text() == (
        "Player B, the upper line, creature 1: No card of the catalogue is named Nonesuch."
    )
    # ...and shows the board once the position is valid.
    page.fill("#id_b_top_0_card", "Fresh recruit")
    page.locator("#id_b_top_0_card").blur()
    page.wait_for_selector('#editor-check[data-problems="0"] .board')
    assert page.locator("#editor-check .board-mana").inner_text() == "2 Mana"
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(f"{live_server.url}/grimoire/*/edit/")
    puzzle = Puzzle.objects.get()
    assert puzzle.goal == {"kind": "destroy_stronghold", "side": "bastion"}
    assert puzzle.scenario["state"]["players"]["A"]["hand"] == [
        "Mental strike",
        "STRONGHOLD",
        "Fresh recruit",
    ]
    page.get_by_role("button", name="Prove it with the solver").click()
    page.wait_for_selector("text=Proved: 1 distinct solution(s)")
    page.get_by_role("button", name="Make it public").click()
    page.wait_for_selector("text=Visibility: Public")
    puzzle.refresh_from_db()
    assert (puzzle.proof_status, puzzle.visibility) == ("proved", "public")


def test_a_browser_gives_up_after_confirming_and_sees_the_solution(
    page: Any, live_server: Any
) -> None:
    call_command("load_starter_book")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/grimoire/book-aerial-wings/")
    assert page.locator("#puzzle-solution li").count() == 0
    page.get_by_text("Show the solution", exact=True).click()
    assert axe_violations(page, ("serious", "critical")) == []
    page.get_by_role("button", name="Give up and show the solution").click()
    page.wait_for_selector("#puzzle-solution li")
    assert page.locator("#puzzle-solution li").all_inner_texts() == [
        "Place Claw onto Hawk.",
        "Go to the Assault (Phase 3).",
    ]
    assert overflow(page) is None
    puzzle = Puzzle.objects.get(uid="book-aerial-wings")
    assert (puzzle.attempts, puzzle.solved) == (1, 0)
