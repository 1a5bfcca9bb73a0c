"""Invitations by username (issue 29, "a way in"): a seat kept for one account, which only it
may take (with the share link or without), shown in its header until it joins or the table
ends; the refusals of the service, the API and the new-table form."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from rest_framework.test import APIClient

from cod_site.errors import DomainError
from engine.adapters.decks import DeckChoice
from play.models import Game, Mode, Status
from play.selectors import invitations_of, listed_games, seat_label
from play.services import game_concede
from play.table_services import SeatRequest, game_create, game_join

from .conftest import create_table

pytestmark = pytest.mark.django_db

ME = SeatRequest(kind="me", deck=DeckChoice(preconstructed=1))
DECK_2 = DeckChoice(preconstructed=2)


@pytest.fixture
def cy(django_user_model: Any) -> User:
    user: User = django_user_model.objects.create_user("cy", password="pw-cy-123456789")
    return user


def _invite(creator: User, username: str, *, listed: bool = False) -> Game:
    return game_create(
        creator=creator,
        format="preconstructed",
        seats=[ME, SeatRequest(kind="invite", username=username)],
        listed=listed,
    )


def _refusal(creator: User, seats: list[SeatRequest], mode: str = Mode.DUEL) -> DomainError:
    with pytest.raises(DomainError) as refused:
        game_create(creator=creator, format="preconstructed", seats=seats, mode=mode)
    return refused.value


# The services.


def test_an_invited_seat_is_kept_for_its_player_who_joins_without_the_link(
    cards_db: None, owner: User, other: User
) -> None:
    game = _invite(owner, "oscar")
    seat = next(seat for seat in game.seats.all() if seat.index == 1)
    assert (seat.invited, seat.user, seat.taken) == (other, None, False)
    assert seat_label(seat) == "oscar (invited)"
    assert invitations_of(other) == [seat]
    joined, token = game_join(game=game, invite_code="", user=other, guest_name="", deck=DECK_2)
    assert (joined.pk, joined.user, token) == (seat.pk, other, "")
    game.refresh_from_db()
    assert game.status == Status.PLAYING
    # Joined: the header shows the invitation no more.
    assert invitations_of(other) == []


def test_the_share_link_works_for_the_invited_player(
    cards_db: None, owner: User, other: User
) -> None:
    game = _invite(owner, "oscar")
    joined, _token = game_join(
        game=game, invite_code=game.invite_code, user=other, guest_name="", deck=DECK_2
    )
    assert (joined.index, joined.user) == (1, other)


def test_no_one_else_takes_an_invited_seat(
    cards_db: None, owner: User, other: User, cy: User
) -> None:
    game = _invite(owner, "oscar", listed=True)
    for user, name in ((cy, ""), (AnonymousUser(), "Gus")):
        with pytest.raises(DomainError) as refused:
            game_join(
                game=game, invite_code=game.invite_code, user=user, guest_name=name, deck=DECK_2
            )
        error = refused.value
        assert (error.status_code, error.code, error.message, error.details) == (
            403,
            "seat_invited",
            "The open seats of this table are kept for the players invited to them.",
            {},
        )
    # Without the link, no one but the invited player is let in at all.
    unlisted = _invite(owner, "oscar")
    with pytest.raises(DomainError) as refused:
        game_join(game=unlisted, invite_code="", user=cy, guest_name="", deck=DECK_2)
    assert (refused.value.status_code, refused.value.code) == (403, "bad_invite")
    # A listed table whose only open seat is kept is not among the open tables.
    assert list(listed_games(cy, Status.WAITING)) == []
    assert next(seat for seat in game.seats.all() if seat.index == 1).user is None


def test_others_take_the_seats_invited_by_no_username(
    cards_db: None, owner: User, other: User, cy: User
) -> None:
    game = game_create(
        creator=owner,
        format="preconstructed",
        mode=Mode.FREE_FOR_ALL,
        seats=[
            ME,
            SeatRequest(kind="invite", username="oscar"),
            SeatRequest(kind="invite"),
            SeatRequest(kind="agent", agent="random"),
        ],
        listed=True,
    )
    # Listed with a seat for anyone: among the open tables, once.
    assert list(listed_games(cy, Status.WAITING)) == [game]
    # Cy, first to come, takes C, not the seat kept for Oscar; then Oscar, by the link, takes B.
    seat, _token = game_join(
        game=game, invite_code=game.invite_code, user=cy, guest_name="", deck=DECK_2
    )
    assert seat.index == 2
    seat, _token = game_join(
        game=game, invite_code=game.invite_code, user=other, guest_name="", deck=DECK_2
    )
    assert seat.index == 1
    game.refresh_from_db()
    assert game.status == Status.PLAYING


def test_an_invited_player_is_sent_to_their_seat_first(
    cards_db: None, owner: User, other: User
) -> None:
    game = game_create(
        creator=owner,
        format="preconstructed",
        mode=Mode.FREE_FOR_ALL,
        seats=[
            ME,
            SeatRequest(kind="invite"),
            SeatRequest(kind="agent", agent="random"),
            SeatRequest(kind="invite", username="oscar"),
        ],
    )
    seat, _token = game_join(game=game, invite_code="", user=other, guest_name="", deck=DECK_2)
    assert seat.index == 3


def test_an_invitation_leaves_the_header_when_the_table_closes(
    cards_db: None, owner: User, other: User
) -> None:
    game = _invite(owner, "oscar")
    creator = next(seat for seat in game.seats.all() if seat.index == 0)
    game_concede(game=game, seat=creator)
    assert invitations_of(other) == []


def test_unknown_users_myself_and_twice_are_refused(
    cards_db: None, owner: User, other: User, django_user_model: Any
) -> None:
    error = _refusal(owner, [ME, SeatRequest(kind="invite", username="nobody")])
    assert (error.status_code, error.code, error.message, error.details) == (
        400,
        "unknown_user",
        "No player is named nobody.",
        {"field": "username", "side": "b", "username": "nobody"},
    )
    # Usernames are exact: "Oscar" is not oscar; an inactive account is no one's to invite.
    assert (
        _refusal(owner, [ME, SeatRequest(kind="invite", username="Oscar")]).code == "unknown_user"
    )
    django_user_model.objects.create_user("gone", password="pw-gone-1234567", is_active=False)
    assert _refusal(owner, [ME, SeatRequest(kind="invite", username="gone")]).code == "unknown_user"
    error = _refusal(owner, [ME, SeatRequest(kind="invite", username="olga")])
    assert (error.code, error.message, error.details) == (
        "invite_self",
        "You cannot invite yourself.",
        {"field": "username", "side": "b", "username": "olga"},
    )
    oscar = SeatRequest(kind="invite", username="oscar")
    error = _refusal(
        owner, [ME, oscar, SeatRequest(kind="agent", agent="random"), oscar], Mode.FREE_FOR_ALL
    )
    assert (error.code, error.message, error.details) == (
        "invited_twice",
        "oscar is invited to another seat already.",
        {"field": "username", "side": "d", "username": "oscar"},
    )
    error = _refusal(owner, [ME, SeatRequest(kind="agent", agent="random", username="oscar")])
    assert (error.code, error.details) == (
        "username_without_invite",
        {"field": "username", "side": "b", "username": "oscar"},
    )
    assert Game.objects.count() == 0


# The API.


def test_the_api_opens_a_table_with_an_invited_seat(
    olga_api: APIClient, other: User, cy: User
) -> None:
    table = create_table(olga_api, {"kind": "invite", "username": "oscar"})
    assert table["status"] == "waiting"
    assert table["seats"] == [
        {"seat": "A", "name": "olga", "kind": "player"},
        {"seat": "B", "name": "oscar (invited)", "kind": "player"},
    ]
    join = f"/api/v1/games/{table['id']}/join/"
    body = {"invite_code": table["invite_code"], "deck": {"preconstructed": 2}}
    intruder = APIClient()
    intruder.force_authenticate(cy)
    refused = intruder.post(join, body, format="json")
    assert (refused.status_code, refused.json()) == (
        403,
        {
            "code": "seat_invited",
            "message": "The open seats of this table are kept for the players invited to them.",
            "details": {},
        },
    )
    oscar = APIClient()
    oscar.force_authenticate(other)
    joined = oscar.post(join, {"deck": {"preconstructed": 2}}, format="json")
    assert (joined.status_code, joined.json()) == (200, {"seat": "B", "seat_token": ""})
    assert oscar.get(f"/api/v1/games/{table['id']}/").json()["status"] == "playing"


def test_the_api_refuses_an_unknown_username_and_myself_with_400(
    olga_api: APIClient, other: User
) -> None:
    def post(username: str) -> Any:
        return olga_api.post(
            "/api/v1/games/",
            {
                "format": "preconstructed",
                "seats": [
                    {"kind": "me", "deck": {"preconstructed": 1}},
                    {"kind": "invite", "username": username},
                ],
            },
            format="json",
        )

    unknown = post("nobody")
    assert (unknown.status_code, unknown.json()) == (
        400,
        {
            "code": "unknown_user",
            "message": "No player is named nobody.",
            "details": {"field": "username", "side": "b", "username": "nobody"},
        },
    )
    myself = post("olga")
    assert (myself.status_code, myself.json()) == (
        400,
        {
            "code": "invite_self",
            "message": "You cannot invite yourself.",
            "details": {"field": "username", "side": "b", "username": "olga"},
        },
    )
    assert Game.objects.count() == 0


# The pages.


@pytest.fixture
def ana(cards_db: None, owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def _form(**seat: str) -> dict[str, str]:
    return {"format": "preconstructed", "preconstructed": "1", "opponent": "invite", **seat}


def test_the_form_invites_by_username_and_the_header_shows_it(
    ana: Client, other: User, cy: User
) -> None:
    response = ana.post("/play/new/", _form(opponent_username=" oscar "))
    game = Game.objects.get()
    assert response["Location"] == f"/play/{game.uid}/"
    oscar = Client()
    oscar.force_login(other)
    header = oscar.get("/").content.decode()
    link = f'<a class="nav-turns" href="/play/{game.uid}/invitation/">Invited by olga</a>'
    assert link in header
    lobby = oscar.get("/play/").content.decode()
    assert '<h2 id="invitations">Invitations (1)</h2>' in lobby
    # Cy is not invited: nothing in her header; her join is refused, at the link's page too.
    intruder = Client()
    intruder.force_login(cy)
    assert "/invitation/" not in intruder.get("/").content.decode()
    page = intruder.post(
        f"/play/{game.uid}/join/{game.invite_code}/", {"preconstructed": "2"}
    ).content.decode()
    assert (
        '<p class="message message-error" role="alert">The open seats of this table are kept '
        "for the players invited to them.</p>"
    ) in page
    page = intruder.post(f"/play/{game.uid}/invitation/", {"preconstructed": "2"})
    assert "This invitation link is not valid." in page.content.decode()
    # Oscar takes the seat from the header's link: the invitation leaves his header.
    taken = oscar.post(f"/play/{game.uid}/invitation/", {"preconstructed": "2"})
    assert taken["Location"] == f"/play/{game.uid}/"
    assert "Invited by" not in oscar.get("/").content.decode()


def test_the_header_counts_several_invitations(ana: Client, owner: User, other: User) -> None:
    for _ in range(2):
        _invite(owner, "oscar")
    oscar = Client()
    oscar.force_login(other)
    header = oscar.get("/").content.decode()
    assert '<a class="nav-turns" href="/play/#invitations">Invitations: 2 tables</a>' in header


def test_the_form_shows_an_unknown_username_at_its_field(ana: Client, other: User) -> None:
    response = ana.post("/play/new/", _form(opponent_username="nobody"))
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors == {"opponent_username": ["No player is named nobody."]}
    assert response.context["error"] is None
    response = ana.post("/play/new/", _form(opponent_username="olga"))
    assert response.context["form"].errors == {"opponent_username": ["You cannot invite yourself."]}
    # Co-op: the partner is seat C, its username the form's first seat's.
    response = ana.post(
        "/play/new/",
        {"mode": "coop", "format": "draft", "opponent": "invite", "opponent_username": "nobody"},
    )
    assert response.context["form"].errors == {"opponent_username": ["No player is named nobody."]}
    assert Game.objects.count() == 0


def test_a_username_with_a_computer_seat_is_not_read(ana: Client, other: User) -> None:
    response = ana.post("/play/new/", _form(opponent="agent:random", opponent_username="oscar"))
    assert response.status_code == 302
    game = Game.objects.get()
    assert [seat.invited for seat in game.seats.all()] == [None, None]


@pytest.mark.parametrize(
    ("language", "header", "refusal"),
    [
        ("fr", "Invitation de olga", "Aucun joueur ne s&#x27;appelle nobody."),
        ("sv", "Inbjudan från olga", "Ingen spelare heter nobody."),
    ],
)
def test_the_invitation_and_its_refusals_are_translated(
    ana: Client, owner: User, other: User, language: str, header: str, refusal: str
) -> None:
    _invite(owner, "oscar")
    oscar = Client()
    oscar.force_login(other)
    assert header in oscar.get(f"/{language}/").content.decode()
    page = ana.post(f"/{language}/play/new/", _form(opponent_username="nobody"))
    assert refusal in page.content.decode()
