"""The Duel of Chaos pages in a real browser at a phone's and a laptop's width: no page wider than
the window, no serious or critical axe-core finding, the main controls reachable with Tab (the
checks of tests/foundation/test_browser_pages.py, which lists these pages too)."""

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from engine import chaos_services
from engine.adapters.chaos import chaos_box
from engine.chaos.batch import play_batch
from engine.models import ChaosBatch
from tests.foundation.test_browser_pages import WIDTHS, check, log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]

PAGES = {
    "chaos-cards": ("/chaos/cards/", 200),
    "chaos-search-fr": ("/fr/chaos/cards/?q=kw%3Aplan", 200),
    "chaos-bad-query": ("/chaos/cards/?q=ab%3Asplash", 400),
    "chaos-card": ("/chaos/cards/domania/", 200),
    "chaos-card-sv": ("/sv/chaos/cards/warden/", 200),
    "chaos-rules": ("/chaos/rules/", 200),
    "chaos-rules-sv": ("/sv/chaos/rules/", 200),
    "chaos-batches": ("/simulations/chaos/", 200),
}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pages_fit_and_are_accessible(
    page: Any, live_server: Any, width: str, tmp_path: Path
) -> None:
    olga = User.objects.create_user("olga", password="pw-olga-123456")
    # A batch played, its page and a game's replay (a step of seat A's view, and the end).
    batch = chaos_services.chaos_batch_create(
        requested_by=olga, set_code="EX", agent_a="greedy", agent_b="random", games=4, seed=3
    )
    chaos_services.chaos_batch_run(batch_id=batch.pk)
    batch_pages = {
        "chaos-batch": (f"/simulations/chaos/{batch.pk}/", 200),
        "chaos-replay": (f"/simulations/chaos/{batch.pk}/games/1/?as=A&step=9", 200),
        "chaos-replay-end-fr": (f"/fr/simulations/chaos/{batch.pk}/games/1/?step=9999", 200),
    }
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[width], strict=True)))
    base = live_server.url
    log_in(page, base)
    problems = {}
    for name, (path, status) in {**PAGES, **batch_pages}.items():
        response = page.goto(base + path)
        found = [] if response.status == status else [f"status {response.status}"]
        if status == 200:
            found += check(page, base + path, name, tmp_path, width)
        problems[name] = found
    assert {name: found for name, found in problems.items() if found} == {}


def test_a_batch_from_the_form(
    page: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked for in the browser, the batch is played (in process) and its results shown."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    User.objects.create_user("olga", password="pw-olga-123456")
    base = live_server.url
    log_in(page, base)
    page.goto(f"{base}/simulations/chaos/")
    page.select_option("#id_set_code", "EX")
    page.select_option("#id_agent_a", "greedy")
    page.select_option("#id_agent_b", "random")
    page.fill("#id_games", "20")
    page.locator("main form button[type=submit]").click()
    page.wait_for_selector("text=Wins by seat", timeout=20_000)
    # The seed is drawn when the batch is asked for: the page shows what the engine plays from it
    # (greedy does not beat random every time, so no fixed count).
    batch = ChaosBatch.objects.get()
    box = chaos_box(batch.cards, batch.set_code)
    totals = play_batch(box, ["greedy", "random"], 20, batch.seed)
    assert totals.games == 20
    assert page.locator("tbody tr").first.inner_text().split("\t")[:3] == [
        "A",
        "Greedy (fast)",
        str(totals.wins[0]),
    ]
