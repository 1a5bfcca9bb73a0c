"""Pages of games at a table: the lobby, a new table, the share link, the table itself with its
live updates.

Live updates are server-sent events (`table_stream`, `play.streams`): the page's `EventSource`
hears that an action was played and htmx reloads the board. A stream closes after
`PLAY_STREAM_SECONDS` and the browser opens the next; without EventSource, or while a stream is
refused (too many open), the board polls (`table_board` every 2 s).
"""

import uuid
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.selectors import (
    ability_names_in,
    ability_texts_in,
    card_names_in,
    card_slugs_by_engine_name,
)
from cod_site.api.throttles import page_throttled
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.stream_slots import Slot, slot_take
from cod_site.users import signed_in_user
from engine.display.replay_steps import replay_context
from engine.rules import SPECTATOR
from play import (
    chaos_selectors,
    choice_selectors,
    end_selectors,
    end_services,
    position_selectors,
    selectors,
    services,
    table_services,
    view_selectors,
)
from play.board import table_context
from play.forms import JoinForm, NewTableForm
from play.models import Game, Seat, Status
from play.streams import READERS, stream_response

SESSION_TOKENS = "play-seat-tokens"


def _token(request: HttpRequest, uid: str) -> str:
    tokens: dict[str, str] = request.session.get(SESSION_TOKENS, {})
    return tokens.get(uid, "")


def _table(request: HttpRequest, uid: str) -> tuple[Game, Seat]:
    try:
        game = selectors.game_get(uid=uid)
        seat = selectors.seat_required(game=game, user=request.user, token=_token(request, uid))
    except DomainError as error:
        raise Http404(error.message) from error
    return game, seat


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    groups = selectors.lobby_groups(user)
    context = {
        "groups": groups,
        "open_games": selectors.listed_games(user, Status.WAITING)[:50],
        "live_games": selectors.listed_games(user, Status.PLAYING)[:50],
        "chaos_tables": chaos_selectors.chaos_tables_of(user),
    }
    return render(request, "play/lobby.html", context)


@login_required
def table_new(request: HttpRequest) -> HttpResponse:
    form = NewTableForm(
        request.POST or None,
        sessions=choice_selectors.mutation_sessions(request.user),
        decks=choice_selectors.deck_choices(request.user),
        search_url=reverse("play:deck_search"),
        coop_ready=choice_selectors.coop_ready_decks(request.user),
        expansions=choice_selectors.draft_pool_choices(),
    )
    error: DomainError | None = None
    if request.method == "POST" and (refused := page_throttled(request, "games")):
        return refused
    if request.method == "POST" and form.is_valid():
        try:
            game = table_services.game_create(
                creator=signed_in_user(request),
                format=form.cleaned_data["format"],
                seats=form.seat_requests(),
                mode=form.cleaned_data["mode"],
                ai_level=form.chosen_level(),
                exhaustion=form.cleaned_data["exhaustion"],
                listed=form.cleaned_data["listed"],
                turn_seconds=form.cleaned_data["turn_seconds"],
                pool=form.cleaned_data["pool"],
            )
        except DomainError as refused:
            error = None if form.refusal_shown(refused) else refused
        else:
            return redirect("play:table", game.uid)
    return render(request, "play/new.html", {"form": form, "error": error})


def deck_search(request: HttpRequest) -> HttpResponse:
    """The options of the forms' public deck select: the public decks whose name matches `q`
    of the search field (htmx swaps them into the select)."""
    query = request.GET.get("deck_search", "")[:100]
    return render(
        request,
        "play/_deck_options.html",
        {"decks": choice_selectors.public_deck_search(query), "query": query},
    )


def table_join(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    return _join(request, uid, code)


@login_required
def table_invitation(request: HttpRequest, uid: str) -> HttpResponse:
    """The join page of a seat its visitor is invited to by username (the header's link): no
    share link's code needed (`play.table_services.game_join`). A rematch's seat, kept with their
    deck, is taken with one click on the finished game's result screen: the header leads there."""
    try:
        game = selectors.game_get(uid=uid)
    except DomainError as missing:
        raise Http404(missing.message) from missing
    finished = game.rematch_of
    if finished is not None and game.status == Status.WAITING:
        return redirect("play:table", finished.uid)
    return _join(request, uid, "")


def _join(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    try:
        game = selectors.game_get(uid=uid)
    except DomainError as missing:
        raise Http404(missing.message) from missing
    form = JoinForm(
        request.POST or None,
        sessions=choice_selectors.mutation_sessions(request.user),
        decks=choice_selectors.deck_choices(request.user),
        search_url=reverse("play:deck_search"),
        signed_in=request.user.is_authenticated,
    )
    error: DomainError | None = None
    if request.method == "POST" and form.is_valid():
        try:
            _seat, token = table_services.game_join(
                game=game,
                invite_code=code,
                user=request.user,
                guest_name=form.cleaned_data.get("guest_name", ""),
                deck=form.deck_choice(game.format),
                mutation_session=form.cleaned_data["mutation_session"],
            )
        except DomainError as refused:
            error = refused
        else:
            if token:
                tokens = dict(request.session.get(SESSION_TOKENS, {}))
                tokens[uid] = token
                request.session[SESSION_TOKENS] = tokens
            return redirect("play:table", uid)
    context = {"game": game, "form": form, "error": error, "seats": _seat_names(game)}
    if game.draft_pool is not None:
        context["draft_pool_name"] = selectors.draft_pool_name(game)
    return render(request, "play/join.html", context)


def _seat_names(game: Game) -> list[str]:
    return [selectors.seat_label(seat) for seat in game.seats.all()]


def _watched(uid: str, code: str) -> Game:
    try:
        return selectors.game_spectated(uid=uid, code=code)
    except DomainError as error:
        raise Http404(error.message) from error


def _board_context(
    game: Game,
    seat: Seat | None,
    *,
    chosen: int | None = None,
    since: int | None = None,
    after: int | None = None,
) -> dict[str, Any]:
    """The board of `seat` (None: a spectator's, `play.board.table_context`), and the URLs its
    page asks for the next board and listens to; `since` and `after`: the event and action
    counts of the page's last board, what happened since then played out on the board."""
    view = view_selectors.game_view(game=game, seat=seat)
    names = view_selectors.card_names(game)
    viewer = SPECTATOR if seat is None else seat.index
    language = current_language()
    local = card_names_in(language)
    # A draft's cards show their abilities' rules; the board names the abilities a creature is
    # given.
    abilities = ability_texts_in(language)
    observation = view_selectors.game_observation(game=game, seat=seat)
    context = table_context(
        view,
        observation,
        names,
        seat=viewer,
        chosen=chosen,
        since=since,
        local=local,
        abilities=abilities,
        slugs=card_slugs_by_engine_name(),
        playback=None
        if after is None
        else position_selectors.table_playback(game=game, seat=seat, after=after),
    )
    if seat is None:
        args = [game.uid, game.spectate_code]
        urls = {"board_url": reverse("play:watch_board", args=args)}
        urls["stream_url"] = reverse("play:watch_stream", args=args)
    else:
        urls = {"board_url": reverse("play:board", args=[game.uid])}
        urls["stream_url"] = reverse("play:stream", args=[game.uid])
    deadline = view["deadline"]
    context["out_of_time"] = deadline is not None and deadline <= timezone.now()
    context["shown"] = _shown(game)
    context["result"] = end_selectors.game_result(game=game, seat=seat)
    if context["result"] is not None and seat is not None:
        context["rematch"] = end_selectors.rematch_offer(game=game, seat=seat)
    if game.draft_pool is not None:
        context["draft_pool_name"] = selectors.draft_pool_name(game)
    return {"game": game, "seat": seat, "spectating": seat is None, **urls, **context}


def _shown(game: Game) -> str:
    """Which board the page shows: its poll sends it back (`_board`). A Draft table changes by
    its picks, then by its actions; a table waiting for a player by its status; a finished one
    by its rematch, offered to its players on the result screen."""
    shown = f"{game.action_count}-{game.pick_count}-{game.status}"
    if game.status != Status.FINISHED:
        return shown
    rematch = selectors.rematch_get(game=game)
    return shown if rematch is None else f"{shown}-{rematch.uid}"


def _choice(request: HttpRequest) -> dict[str, int | None]:
    """The board's state the page sends back: the chosen card and the event and action counts
    it showed."""
    chosen = _int(request.GET.get("card"))
    return {"chosen": chosen if chosen >= 0 else None, **_shown_counts(request.GET)}


def _shown_counts(data: Any) -> dict[str, int | None]:
    """The event (`since`) and action (`after`) counts of the page's last board, sent back by
    the board's requests and the action forms."""
    since = _int(data.get("since"))
    after = _int(data.get("after"))
    return {"since": since if since >= 0 else None, "after": after if after >= 0 else None}


def _table_page(request: HttpRequest, game: Game, seat: Seat | None) -> HttpResponse:
    context = _board_context(game, seat, **_choice(request))
    context["reconnect_ms"] = settings.PLAY_STREAM_RECONNECT_MS
    context["step_ms"] = settings.PLAY_STEP_MS
    return render(request, "play/table.html", context)


def _board(request: HttpRequest, game: Game, seat: Seat | None) -> HttpResponse:
    # The page's poll names the board it shows: nothing new, nothing to swap (htmx leaves the
    # board as it is on a 204), so the lines of what happened stay until a new board comes.
    if request.GET.get("shown") == _shown(game):
        return HttpResponse(status=204)
    context = _board_context(game, seat, **_choice(request))
    # The header's count of games waiting for my move follows the board (htmx's out-of-band
    # swap): it stayed "Your turn: 1 game" once this game ended (issue 29).
    context["header_update"] = True
    return render(request, "play/_board.html", context)


def table(request: HttpRequest, uid: str) -> HttpResponse:
    game, seat = _table(request, uid)
    return _table_page(request, game, seat)


def table_board(request: HttpRequest, uid: str) -> HttpResponse:
    game, seat = _table(request, uid)
    return _board(request, game, seat)


def watch(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    """The table as a spectator sees it: every hand as backs, no controls."""
    return _table_page(request, _watched(uid, code), None)


def watch_board(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    return _board(request, _watched(uid, code), None)


def table_replay(request: HttpRequest, uid: str) -> HttpResponse:
    """A finished game turn by turn, for its players and, for a listed game, anyone (who could
    watch it while it was played)."""
    try:
        game = selectors.game_get(uid=uid)
    except DomainError as error:
        raise Http404(error.message) from error
    if not selectors.replay_visible(game=game, user=request.user, token=_token(request, uid)):
        raise Http404(_("There is no such game."))
    return _replay(request, game, reverse("play:replay", args=[uid]))


def watch_replay(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    return _replay(request, _watched(uid, code), reverse("play:watch_replay", args=[uid, code]))


def _replay(request: HttpRequest, game: Game, here: str) -> HttpResponse:
    """The replay viewer of the test games (`engine/replay.html`'s frame) on a finished table;
    a 404 before the end: the replay shows every hand."""
    try:
        replay = position_selectors.game_frames(game)
    except DomainError as error:
        raise Http404(error.message) from error
    frames = replay.frames
    letters = [player.letter for player in frames[0].players.seats]
    names = _seat_names(game)
    language = current_language()
    local = card_names_in(language)
    context = {
        "game": game,
        "winners": [selectors.index_letter(winner) for winner in game.winners],
        **replay_context(
            request.GET,
            frames,
            here,
            cards=[local.get(name, name) for name in replay.names],
            # Each card drawn from its played values, named in the page's language, as the
            # table draws it: the same board for the same position.
            faces={},
            local=local,
            abilities=ability_names_in(language),
            labels={},
            letters=letters,
            titles=[f"{name} ({letter})" for name, letter in zip(names, letters, strict=True)],
            slugs=card_slugs_by_engine_name(),
        ),
    }
    return render(request, "play/replay.html", context)


@require_POST
def table_act(request: HttpRequest, uid: str) -> HttpResponse:
    game, seat = _table(request, uid)
    error: DomainError | None = None
    kind = request.POST.get("kind", "")
    # The page's forms carry an id, so that a form sent twice plays once; without one, each
    # request is its own.
    client_id = request.POST.get("client_id", "")[:64] or uuid.uuid4().hex
    try:
        if kind == "pick":
            game = services.game_pick(
                game=game,
                seat=seat,
                client_id=client_id,
                cards=[_int(card) for card in request.POST.getlist("card")[:8]],
            )
        elif kind == "concede":
            game = services.game_concede(game=game, seat=seat)
        elif kind == "claim_time":
            game = services.game_timeout_claim(game=game)
        else:
            game = services.game_act(
                game=game,
                seat=seat,
                client_id=client_id,
                kind=kind,
                card=_int(request.POST.get("card")),
                arg=_int(request.POST.get("arg")),
            )
    except DomainError as refused:
        error = refused
        # Often refused because the game moved on (another seat played, it ended): the board as
        # it is now. Played, the service's game is that board already.
        game = selectors.game_get(uid=uid)
    shown = _shown_counts(request.POST)
    context = _board_context(game, seat, **shown)
    context["error"] = error
    context["header_update"] = True
    if request.headers.get("HX-Request"):
        return render(request, "play/_board.html", context)
    # Without JS: the table again, with what happened since the page's board.
    table_url = reverse("play:table", args=[uid])
    since, after = shown["since"], shown["after"]
    if since is None:
        return redirect(table_url)
    return redirect(f"{table_url}?since={since}" + ("" if after is None else f"&after={after}"))


def _token_carried(request: HttpRequest, old: str, new: Game) -> None:
    """A guest's seat token of the finished table `old` plays their seat of `new` too."""
    tokens = dict(request.session.get(SESSION_TOKENS, {}))
    if old in tokens:
        tokens[new.uid] = tokens[old]
        request.session[SESSION_TOKENS] = tokens


@require_POST
def table_rematch(request: HttpRequest, uid: str) -> HttpResponse:
    """The result screen's Rematch (and the other players' Join the rematch): the rematch's
    table (`play.end_services.game_rematch`)."""
    return _next_table(
        request, uid, lambda game, seat: end_services.game_rematch(game=game, seat=seat).game
    )


@require_POST
def table_play_again(request: HttpRequest, uid: str) -> HttpResponse:
    """The result screen's Play again against the computer: the new table."""
    return _next_table(
        request, uid, lambda game, seat: end_services.game_play_again(game=game, seat=seat).game
    )


def _next_table(request: HttpRequest, uid: str, make: Callable[[Game, Seat], Game]) -> HttpResponse:
    """The result screen's buttons: the table `make` gives for the finished game and my seat,
    my seat's token carried to it; a refusal shown on the finished table."""
    game, seat = _table(request, uid)
    try:
        table = make(game, seat)
    except DomainError as refused:
        context = _board_context(game, seat)
        context["error"] = refused
        context["reconnect_ms"] = settings.PLAY_STREAM_RECONNECT_MS
        context["step_ms"] = settings.PLAY_STEP_MS
        return render(request, "play/table.html", context, status=refused.status_code)
    _token_carried(request, uid, table)
    return redirect("play:table", table.uid)


def _int(value: str | None) -> int:
    try:
        return int(value or "-1")
    except ValueError:
        return -1


async def table_stream(request: HttpRequest, uid: str) -> HttpResponseBase:
    return await sync_to_async(_stream_open)(request, lambda: _table(request, uid)[0])


async def watch_stream(request: HttpRequest, uid: str, code: str) -> HttpResponseBase:
    return await sync_to_async(_stream_open)(request, lambda: _watched(uid, code))


def _stream_open(request: HttpRequest, find: Callable[[], Game]) -> HttpResponseBase:
    """The game's live stream (`play.streams`), once `find` let the visitor in (else a 404)
    and a stream slot is free (else a 429, `cod_site.stream_slots`). Async views: the stream
    waits in the event loop under ASGI."""
    try:
        with READERS:
            game = find()
        slot = slot_take(request, settings.PLAY_STREAM_SECONDS)
    finally:
        if isinstance(request, ASGIRequest):
            # This thread's connection back to the pool: the stream holds none while it waits.
            close_old_connections()
    if not isinstance(slot, Slot):
        return slot
    return stream_response(request, game, slot)
