"""In a real browser: the Assault played out on the board (issue 29 item 2). A known deal (seed 8):
Bea put Brute and Revenant on the top line last turn; her Assault now has Revenant attack
Microctopus, whose damage splashes onto Ogre, and destroys it. Each step shows, in the log's order,
on the board as it was before the Assault; Pause, Step, Step back, Skip and the speed (kept in the
browser) set the pace; the page never moves; with reduced motion the board shows the end at once
and the steps stay listed."""

from typing import Any

import pytest

from play.models import Game
from play.services import game_act
from tests.foundation.test_browser_pages import overflow
from tests.play.conftest import seeded_table
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]

# Bea's cards (seed 8): Brute, Revenant; the greedy computer's: Microctopus, Ogre.
BRUTE, REVENANT, MICROCTOPUS, OGRE = "6", "4", "8", "12"
STEPS = [
    "A assaults.",
    "Revenant (A) attacks Microctopus.",
    "Microctopus (B) takes 3 damage (3/1).",
    "Ogre (B) takes 3 damage (3/4).",
    "Microctopus (B) is destroyed.",
    "Microctopus returns to the right of B's hand.",
]


def _before_the_assault(django_user_model: Any) -> Game:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea)
    seat = game.seats.get(index=0)
    for card in (BRUTE, REVENANT):
        game = game_act(
            game=game, seat=seat, client_id=f"p{card}", kind="play", card=int(card), arg=0
        )
    # The computer's turn is played at once: Bea's next turn begins.
    return game_act(game=game, seat=seat, client_id="e1", kind="end_turn", card=-1, arg=-1)


def _open(page: Any, base: str, game: Game, language: str = "") -> None:
    page.goto(f"{base}/accounts/login/?next={language}/play/{game.uid}/")
    page.fill("#id_username", "bea")
    page.fill("#id_password", "pw-bea-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}{language}/play/{game.uid}/")


def _assault(page: Any) -> float:
    """Scroll to the Assault button and press it; the page's scroll position then."""
    assault = page.locator(".button-row form:has(input[name=kind][value=assault]) button")
    assault.scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    page.wait_for_function("document.querySelector('.htmx-request') === null")
    before = page.locator(".play-board").get_attribute("data-action-count")
    assault.click()
    page.wait_for_function(
        "count => document.querySelector('.play-board').dataset.actionCount !== count", arg=before
    )
    return float(scrolled)


def _shown(page: Any) -> dict[str, Any]:
    """What the board shows now: its marks, the step's words, where the board stands."""
    return page.evaluate(
        """() => {
          const stage = document.querySelector('.play-stage');
          const board = [...stage.querySelectorAll('.board')].find(b => !b.hidden);
          const ids = selector => [...board.querySelectorAll(selector)].map(c => c.dataset.card);
          return {
            text: document.querySelector('.playback-text').textContent,
            attacking: ids('.is-attacking'),
            attacked: ids('.is-attacked'),
            hits: [...board.querySelectorAll('.playback-hit')].map(
              h => [h.closest('.board-card').dataset.card, h.textContent]),
            gone: ids('.board-creature[hidden]'),
            current: [...document.querySelectorAll('.playback-steps li')].findIndex(
              li => li.getAttribute('aria-current') === 'step'),
            live: !document.querySelector('.play-stage > .board:not(.is-playback)').hidden,
            boards: [...stage.querySelectorAll('.board')].filter(b => !b.hidden).length,
            mineBelow: board.querySelector('.board-seat.is-mine').getBoundingClientRect().top >
              board.querySelector('.board-lines').getBoundingClientRect().top,
            top: stage.getBoundingClientRect().top,
            scrollY: window.scrollY,
          };
        }"""
    )


@pytest.mark.parametrize("width", [1366, 390])
def test_the_assault_plays_out_on_the_board_step_by_step(
    browser: Any, live_server: Any, django_user_model: Any, width: int
) -> None:
    game = _before_the_assault(django_user_model)
    context = browser.new_context(
        viewport={"width": width, "height": 768 if width == 1366 else 844}, bypass_csp=True
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    # The page's timers wait for the test: the steps go on only with Step (a deterministic test).
    page.clock.install()
    _open(page, live_server.url, game)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    scrolled = _assault(page)
    first = _shown(page)
    assert first["text"] == f"1/6 · {STEPS[0]}"
    assert not first["live"]  # the board before the Assault
    assert first["scrollY"] == scrolled
    # The buttons pressed where they are (Playwright's click would scroll to them first).
    page.get_by_role("button", name="Pause").dispatch_event("click")
    assert page.get_by_role("button", name="Play").is_visible()
    seen = [first]
    step = page.get_by_role("button", name="Step", exact=True)
    for _step in STEPS[1:]:
        step.dispatch_event("click")
        seen.append(_shown(page))
    assert [shown["text"] for shown in seen] == [
        f"{number}/6 · {text}" for number, text in enumerate(STEPS, 1)
    ]
    assert [(s["attacking"], s["attacked"]) for s in seen[:3]] == [
        ([], []),
        ([REVENANT], [MICROCTOPUS]),
        ([], [MICROCTOPUS]),
    ]
    assert seen[2]["hits"] == [[MICROCTOPUS, "−3"]]
    assert seen[3]["hits"] == [[MICROCTOPUS, "−3"], [OGRE, "−3"]]
    assert [s["gone"] for s in seen] == [[], [], [], [], [MICROCTOPUS], [MICROCTOPUS]]
    # The board and the page never moved.
    assert {(s["top"], s["scrollY"]) for s in seen} == {(first["top"], scrolled)}
    # One board at a time (the header's count of turns, swapped in with the board, played the
    # steps twice over: two boards).
    assert {s["boards"] for s in seen} == {1}
    # Each step's board drawn as the table's: my seat under the lines (it was on top).
    assert {s["mineBelow"] for s in seen} == {True}
    assert overflow(page) is None
    # Paused, the page's time runs again (axe waits on timers; it scrolls, too).
    page.clock.resume()
    assert axe_violations(page) == []
    page.evaluate("y => window.scrollTo(0, y)", scrolled)
    # Past the last step: the board as it is now, Microctopus back in B's hand.
    step.dispatch_event("click")
    end = _shown(page)
    assert end["live"] and end["gone"] == [] and end["hits"] == []
    assert end["text"].startswith("Played out: the board as it is now.")
    assert page.locator(f'.play-stage .board-creature[data-card="{MICROCTOPUS}"]').count() == 0
    assert (end["top"], end["scrollY"]) == (first["top"], scrolled)
    assert page.get_by_role("button", name="Step", exact=True).is_disabled()
    # Every line of the log stays, the steps too.
    page.locator(".playback-steps summary").click()
    assert page.locator(".playback-steps li").all_inner_texts() == STEPS
    assert axe_violations(page) == []
    context.close()


def test_play_runs_on_and_skip_shows_the_end(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    game = _before_the_assault(django_user_model)
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.clock.install()
    _open(page, live_server.url, game)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    _assault(page)
    assert _shown(page)["text"] == f"1/6 · {STEPS[0]}"
    # Playing on: a step each 1.1 s.
    page.clock.run_for(1100)
    assert _shown(page)["text"] == f"2/6 · {STEPS[1]}"
    page.get_by_role("button", name="Skip").dispatch_event("click")
    end = _shown(page)
    assert end["live"] and end["text"].startswith("Played out")
    page.clock.run_for(5000)
    assert _shown(page)["text"] == end["text"]
    context.close()


@pytest.mark.parametrize("width", [1366, 390])
def test_step_back_shows_the_previous_steps_board_and_marks(
    browser: Any, live_server: Any, django_user_model: Any, width: int
) -> None:
    game = _before_the_assault(django_user_model)
    context = browser.new_context(
        viewport={"width": width, "height": 768 if width == 1366 else 844}, bypass_csp=True
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.clock.install()
    _open(page, live_server.url, game)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    _assault(page)
    page.get_by_role("button", name="Pause").dispatch_event("click")
    back = page.get_by_role("button", name="Step back", exact=True)
    step = page.get_by_role("button", name="Step", exact=True)
    assert back.is_visible() and back.is_disabled()
    if width == 390:
        # On a phone the step's words take a row of the bar under its controls, inside it.
        words, bar = (
            page.locator(selector).bounding_box() for selector in (".playback-text", ".playback")
        )
        assert words["width"] >= 300
        assert bar["y"] <= words["y"] and words["y"] + words["height"] <= bar["y"] + bar["height"]
    onward = [_shown(page)]
    for _step in STEPS[1:]:
        step.dispatch_event("click")
        onward.append(_shown(page))
    assert [shown["current"] for shown in onward] == [0, 1, 2, 3, 4, 5]
    # Past the last step, then back: each step's board and marks as they were on the way.
    step.dispatch_event("click")
    assert _shown(page)["live"]
    assert back.is_enabled()
    backward = []
    for _step in STEPS:
        back.dispatch_event("click")
        backward.append(_shown(page))
    assert backward == onward[::-1]
    assert {shown["boards"] for shown in onward + backward} == {1}
    assert backward[1]["gone"] == [MICROCTOPUS]
    assert backward[2]["hits"] == [[MICROCTOPUS, "−3"], [OGRE, "−3"]]
    assert backward[2]["gone"] == []
    assert back.is_disabled() and step.is_enabled()
    # Onward again from there, as the first time.
    step.dispatch_event("click")
    assert _shown(page) == onward[1]
    assert overflow(page) is None
    page.clock.resume()
    assert axe_violations(page) == []
    context.close()


def test_the_speed_is_kept_and_twice_as_fast_halves_the_step_time_in_french(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    game = _before_the_assault(django_user_model)
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.clock.install()
    _open(page, live_server.url, game, "/fr")
    # Chosen at an earlier table: kept in the browser.
    page.evaluate("localStorage.setItem('cod_site.playback_speed', '2')")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    _assault(page)
    speed = page.get_by_role("combobox", name="Vitesse", exact=True)
    assert speed.input_value() == "2"
    assert speed.locator("option").all_inner_texts() == ["0,5×", "1×", "2×"]
    assert page.get_by_role("button", name="Pas en arrière", exact=True).is_visible()
    assert _shown(page)["text"].startswith("1/6 · ")
    # 2×: a step each 0.55 s (1.1 s at 1×).
    page.clock.run_for(549)
    assert _shown(page)["text"].startswith("1/6 · ")
    page.clock.run_for(1)
    assert _shown(page)["text"].startswith("2/6 · ")
    # 0.5× from now on: the step shown waits 2.2 s, and the choice is kept.
    speed.select_option("0.5")
    assert page.evaluate("localStorage.getItem('cod_site.playback_speed')") == "0.5"
    page.clock.run_for(2199)
    assert _shown(page)["text"].startswith("2/6 · ")
    page.clock.run_for(1)
    assert _shown(page)["text"].startswith("3/6 · ")
    page.clock.resume()
    assert axe_violations(page) == []
    context.close()


def test_with_reduced_motion_the_board_shows_the_end_at_once_in_swedish(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    game = _before_the_assault(django_user_model)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, bypass_csp=True, reduced_motion="reduce"
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    _open(page, live_server.url, game, "/sv")
    _assault(page)
    shown = _shown(page)
    assert shown["live"] and shown["attacking"] == [] and shown["hits"] == []
    assert shown["text"] == "6 steg sedan du senast tittade, listade under brädet."
    assert page.locator(".playback-steps").get_attribute("open") == ""
    assert page.locator(".playback-steps summary").inner_text() == "Sedan du senast tittade: 6 steg"
    assert page.locator(".playback-steps li").count() == 6
    assert page.locator(".playback button:visible").count() == 0
    assert page.locator(".playback select:visible").count() == 0
    assert overflow(page) is None
    assert axe_violations(page) == []
    context.close()
