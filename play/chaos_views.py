"""Pages of Duel of Chaos tables: a new table, the invite link, the table with its live updates
(the same server-sent events as Clash tables: `play.streams`), its actions, the replay."""

import uuid
from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cod_site.api.throttles import page_throttled
from cod_site.errors import DomainError
from cod_site.stream_slots import Slot, slot_take
from cod_site.users import signed_in_user
from engine.chaos.events import SEATS
from play import chaos_selectors as selectors
from play import chaos_services as services
from play.forms import ChaosJoinForm, ChaosNewForm
from play.models import ChaosSeat, ChaosTable, Status
from play.streams import READERS, progress_stream

SESSION_TOKENS = "play-chaos-seat-tokens"


def _token(request: HttpRequest, uid: str) -> str:
    tokens: dict[str, str] = request.session.get(SESSION_TOKENS, {})
    return tokens.get(uid, "")


def _table(request: HttpRequest, uid: str) -> tuple[ChaosTable, ChaosSeat]:
    try:
        table = selectors.chaos_table_get(uid=uid)
        seat = selectors.chaos_seat_required(
            table=table, user=request.user, token=_token(request, uid)
        )
    except DomainError as error:
        raise Http404(error.message) from error
    return table, seat


def _watched(uid: str, code: str) -> ChaosTable:
    try:
        return selectors.chaos_table_spectated(uid=uid, code=code)
    except DomainError as error:
        raise Http404(error.message) from error


@login_required
def chaos_new(request: HttpRequest) -> HttpResponse:
    form = ChaosNewForm(request.POST or None)
    error: DomainError | None = None
    # The same throttle as opening a Clash table (`games`).
    if request.method == "POST" and (refused := page_throttled(request, "games")):
        return refused
    if request.method == "POST" and form.is_valid():
        kind, agent = form.opponent_kind()
        try:
            table = services.chaos_table_create(
                creator=signed_in_user(request), opponent=kind, agent=agent or "search"
            )
        except DomainError as refused_error:
            error = refused_error
        else:
            return redirect("play:chaos_table", table.uid)
    return render(request, "play/chaos/new.html", {"form": form, "error": error})


def chaos_join(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    try:
        table = selectors.chaos_table_get(uid=uid)
    except DomainError as missing:
        raise Http404(missing.message) from missing
    form = ChaosJoinForm(request.POST or None)
    error: DomainError | None = None
    if request.method == "POST" and form.is_valid():
        try:
            _seat, token = services.chaos_table_join(
                table=table,
                invite_code=code,
                user=request.user,
                guest_name=form.cleaned_data["guest_name"],
            )
        except DomainError as refused:
            error = refused
        else:
            if token:
                tokens = dict(request.session.get(SESSION_TOKENS, {}))
                tokens[uid] = token
                request.session[SESSION_TOKENS] = tokens
            return redirect("play:chaos_table", uid)
    labels = [selectors.chaos_seat_label(seat) for seat in table.seats.all()]
    context = {"table": table, "form": form, "error": error, "seats": labels}
    return render(request, "play/chaos/join.html", context)


def _context(table: ChaosTable, seat: ChaosSeat | None) -> dict[str, object]:
    if seat is None:
        args = [table.uid, table.spectate_code]
        urls = {
            "board_url": reverse("play:chaos_watch_board", args=args),
            "stream_url": reverse("play:chaos_watch_stream", args=args),
            "replay_url": reverse("play:chaos_watch_replay", args=args),
        }
    else:
        urls = {
            "board_url": reverse("play:chaos_board", args=[table.uid]),
            "stream_url": reverse("play:chaos_stream", args=[table.uid]),
            "replay_url": reverse("play:chaos_replay", args=[table.uid]),
        }
    board = selectors.chaos_board(table, seat)
    my_turn = seat is not None and table.status == Status.PLAYING and table.to_move == seat.index
    return {
        "table": table,
        "seat": seat,
        "spectating": seat is None,
        "board": board,
        "my_turn": my_turn,
        **urls,
    }


def chaos_table(request: HttpRequest, uid: str) -> HttpResponse:
    table, seat = _table(request, uid)
    context = _context(table, seat)
    context["reconnect_ms"] = settings.PLAY_STREAM_RECONNECT_MS
    return render(request, "play/chaos/table.html", context)


def _board(request: HttpRequest, table: ChaosTable, seat: ChaosSeat | None) -> HttpResponse:
    if request.GET.get("shown") == f"{table.action_count}-{table.status}":
        return HttpResponse(status=204)
    return render(request, "play/chaos/_board.html", _context(table, seat))


def chaos_board(request: HttpRequest, uid: str) -> HttpResponse:
    table, seat = _table(request, uid)
    return _board(request, table, seat)


def chaos_watch(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    context = _context(_watched(uid, code), None)
    context["reconnect_ms"] = settings.PLAY_STREAM_RECONNECT_MS
    return render(request, "play/chaos/table.html", context)


def chaos_watch_board(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    return _board(request, _watched(uid, code), None)


@require_POST
def chaos_act(request: HttpRequest, uid: str) -> HttpResponse:
    table, seat = _table(request, uid)
    error: DomainError | None = None
    client_id = request.POST.get("client_id", "")[:64] or uuid.uuid4().hex
    try:
        table = services.chaos_table_act(
            table=table,
            seat=seat,
            client_id=client_id,
            kind=_int(request.POST.get("kind")),
            value=_int(request.POST.get("value")),
        )
    except DomainError as refused:
        error = refused
    table = selectors.chaos_table_get(uid=uid)
    if request.headers.get("HX-Request"):
        context = _context(table, seat)
        context["error"] = error
        return render(request, "play/chaos/_board.html", context, status=200)
    if error is not None:
        context = _context(table, seat)
        context["error"] = error
        context["reconnect_ms"] = settings.PLAY_STREAM_RECONNECT_MS
        return render(request, "play/chaos/table.html", context, status=400)
    return redirect("play:chaos_table", uid)


def _int(value: str | None) -> int:
    try:
        return int(value or "-1")
    except ValueError:
        return -1


def _replay(request: HttpRequest, table: ChaosTable, here: str) -> HttpResponse:
    """A finished table step by step, from the view of a seat or the public view (a 404 before
    the end: the replay holds the seed and every hidden card)."""
    if table.status != Status.FINISHED:
        raise Http404("The game is not over.")
    labels = [selectors.chaos_seat_label(seat) for seat in table.seats.all()]
    context = {
        "table": table,
        "winner_label": labels[SEATS.index(table.winner)] if table.winner else "",
        **selectors.chaos_replay(table, request.GET, here),
    }
    return render(request, "play/chaos/replay.html", context)


def chaos_replay(request: HttpRequest, uid: str) -> HttpResponse:
    table, _seat = _table(request, uid)
    return _replay(request, table, reverse("play:chaos_replay", args=[uid]))


def chaos_watch_replay(request: HttpRequest, uid: str, code: str) -> HttpResponse:
    table = _watched(uid, code)
    return _replay(request, table, reverse("play:chaos_watch_replay", args=[uid, code]))


async def chaos_stream(request: HttpRequest, uid: str) -> HttpResponseBase:
    return await sync_to_async(_stream_open)(request, lambda: _table(request, uid)[0])


async def chaos_watch_stream(request: HttpRequest, uid: str, code: str) -> HttpResponseBase:
    return await sync_to_async(_stream_open)(request, lambda: _watched(uid, code))


def _stream_open(request: HttpRequest, find: Callable[[], ChaosTable]) -> HttpResponseBase:
    """The table's live stream, as `play.views._stream_open` opens a Clash table's."""
    try:
        with READERS:
            table = find()
        slot = slot_take(request, settings.PLAY_STREAM_SECONDS)
    finally:
        if isinstance(request, ASGIRequest):
            close_old_connections()
    if not isinstance(slot, Slot):
        return slot
    key = services.stream_key(table.uid)
    return progress_stream(request, key, lambda: selectors.chaos_progress(table), slot)
