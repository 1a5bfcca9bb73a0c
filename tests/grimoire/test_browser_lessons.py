"""In a real browser at a phone's width: Learn to play from the home page, its first step played
on the puzzle's board to its goal, then on to the next step; each page checked by axe."""

from typing import Any

import pytest
from django.core.management import call_command

from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

from .test_browser import _click

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def _clean(page: Any) -> None:
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def test_a_browser_learns_to_play_step_by_step(page: Any, live_server: Any) -> None:
    call_command("load_starter_book")
    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/")
    page.locator("main").get_by_role("link", name="Learn to play").click()
    page.wait_for_url(f"{base}/grimoire/learn/")
    _clean(page)
    page.get_by_role("link", name="Start").click()
    page.wait_for_url(f"{base}/grimoire/learn/1/")
    page.wait_for_function("window.htmx !== undefined")
    assert page.locator("h1").inner_text() == "Place a creature"
    assert page.locator(".learn-progress").inner_text() == "Learn to play · Step 1 of 5"
    _clean(page)
    _click(page, "Play Guard on the upper line.", 1)
    _click(page, "Go to the Assault (Phase 3).", 2)
    assert page.locator(".puzzle-verdict").inner_text() == "Solved: your turn meets the goal."
    _clean(page)
    page.locator(".puzzle-next").click()
    page.wait_for_url(f"{base}/grimoire/learn/2/")
    assert page.locator("h1").inner_text() == "Two lines"
    _clean(page)
