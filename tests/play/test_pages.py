"""The play pages: lobby, new table, the share link, the table with its controls and stream."""

import json
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from cards.models import Ability, CardTranslation
from decks.selectors.checks import deck_check
from play import position_selectors, view_selectors
from play.models import Game, GameAction
from play.services import game_concede
from tests.decks.conftest import CONSTRUCTED
from tests.play.conftest import LASTING, dealt, seeded_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(cards_db: None, owner: Any) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _new_table(client: Client, opponent: str = "agent:greedy") -> Game:
    response = client.post(
        "/play/new/", {"format": "preconstructed", "preconstructed": "1", "opponent": opponent}
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == f"/play/{game.uid}/"
    return game


def test_a_table_against_the_computer_shows_my_turn_and_my_hand(olga: Client) -> None:
    game = _new_table(olga)
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "<title>Your turn · Duel · cod_site</title>" in page
    hand = next(seat for seat in game.seats.all() if seat.index == 0).cards
    assert hand is not None
    for card in hand:
        assert card["name"] in page
    lobby = olga.get("/play/").content.decode()
    assert "<title>Your turn · Play · cod_site</title>" in lobby
    assert f'href="/play/{game.uid}/"' in lobby


def test_ending_the_turn_with_htmx_lets_the_computer_answer(olga: Client) -> None:
    game = _new_table(olga)
    before = GameAction.objects.filter(game=game).count()
    response = olga.post(
        f"/play/{game.uid}/act/",
        {"client_id": "end-1", "kind": "end_turn"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert 'class="play-board"' in response.content.decode()
    actions = list(GameAction.objects.filter(game=game).order_by("index")[before:])
    assert actions[0].client_id == "end-1"
    # Then the computer played its whole turn, ending it: my turn again.
    assert actions[-1].seat == 1
    assert actions[-1].kind == 1
    game.refresh_from_db()
    assert game.active_seat == 0


def test_a_guest_joins_by_the_share_link_and_keeps_the_seat(olga: Client) -> None:
    game = _new_table(olga, opponent="invite")
    waiting = olga.get(f"/play/{game.uid}/").content.decode()
    assert f"/play/{game.uid}/join/{game.invite_code}/" in waiting
    guest = Client()
    joined = guest.post(
        f"/play/{game.uid}/join/{game.invite_code}/",
        {"guest_name": "Gus", "preconstructed": "2"},
    )
    assert joined.status_code == 302
    assert guest.get(f"/play/{game.uid}/").status_code == 200
    assert Client().get(f"/play/{game.uid}/").status_code == 404
    game.refresh_from_db()
    assert game.status == "playing"


def test_the_stream_tells_the_action_count(olga: Client, settings: Any) -> None:
    settings.PLAY_STREAM_SECONDS = 0
    game = _new_table(olga)
    response = olga.get(f"/play/{game.uid}/stream/?after=-5")
    assert response["Content-Type"] == "text/event-stream"
    assert b"".join(response.streaming_content).decode() == "retry: 500\n\n"
    settings.PLAY_STREAM_SECONDS = LASTING
    chunks = iter(olga.get(f"/play/{game.uid}/stream/").streaming_content)
    assert next(chunks) == b"retry: 500\n\n"
    data = json.dumps({"action_count": game.action_count, "pick_count": 0, "status": "playing"})
    assert next(chunks).decode() == f"event: update\ndata: {data}\n\n"


def _between(page: str, start: str, end: str) -> str:
    return page.split(start, 1)[1].split(end, 1)[0]


def test_another_seats_hand_never_appears_in_the_html(olga: Client, owner: Any) -> None:
    game = seeded_table(owner)
    state = position_selectors.game_state(game)
    names = state.setup.names
    mine = {names[card] for card in state.players[0].hand}
    theirs = [names[card] for card in state.players[1].hand]
    # The greedy deck's hand this seed: 6 cards, none of them a name of my deck.
    assert theirs == ["Lieutenant", "Shaman", "Scribe", "Alpha", "Abomination", "Combustion"]
    assert mine.isdisjoint(theirs)
    pages = [
        olga.get(f"/play/{game.uid}/").content.decode(),
        olga.get(f"/play/{game.uid}/board/?since=0").content.decode(),
        olga.post(
            f"/play/{game.uid}/act/",
            {"client_id": "end-1", "kind": "end_turn", "since": "0"},
            headers={"HX-Request": "true"},
        ).content.decode(),
    ]
    state = position_selectors.game_state(Game.objects.get())
    hidden = {names[card] for card in state.players[1].hand} - mine
    assert len(hidden) >= 5
    for page in pages:
        for name in hidden:
            assert not re.search(rf"\b{re.escape(name)}\b", page)  # "Dryad" is in "Dryade"
    # Their hand is drawn as backs.
    seat_b = _between(pages[0], 'data-seat="B">\n    <h2', "</section>")
    backs = seat_b.count('class="board-card board-back"')
    assert backs == 6
    assert pages[2].count('class="board-card board-back"') == len(state.players[1].hand)


def test_choosing_a_creature_marks_both_lines_of_my_kingdom(olga: Client, owner: Any) -> None:
    game = seeded_table(owner)
    page = olga.get(f"/play/{game.uid}/?card=6").content.decode()
    assert 'aria-pressed="true" aria-label="Choose Brute"' in page
    assert page.count(">Here</button>") == 2
    assert 'aria-label="Play Brute on Top line" autofocus' in page
    assert 'aria-label="Play Brute on Bottom line">' in page
    # Both on my side of the Bridges (seat A: the left halves).
    assert page.count('class="board-half is-left is-target"') == 2
    # My 4 leftmost cards are the available ones; Baron (the 5th) cannot be chosen.
    assert page.count("play-card is-available") == 4
    assert page.count('aria-pressed="false" aria-label="Choose ') == 3
    assert 'aria-label="Choose Baron"' not in page
    # A card that is not playable now is no choice: nothing is marked.
    page = olga.get(f"/play/{game.uid}/?card=1").content.decode()
    assert ">Here</button>" not in page


def test_choosing_an_incantation_marks_its_targets(olga: Client, owner: Any) -> None:
    game = seeded_table(owner)
    # The computer played first: Microctopus (card 8) and Ogre (12) on its top line.
    page = olga.get(f"/play/{game.uid}/board/?card=5").content.decode()
    assert page.count('class="board-card board-creature is-target"') == 2
    assert 'aria-label="Cast Annihilation on Microctopus" autofocus' in page
    assert 'aria-label="Cast Annihilation on Ogre">' in page
    assert "is-left is-target" not in page
    response = olga.post(
        f"/play/{game.uid}/act/",
        {"client_id": "c1", "kind": "cast", "card": "5", "arg": "12"},
        headers={"HX-Request": "true"},
    )
    # Annihilation destroyed the Ogre: no card 12 on the board any more.
    assert 'data-card="12"' not in response.content.decode()
    assert 'data-card="8"' in response.content.decode()


def test_playing_the_chosen_creature_puts_it_on_its_line(olga: Client, owner: Any) -> None:
    game = seeded_table(owner)
    olga.post(
        f"/play/{game.uid}/act/", {"client_id": "p1", "kind": "play", "card": "6", "arg": "1"}
    )
    page = olga.get(f"/play/{game.uid}/").content.decode()
    bottom = _between(page, 'aria-label="Bottom line"', "</section>")
    assert 'data-card="6"' in _between(bottom, 'data-seat="A"', "</ol>")
    assert 'data-card="6"' not in _between(page, 'aria-label="Top line"', "</section>")


def test_the_board_shows_what_happened_since_the_page_s_board(olga: Client, owner: Any) -> None:
    game = seeded_table(owner)
    since = view_selectors.game_view(game=game, seat=game.seats.get(index=0))["state"][
        "events_next"
    ]
    after = game.action_count
    response = olga.post(
        f"/play/{game.uid}/act/",
        {"client_id": "end-1", "kind": "end_turn", "since": str(since), "after": str(after)},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    game.refresh_from_db()
    state = position_selectors.game_state(game)
    assert state.log is not None
    steps = _between(page, '<details class="playback-steps">', "</details>")
    assert "<summary>Since your last look: 12 steps</summary>" in steps
    # My end of turn (board 1: after it), the computer's turn step by step: its creature played
    # (board 2), its Assault on the board before it (2), marked attack by attack, then the board
    # after it (3) and my next turn (4: the page's own board).
    assert _between(steps, "<ol>", "</ol>") == (
        '<li data-board="1">A assaults.</li>'
        '<li data-board="1">Turn 3: B (their turn 2).</li>'
        '<li data-board="1">Phase 1: B has 7 Mana.</li>'
        '<li data-board="2" data-cards="14">B plays Alpha on the top line.</li>'
        '<li data-board="2">B assaults.</li>'
        '<li data-board="2" data-attacker="12">Ogre (B) attacks the Stronghold.</li>'
        '<li data-board="2" data-stronghold="A" data-amount="4" data-hp="4">'
        "A&#x27;s Stronghold takes 4 damage (4 HP left).</li>"
        '<li data-board="2" data-attacker="8">Microctopus (B) attacks the Stronghold.</li>'
        '<li data-board="2" data-stronghold="A" data-amount="5" data-hp="0">'
        "A&#x27;s Stronghold takes 5 damage (0 HP left).</li>"
        '<li data-board="3">A&#x27;s Bastion is destroyed: the Fort is up.</li>'
        '<li data-board="4">Turn 4: A (their turn 2).</li>'
        '<li data-board="4">Phase 1: A has 9 Mana.</li>'
    )
    assert len(state.log) - since == 12
    # The boards the steps show but the page's own, drawn for my seat: Alpha is on the top line
    # once played, not before; the computer's hand stays face down.
    boards = {
        number: _between(page, f'<template data-board="{number}">', "</template>")
        for number in ("1", "2", "3")
    }
    assert '<template data-board="4">' not in page
    assert 'data-card="14"' not in boards["1"]
    assert 'data-card="14"' in _between(boards["2"], 'aria-label="Top line"', "</section>")
    assert 'data-seat="B"' in boards["2"] and "a card face down" in boards["2"]
    names = state.setup.names
    hidden = {names[card] for card in state.players[1].hand} - {
        names[card] for card in (*state.players[0].hand, 8, 12, 14)
    }
    assert hidden and not any(name in "".join(boards.values()) for name in hidden)
    # The bar: its buttons (shown by the page's script) and the count of steps.
    bar = _between(page, '<section class="playback"', "<template")
    assert '<button type="button" class="playback-step" hidden>Step</button>' in bar
    assert "12 steps since your last look, listed under the board." in bar
    # The whole log, from the set-up on.
    log = _between(page, '<details class="play-log">', "</details>")
    assert log.count("<li>") == len(state.log) == 20
    # A board asked for with nothing new since: no steps, the bar says the last line.
    again = olga.get(
        f"/play/{game.uid}/board/?since={len(state.log)}&after={game.action_count}"
    ).content.decode()
    assert "playback-steps" not in again and "<template" not in again
    assert "Phase 1: A has 9 Mana.</p>" in again
    # The page's poll while its board is the latest: nothing to swap, the steps stay.
    shown = f"{game.action_count}-0-playing"
    assert f'name="shown" value="{shown}"' in page
    assert f'name="after" value="{game.action_count}"' in page
    poll = olga.get(f"/play/{game.uid}/board/?shown={shown}&since={len(state.log)}")
    assert (poll.status_code, poll.content) == (204, b"")
    older = olga.get(f"/play/{game.uid}/board/?shown={game.action_count - 1}-0-playing")
    assert older.status_code == 200
    # Without JS the action's redirect keeps the counts, for the page to list what followed.
    plain = olga.post(
        f"/play/{game.uid}/act/",
        {"client_id": "end-2", "kind": "end_turn", "since": "7", "after": "4"},
    )
    assert plain["Location"] == f"/play/{game.uid}/?since=7&after=4"


def test_a_board_of_unknown_actions_lists_what_happened_without_playing_it_out(
    olga: Client, owner: Any
) -> None:
    game = seeded_table(owner)
    # An action count past the game's (a page of another table's board): no board to play out,
    # every event since `since` listed on the page's own board.
    page = olga.get(f"/play/{game.uid}/board/?since=0&after=99").content.decode()
    assert "<template" not in page
    assert _between(page, '<details class="playback-steps">', "</details>").count(
        'data-board="0"'
    ) == len(position_selectors.game_state(game).log or [])


def test_the_stream_tells_when_the_invited_player_takes_the_seat(
    olga: Client, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PLAY_STREAM_SECONDS = LASTING
    game = _new_table(olga, opponent="invite")
    chunks = iter(olga.get(f"/play/{game.uid}/stream/?after=0").streaming_content)
    assert next(chunks) == b"retry: 500\n\n"
    waiting = json.dumps({"action_count": 0, "pick_count": 0, "status": "waiting"})
    assert next(chunks).decode() == f"event: update\ndata: {waiting}\n\n"
    # The join's news leaves once it is committed (the test's transaction never is).
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(
            f"/play/{game.uid}/join/{game.invite_code}/",
            {"guest_name": "Gus", "preconstructed": "2"},
        )
    game.refresh_from_db()
    started = json.dumps({"action_count": game.action_count, "pick_count": 0, "status": "playing"})
    assert next(chunks).decode() == f"event: update\ndata: {started}\n\n"


def test_the_board_s_choice_in_french_and_swedish(olga: Client, owner: Any) -> None:
    game = seeded_table(owner)
    french = olga.get(f"/fr/play/{game.uid}/?card=6").content.decode()
    assert "Où va Brute ? 2 places sont marquées « Ici »." in french
    assert 'aria-label="Jouer Brute sur Ligne du haut" autofocus>Ici</button>' in french
    swedish = olga.get(f"/sv/play/{game.uid}/?card=6").content.decode()
    assert "Var ska Brute läggas? 2 platser är märkta ”Här”." in swedish
    assert 'aria-label="Välj Baron"' not in swedish
    assert 'aria-label="Välj Revenant">Välj</button>' in swedish


def test_a_solo_table_from_the_form_shows_the_ai_at_its_level_and_its_piles(olga: Client) -> None:
    response = olga.post(
        "/play/new/",
        {"mode": "solo", "format": "preconstructed", "preconstructed": "1", "ai_level": "2"},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.mode, game.ai_level, game.seats.count()) == ("solo", 2, 2)
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "<title>Your turn · Solo · cod_site</title>" in page
    assert "<h1>Solo · AI level 2</h1>" in page
    assert "<li>B: The AI (level 2)</li>" in page
    assert '<h2 class="board-seat-title">The AI (level 2) (B)</h2>' in page
    assert '<span class="play-pile">Deck pile: 24 cards over its Stronghold</span>' in page
    assert 'aria-label="Discard pile, top card first" data-discard="0"' in page
    lobby = olga.get("/play/").content.decode()
    assert "olga – AI level 2" in lobby
    assert "Solo · Preconstructed · turn 1" in lobby


def test_a_team_table_names_partners_and_the_winning_team(olga: Client) -> None:
    response = olga.post(
        "/play/new/",
        {
            "mode": "teams",
            "format": "preconstructed",
            "preconstructed": "1",
            "opponent": "agent:random",
            "seat_c": "agent:greedy",
            "seat_d": "agent:random",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert [seat.agent for seat in game.seats.all()] == ["", "random", "greedy", "random"]
    page = olga.get(f"/play/{game.uid}/").content.decode()
    # The computers play until it is my turn.
    assert '<li aria-current="true">A: olga (me) · to play</li>' in page
    assert "<li>C: Computer (Greedy) (partner)</li>" in page
    assert '<h2 class="board-seat-title">Partner: Computer (Greedy) (C)</h2>' in page
    assert '<h2 class="board-seat-title">Computer (Random (weakest)) (D)</h2>' in page
    olga.post(f"/play/{game.uid}/act/", {"kind": "concede"})
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "Game over: the team B + D wins together." in page


def test_the_form_refuses_a_four_player_table_with_a_missing_seat(olga: Client) -> None:
    response = olga.post(
        "/play/new/",
        {"mode": "free_for_all", "format": "preconstructed", "preconstructed": "1"},
    )
    assert response.status_code == 200
    assert "Unknown computer player." in response.content.decode()
    assert Game.objects.count() == 0


def test_the_modes_are_translated(olga: Client) -> None:
    page = olga.get("/fr/play/new/").content.decode()
    assert '<option value="free_for_all">Chacun pour soi</option>' in page
    page = olga.get("/sv/play/new/").content.decode()
    assert '<option value="coop">Samarbetsläge</option>' in page


def test_a_draft_table_from_the_form_is_picked_with_the_pack_form(olga: Client) -> None:
    response = olga.post(
        "/play/new/", {"format": "draft", "pool": "initiation", "opponent": "agent:greedy"}
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.status, game.draft_expansion) == ("drafting", "initiation")
    page = olga.get(f"/play/{game.uid}/").content.decode()
    assert "<title>Your turn · Duel · cod_site</title>" in page
    assert "Your pick: choose 1 card." in page
    # The pool by its name, not its slug (issue 29: "Draft dans treachery").
    assert '<h2 id="play-draft-title">Draft from Initiation Pack</h2>' in page
    french = olga.get(f"/fr/play/{game.uid}/").content.decode()
    assert '<h2 id="play-draft-title">Draft dans Pack d&#x27;initiation</h2>' in french
    pack = position_selectors.draft_state(game).revealed
    assert len(pack) == 4
    for card in pack:
        assert f'type="radio" name="card" value="{card}"' in page
    # Each offered card says its abilities: names, and rules texts on demand (issue 29).
    pool = position_selectors.draft_state(game).pool
    codes = [code for card in pack for code in pool[card].abilities]
    assert codes
    for code in codes:
        ability = Ability.objects.get(code=code.removeprefix("aura:"))
        name = ability.translations.get(language_code="en").name
        assert f"<details><summary>{'Aura: ' if code.startswith('aura:') else ''}{name}" in page
    assert 'name="kind" value="pick"' in page
    # Without JS: the pick, then the table again.
    plain = olga.post(
        f"/play/{game.uid}/act/", {"client_id": "pick-1", "kind": "pick", "card": str(pack[0])}
    )
    assert (plain.status_code, plain["Location"]) == (302, f"/play/{game.uid}/")
    game.refresh_from_db()
    assert game.pick_count == 2
    # With htmx: the board with my next pack; a card not in it is refused by name.
    board = olga.post(
        f"/play/{game.uid}/act/",
        {"client_id": "pick-2", "kind": "pick", "card": str(pack[0])},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert 'role="alert">Illegal pick: ' in board
    assert "is not among the revealed cards." in board
    assert "My pick (1 card)" in board
    assert "A: 1 card · B: 2 cards" in board
    assert 'name="kind" value="concede"' in board


def test_a_draft_table_s_share_link_asks_for_no_deck(olga: Client) -> None:
    olga.post("/play/new/", {"format": "draft", "pool": "initiation", "opponent": "invite"})
    game = Game.objects.get()
    assert game.status == "waiting"
    page = Client().get(f"/play/{game.uid}/join/{game.invite_code}/").content.decode()
    assert (
        "Your deck is drafted at the table from Initiation Pack once every seat is taken." in page
    )
    assert 'name="preconstructed"' not in page
    assert 'name="guest_name"' in page


def test_the_new_table_form_offers_the_draft_format(olga: Client) -> None:
    page = olga.get("/play/new/").content.decode()
    assert '<option value="draft">Draft</option>' in page
    assert 'name="pool"' in page
    refused = olga.post("/play/new/", {"format": "draft", "opponent": "agent:greedy"})
    assert "Choose the expansions to draft from." in refused.content.decode()


def test_the_stream_announces_each_pick_of_a_draft(
    olga: Client, owner: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PLAY_STREAM_SECONDS = LASTING
    olga.post("/play/new/", {"format": "draft", "pool": "initiation", "opponent": "agent:greedy"})
    game = Game.objects.get()
    chunks = iter(olga.get(f"/play/{game.uid}/stream/?after=0").streaming_content)
    assert next(chunks) == b"retry: 500\n\n"
    drafting = json.dumps({"action_count": 0, "pick_count": 0, "status": "drafting"})
    assert next(chunks).decode() == f"event: update\ndata: {drafting}\n\n"
    card = position_selectors.draft_state(game).revealed[0]
    other_tab = Client()
    other_tab.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        other_tab.post(f"/play/{game.uid}/act/", {"client_id": "p1", "kind": "pick", "card": card})
    # My pick and the computer's 2 cards.
    picked = json.dumps({"action_count": 0, "pick_count": 2, "status": "drafting"})
    assert next(chunks).decode() == f"event: update\ndata: {picked}\n\n"


def test_every_page_header_says_how_many_games_wait_for_my_move(olga: Client) -> None:
    assert "nav-turns" not in olga.get("/cards/").content.decode()
    first = _new_table(olga)
    # Against the computer a table starts on my turn (the computer has answered already).
    assert (first.status, first.active_seat) == ("playing", 0)
    page = olga.get("/cards/").content.decode()
    assert '<a class="nav-turns" href="/play/">Your turn: 1 game</a>' in page
    assert "<title>(1) " in page
    second = olga.post(
        "/play/new/",
        {"format": "preconstructed", "preconstructed": "2", "opponent": "agent:random"},
    )
    assert second.status_code == 302
    # A table waiting for its invited player waits for no move of mine.
    invited = olga.post(
        "/play/new/", {"format": "preconstructed", "preconstructed": "3", "opponent": "invite"}
    )
    assert invited.status_code == 302
    page = olga.get("/decks/").content.decode()
    assert '<a class="nav-turns" href="/play/">Your turn: 2 games</a>' in page
    assert "<title>(2) " in page
    seat = first.seats.get(index=0)
    game_concede(game=first, seat=seat)
    assert "Your turn: 1 game<" in olga.get("/decks/").content.decode()
    anonymous = Client().get("/cards/").content.decode()
    assert "nav-turns" not in anonymous
    assert "<title>(" not in anonymous


def test_a_french_table_names_its_cards_in_french(olga: Client, owner: Any) -> None:
    """Issue 29: the board, the log and the discard named the cards in English at a French
    table ("Sapphire dragon" where the card page says "Dragon saphir")."""
    names = {
        language: dict(
            CardTranslation.objects.filter(language_code=language).values_list("name", "card")
        )
        for language in ("en", "fr")
    }
    french_of = {
        english: next(fr for fr, card in names["fr"].items() if card == names["en"][english])
        for english in names["en"]
    }
    code = deck_check(format="constructed", cards=CONSTRUCTED).code
    # A known deal whose opening hand can play a card named differently in French: a deal drawn
    # by the server may hold none (seed 16 does not; a CI run met such a deal).
    with dealt(8):
        response = olga.post(
            "/play/new/", {"format": "constructed", "code": code, "opponent": "agent:greedy"}
        )
    assert response.status_code == 302
    game = Game.objects.get()
    mine = next(seat for seat in game.seats.all() if seat.index == 0)
    hand = [card["name"] for card in game_state_hand(game)]
    page = unescape(olga.get(f"/fr/play/{game.uid}/").content.decode())
    differing = [name for name in hand if french_of[name] != name]
    assert differing
    for name in hand:
        assert french_of[name] in page
    for name in differing:
        assert not re.search(rf"\b{re.escape(name)}\b", page)  # "Dryad" is in "Dryade"
    # A card of mine played: the log tells it in French.
    ids = {card["id"]: card["name"] for card in game_state_hand(game)}
    play = next(
        action
        for action in view_selectors.game_legal_actions(game=game, seat=mine)
        if action["kind"] == "play" and french_of[ids[action["card"]]] != ids[action["card"]]
    )
    board = olga.post(
        f"/fr/play/{game.uid}/act/",
        {"client_id": "p-1", "kind": "play", "card": play["card"], "arg": play["arg"]},
        headers={"HX-Request": "true"},
    ).content.decode()
    log = unescape(re.search(r'<details class="play-log">(.*?)</details>', board, re.S)[1])  # type: ignore[index]
    assert french_of[ids[play["card"]]] in log
    assert not re.search(rf"\b{re.escape(ids[play['card']])}\b", log)
    # The English page keeps the English names.
    english_page = unescape(olga.get(f"/play/{game.uid}/").content.decode())
    for name in hand:
        assert name in english_page


def game_state_hand(game: Game) -> list[dict[str, Any]]:
    view = view_selectors.game_view(
        game=game, seat=next(s for s in game.seats.all() if s.index == 0)
    )
    return list(view["state"]["players"][0]["hand"])


def test_a_deck_is_chosen_from_my_decks_or_found_among_public_ones(
    olga: Client, owner: Any, django_user_model: Any
) -> None:
    """Issue 29: a deck was chosen by typing its share id; now from a select of my decks, or
    from public decks found by name (the API still takes a share id)."""
    from decks import services as deck_services
    from decks.selectors.formats import format_get
    from decks.selectors.lookup import cards_require

    mine = deck_services.deck_create(
        owner=owner,
        name="Teeth",
        format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"),
        visibility="private",
    )
    other = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    public = deck_services.deck_create(
        owner=other,
        name="Fangs of Bea",
        format=format_get(slug="constructed"),
        cards=cards_require(CONSTRUCTED, "cards"),
        visibility="public",
    )
    page = olga.get("/play/new/").content.decode()
    assert f'<option value="{mine.share_id}">Teeth · Constructed</option>' in page
    assert 'name="deck_search"' in page and 'hx-get="/play/decks/"' in page
    assert '<select name="public_deck"' in page
    found = olga.get("/play/decks/", {"deck_search": "fangs"}).content.decode()
    assert f'<option value="{public.share_id}">Fangs of Bea · bea · Constructed</option>' in found
    assert "Teeth" not in found  # private: never offered to anyone
    assert (
        "No public deck is named “zzz”"
        in olga.get("/play/decks/", {"deck_search": "zzz"}).content.decode()
    )
    chosen = olga.post(
        "/play/new/",
        {"format": "constructed", "public_deck": public.share_id, "opponent": "agent:greedy"},
    )
    assert chosen.status_code == 302
    game = Game.objects.get()
    assert next(seat for seat in game.seats.all() if seat.index == 0).deck_name == "Fangs of Bea"


def test_a_signed_in_player_joins_as_themselves(olga: Client, django_user_model: Any) -> None:
    """Issue 29: the share link asked a signed-in user for "Your name (as a guest)"."""
    game = _new_table(olga, opponent="invite")
    bea = Client()
    bea.force_login(django_user_model.objects.create_user("bea", password="pw-bea-123456"))
    page = bea.get(f"/play/{game.uid}/join/{game.invite_code}/").content.decode()
    assert 'name="guest_name"' not in page
    assert "You join as bea." in page
    joined = bea.post(f"/play/{game.uid}/join/{game.invite_code}/", {"preconstructed": "2"})
    assert joined.status_code == 302
    seat = next(seat for seat in game.seats.all() if seat.index == 1)
    assert (seat.user.username, seat.guest_name) == ("bea", "")
    # A guest still gives a name.
    guest = Client().get(f"/play/{game.uid}/join/{game.invite_code}/").content.decode()
    assert 'name="guest_name"' in guest and "You join as" not in guest


def test_a_draft_pool_is_ticked_from_the_expansions(olga: Client) -> None:
    """Issue 29: the pool was a free-text field of expansion codes."""
    page = olga.get("/play/new/").content.decode()
    assert '<input type="checkbox" name="pool" value="initiation"' in page
    assert "00 · Initiation Pack</label>" in page
    french = olga.get("/fr/play/new/").content.decode()
    assert "00 · Pack d&#x27;initiation</label>" in french
    response = olga.post(
        "/play/new/",
        {"format": "draft", "pool": ["treachery", "submersion"], "opponent": "agent:greedy"},
    )
    assert response.status_code == 302
    assert Game.objects.get().draft_expansion == "treachery,submersion"
