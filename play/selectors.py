"""Reads of the play app's tables: a game and its seats, who holds a seat (an account, a guest's
token, a link's code), the names of seats and computer players, and the lists of tables (the
lobby, the header's counts). A table's position: `play.position_selectors`; what a seat sees of
it: `play.view_selectors`; the forms' choices: `play.choice_selectors`."""

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Prefetch, QuerySet
from django.utils.translation import gettext as _

from cards.models import Expansion
from cards.selectors import translated
from cod_site.errors import DomainError
from engine.adapters.play import current_ladder
from engine.rules import PLAYER_NAMES
from play.models import Agent, Game, Seat, SeatKind, Status


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def code_matches(given: str, code: str) -> bool:
    """Whether `given` is a table's invite or spectate `code`, in constant time; any text may be
    given (a link's code is whatever its URL says: `compare_digest` takes ASCII only as text)."""
    return secrets.compare_digest(given.encode(), code.encode())


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """`games` with their seats and the seats' accounts (the invited ones' too), in one query
    after the games'."""
    # By index alone: the seats' default order (game, index) orders by the game's own (its
    # table joined in the query) to the same end, a game's seats by index.
    seats = Seat.objects.select_related("user", "invited").order_by("index")
    return games.prefetch_related(Prefetch("seats", queryset=seats))


def game_get(*, uid: str) -> Game:
    """The game `uid` with its seats, or a 404 `not_found`."""
    # `get`, not `first`: a uid is unique, and `first` orders by the games' default order.
    try:
        return with_seats(Game.objects.all()).get(uid=uid)
    except Game.DoesNotExist:
        raise DomainError("not_found", _("There is no such game."), {}, status_code=404) from None


def game_spectated(*, uid: str, code: str) -> Game:
    """The game `uid` for who holds its spectate link's `code`; a 404 `not_found` for a wrong
    code too (it tells no more than a missing game)."""
    game = game_get(uid=uid)
    if not code_matches(code, game.spectate_code):
        raise DomainError("not_found", _("There is no such game."), {}, status_code=404)
    return game


def throttle_ident(*, uid: str, token: str, code: str) -> str | None:
    """Whom an anonymous API request of game `uid` is throttled as: the guest's seat of
    `token`, or the spectate link of `code`, when they name one of the game (None: neither)."""
    if token:
        seat = Seat.objects.filter(game__uid=uid, token_hash=token_hash(token)).first()
        return None if seat is None else f"seat-{seat.pk}"
    if code and Game.objects.filter(uid=uid, spectate_code=code).exists():
        return f"link-{uid}"
    return None


def turn_deadline(game: Game) -> datetime | None:
    """When the time of the seat to play runs out (None: no time per turn, or no player's turn
    running: a computer seat answers at once)."""
    if game.status != Status.PLAYING or game.turn_seconds is None or game.turn_started_at is None:
        return None
    return game.turn_started_at + timedelta(seconds=game.turn_seconds)


def seat_of(*, game: Game, user: User | AnonymousUser, token: str = "") -> Seat | None:
    """The seat of the requester: the guest whose seat token is `token`, else the account's."""
    seats = list(game.seats.all())
    if token:
        hashed = token_hash(token)
        for seat in seats:
            if seat.token_hash and seat.token_hash == hashed:
                return seat
    if user.is_authenticated:
        for seat in seats:
            if seat.user_id == user.pk:
                return seat
    return None


def seat_required(*, game: Game, user: User | AnonymousUser, token: str = "") -> Seat:
    """The requester's seat, or a 403 `not_seated` (only the players see a game in play)."""
    seat = seat_of(game=game, user=user, token=token)
    if seat is None:
        raise DomainError(
            "not_seated", _("You have no seat at this table."), {"game": game.uid}, status_code=403
        )
    return seat


def agents_by_strength() -> list[str]:
    """The computer players a table may seat, strongest first as the strength ladder
    (`engine/agent_ladder.json`) rates them; one it does not rate comes last."""
    ladder = current_ladder()
    unrated = len(ladder.agents) + 1

    def rank(agent: str) -> int:
        standing = ladder.of(agent)
        return unrated if standing is None else standing.rank

    return sorted(Agent.values, key=rank)


def agent_label(agent: str) -> str:
    """A computer player's name, and for the ladder's strongest and weakest of a table's
    players, which."""
    ranked = agents_by_strength()
    name = str(Agent(agent).label)
    if agent == ranked[0]:
        return _("%(agent)s (strongest)") % {"agent": name}
    if agent == ranked[-1]:
        return _("%(agent)s (weakest)") % {"agent": name}
    return name


def agent_choices() -> list[tuple[str, str]]:
    """The computer players to choose from, strongest first (`agent_label`)."""
    return [(agent, agent_label(agent)) for agent in agents_by_strength()]


def seat_label(seat: Seat) -> str:
    if seat.kind == SeatKind.AUTOMATON:
        return _("The AI (level %(level)s)") % {"level": seat.game.ai_level}
    if seat.kind == SeatKind.AGENT:
        return _("Computer (%(agent)s)") % {"agent": agent_label(seat.agent)}
    if seat.user is not None:
        return seat.user.get_username()
    if seat.guest_name:
        return _("%(name)s (guest)") % {"name": seat.guest_name}
    if seat.invited is not None:
        return _("%(name)s (invited)") % {"name": seat.invited.get_username()}
    return _("open seat")


def draft_pool_name(game: Game) -> str:
    """The expansions a Draft table drafts from, by their names in the page's language (the
    stored slugs read "Draft dans treachery": issue 29)."""
    slugs = [slug for slug in game.draft_expansion.split(",") if slug]
    found = Expansion.objects.filter(slug__in=slugs).prefetch_related("translations")
    by_slug = {expansion.slug: expansion for expansion in found}
    return ", ".join(
        translated(by_slug[slug], "name").text if slug in by_slug else slug for slug in slugs
    )


def replay_visible(*, game: Game, user: User | AnonymousUser, token: str = "") -> bool:
    """Whether the requester may open the game's replay page: its players, and anyone for a
    listed game (they could watch it while it was played)."""
    return game.listed or seat_of(game=game, user=user, token=token) is not None


def index_letter(index: int) -> str:
    return PLAYER_NAMES[index]


def games_of(user: User) -> QuerySet[Game]:
    """The games where `user` has a seat, last played first."""
    return with_seats(Game.objects.filter(seats__user=user).distinct())


def lobby_groups(user: User) -> dict[str, list[Game]]:
    """The last 100 games of `user` (`games_of`) by what they wait for: `my_turn`,
    `their_turn`, `waiting` (for a player), `over`."""
    groups: dict[str, list[Game]] = {"my_turn": [], "their_turn": [], "waiting": [], "over": []}
    for game in games_of(user)[:100]:
        seat = seat_of(game=game, user=user)
        if game.status == Status.WAITING:
            groups["waiting"].append(game)
        elif game.status == Status.FINISHED:
            groups["over"].append(game)
        elif seat is not None and game.active_seat == seat.index:
            groups["my_turn"].append(game)
        else:
            groups["their_turn"].append(game)
    return groups


def game_progress(game: Game) -> tuple[int, int, str] | None:
    """The game's action count, Draft pick count and status as stored now (None: deleted),
    what the table's stream watches."""
    row = (
        Game.objects.filter(pk=game.pk).values_list("action_count", "pick_count", "status").first()
    )
    return None if row is None else (row[0], row[1], row[2])


def games_to_play(user: User) -> int:
    """How many games wait for `user`'s move: in play or drafting, with the turn or the pick at
    one of their seats (every page's header marker)."""
    # One join: the seat that is the user's is the seat to play (a user holds one seat a game).
    return Game.objects.filter(
        status__in=[Status.PLAYING, Status.DRAFTING],
        seats__user=user,
        seats__index=F("active_seat"),
    ).count()


def invitations_of(user: User) -> list[Seat]:
    """The seats `user` is invited to by username and has not taken yet, at tables still
    waiting for a player (every page's header shows them), the latest first, with their game
    and its creator."""
    return list(
        Seat.objects.filter(invited=user, user__isnull=True, game__status=Status.WAITING)
        .select_related("game__created_by")
        .order_by("-game__created_at", "-game__id")
    )


def listed_games(user: User | AnonymousUser, status: str) -> QuerySet[Game]:
    """Listed tables of `status` (waiting: open to join, with a seat that no one is invited to
    by username; playing: anyone may watch them), except those where the requester sits."""
    games = Game.objects.filter(status=status, listed=True)
    if status == Status.WAITING:
        games = games.filter(
            seats__kind=SeatKind.PLAYER,
            seats__user__isnull=True,
            seats__token_hash="",
            seats__invited__isnull=True,
        )
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
    return with_seats(games.distinct())


def game_replay(*, game: Game) -> dict[str, Any]:
    """The engine replay of a finished game (`engine.rules.replay` JSON); 409 `not_finished`
    before: a replay holds every hand."""
    if game.status != Status.FINISHED or game.replay is None:
        raise DomainError(
            "not_finished",
            _("The replay is available once the game is over."),
            {"game": game.uid},
            status_code=409,
        )
    replay: dict[str, Any] = game.replay
    return replay


def rematch_get(*, game: Game) -> Game | None:
    """The rematch of `game` with its seats (None: none was made)."""
    return with_seats(Game.objects.filter(rematch_of=game)).first()
