"""In a real browser: from a deck page, "Test this deck", start a small batch, watch the progress
bar reach 100% without a reload and the charts appear, then step through a replay."""

import re
from pathlib import Path
from typing import Any

import pytest

from tests.decks.conftest import PRECON
from tests.simulations.conftest import make_deck

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The zero-setup path even when REDIS_URL is set: the web process's own thread pool."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


def test_test_a_deck_from_its_page(
    page: Any, live_server: Any, django_user_model: Any, in_process: None, tmp_path: Path
) -> None:
    owner = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    deck = make_deck(owner, PRECON[1], name="Bea's precon")
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/decks/{deck.share_id}/")
    page.fill("#id_username", "bea")
    page.fill("#id_password", "pw-bea-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/decks/{deck.share_id}/")

    page.get_by_role("link", name="Test this deck").click()
    page.wait_for_url(f"{base}/simulations/new/?deck={deck.share_id}")
    assert page.input_value("#id_deck") == deck.share_id
    page.get_by_label("A preconstructed deck").check()
    page.select_option("#id_opponent_preconstructed", "3")
    page.fill("#id_games", "300")
    page.get_by_role("button", name="Play the games").click()
    page.wait_for_url(f"{base}/simulations/*/")
    page.evaluate("window.notReloaded = true")

    bar = page.locator("#batch-progress-bar")
    assert bar.get_attribute("max") == "300"
    page.wait_for_function(
        "document.querySelector('#batch-progress-bar').value === 300", timeout=60_000
    )
    page.wait_for_selector("#win-rate-chart svg")
    assert page.evaluate("window.notReloaded") is True
    assert page.locator(".batch-percent").inner_text() == "100.0 %"
    assert page.locator("#win-rate-chart .rate-row").count() == 3
    assert page.locator("#length-chart .histogram-bar").count() >= 3
    assert page.locator(".card-table[data-deck='a'] tbody tr").count() == 8
    wins = [
        int(page.locator(f"#win-table tr[data-deck='{key}'] td").first.inner_text().split(" / ")[0])
        for key in ("a", "b")
    ]
    assert sum(wins) <= 300
    page.screenshot(path=str(tmp_path / "batch.png"), full_page=True)

    # The shortest game, from the list of games worth watching.
    shortest = page.locator("[data-kind='shortest'] a").first
    index, turns = (int(n) for n in re.findall(r"\d+", shortest.inner_text()))
    shortest.click()
    page.wait_for_url(f"{base}/simulations/*/games/{index}/")
    page.wait_for_selector(".board")
    assert page.locator(".turn-label").inner_text() == f"Turn 1 ({1}/{turns + 1})"
    assert page.locator(".board-seat").count() == 2
    assert page.locator(".board-stronghold-card").count() == 2
    assert page.locator(".board-line").count() == 2
    assert page.locator(".board-hand .board-card").count() == 18  # 8 cards and the Stronghold
    # Keys: a step, a turn, the end, the start.
    page.keyboard.press("ArrowRight")
    page.wait_for_function("location.search === '?turn=1&step=1'")
    assert "after action 1 of" in page.locator(".turn-label").inner_text()
    page.keyboard.press("PageDown")
    page.wait_for_function("location.search === '?turn=2'")
    assert page.locator(".turn-label").inner_text().startswith("Turn 2 (2/")
    page.keyboard.press("End")
    page.wait_for_function(f"location.search === '?turn={turns + 1}'")
    assert page.locator(".turn-label").inner_text().startswith("End of the game")
    assert page.locator(".board-turn").count() == 0 and page.locator(".board-mana").count() == 0
    page.keyboard.press("Home")
    page.wait_for_function("location.search === '?turn=1'")
    # The slider: Turn 3.
    page.locator("#turn-slider").fill("3")
    page.wait_for_function("location.search === '?turn=3'")
    assert page.locator(".turn-label").inner_text().startswith("Turn 3 (3/")
    page.screenshot(path=str(tmp_path / "replay-1366.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(tmp_path / "replay-390.png"), full_page=True)
