"""A finished table's end (issue 29, "An end"): the result screen from each viewer's side and how
the game ended, the rematch (the same seats and decks, the first player swapped; another person's
seat kept for them until they join), playing again against the computer, and the header's count
of games waiting for my move once a game ends."""

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from cod_site.errors import DomainError
from engine.adapters.decks import DeckChoice
from play import end_selectors, end_services
from play.models import Game, Seat, Status
from play.position_selectors import game_state
from play.selectors import game_get, games_to_play
from play.services import game_act, game_concede
from play.table_services import SeatRequest, game_create, game_join
from play.view_selectors import game_legal_actions

from .conftest import GREEDY, dealt, join_as_guest
from .test_drafts import COMPUTER, _draft_alone, _draft_table

pytestmark = pytest.mark.django_db

ME = SeatRequest(kind="me", deck=DeckChoice(preconstructed=1))


def _played_out(game: Game, seat_index: int = 0) -> Game:
    """`game` played to its end by the seat `seat_index`'s random (seeded) legal actions, the
    computer seats answering."""
    rng = random.Random(8)
    for step in range(2000):
        game = game_get(uid=game.uid)
        if game.status == Status.FINISHED:
            return game
        seat = next(seat for seat in game.seats.all() if seat.index == seat_index)
        action = rng.choice(game_legal_actions(game=game, seat=seat))
        game_act(game=game, seat=seat, client_id=f"r{step}", **action)
    raise AssertionError("the game did not end")


def _duel_played(owner: User) -> Game:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME, GREEDY])
    return _played_out(game)


def _seat(game: Game, index: int) -> Seat:
    return next(seat for seat in game.seats.all() if seat.index == index)


def _seats(game: Game) -> list[tuple[int, str, str, int | None, str, int]]:
    return [
        (seat.index, seat.kind, seat.agent, seat.user_id, seat.deck_name, len(seat.cards or []))
        for seat in game.seats.all()
    ]


# --- The result -------------------------------------------------------------------------------


def test_a_duel_won_against_the_computer_says_so_and_how_to_each_viewer(
    cards_db: None, owner: User
) -> None:
    game = _duel_played(owner)
    assert (game.winners, game_state(game).outcome.reason) == ([0], "lost_fort")  # type: ignore[union-attr]
    mine = end_selectors.game_result(game=game, seat=_seat(game, 0))
    assert mine == end_selectors.GameResult(
        outcome="won",
        headline="You won",
        how=(
            "The Stronghold of Computer (Greedy) (B) was destroyed: the Fort reached the "
            "rightmost place of the hand.",
        ),
    )
    watched = end_selectors.game_result(game=game, seat=None)
    assert watched == end_selectors.GameResult(
        outcome="watched", headline="olga (A) won", how=mine.how
    )


def test_a_conceded_game_says_who_left(cards_db: None, owner: User) -> None:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME, GREEDY])
    game = game_concede(game=game, seat=_seat(game, 0))
    assert end_selectors.game_result(game=game, seat=_seat(game, 0)) == (
        end_selectors.GameResult(outcome="lost", headline="You lost", how=("You conceded.",))
    )
    assert end_selectors.game_result(game=game, seat=None) == end_selectors.GameResult(
        outcome="watched", headline="Computer (Greedy) (B) won", how=("olga (A) conceded.",)
    )


def test_no_result_while_the_game_goes_on(cards_db: None, owner: User) -> None:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME, GREEDY])
    assert end_selectors.game_result(game=game, seat=_seat(game, 0)) is None


# --- The rematch ------------------------------------------------------------------------------


def test_a_rematch_against_the_computer_starts_at_once_with_the_first_player_swapped(
    cards_db: None, owner: User
) -> None:
    game = _duel_played(owner)
    first = game_state(game).first_player
    made = end_services.game_rematch(game=game, seat=_seat(game, 0))
    rematch = game_get(uid=made.game.uid)
    assert made.created is True
    assert (rematch.rematch_of_id, rematch.status, rematch.mode, rematch.format) == (
        game.pk, Status.PLAYING, "duel", "preconstructed",
    )  # fmt: skip
    assert (first, rematch.first_player, game_state(rematch).first_player) == (1, 0, 0)
    assert (
        _seats(rematch)
        == _seats(game)
        == [
            (0, "player", "", owner.pk, "Preconstructed deck 1", 8),
            (1, "agent", "greedy", None, "Preconstructed deck 2", 8),
        ]
    )
    assert [seat.cards for seat in rematch.seats.all()] == [seat.cards for seat in game.seats.all()]
    assert rematch.seed != game.seed and not rematch.seed_chosen and not rematch.listed
    # Asked again: the same rematch.
    again = end_services.game_rematch(game=game, seat=_seat(game, 0))
    assert (again.game.pk, again.created, Game.objects.count()) == (rematch.pk, False, 2)


def test_a_rematch_keeps_the_other_persons_seat_until_they_join(
    cards_db: None, owner: User, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    with dealt(8):
        game = game_create(
            creator=owner,
            format="preconstructed",
            seats=[ME, SeatRequest(kind="invite", username="bea")],
        )
    game_join(game=game, invite_code="", user=bea, guest_name="", deck=DeckChoice(preconstructed=3))
    game = game_concede(game=game_get(uid=game.uid), seat=_seat(game_get(uid=game.uid), 1))
    made = end_services.game_rematch(game=game, seat=_seat(game, 1)).game
    rematch = game_get(uid=made.uid)
    assert rematch.status == Status.WAITING
    assert [(s.index, s.user_id, s.invited_id, s.deck_name) for s in rematch.seats.all()] == [
        (0, None, owner.pk, "Preconstructed deck 1"),
        (1, bea.pk, None, "Preconstructed deck 3"),
    ]
    # Olga sees it offered on her result screen, then joins it with one click.
    offer = end_selectors.rematch_offer(game=game, seat=_seat(game, 0))
    assert offer is not None
    assert (offer.game.pk, offer.by, offer.seated, offer.kept) == (rematch.pk, "bea", False, True)
    joined = end_services.game_rematch(game=game, seat=_seat(game, 0))
    rematch = game_get(uid=made.uid)
    assert (joined.game.pk, joined.created, rematch.status) == (rematch.pk, False, Status.PLAYING)
    assert [(s.user_id, s.invited_id) for s in rematch.seats.all()] == [
        (owner.pk, None), (bea.pk, None),
    ]  # fmt: skip
    swapped = 1 - game_state(game).first_player
    assert (rematch.first_player, game_state(rematch).first_player) == (swapped, swapped)
    offer = end_selectors.rematch_offer(game=game, seat=_seat(game, 0))
    assert offer is not None and (offer.seated, offer.kept) == (True, False)


def test_a_solo_rematch_keeps_the_ai_and_its_pile_and_the_player_first(
    cards_db: None, owner: User
) -> None:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME], mode="solo")
    game = game_concede(game=game, seat=_seat(game, 0))
    rematch = game_get(uid=end_services.game_rematch(game=game, seat=_seat(game, 0)).game.uid)
    assert (rematch.status, rematch.mode, rematch.ai_level, rematch.ai) == (
        Status.PLAYING, "solo", 1, game.ai,
    )  # fmt: skip
    # The rules give Solo's first turn to the player: nothing to swap.
    assert (rematch.first_player, game_state(rematch).first_player) == (None, 0)
    assert (
        _seats(rematch)
        == _seats(game)
        == [
            (0, "player", "", owner.pk, "Preconstructed deck 1", 8),
            (1, "automaton", "", None, "The Solo AI", 24),
        ]
    )


def test_a_table_closed_while_drafting_has_no_rematch(cards_db: None, owner: User) -> None:
    with dealt(4):
        game = game_create(
            creator=owner,
            format="draft",
            seats=[SeatRequest(kind="me"), SeatRequest(kind="agent", agent="greedy")],
            pool="initiation",
        )
    game = game_concede(game=game_get(uid=game.uid), seat=_seat(game_get(uid=game.uid), 0))
    assert game.replay is None
    # Conceded while drafting: no game was played, so no rematch.
    with pytest.raises(DomainError) as refused:
        end_services.game_rematch(game=game, seat=_seat(game, 0))
    assert refused.value.code == "not_finished"


def test_no_rematch_before_the_end(cards_db: None, owner: User) -> None:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME, GREEDY])
    with pytest.raises(DomainError) as refused:
        end_services.game_rematch(game=game, seat=_seat(game, 0))
    assert (refused.value.code, refused.value.status_code) == ("not_finished", 409)
    with pytest.raises(DomainError) as again:
        end_services.game_play_again(game=game, seat=_seat(game, 0))
    assert again.value.code == "not_finished"


def test_play_again_puts_a_computer_in_the_other_persons_seat(
    cards_db: None, owner: User, django_user_model: Any
) -> None:
    bea = django_user_model.objects.create_user("bea", password="pw-bea-123456")
    with dealt(8):
        game = game_create(
            creator=owner,
            format="preconstructed",
            seats=[ME, SeatRequest(kind="invite", username="bea")],
        )
    game_join(game=game, invite_code="", user=bea, guest_name="", deck=DeckChoice(preconstructed=3))
    game = game_concede(game=game_get(uid=game.uid), seat=_seat(game_get(uid=game.uid), 1))
    again = game_get(uid=end_services.game_play_again(game=game, seat=_seat(game, 0)).game.uid)
    assert (again.status, again.rematch_of_id, again.first_player) == (
        Status.PLAYING, None, None,
    )  # fmt: skip
    assert _seats(again) == [
        (0, "player", "", owner.pk, "Preconstructed deck 1", 8),
        (1, "agent", "greedy", None, "Preconstructed deck 3", 8),
    ]


def test_play_again_twice_gives_the_same_table(cards_db: None, owner: User) -> None:
    """A second click on Play again (a double click, the button pressed again after going back)
    made a second table: each seat plays a finished game again once."""
    game = _duel_played(owner)
    first = end_services.game_play_again(game=game, seat=_seat(game, 0))
    second = end_services.game_play_again(game=game_get(uid=game.uid), seat=_seat(game, 0))
    assert (first.created, second.created, second.game.pk) == (True, False, first.game.pk)
    assert Game.objects.count() == 2


# --- The API ----------------------------------------------------------------------------------


def test_the_rematch_api(cards_db: None, owner: User, olga_api: APIClient) -> None:
    game = _duel_played(owner)
    url = f"/api/v1/games/{game.uid}/rematch/"
    made = olga_api.post(url)
    assert made.status_code == 201
    rematch = Game.objects.get(rematch_of=game)
    body = made.json()
    assert (body["id"], body["status"], body["mode"], body["url"]) == (
        rematch.uid, "playing", "duel", f"/api/v1/games/{rematch.uid}/",
    )  # fmt: skip
    assert made["Location"] == body["url"]
    # Made before: the same table, 200; the finished game's view names it.
    assert olga_api.get(f"/api/v1/games/{game.uid}/").json()["rematch"] == rematch.uid
    assert olga_api.get(f"/api/v1/games/{rematch.uid}/").json()["rematch"] is None
    same = olga_api.post(url)
    assert (same.status_code, same.json()["id"]) == (200, rematch.uid)
    # Not a player of the game.
    stranger = APIClient()
    refused = stranger.post(url)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_seated")
    assert set(refused.json()) == {"code", "message", "details"}
    # Not finished: the rematch itself.
    early = olga_api.post(f"/api/v1/games/{rematch.uid}/rematch/")
    assert early.status_code == 409
    assert early.json() == {
        "code": "not_finished",
        "message": "This game is not over: its result screen comes at the end.",
        "details": {"game": rematch.uid},
    }
    again = olga_api.post(f"/api/v1/games/{game.uid}/play-again/")
    assert (again.status_code, again.json()["status"]) == (201, "playing")
    same = olga_api.post(f"/api/v1/games/{game.uid}/play-again/")
    assert (same.status_code, same.json()["id"]) == (200, again.json()["id"])


def test_a_guest_rematches_with_the_same_seat_token(
    cards_db: None, owner: User, olga_api: APIClient
) -> None:
    with dealt(8):
        game = game_create(
            creator=owner, format="preconstructed", seats=[ME, SeatRequest(kind="invite")]
        )
    guest = join_as_guest(game.uid, game.invite_code)
    conceded = guest.post(f"/api/v1/games/{game.uid}/concede/")
    assert conceded.status_code == 200
    made = guest.post(f"/api/v1/games/{game.uid}/rematch/")
    assert (made.status_code, made.json()["status"]) == (201, "waiting")
    uid = made.json()["id"]
    assert guest.get(f"/api/v1/games/{uid}/").json()["seat"] == "B"
    joined = olga_api.post(f"/api/v1/games/{game.uid}/rematch/")
    assert (joined.status_code, joined.json()["id"], joined.json()["status"]) == (
        200, uid, "playing",
    )  # fmt: skip


# --- The pages --------------------------------------------------------------------------------


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_result_screen_in_english_and_french(cards_db: None, owner: User) -> None:
    game = _duel_played(owner)
    page = _client(owner)
    html = page.get(f"/play/{game.uid}/").content.decode()
    assert '<h2 id="play-result-title" class="play-result-title">You won</h2>' in html
    assert (
        '<p class="play-result-how">The Stronghold of Computer (Greedy) (B) was destroyed: the '
        "Fort reached the rightmost place of the hand.</p>"
    ) in html
    assert f'action="/play/{game.uid}/rematch/"' in html
    assert '<button type="submit">Rematch</button>' in html
    assert '<button type="submit">Play again against the computer</button>' in html
    assert f'<a class="button" href="/play/{game.uid}/replay/">Watch the replay</a>' in html
    with translation.override("fr"):
        french = page.get(f"/fr/play/{game.uid}/").content.decode()
    assert '<h2 id="play-result-title" class="play-result-title">Vous avez gagné</h2>' in french
    assert "La Forteresse de Ordinateur (Glouton) (B) a été détruite" in french
    assert '<button type="submit">Revanche</button>' in french
    with translation.override("sv"):
        swedish = page.get(f"/sv/play/{game.uid}/").content.decode()
    assert '<h2 id="play-result-title" class="play-result-title">Du vann</h2>' in swedish
    assert '<button type="submit">Returmatch</button>' in swedish
    watched = Client().get(f"/play/{game.uid}/watch/{game.spectate_code}/").content.decode()
    assert "olga (A) won</h2>" in watched
    assert "Rematch" not in watched


def test_the_rematch_button_opens_the_new_table(cards_db: None, owner: User) -> None:
    game = _duel_played(owner)
    page = _client(owner)
    response = page.post(f"/play/{game.uid}/rematch/")
    rematch = Game.objects.get(rematch_of=game)
    assert (response.status_code, response["Location"]) == (302, f"/play/{rematch.uid}/")
    html = page.get(f"/play/{game.uid}/").content.decode()
    assert f'<a class="button" href="/play/{rematch.uid}/">Go to the rematch</a>' in html
    again = page.post(f"/play/{game.uid}/again/")
    assert again.status_code == 302 and Game.objects.count() == 3


def test_the_header_counts_only_games_in_play(cards_db: None, owner: User) -> None:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME, GREEDY])
    assert games_to_play(owner) == 1
    page = _client(owner)
    board = page.get(f"/play/{game.uid}/board/").content.decode()
    assert (
        '<span id="play-turns" hx-swap-oob="true"><a class="nav-turns" href="/play/">'
        "Your turn: 1 game</a></span>"
    ) in board
    game_concede(game=game, seat=_seat(game, 0))
    assert games_to_play(owner) == 0
    board = page.get(f"/play/{game.uid}/board/").content.decode()
    assert '<span id="play-turns" hx-swap-oob="true"></span>' in board


def test_no_card_can_be_played_after_the_assault(cards_db: None, owner: User) -> None:
    with dealt(8):
        game = game_create(creator=owner, format="preconstructed", seats=[ME, GREEDY])
    page = _client(owner)
    assert "(can be played)" in page.get(f"/play/{game.uid}/").content.decode()
    game_act(game=game, seat=_seat(game, 0), client_id="a", kind="assault", card=-1, arg=-1)
    game = game_get(uid=game.uid)
    assert game_legal_actions(game=game, seat=_seat(game, 0)) == [
        {"kind": "end_turn", "card": -1, "arg": -1}
    ]
    assert "(can be played)" not in page.get(f"/play/{game.uid}/").content.decode()


def test_a_coop_draft_rematch_drafts_again_from_its_pool(
    cards_db: None, owner: User, olga_api: APIClient
) -> None:
    """A Draft table's rematch drafts anew from the same pool (its decks were the draft's), and
    Co-op's AI seats get their piles when that game starts: no deck is copied over."""
    uid = _draft_table(olga_api, [COMPUTER], mode="coop", pool="01,02", seed=4)["id"]
    assert _draft_alone(olga_api, uid)["status"] == "playing"
    game = game_concede(game=game_get(uid=uid), seat=_seat(game_get(uid=uid), 0))
    assert game.replay is not None
    with dealt(5):
        made = olga_api.post(f"/api/v1/games/{uid}/rematch/")
    assert made.status_code == 201
    rematch = game_get(uid=made.json()["id"])
    assert (rematch.status, rematch.mode, rematch.format, rematch.draft_pool) == (
        Status.DRAFTING, "coop", "draft", game.draft_pool,
    )  # fmt: skip
    assert [(s.index, s.kind, s.agent, s.user_id, s.cards) for s in rematch.seats.all()] == [
        (0, "player", "", owner.pk, None),
        (1, "automaton", "", None, None),
        (2, "agent", "greedy", None, None),
        (3, "automaton", "", None, None),
    ]
    # Drafted again to its end: a new deal, the AI's two piles of 24 from what is left.
    assert _draft_alone(olga_api, rematch.uid)["status"] == "playing"
    seats = list(Seat.objects.filter(game=rematch).order_by("index"))
    assert [len(seat.cards or []) for seat in seats] == [8, 48, 8, 48]
    assert seats[0].slugs != list(Seat.objects.get(game=game, index=0).slugs)
