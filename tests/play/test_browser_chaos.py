"""In a real browser: open a Duel of Chaos table against the greedy computer player and play it to
its end through the page's buttons, by keyboard, at a phone's width (no sideways scroll, axe-clean
on the way and at the end), then open its replay. The computer decides in a task (in-process
threads, as without a broker): its moves reach the page through the live stream."""

from typing import Any

import pytest

from play.models import ChaosTable
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


# The person decides (a button to press) or the game is over; meanwhile the computer's task plays
# and the stream brings its moves.
READY = """document.querySelector('.htmx-request') === null
  && (document.querySelector('.chaos-buttons button') !== null
      || document.querySelector('.play-board').dataset.status === 'finished')"""


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """No broker: tasks run in the web process's threads (`cod_site.background`)."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


def _press_first(page: Any) -> None:
    """Press the first legal action's button with the keyboard and wait for the next board."""
    before = page.locator(".play-board").get_attribute("data-action-count")
    button = page.locator(".chaos-buttons button").first
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "count => document.querySelector('.play-board').dataset.actionCount !== count", arg=before
    )


def test_a_browser_plays_a_duel_of_chaos_against_the_computer_to_the_end(
    page: Any, live_server: Any, django_user_model: Any, in_process: None
) -> None:
    base = live_server.url
    django_user_model.objects.create_user("bea", password="pw-bea-123456")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/accounts/login/?next=/play/chaos/new/")
    page.fill("#id_username", "bea")
    page.fill("#id_password", "pw-bea-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/play/chaos/new/")
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.select_option("#id_opponent", "agent:greedy")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/chaos/*/")
    page.wait_for_function("window.htmx !== undefined")
    # The computer may have been dealt the Emissaries 1: its first turn comes through the stream.
    page.wait_for_function(READY)
    assert page.title() == "Your turn · Duel of Chaos · cod_site"
    assert page.locator(".chaos-phases [aria-current]").inner_text() == "Combo"
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.evaluate("window.notReloaded = true")
    checked_recruitment = False
    for _step in range(4000):
        page.wait_for_function(READY)
        if page.locator(".play-status", has_text="Game over").count():
            break
        if not checked_recruitment and page.get_by_role("button", name="End the turn").count():
            assert page.locator(".chaos-phases [aria-current]").inner_text() == "Recruitment"
            assert overflow(page) is None
            assert axe_violations(page, ("serious", "critical")) == []
            checked_recruitment = True
        _press_first(page)
    assert "Game over" in page.locator(".play-status").inner_text()
    assert checked_recruitment
    assert page.evaluate("window.notReloaded") is True
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    table = ChaosTable.objects.get()
    assert table.status == "finished"
    assert table.replay is not None
    assert len(table.replay["actions"]) == table.action_count
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"{base}/play/chaos/{table.uid}/replay/")
    page.get_by_role("link", name="Next").click()
    assert (
        page.get_by_role("status")
        .inner_text()
        .startswith(f"Action 1 of {table.action_count} · turn ")
    )
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
