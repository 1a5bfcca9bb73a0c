"""In a real browser: open a table against the greedy computer player and play the Duel to the
end with the keyboard (the table page checked by axe at a phone's width on the way, a card
chosen too); two browsers (two accounts, the invite link) play a Duel to the end; without
JavaScript a card is chosen and played by plain forms."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from engine.adapters.decks import DeckChoice
from play.models import Game
from play.services import game_act
from play.table_services import SeatRequest, game_join
from tests.foundation.test_browser_pages import overflow
from tests.play.conftest import seeded_table
from tests.support.browser import axe_violations

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def _press(page: Any, button: Any) -> None:
    """Press `button` with the keyboard and wait for the board that its action brought."""
    # Not while a board is on its way: its swap would take the focus from the button.
    page.wait_for_function("document.querySelector('.htmx-request') === null")
    before = page.locator(".play-board").get_attribute("data-action-count")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "count => document.querySelector('.play-board').dataset.actionCount !== count", arg=before
    )


def _skip_playback(page: Any) -> None:
    """Skip what happened since the last board, still played out on it: my cards are on the
    board as it is now (the test holds the playback back: `PLAY_STEP_MS`)."""
    skip = page.locator(".playback-skip")
    if skip.count() and skip.is_visible() and skip.is_enabled():
        skip.click()


def _play_first_card(page: Any) -> bool:
    """Choose the first playable card of my hand and play it on the first place marked for it,
    by keyboard: Enter on its button, then Enter on the place that has the focus."""
    page.wait_for_function("document.querySelector('.htmx-request') === null")
    _skip_playback(page)
    choose = page.locator(".play-playable .play-choose button")
    if not choose.count():
        return False
    choose.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('.play-card.is-chosen') !== null")
    page.wait_for_function("document.activeElement.matches('.play-act button[autofocus]')")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith(("Play ", "Cast "))
    _press(page, page.locator(".play-act button[autofocus]"))
    return True


def _log_in(page: Any, base: str, name: str, then: str) -> None:
    page.goto(f"{base}/accounts/login/?next={then}")
    page.fill("#id_username", name)
    page.fill("#id_password", f"pw-{name}-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}{then}")


def _open_table(page: Any, base: str, deck: str, opponent: str) -> None:
    """Bea opens a table with the Exhaustion module (every game ends) from the new-table page."""
    _log_in(page, base, "bea", "/play/new/")
    page.select_option("#id_preconstructed", deck)
    page.select_option("#id_opponent", opponent)
    page.check("#id_exhaustion")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(f"{base}/play/*/")


def new_table_page(page: Any, base: str, django_user_model: Any) -> None:
    """Sign in as a new user, bea, on a phone-sized page: the new-table form opens."""
    django_user_model.objects.create_user("bea", password="pw-bea-123456")
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page, base, "bea", "/play/new/")


def play_to_the_end(page: Any) -> None:
    """Each turn, play the first playable card if there is one (its first place), then end the
    turn, all by keyboard, until the game is over."""
    for _turn in range(60):
        if page.locator(".play-status", has_text="Game over").count():
            return
        _play_first_card(page)
        end = page.get_by_role("button", name="End turn")
        if end.count():
            _press(page, end)


def test_a_browser_plays_a_duel_against_greedy_to_the_end(
    page: Any, live_server: Any, django_user_model: Any, settings: Any
) -> None:
    # The computer's turn stays on its first step for as long as the test looks at it (with the
    # 1.1 s of production a CI machine could play every step during the axe check, and "Skip"
    # was disabled).
    settings.PLAY_STEP_MS = 600_000
    base = live_server.url
    django_user_model.objects.create_user("bea", password="pw-bea-123456")
    page.set_viewport_size({"width": 390, "height": 844})
    _open_table(page, base, "2", "agent:greedy")
    assert page.title() == "Your turn · Duel · cod_site"
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("window.htmx !== undefined")
    checked_a_choice = checked_steps = False
    for _turn in range(60):
        if page.locator(".play-status", has_text="Game over").count():
            break
        _skip_playback(page)
        if not checked_a_choice and page.locator(".play-playable").count():
            # A card chosen: its places marked, still a phone's width and axe-clean.
            page.locator(".play-playable .play-choose button").first.click()
            page.wait_for_function("document.querySelector('.play-card.is-chosen') !== null")
            assert page.locator(".play-act button[autofocus]").count() == 1
            assert overflow(page) is None
            assert axe_violations(page, ("serious", "critical")) == []
            checked_a_choice = True
        # Play the first playable card (its first place), then end the turn: all by keyboard.
        _play_first_card(page)
        end = page.get_by_role("button", name="End turn")
        if end.count():
            _press(page, end)
            if not checked_steps and page.locator(".playback-steps li").count() > 2:
                # The computer's turn played out step by step on the board, until "Skip" shows
                # the board as it is now.
                assert page.locator(".playback-steps li[aria-current]").count() == 1
                assert axe_violations(page, ("serious", "critical")) == []
                page.get_by_role("button", name="Skip").click()
                assert page.locator(".playback-steps li[aria-current]").count() == 0
                assert page.get_by_role("button", name="Skip").is_disabled()
                checked_steps = True
    status = page.locator(".play-status")
    assert "Game over" in status.inner_text()
    assert checked_a_choice and checked_steps
    assert page.evaluate("window.notReloaded") is True
    game = Game.objects.get()
    assert game.status == "finished"
    assert game.replay is not None
    assert len(game.replay["actions"]) == game.action_count
    # The computer's turns were shown step by step: the last board listed what it did.
    assert page.locator(".playback-steps li").count() > 0


def test_two_browsers_play_a_duel_to_the_end(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    for name in ("bea", "cal"):
        django_user_model.objects.create_user(name, password=f"pw-{name}-123456")
    base = live_server.url
    # bypass_csp: see the `page` fixture (tests/support/browser.py).
    contexts = [
        browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        for _ in range(2)
    ]
    bea, cal = (context.new_page() for context in contexts)
    # Both see every step at once: the game is played faster than the steps are shown.
    for page in (bea, cal):
        page.emulate_media(reduced_motion="reduce")
    _open_table(bea, base, "1", "invite")
    bea.wait_for_function("window.playStreaming === true")
    bea.evaluate("window.notReloaded = true")
    invite = bea.locator("#invite-link").input_value()
    assert invite.startswith(f"{base}/play/")
    _log_in(cal, base, "cal", invite.removeprefix(base))
    cal.select_option("#id_preconstructed", "2")
    cal.get_by_role("button", name="Take the seat").click()
    table = invite.removeprefix(base).split("join/")[0]
    cal.wait_for_url(f"{base}{table}")
    cal.evaluate("window.notReloaded = true")
    # Bea's page follows: the game has started, without a reload.
    bea.wait_for_function("document.querySelector('.play-status') !== null")
    plays = 0
    for _turn in range(80):
        if all(p.locator(".play-status", has_text="Game over").count() for p in (bea, cal)):
            break
        for page in (bea, cal):
            page.wait_for_function("document.querySelector('.htmx-request') === null")
            if page.locator(".play-status strong", has_text="Your turn").count():
                plays += _play_first_card(page)
                end = page.get_by_role("button", name="End turn")
                if end.count():
                    _press(page, end)
                # The other page hears of it within a second or two.
                other = cal if page is bea else bea
                count = page.locator(".play-board").get_attribute("data-action-count")
                other.wait_for_function(
                    "count => document.querySelector('.play-board').dataset.actionCount === count",
                    arg=count,
                )
    for page in (bea, cal):
        page.wait_for_function(
            "document.querySelector('.play-status').innerText.includes('Game over')"
        )
        assert page.evaluate("window.notReloaded") is True
        # The end of the game, as each page's last board tells it: all at once (reduced motion).
        assert page.locator(".playback-steps li").count() > 0
        assert page.locator(".playback-steps").get_attribute("open") == ""
        assert page.locator(".playback-skip").is_hidden()
    game = Game.objects.get()
    assert game.status == "finished"
    assert plays > 0
    assert len(game.replay["actions"]) == game.action_count
    for context in contexts:
        context.close()


def test_the_table_follows_the_other_players_action_without_a_reload(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea, SeatRequest(kind="invite"))
    guest, _token = game_join(
        game=game,
        invite_code=game.invite_code,
        user=AnonymousUser(),
        guest_name="Gus",
        deck=DeckChoice(preconstructed=2),
    )
    game.refresh_from_db()
    if game.active_seat == 0:  # the guest must have the turn: Bea ends hers first
        game_act(
            game=game,
            seat=game.seats.get(index=0),
            client_id="b0",
            kind="end_turn",
            card=-1,
            arg=-1,
        )
        game.refresh_from_db()
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/play/{game.uid}/")
    page.fill("#id_username", "bea")
    page.fill("#id_password", "pw-bea-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{base}/play/{game.uid}/")
    assert page.title() == "Duel · cod_site"
    page.evaluate("window.notReloaded = true")
    page.wait_for_function("window.playStreaming === true")
    game_act(game=game, seat=guest, client_id="g1", kind="end_turn", card=-1, arg=-1)
    # The stream tells the page, which reloads the board: Bea's turn, in the title too.
    page.wait_for_function("document.title === 'Your turn · Duel · cod_site'")
    assert page.locator(".play-status").inner_text().startswith("Your turn")
    assert page.evaluate("window.notReloaded") is True


def test_without_javascript_a_card_is_chosen_and_played_by_plain_forms(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    base = live_server.url
    _log_in(page, base, "bea", f"/play/{game.uid}/")
    # Seed 8: Brute (card 6) is the third card of my hand, a creature I can play.
    page.get_by_role("button", name="Choose Brute").click()
    page.wait_for_url(f"{base}/play/{game.uid}/?since=*&card=6")
    assert page.locator(".board-half.is-target").count() == 2
    assert overflow(page) is None
    page.get_by_role("button", name="Play Brute on Bottom line").click()
    page.wait_for_url(f"{base}/play/{game.uid}/?since=*")
    bottom = page.get_by_role("region", name="Bottom line")
    assert bottom.locator('.board-half.is-left [data-card="6"]').count() == 1
    # What happened since the page's board: listed, no playback's buttons without the script.
    page.locator(".playback-steps summary").click()
    assert page.locator(".playback-steps li").all_inner_texts() == [
        "A plays Brute on the bottom line."
    ]
    assert page.locator(".playback-skip").is_hidden()
    context.close()
