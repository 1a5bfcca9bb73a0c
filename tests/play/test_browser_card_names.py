"""In a real browser, issue 29: every card name at a table is read whole. A board card was
4.8rem wide (3.8rem on a four-player table), so the catalogue's longest words ("Prestidigitator",
"Mechasharpener", "Lutincandescent", "Transformouton") ended in an ellipsis even when drawn
smaller; now a card is as wide as its name's longest word, at my table and on the watch page,
and the tables keep their first screen. Swedish names the English fallback's words at most
(data/names_sv.yaml: the 32 cards of the Starter Kit), so English covers them."""

from typing import Any

import pytest

from cards.models import CardTranslation
from engine.adapters.decks import DeckChoice
from engine.rules import observe
from play.models import Game
from play.position_selectors import game_state
from play.services import game_act
from play.table_services import SeatRequest, game_create
from tests.foundation.test_browser_pages import overflow
from tests.play.conftest import dealt
from tests.support.browser import axe_violations, cut_names

from .test_browser import _log_in
from .test_browser_table import _box, _code, _first_screen_boxes, _inside

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("committed_catalogue"),
]

# The catalogue's longest words in English and in French (measured in Chromium on a hand's card
# before the fix: 68 to 82 px of name in 66 to 70 px, French Lutincandescent 81 px).
LONGEST = [
    "prestidigitator", "mechasharpener", "mechadventurer", "transformutton", "disintegration",
    "mechastrologer", "elfcandescent", "matriarachnid",
]  # fmt: skip
# More of them, for the computers' seats.
LONG = [
    "democtopus", "sparkamender", "mechanecro", "mechannoying", "reanimated-wyrm", "eggnapper",
    "sequestrator", "meowsterchef",
]  # fmt: skip

# Bea's hand once her Elfcandescent is summoned, left to right (seed 3).
HAND = [
    "matriarachnid", "mechastrologer", "prestidigitator", "transformutton", "disintegration",
    "mechasharpener", "mechadventurer",
]  # fmt: skip


def _table(django_user_model: Any, mode: str, others: int) -> Game:
    """Bea's deck of the longest words against `others` computers' (seed 3), her Elfcandescent
    summoned on the upper line, then her turn ended: the computers' turns played, hers again."""
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    with dealt(3):
        game = game_create(
            creator=bea,
            format="constructed",
            mode=mode,
            seats=[
                SeatRequest(kind="me", deck=DeckChoice(code=_code(LONGEST))),
                *(
                    SeatRequest(kind="agent", agent="greedy", deck=DeckChoice(code=_code(LONG)))
                    for _ in range(others)
                ),
            ],
        )
    hand = observe(game_state(game), 0).seats[0].hand
    assert hand is not None
    elf = next(card.id for card in hand if card.name == "Elfcandescent")
    game = game_act(
        game=game, seat=game.seats.get(index=0), client_id="e", kind="play", card=elf, arg=0
    )
    top, _bottom = observe(game_state(game), 0).seats[0].lines
    assert [seen.card.name for seen in top] == ["Elfcandescent"]
    return game_act(
        game=game, seat=game.seats.get(index=0), client_id="t", kind="end_turn", card=-1, arg=-1
    )


def _names(slugs: list[str], language: str) -> list[str]:
    return [
        CardTranslation.objects.get(card__slug=slug, language_code=language).name for slug in slugs
    ]


@pytest.mark.parametrize(
    ("language", "prefix", "width", "height"),
    [
        ("en", "", 1366, 768),
        ("en", "", 390, 844),
        ("fr", "/fr", 1366, 768),
        ("fr", "/fr", 390, 844),
    ],
)
def test_the_longest_names_of_a_duel_are_read_whole(
    page: Any,
    live_server: Any,
    django_user_model: Any,
    language: str,
    prefix: str,
    width: int,
    height: int,
) -> None:
    game = _table(django_user_model, "duel", 1)
    page.set_viewport_size({"width": width, "height": height})
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    mine = page.locator(".board-seat.is-mine .play-card .board-card-name")
    assert mine.all_inner_texts() == _names(HAND, language)
    lines = page.locator(".board-line .board-card-name")
    assert lines.all_inner_texts() == _names(["elfcandescent", "reanimated-wyrm"], language)
    assert cut_names(page.locator(".board-card-name")) == []
    if width == 1366:
        # The wider cards keep the first screen: the opponent's Stronghold, my hand, End turn.
        end_turn = page.locator(".button-row form:has(input[name=kind][value=end_turn]) button")
        for box in (
            _box(page, ".board-seat:not(.is-mine) .board-stronghold"),
            _box(page, ".board-seat.is-mine .board-hand"),
            end_turn.bounding_box(),
        ):
            assert _inside(box, width, height), box
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    # A spectator sees the lines.
    page.goto(f"{live_server.url}{prefix}/play/{game.uid}/watch/{game.spectate_code}/")
    assert lines.all_inner_texts() == _names(["elfcandescent", "reanimated-wyrm"], language)
    assert cut_names(page.locator(".board-card-name")) == []
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []


@pytest.mark.parametrize(("language", "prefix"), [("en", ""), ("fr", "/fr")])
def test_the_longest_names_of_a_four_player_table_are_read_whole_on_its_first_screen(
    page: Any, live_server: Any, django_user_model: Any, language: str, prefix: str
) -> None:
    """The square's compact cards (3.8rem) cut most names: still as wide as their longest word,
    with the End turn button, every Stronghold and my hand on the first screen."""
    game = _table(django_user_model, "free_for_all", 3)
    page.set_viewport_size({"width": 1366, "height": 768})
    _log_in(page, live_server.url, "bea", f"{prefix}/play/{game.uid}/")
    mine = page.locator(".board-seat.is-mine .play-card .board-card-name")
    assert mine.all_inner_texts() == _names(HAND, language)
    # The three computers' creatures too.
    assert page.locator(".board-line .board-card-name").all_inner_texts() == _names(
        ["elfcandescent", "eggnapper", "reanimated-wyrm", "mechannoying", "meowsterchef"],
        language,
    )
    assert cut_names(page.locator(".board-card-name")) == []
    boxes = _first_screen_boxes(page)
    assert len(boxes["end"]) == 1 and len(boxes["strongholds"]) == 4
    for box in boxes["end"] + boxes["strongholds"]:
        assert _inside(box, 1366, 768), box
    assert len({box["y"] for box in boxes["hand"]}) == 1
    actions = boxes["actions"][0]["y"]
    assert all(box["y"] + box["height"] <= actions for box in boxes["hand"])
    assert overflow(page) is None
    assert axe_violations(page, ("serious", "critical")) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert cut_names(page.locator(".board-card-name")) == []
    assert overflow(page) is None
