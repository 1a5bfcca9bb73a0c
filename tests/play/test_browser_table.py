"""In a real browser, the table of issue 29: every card shows its whole catalogue face with its
rules text on hover, keyboard focus or a long press, in the page's language; a card named in the
log links to its card page; the table on one screen at 1366x768 (the opponent on top, me at the
bottom, the actions in sight) and its board under a compact header on a phone; a four-player
table drawn as a square, each line labelled with its two seats; axe-clean at 390 and 1366x768."""

from typing import Any

import pytest

from cards.models import AbilityTranslation, Card, CardTranslation
from decks.selectors.codes import deck_code_for
from decks.selectors.formats import format_get
from engine.adapters.decks import DeckChoice
from engine.rules import observe
from play.models import Game
from play.position_selectors import game_state
from play.services import game_act
from play.table_services import SeatRequest, game_create
from tests.decks.conftest import CONSTRUCTED
from tests.foundation.test_browser_csp import RECORD
from tests.foundation.test_browser_pages import overflow
from tests.play.conftest import dealt, seeded_table
from tests.simulations.conftest import make_deck
from tests.support.browser import axe_violations

from .test_browser import _log_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]

# Seed 8: Revenant (card 4, Indestructible and Perforation) is in Bea's hand, playable.
REVENANT = 4


def _revenant_on_the_board(django_user_model: Any) -> Game:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea)
    game_act(
        game=game, seat=game.seats.get(index=0), client_id="r", kind="play", card=REVENANT, arg=0
    )
    return game


def _rules(code: str, language: str) -> str:
    return AbilityTranslation.objects.get(ability__code=code, language_code=language).rules_text


@pytest.mark.parametrize(
    ("language", "prefix", "width", "height"),
    [("en", "", 1366, 768), ("fr", "/fr", 390, 844), ("sv", "/sv", 390, 844)],
)
def test_a_creature_shows_its_face_and_rules_text_on_hover_and_on_focus(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    language: str,
    prefix: str,
    width: int,
    height: int,
) -> None:
    game = _revenant_on_the_board(django_user_model)
    page.set_viewport_size({"width": width, "height": height})
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    name = CardTranslation.objects.get(card__slug="revenant", language_code=language).name
    creature = page.locator(f'.board-creature[data-card="{REVENANT}"]')
    button = creature.get_by_role("button", name=name, exact=True)
    assert button.get_attribute("data-peek") == f"{prefix}/cards/revenant/peek/"
    button.hover()
    peek = page.locator("#card-peek")
    peek.wait_for(state="visible")
    assert button.get_attribute("aria-describedby") == "card-peek"
    assert peek.locator(".card-face .card-name").inner_text() == name
    rules = peek.locator(".card-peek-rules dd").all_inner_texts()
    assert [text.strip() for text in rules] == [
        _rules("indestructible", language),
        _rules("perforation", language),
    ]
    assert peek.get_by_role("link").get_attribute("href") == f"{prefix}/cards/revenant/"
    box = peek.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    # Away from it, the face goes; the keyboard's focus brings it back, Escape sends it away.
    page.mouse.move(0, 0)
    peek.wait_for(state="hidden")
    assert button.get_attribute("aria-describedby") is None
    button.focus()
    peek.wait_for(state="visible")
    assert [text.strip() for text in peek.locator(".card-peek-rules dd").all_inner_texts()] == [
        _rules("indestructible", language),
        _rules("perforation", language),
    ]
    page.keyboard.press("Escape")
    peek.wait_for(state="hidden")
    # A click keeps it open (aria-expanded): Tab reaches its link to the card page.
    button.click()
    peek.wait_for(state="visible")
    assert button.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#card-peek') !== null")
    page.keyboard.press("Escape")
    peek.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.dataset.peek") == f"{prefix}/cards/revenant/peek/"


def test_a_card_of_my_hand_shows_its_face_on_a_long_press(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    game = _revenant_on_the_board(django_user_model)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, bypass_csp=True
    )
    page = context.new_page()
    _log_in(page, live_server.url, "bea", f"/play/{game.uid}/")
    # Seed 8: Troll (card 7: Rage, Berserk) stays in my hand.
    troll = page.locator('.board-hand .board-card[data-card="7"]')
    emblem = troll.locator(".board-emblem")
    # In the middle of the window: at its foot the actions' sticky row covers the card.
    emblem.evaluate("element => element.scrollIntoView({block: 'center'})")
    box = emblem.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)
    point = [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.wait_for_timeout(700)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    peek = page.locator("#card-peek")
    peek.wait_for(state="visible")
    assert [text.strip() for text in peek.locator(".card-peek-rules dt").all_inner_texts()] == [
        "Rage",
        "Berserk",
    ]
    assert (
        troll.get_by_role("button", name="Troll", exact=True).get_attribute("aria-expanded")
        == "true"
    )
    assert overflow(page) is None
    context.close()


def test_a_cards_face_shows_under_the_content_security_policy(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    game = _revenant_on_the_board(django_user_model)
    # Not the `page` fixture: this context keeps the policy.
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.add_init_script(RECORD)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _log_in(page, live_server.url, "bea", f"/play/{game.uid}/")
    page.locator(f'.board-creature[data-card="{REVENANT}"] .card-peek').hover()
    page.locator("#card-peek .card-peek-rules").wait_for(state="visible")
    assert page.evaluate("window.__violations") == []
    assert errors == []
    context.close()


# A Constructed table (seed 3) where Bea plays first: her Enchain creatures against the greedy
# computer's creatures of one ability each. Her Gorger (card 0) put on the upper line takes the
# leftmost card of the computer's hand, Runes protector (Indestructible), under it.
ENCHAINERS = [
    "gorger", "moving-slime", "braggart", "perfidious-siren", "grabber", "pacifier",
    "constrictor", "kidnapper",
]  # fmt: skip
ONE_ABILITY = [
    "growler", "reaper", "royal-guard", "runes-protector", "dryad", "goblin-archer", "paladwarf",
    "walls-pecker",
]  # fmt: skip
GORGER = 0


def _code(slugs: list[str]) -> str:
    cards = list(Card.objects.filter(slug__in=slugs))
    return deck_code_for(format=format_get(slug="constructed"), cards=cards, champion=None)


def _enchained_on_the_board(django_user_model: Any) -> Game:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    with dealt(3):
        game = game_create(
            creator=bea,
            format="constructed",
            seats=[
                SeatRequest(kind="me", deck=DeckChoice(code=_code(ENCHAINERS))),
                SeatRequest(kind="agent", agent="greedy", deck=DeckChoice(code=_code(ONE_ABILITY))),
            ],
        )
    game = game_act(
        game=game, seat=game.seats.get(index=0), client_id="g", kind="play", card=GORGER, arg=0
    )
    # The position this test is about: if the deal or the engine changes, this says so first.
    top, bottom = observe(game_state(game), 0).seats[0].lines
    assert [(seen.card.name, [card.name for card in seen.chained]) for seen in top] == [
        ("Gorger", ["Runes protector"])
    ]
    assert bottom == ()
    return game


@pytest.mark.parametrize(
    ("language", "prefix", "width", "height", "enchained"),
    [("en", "", 1366, 768, "Enchained:"), ("fr", "/fr", 390, 844, "Enchaînées :")],
)
def test_a_card_enchained_under_a_creature_shows_its_face_and_rules_text(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    language: str,
    prefix: str,
    width: int,
    height: int,
    enchained: str,
) -> None:
    """Issue 29: a chained card's name, in the page's language, is a button that shows its
    catalogue face and rules text, as a Symbiote's does."""
    game = _enchained_on_the_board(django_user_model)
    page.set_viewport_size({"width": width, "height": height})
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    name = CardTranslation.objects.get(card__slug="runes-protector", language_code=language).name
    chained = page.locator(f'.board-creature[data-card="{GORGER}"] .board-chained')
    assert chained.inner_text() == f"{enchained} {name}"
    button = chained.get_by_role("button", name=name, exact=True)
    assert button.get_attribute("data-peek") == f"{prefix}/cards/runes-protector/peek/"
    peek = page.locator("#card-peek")
    button.focus()
    peek.wait_for(state="visible")
    assert button.get_attribute("aria-describedby") == "card-peek"
    assert peek.locator(".card-face .card-name").inner_text() == name
    rules = peek.locator(".card-peek-rules dd").all_inner_texts()
    assert [text.strip() for text in rules] == [_rules("indestructible", language)]
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.keyboard.press("Escape")
    peek.wait_for(state="hidden")
    # A click keeps it open.
    button.click()
    peek.wait_for(state="visible")
    assert button.get_attribute("aria-expanded") == "true"
    assert peek.locator(".card-face .card-name").inner_text() == name
    assert axe_violations(page, ("serious", "critical")) == []


@pytest.mark.parametrize(("language", "prefix"), [("en", ""), ("fr", "/fr"), ("sv", "/sv")])
def test_a_card_named_in_the_log_links_to_its_card_page(
    page: Any, live_server: Any, django_user_model: Any, language: str, prefix: str
) -> None:
    game = _revenant_on_the_board(django_user_model)
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    name = CardTranslation.objects.get(card__slug="revenant", language_code=language).name
    log = page.locator(".play-log")
    log.locator("summary").click()
    link = log.get_by_role("link", name=name, exact=True)
    assert link.get_attribute("href") == f"{prefix}/cards/revenant/"
    assert axe_violations(page, ("serious", "critical")) == []
    link.click()
    page.wait_for_url(f"{live_server.url}{prefix}/cards/revenant/")
    assert page.locator("h1").inner_text() == name


def _box(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.locator(selector).first.bounding_box()
    return box


@pytest.mark.parametrize("prefix", ["", "/fr", "/sv"])
def test_at_1366x768_the_whole_table_is_on_the_first_screen(
    page: Any, live_server: Any, django_user_model: Any, prefix: str
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea)
    page.set_viewport_size({"width": 1366, "height": 768})
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    theirs = _box(page, ".board-seat:not(.is-mine)")
    lines = _box(page, ".board-lines")
    mine = _box(page, ".board-seat.is-mine")
    # The opponent on top, me at the bottom (I am seat A: the page lists me first).
    assert page.locator(".board-seat").first.get_attribute("data-seat") == "A"
    assert theirs["y"] + theirs["height"] <= lines["y"]
    assert lines["y"] + lines["height"] <= mine["y"]
    end_turn = page.locator(".button-row .play-act button:not(.link-button)").last
    for box in (
        _box(page, ".board-seat:not(.is-mine) .board-stronghold"),
        _box(page, ".board-seat.is-mine .board-hand"),
        end_turn.bounding_box(),
    ):
        assert box["y"] >= 0 and box["y"] + box["height"] <= 768
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    # On a phone the board starts on the first screen, the lines and my hand under it, and the
    # actions stay in sight at the foot of the window.
    page.set_viewport_size({"width": 390, "height": 844})
    assert _box(page, ".board-seat:not(.is-mine)")["y"] < 360
    assert _box(page, ".board-lines")["y"] < 460
    box = end_turn.bounding_box()
    assert box["y"] + box["height"] <= 844
    # The first row of my hand above the actions that stay at the foot of the window.
    assert _box(page, ".board-seat.is-mine .board-hand")["y"] + 48 <= box["y"]
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def test_a_spectator_sees_the_seats_in_their_order_around_the_lines(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = seeded_table(bea)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server.url}/play/{game.uid}/watch/{game.spectate_code}/")
    first, second = (_box(page, f".board-seat[data-seat={letter}]") for letter in "AB")
    lines = _box(page, ".board-lines")
    assert first["y"] + first["height"] <= lines["y"]
    assert lines["y"] + lines["height"] <= second["y"]
    assert second["y"] + second["height"] <= 768
    assert axe_violations(page, ("serious", "critical")) == []


def _title(page: Any, letter: str) -> str:
    """A seat's title as its heading shows it (without its "to play")."""
    title: str = page.evaluate(
        "letter => document.querySelector(`.board-seat[data-seat=${letter}] .board-seat-title`)"
        ".firstChild.textContent.trim()",
        letter,
    )
    return title


@pytest.mark.parametrize(
    ("prefix", "line", "sep", "conj"),
    [("", "Line", ": ", "and"), ("/fr", "Ligne", " : ", "et"), ("/sv", "Väg", ": ", "och")],
)
def test_a_four_player_table_is_a_square_of_kingdoms_with_each_line_labelled_by_its_seats(
    page: Any, live_server: Any, django_user_model: Any, prefix: str, line: str, sep: str, conj: str
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    with dealt(8):
        game = game_create(
            creator=bea,
            format="preconstructed",
            mode="free_for_all",
            seats=[
                SeatRequest(kind="me", deck=DeckChoice(preconstructed=1)),
                *(
                    SeatRequest(kind="agent", agent="random", deck=DeckChoice(preconstructed=n))
                    for n in (2, 3, 4)
                ),
            ],
        )
    page.set_viewport_size({"width": 1366, "height": 768})
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    seat = {letter: _box(page, f".board-seat[data-seat={letter}]") for letter in "ABCD"}
    # Me (A) at the bottom left, then clockwise B, C, D (each shares a line with the next).
    assert [
        page.locator(f".board-seat[data-seat={letter}]").get_attribute("data-corner")
        for letter in "ABCD"
    ] == ["sw", "nw", "ne", "se"]
    assert seat["B"]["x"] == seat["A"]["x"] and seat["C"]["x"] == seat["D"]["x"]
    assert seat["B"]["y"] == seat["C"]["y"] and seat["A"]["y"] == seat["D"]["y"]
    assert seat["B"]["x"] + seat["B"]["width"] < seat["C"]["x"]
    assert seat["B"]["y"] + seat["B"]["height"] < seat["A"]["y"]
    titles = {letter: _title(page, letter) for letter in "ABCD"}
    assert titles["A"] == ("Me (A)" if not prefix else "Moi (A)" if prefix == "/fr" else "Jag (A)")
    # Each line along the side between its two seats, labelled with both, the half of the seat
    # at the left (or upper) corner first: A-B on the left, C-D on the right, A-D at the bottom,
    # C-B on the top.
    expected = {
        1: ("A", "B", "left", "B"),
        2: ("C", "D", "right", "C"),
        3: ("A", "D", "bottom", "A"),
        4: ("B", "C", "top", "B"),
    }
    for number, (left, right, side, first) in expected.items():
        label = f"{line} {number}{sep}{titles[left]} {conj} {titles[right]}"
        region = page.get_by_role("region", name=label, exact=True)
        assert region.get_attribute("data-side") == side
        assert region.locator(".board-line-name").inner_text() == label
        assert region.locator(".board-half").first.get_attribute("data-seat") == first
        box = region.bounding_box()
        if side == "left":
            assert box["x"] == seat["A"]["x"]
            assert seat["B"]["y"] + seat["B"]["height"] <= box["y"] < seat["A"]["y"]
        elif side == "right":
            assert box["x"] == seat["C"]["x"]
            assert seat["C"]["y"] + seat["C"]["height"] <= box["y"] < seat["D"]["y"]
        else:
            corner = seat["B"] if side == "top" else seat["A"]
            assert box["y"] == corner["y"]
            assert corner["x"] + corner["width"] < box["x"] < seat["C"]["x"]
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def _four_player_table(creator: Any, mode: str) -> Game:
    """Free-For-All or Team Play (seed 8): the creator at seat A, three random computers."""
    with dealt(8):
        return game_create(
            creator=creator,
            format="preconstructed",
            mode=mode,
            seats=[
                SeatRequest(kind="me", deck=DeckChoice(preconstructed=1)),
                *(
                    SeatRequest(kind="agent", agent="random", deck=DeckChoice(preconstructed=n))
                    for n in (2, 3, 4)
                ),
            ],
        )


def _inside(box: dict[str, float], width: int, height: int) -> bool:
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width
        and box["y"] + box["height"] <= height
    )


def _first_screen_boxes(page: Any) -> dict[str, list[dict[str, float]]]:
    """The boxes of what a four-player table must show on its first screen: the End turn
    button, every Stronghold, my hand's cards and the actions' row."""
    return page.evaluate(
        """() => {
          const box = el => { const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height}; };
          const all = selector => [...document.querySelectorAll(selector)].map(box);
          return {
            end: all('.button-row form:has(input[name=kind][value=end_turn]) button'),
            strongholds: all('.board-seat .board-stronghold'),
            hand: all('.board-seat.is-mine .board-hand > li'),
            actions: all('.play-board > .button-row'),
          };
        }"""
    )


@pytest.mark.parametrize("mode", ["free_for_all", "teams"])
def test_at_1366x768_a_four_player_table_is_on_the_first_screen(
    page: Any, live_server: Any, django_user_model: Any, mode: str
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    game = _four_player_table(bea, mode)
    page.set_viewport_size({"width": 1366, "height": 768})
    _log_in(page, live_server.url, "bea", f"/play/{game.uid}/")
    boxes = _first_screen_boxes(page)
    assert len(boxes["end"]) == 1 and len(boxes["strongholds"]) == 4
    # My hand: eight cards and my Stronghold, on one row above the actions' row.
    assert len(boxes["hand"]) == 9
    assert len({box["y"] for box in boxes["hand"]}) == 1
    for box in boxes["end"] + boxes["strongholds"] + boxes["hand"]:
        assert _inside(box, 1366, 768), box
    actions = boxes["actions"][0]["y"]
    assert all(box["y"] + box["height"] <= actions for box in boxes["hand"] + boxes["strongholds"])
    # Another seat's hand shows only backs.
    assert page.locator(".board-seat:not(.is-mine) .board-hand .play-card").count() == 0
    assert page.locator(".board-seat:not(.is-mine) .board-back").count() > 0
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def test_at_1366x768_a_coop_table_is_on_the_first_screen(
    page: Any, live_server: Any, django_user_model: Any
) -> None:
    """Co-op's square: my partner (C) and the two automata (B, D) around me; the automata's
    piles instead of hands."""
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    # The Co-op AI takes 48 cards of the decks' expansions that neither deck holds: more than a
    # preconstructed deck leaves in the test catalogue (tests/play/conftest.py).
    deck = make_deck(bea, CONSTRUCTED, name="Mixed")
    with dealt(8):
        game = game_create(
            creator=bea,
            format="constructed",
            mode="coop",
            seats=[
                SeatRequest(kind="me", deck=DeckChoice(deck=deck.share_id)),
                SeatRequest(kind="agent", agent="random"),
            ],
            ai_level=2,
        )
    page.set_viewport_size({"width": 1366, "height": 768})
    _log_in(page, live_server.url, "bea", f"/play/{game.uid}/")
    boxes = _first_screen_boxes(page)
    assert len(boxes["end"]) == 1 and len(boxes["strongholds"]) == 4
    assert len({box["y"] for box in boxes["hand"]}) == 1
    for box in boxes["end"] + boxes["strongholds"] + boxes["hand"]:
        assert _inside(box, 1366, 768), box
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
