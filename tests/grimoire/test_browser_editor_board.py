"""In a real browser: the puzzle editor's drawn board (issue 29, item 7). A position is built on
the board alone (a card found by name, put on a line or in a hand, its damage set, moved and
removed), and saving stores exactly that position, through the form the board writes."""

from typing import Any

import pytest
from django.test import Client

from cards.models import CardTranslation
from grimoire.models import Puzzle
from grimoire.selectors import catalogue_definitions
from grimoire.services import puzzle_create
from tests.foundation.test_browser_csp import RECORD
from tests.foundation.test_browser_pages import overflow
from tests.support.browser import axe_violations, cut_names

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]


def _sign_in(page: Any, live_server: Any, django_user_model: Any) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("ana", password="x"))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.htmx !== undefined")
    page.wait_for_selector("[data-editor-tools]:not([hidden])")


def _choose(page: Any, query: str, label: str) -> None:
    page.fill("#editor-search", query)
    page.locator(".editor-found").get_by_role("button", name=label, exact=True).click()


def _board(page: Any) -> Any:
    """The board as drawn after the last change (its buttons added once it is checked)."""
    page.wait_for_selector("#editor-check .board:not(.is-stale) .editor-select")
    return page.locator("#editor-check .board")


def _creatures(page: Any, seat: str, line: int) -> list[str]:
    board = _board(page)
    half = board.locator(".board-line").nth(line).locator(f'.board-half[data-seat="{seat}"]')
    return half.locator(".board-creature .board-card-name").all_inner_texts()


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_a_position_built_on_the_drawn_board_is_saved_as_built(
    page: Any, live_server: Any, django_user_model: Any, width: int, height: int
) -> None:
    _sign_in(page, live_server, django_user_model)
    page.set_viewport_size({"width": width, "height": height})
    _open(page, f"{live_server.url}/grimoire/new/")
    # The new puzzle's empty position is drawn at once: two Kingdoms, their lines and hands.
    assert page.locator("#editor-check .board-seat").count() == 2
    assert page.locator("#editor-check .board-line").count() == 2
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    _choose(page, "fresh", "Fresh recruit")
    assert page.locator(".editor-status").inner_text() == (
        "Chosen: Fresh recruit. Now choose a place on the board: a line or a hand."
    )
    # The places wait for the card; the keyboard's focus is on the first of them, A's hand,
    # and the next is A's upper line.
    places = page.locator("#editor-check .editor-place button")
    assert places.count() == 6
    focused = "document.activeElement.getAttribute('aria-label')"
    assert page.evaluate(focused) == "Put Fresh recruit here: Player A, hand"
    assert axe_violations(page, ("serious", "critical")) == []
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "Put Fresh recruit here: Player A, the upper line"
    page.keyboard.press("Enter")
    assert _creatures(page, "A", 0) == ["Fresh recruit"]
    # Put there, it is selected: its damage is set in the dock.
    assert page.locator(".editor-selected-name").inner_text() == (
        "Selected: Fresh recruit, Player A, the upper line, creature 1."
    )
    page.fill("#editor-damage", "1")
    page.locator("#editor-damage").dispatch_event("change")
    page.wait_for_selector('#editor-check .board-creature[data-damage="1"]')
    assert page.input_value("#id_a_top_0_card") == "Fresh recruit"
    assert page.input_value("#id_a_top_0_damage") == "1"

    _choose(page, "swarm", "Swarmer")
    page.get_by_role("button", name="Put Swarmer here: Player B, hand").click()
    _board(page)
    _choose(page, "mental", "Mental strike")
    # An incantation goes in a hand only: the line refuses it and says why.
    page.get_by_role("button", name="Put Mental strike here: Player B, the lower line").click()
    assert page.locator(".editor-status").inner_text() == (
        "An incantation goes in a hand, not on a line."
    )
    page.get_by_role("button", name="Put Mental strike here: Player A, hand").click()
    _board(page)
    # A Zombie put on B's lower line, moved to B's upper line, then removed.
    _choose(page, "zomb", "Zombie")
    page.get_by_role("button", name="Put Zombie here: Player B, the lower line").click()
    assert _creatures(page, "B", 1) == ["Zombie"]
    page.get_by_role("button", name="Move it", exact=True).click()
    page.get_by_role("button", name="Put Zombie here: Player B, the upper line").click()
    assert (_creatures(page, "B", 0), _creatures(page, "B", 1)) == (["Zombie"], [])
    page.get_by_role("button", name="Remove it", exact=True).click()
    assert _creatures(page, "B", 0) == []
    assert page.input_value("#id_b_top_0_card") == ""
    hands = page.locator("#editor-check .board-hand .play-card .board-card-name")
    assert hands.all_inner_texts() == ["Mental strike", "Swarmer"]
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    page.fill("#id_title_en", "Drawn")
    page.locator("#id_title_en").dispatch_event("change")
    page.wait_for_selector('#editor-check[data-problems="0"]')
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(f"{live_server.url}/grimoire/*/edit/")
    players = Puzzle.objects.get().scenario["state"]["players"]
    assert players == {
        "A": {
            "hand": ["STRONGHOLD", "Mental strike"],
            "lines": {"top": [{"card": "Fresh recruit", "damage": 1}], "bottom": []},
        },
        "B": {"hand": ["STRONGHOLD", "Swarmer"], "lines": {"top": [], "bottom": []}},
    }
    # Edited back, the saved position is drawn with the same cards.
    _open(page, page.url)
    assert _creatures(page, "A", 0) == ["Fresh recruit"]
    assert page.locator('#editor-check .board-creature[data-damage="1"]').count() == 1


def _put(page: Any, query: str, label: str, place: str) -> None:
    _choose(page, query, label)
    page.get_by_role("button", name=f"Put {label} here: {place}", exact=True).click()
    _board(page)


def _dock(page: Any, name: str) -> Any:
    return page.locator(".editor-dock").get_by_role("button", name=name, exact=True)


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_symbiotes_chains_and_marks_are_set_on_the_drawn_board(
    page: Any, live_server: Any, django_user_model: Any, width: int, height: int
) -> None:
    """Issue 29: a Symbiote, an enchained card, "entered this turn" and "Protection used" could
    only be typed in a slot's "More" fields. A selected creature takes them on the board; they
    write those fields, and the saved puzzle holds exactly them."""
    _sign_in(page, live_server, django_user_model)
    page.set_viewport_size({"width": width, "height": height})
    _open(page, f"{live_server.url}/grimoire/new/")
    _put(page, "swarm", "Swarmer", "Player A, hand")
    _put(page, "swarm", "Swarmer", "Player B, hand")

    # A Symbiote from the card search onto the creature just put (selected).
    _put(page, "fresh", "Fresh recruit", "Player A, the upper line")
    marks = page.locator(".editor-creature")
    assert marks.locator("[data-editor-shows=symbiote]").inner_text() == "No Symbiote on it."
    assert _dock(page, "Detach the Symbiote").is_hidden()
    _dock(page, "Attach a Symbiote").click()
    assert page.locator(".editor-status").inner_text() == (
        "Choose the Symbiote to attach to Fresh recruit in the card search."
    )
    assert page.evaluate("document.activeElement.id") == "editor-search"
    _choose(page, "spring", "Spring gnome")
    assert page.locator(".editor-status").inner_text() == (
        "Spring gnome attached to Fresh recruit as its Symbiote."
    )
    page.wait_for_selector("#editor-check .board-creature .board-symbiote")
    assert page.input_value("#id_a_top_0_symbiote") == "Spring gnome"
    assert marks.locator("[data-editor-shows=symbiote]").inner_text() == (
        "Symbiote on it: Spring gnome."
    )

    # A card chained under another creature, unchained, chained again; it entered this turn.
    _put(page, "pacif", "Pacifier", "Player A, the lower line")
    _dock(page, "Chain a card under it").click()
    _choose(page, "zomb", "Zombie")
    page.wait_for_selector("#editor-check .board-chained")
    assert page.locator("#editor-check .board-chained").inner_text() == "Enchained: Zombie"
    _dock(page, "Unchain it").click()
    page.wait_for_selector("#editor-check .board:not(.is-stale) .editor-select")
    assert page.locator("#editor-check .board-chained").count() == 0
    assert page.input_value("#id_a_bottom_0_enchained") == ""
    assert page.evaluate("document.activeElement.textContent") == "Chain a card under it"
    page.keyboard.press("Enter")
    _choose(page, "zomb", "Zombie")
    page.wait_for_selector("#editor-check .board-chained")
    entered = _dock(page, "Entered play this turn")
    assert entered.get_attribute("aria-pressed") == "false"
    entered.click()
    page.wait_for_selector("#editor-check .board-creature.is-new")
    assert entered.get_attribute("aria-pressed") == "true"
    assert page.is_checked("#id_a_bottom_0_new")
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []

    # Protection used, by the keyboard.
    _put(page, "carap", "Carapace", "Player B, the upper line")
    _dock(page, "Protection used").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#editor-check .board-protection-used")
    assert _dock(page, "Protection used").get_attribute("aria-pressed") == "true"
    assert page.is_checked("#id_b_top_0_protection_used")

    page.fill("#id_title_en", "Marked")
    page.locator("#id_title_en").dispatch_event("change")
    page.wait_for_selector('#editor-check[data-problems="0"]')
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(f"{live_server.url}/grimoire/*/edit/")
    assert Puzzle.objects.get().scenario["state"]["players"] == {
        "A": {
            "hand": ["STRONGHOLD", "Swarmer"],
            "lines": {
                "top": [{"card": "Fresh recruit", "symbiote": "Spring gnome"}],
                "bottom": [{"card": "Pacifier", "new": True, "enchained": "Zombie"}],
            },
        },
        "B": {
            "hand": ["STRONGHOLD", "Swarmer"],
            "lines": {"top": [{"card": "Carapace", "protection_used": True}], "bottom": []},
        },
    }


@pytest.mark.parametrize(
    ("language", "query", "label", "place", "attach"),
    [
        (
            "fr",
            "recrue",
            "Nouvelle recrue",
            "Mettre Nouvelle recrue ici : Joueur A, la ligne du haut",
            ["Entrée en jeu ce tour", "Protection utilisée", "Attacher un Symbiote"],
        ),
        (
            "sv",
            "fresh",
            "Fresh recruit",
            "Lägg Fresh recruit här: Spelare A, övre linjen",
            ["Kom i spel denna tur", "Protection förbrukad", "Fäst en symbiot"],
        ),
    ],
)
def test_the_drawn_board_in_french_and_swedish_on_a_phone(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    language: str,
    query: str,
    label: str,
    place: str,
    attach: list[str],
) -> None:
    _sign_in(page, live_server, django_user_model)
    page.set_viewport_size({"width": 390, "height": 844})
    _open(page, f"{live_server.url}/{language}/grimoire/new/")
    assert overflow(page) is None
    _choose(page, query, label)
    page.get_by_role("button", name=place, exact=True).click()
    board = _board(page)
    # The board names it as the picker does, in the page's language.
    assert board.locator(".board-creature .board-card-name").all_inner_texts() == [label]
    assert page.input_value("#id_a_top_0_card") == "Fresh recruit"
    # Put there, it is selected: its marks and Symbiote in the page's language.
    buttons = page.locator(".editor-creature button:visible").all_inner_texts()
    assert buttons[:3] == attach
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


def test_the_drawn_board_runs_under_the_content_security_policy(
    browser: Any, live_server: Any, django_user_model: Any
) -> None:
    # The page fixture bypasses the policy (for wait_for_function): a context that keeps it.
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.add_init_script(RECORD)
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        _sign_in(page, live_server, django_user_model)
        page.goto(f"{live_server.url}/grimoire/new/")
        page.wait_for_selector("[data-editor-tools]:not([hidden])")
        _choose(page, "zomb", "Zombie")
        page.get_by_role("button", name="Put Zombie here: Player B, the upper line").click()
        assert _creatures(page, "B", 0) == ["Zombie"]
        _dock(page, "Entered play this turn").click()
        page.wait_for_selector("#editor-check .board-creature.is-new")
        assert (page.evaluate("window.__violations"), errors) == ([], [])
    finally:
        context.close()


# Ten cards, a hand's most, with the catalogue's longest words and longest names.
TEN = [
    "Prestidigitator",
    "Disintegration",
    "Mechasharpener",
    "Annihilation",
    "Scourge of the ramparts",
    "Relentless bag of bones",
    "Contractual protector",
    "Invigorating breath",
    "Hydrophobic cat'ptain",
    "Vampire's blood vial",
]


def _translated(name: str, language: str) -> str:
    """The catalogue card named `name` in English, named in `language`."""
    names = CardTranslation.objects.filter(
        language_code=language,
        card__translations__language_code="en",
        card__translations__name=name,
    )
    return str(names.values_list("name", flat=True).distinct().get())


@pytest.mark.parametrize(
    ("language", "prefix", "width", "height"),
    [("en", "", 1366, 768), ("en", "", 390, 844), ("fr", "/fr", 390, 844)],
)
def test_every_name_of_a_ten_card_hand_is_read_whole(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    language: str,
    prefix: str,
    width: int,
    height: int,
) -> None:
    """Issue 29: a hand of ten cards drew "Prestidigitator", "Disintegration" and
    "Mechasharpener" cut to an ellipsis (71, 70 and 82 px of name in 68 px)."""
    _sign_in(page, live_server, django_user_model)
    page.set_viewport_size({"width": width, "height": height})
    _open(page, f"{live_server.url}{prefix}/grimoire/new/")
    for index, name in enumerate(TEN):
        page.fill(f"#id_a_hand_{index}", name)
    page.locator("#id_a_hand_9").dispatch_event("change")
    page.wait_for_selector(
        '#editor-check .board-seat[data-seat="A"] .board-hand > .play-card:nth-child(11)'
    )
    _board(page)
    names = page.locator('#editor-check .board-seat[data-seat="A"] .play-card .board-card-name')
    assert names.all_inner_texts() == [_translated(name, language) for name in TEN]
    assert cut_names(names) == []
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


@pytest.mark.parametrize(
    ("language", "prefix", "width", "height"),
    [("en", "", 1366, 768), ("en", "", 390, 844), ("fr", "/fr", 390, 844)],
)
def test_every_name_on_a_puzzles_board_is_read_whole(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    language: str,
    prefix: str,
    width: int,
    height: int,
) -> None:
    """Issue 29: the puzzle's page drew its board's cards 4.8rem wide, as the editor did."""
    _sign_in(page, live_server, django_user_model)
    used = {*TEN[3:], "Prestidigitator", "Mechasharpener", "Disintegration", "Mechadventurer"}
    puzzle = puzzle_create(
        author=django_user_model.objects.get(username="ana"),
        scenario={
            "cards": catalogue_definitions(used | {"Matriarachnid"}),
            "state": {
                "active": "A",
                "players": {
                    "A": {
                        "hand": [*TEN[3:6], "STRONGHOLD", *TEN[6:]],
                        "mana": 6,
                        "lines": {"top": ["Prestidigitator"], "bottom": ["Mechasharpener"]},
                    },
                    "B": {
                        "hand": ["STRONGHOLD", "Disintegration"],
                        "stronghold": "fort",
                        "lines": {"top": ["Matriarachnid"], "bottom": ["Mechadventurer"]},
                    },
                },
            },
        },
        goal={"kind": "win"},
        difficulty=2,
        translations={"en": {"title": "Long names"}},
    )
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}{prefix}/grimoire/{puzzle.uid}/")
    names = page.locator("#puzzle-solve .board-creature .board-card-name")
    assert names.all_inner_texts() == [
        _translated(name, language)
        for name in ("Prestidigitator", "Matriarachnid", "Mechasharpener", "Mechadventurer")
    ]
    assert cut_names(page.locator("#puzzle-solve .board-card-name")) == []
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
