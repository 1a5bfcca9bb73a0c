"""Playwright driving Debian's Chromium (Playwright cannot download its own browser here)."""

import os
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("PLAYWRIGHT_CHROMIUM", "/usr/bin/chromium")
# Flags that keep Chromium from calling out to the network at start-up on this closed machine.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Per module: Playwright's sync API runs an event loop in this thread for as long as it is
# started, and a Django view that is async (the live streams) cannot be called through the test
# client while a loop runs in the thread (AsyncToSync refuses). A worker of `make test` runs a
# browser module, then maybe a module of such tests: they failed after it, never alone.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        # `make test` installs it when it can (root with apt-get) and says so when it cannot.
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install it (as root: apt-get install chromium "
            "fonts-dejavu-core; `make test` does when run as root) or set PLAYWRIGHT_CHROMIUM"
        )
    # Playwright's sync API runs an event loop in this thread; the Django ORM calls the tests
    # make alongside it are still plain synchronous calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield instance
        instance.close()


@pytest.fixture
def page(browser: object, live_server: object) -> Iterator[object]:
    """A fresh browser context (no cookies) with a page; `live_server.url` is the app's address.

    It bypasses the Content-Security-Policy: Playwright's `wait_for_function` compiles its
    predicate with eval in the page, which the policy (`script-src 'self'`) refuses. The policy
    itself is tested by tests/foundation/test_browser_csp.py, in a context of its own that keeps it.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)  # type: ignore[attr-defined]
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


def axe_violations(page: object, impacts: tuple[str, ...] = ()) -> list[str]:
    """What axe-core finds wrong with the page's accessibility, a rule and its first offender each
    (the JavaScript comes with the axe-playwright-python package: nothing is downloaded);
    `impacts` keeps only those ("serious", "critical"), all when empty."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{rule['id']} ({rule['impact']}): {rule['nodes'][0]['target']}"
        for rule in found
        if not impacts or rule["impact"] in impacts
    ]


def cut_names(names: Any) -> list[str]:
    """Each element of the Playwright locator `names` drawn narrower than its text, with both
    widths ("Mechasharpener: 82 > 66"): a name cut to an ellipsis."""
    found: list[str] = names.evaluate_all(
        "names => names.filter(name => name.scrollWidth > name.clientWidth)"
        ".map(name => `${name.textContent}: ${name.scrollWidth} > ${name.clientWidth}`)"
    )
    return found
