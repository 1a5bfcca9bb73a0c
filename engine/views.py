"""Pages of simulated test games: "Test this deck", my batches, a batch with its live progress and
results, and the replay viewer of one game."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.users import signed_in_user
from decks.selectors.access import deck_get
from engine import selectors, services, simulation
from engine.event_text import engine_text
from engine.forms import TestDeckForm
from engine.models import ACTIVE_STATUSES, SimulationBatch

PAGE_SIZE = 20


def _batch_for(request: HttpRequest, batch_id: int) -> SimulationBatch:
    try:
        return selectors.batch_get(batch_id=batch_id, user=request.user)
    except DomainError as error:
        raise Http404(error.message) from error


def _deck_options(
    request: HttpRequest, share_id: str, mine: list[selectors.DeckOption]
) -> list[selectors.DeckOption]:
    """The viewer's decks (``mine``), and the one the page was opened for if it is someone
    else's."""
    if share_id and all(one.share_id != share_id for one in mine):
        try:
            deck = deck_get(share_id=share_id, viewer=request.user)
        except DomainError as error:
            raise Http404(error.message) from error
        mine = [selectors.DeckOption(deck.share_id, deck.name, deck.owner.get_username()), *mine]
    return mine


@login_required
def batch_new(request: HttpRequest) -> HttpResponse:
    share_id = request.GET.get("deck") or request.POST.get("deck") or ""
    mine, public = selectors.opponent_options(request.user)
    choices = {"decks": _deck_options(request, share_id, mine), "mine": mine, "public": public}
    error: DomainError | None = None
    if request.method == "POST":
        form = TestDeckForm(request.POST, **choices)
        if form.is_valid():
            try:
                batch = services.batch_create(
                    requested_by=signed_in_user(request),
                    seats=form.seats(),
                    games=form.cleaned_data["games"],
                    exhaustion=form.cleaned_data["exhaustion"],
                    champions=form.cleaned_data["champions"],
                )
            except DomainError as refused:
                error = refused
            else:
                return redirect("engine:batch", batch.pk)
    else:
        form = TestDeckForm(initial={"deck": share_id}, **choices)
    status = error.status_code if error else 200
    return render(request, "engine/new.html", {"form": form, "error": error}, status=status)


@login_required
def batch_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.batches_of(request.user), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(request, "engine/list.html", {"page": page})


def _batch_context(batch: SimulationBatch) -> dict[str, Any]:
    seats = [
        {
            "seat": seat,
            "key": simulation.DECK_LETTERS[seat.index],
            "letter": simulation.DECK_LETTERS[seat.index].upper(),
            "name": selectors.seat_name(seat),
        }
        for seat in selectors.batch_seats(batch)
    ]
    context: dict[str, Any] = {
        "batch": batch,
        "seats": seats,
        "active": batch.status in ACTIVE_STATUSES,
        "percent": selectors.batch_percent(batch),
        "replayable": selectors.batch_replayable(batch),
    }
    summary = selectors.batch_summary(batch)
    if summary is None:
        return context
    labels = selectors.card_labels(batch, current_language())
    sides: list[dict[str, Any]] = [
        {**row, "result": summary.decks[deck], "labels": labels[deck]}
        for deck, row in enumerate(seats)
    ]
    win_rows = [
        *(
            (_("Deck %(letter)s wins") % {"letter": side["letter"]}, side["result"].wins)
            for side in sides
        ),
        (_("First player wins"), summary.first_player),
    ]
    histogram = simulation.histogram(summary.turns)
    return {
        **context,
        "summary": summary,
        "sides": sides,
        "win_rows": win_rows,
        "histogram": histogram,
    }


@login_required
def batch_detail(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _batch_for(request, batch_id)
    return render(request, "engine/batch.html", _batch_context(batch))


@login_required
def batch_progress(request: HttpRequest, batch_id: int) -> HttpResponse:
    """The part of the batch page that htmx polls while the games run."""
    batch = _batch_for(request, batch_id)
    return render(request, "engine/_progress.html", _batch_context(batch))


@login_required
@require_POST
def batch_cancel(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _batch_for(request, batch_id)
    try:
        services.batch_cancel(batch=batch, actor=signed_in_user(request))
    except DomainError as error:
        messages.info(request, error.message)
    return redirect("engine:batch", batch.pk)


@login_required
def game_pick(request: HttpRequest, batch_id: int) -> HttpResponse:
    """The "watch game number …" form: to that game's replay."""
    batch = _batch_for(request, batch_id)
    try:
        index = int(request.GET.get("index", "0"))
    except ValueError:
        index = 0
    return redirect("engine:replay", batch.pk, max(0, min(index, batch.games - 1)))


@login_required
def game_replay(request: HttpRequest, batch_id: int, index: int) -> HttpResponse:
    batch = _batch_for(request, batch_id)
    try:
        game = selectors.batch_game(batch, index)
    except DomainError as error:
        if error.code != "engine_changed":
            raise Http404(error.message) from error
        context = {"batch": batch, "index": index, "error": error}
        return render(request, "engine/replay_refused.html", context, status=error.status_code)
    # ?turn=5 is the fifth position, the one the page counts as "(5/…)": the link a player
    # shares names what they saw.
    try:
        number = int(request.GET.get("turn", "1")) - 1
    except ValueError:
        number = 0
    number = max(0, min(number, len(game.frames) - 1))
    # Engine names are English and the same in every deck that holds a card.
    labels = {
        name: label
        for row in selectors.card_labels(batch, current_language())
        for name, label in row.items()
    }
    frame = game.frames[number]
    names = [selectors.seat_name(seat) for seat in selectors.batch_seats(batch)]
    cards = [labels.get(name, name) for name in game.names]
    context = {
        "batch": batch,
        "game": game,
        "frame": frame,
        "events": [engine_text("event", code, args, cards) for code, args in frame.events],
        "number": number,
        "last": len(game.frames) - 1,
        "labels": labels,
        "winners": [
            {"letter": simulation.DECK_LETTERS[deck].upper(), "name": names[deck]}
            for deck in game.outcome.winners
        ],
        "board": [
            {
                "player": player,
                "active": seat == frame.active and number < len(game.frames) - 1,
                "letter": simulation.DECK_LETTERS[player.deck].upper(),
                "deck_name": names[player.deck],
            }
            for seat, player in enumerate(frame.players)
        ],
    }
    return render(request, "engine/replay.html", context)
