"""Pages of simulated test games: "Test this deck", my batches, a batch with its live progress and
results, and the replay viewer of one game; Duel of Chaos test batches and their results."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.chaos_selectors import chaos_names, chaos_sets, chaos_translated
from cards.selectors import ability_names_in
from cod_site.api.throttles import page_throttled
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.users import signed_in_user
from decks.selectors.access import deck_get
from engine import (
    chaos_selectors,
    chaos_services,
    curve_selectors,
    curve_services,
    selectors,
    services,
    simulation,
    verdicts,
)
from engine.adapters.decks import DeckChoice
from engine.display.chaos_display import replay_context as chaos_replay_context
from engine.display.replay_steps import query_number, replay_context
from engine.forms import ChaosBatchForm, TestDeckForm
from engine.models import ACTIVE_STATUSES, ChaosAgent, ChaosBatch, SimulationBatch

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
    if request.method == "POST" and (refused := page_throttled(request, "simulations")):
        return refused
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
                    control=form.cleaned_data["control"],
                    mode=form.mode(),
                    ai=form.solo_ai(),
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
    context["verdict"] = verdicts.batch_verdict(batch, summary=summary)
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
        "early_turns": simulation.EARLY_TURNS,
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
def game_replay(request: HttpRequest, batch_id: int, index: int) -> HttpResponse:
    batch = _batch_for(request, batch_id)
    try:
        game = selectors.batch_game(batch, index)
    except DomainError as error:
        if error.code != "engine_changed":
            raise Http404(error.message) from error
        context = {"batch": batch, "index": index, "error": error}
        return render(request, "engine/replay_refused.html", context, status=error.status_code)
    # Engine names are English and the same in every deck that holds a card.
    labels = {
        name: label
        for row in selectors.card_labels(batch, current_language())
        for name, label in row.items()
    }
    names = [selectors.seat_name(seat) for seat in selectors.batch_seats(batch)]
    seat_decks = game.seat_decks
    # The page names decks; the engine's events and actions name seats.
    deck_letters = [simulation.DECK_LETTERS[deck].upper() for deck in seat_decks]
    context = {
        "batch": batch,
        "game": game,
        "winners": [
            {"letter": simulation.DECK_LETTERS[deck].upper(), "name": names[deck]}
            for deck in game.outcome.winners
        ],
        **replay_context(
            request.GET,
            game.frames,
            reverse("engine:replay", args=[batch.pk, index]),
            cards=[labels.get(name, name) for name in game.names],
            faces=selectors.card_faces(batch, current_language()),
            abilities=ability_names_in(current_language()),
            labels=labels,
            letters=deck_letters,
            titles=[
                _("Deck %(letter)s · %(name)s") % {"letter": letter, "name": names[deck]}
                for deck, letter in zip(seat_decks, deck_letters, strict=True)
            ],
        ),
    }
    return render(request, "engine/replay.html", context)


# The difficulty curve on a deck's page ---------------------------------------------------------


def curve_panel(request: HttpRequest, share_id: str) -> HttpResponse:
    """The deck page's difficulty curve (htmx loads it, and polls it while the levels play):
    the viewer's latest curve of the deck, and the form to play a new one."""
    try:
        deck = deck_get(share_id=share_id, viewer=request.user)
    except DomainError as error:
        raise Http404(error.message) from error
    context: dict[str, Any] = {
        "share_id": deck.share_id,
        "default_games": curve_services.CURVE_GAMES,
        "max_games": curve_services.MAX_CURVE_GAMES,
    }
    curve = curve_selectors.curve_latest(deck=deck, user=request.user)
    if curve is not None:
        summary = curve_selectors.curve_summary(curve)
        context |= {
            "summary": summary,
            "rows": [
                (_("Level %(level)d") % {"level": point.level}, point.wins)
                for point in summary.levels
            ],
        }
    return render(request, "engine/_curve_panel.html", context)


@login_required
@require_POST
def curve_start(request: HttpRequest) -> HttpResponse:
    if refused := page_throttled(request, "curves"):
        return refused
    try:
        deck = deck_get(share_id=request.POST.get("deck", ""), viewer=request.user)
    except DomainError as error:
        raise Http404(error.message) from error
    try:
        games = int(request.POST.get("games", ""))
    except ValueError:
        games = 0
    try:
        curve_services.curve_create(
            requested_by=signed_in_user(request),
            seat=selectors.SeatChoice(DeckChoice(deck=deck.share_id)),
            games_per_level=games,
        )
    except DomainError as error:
        messages.error(request, error.message)
    return redirect(reverse("decks:detail", args=[deck.share_id]) + "#difficulty-curve")


def card_insight(request: HttpRequest, slug: str) -> HttpResponse:
    """The part of a card's page (loaded by htmx) with the card's figures in the test games of
    the public decks that play it: the card page's cached part is the catalogue's only."""
    context = {"rows": selectors.card_insight(slug), "early_turns": simulation.EARLY_TURNS}
    return render(request, "engine/card_insight.html", context)


# ---- Duel of Chaos test batches ---------------------------------------------------------------


def _chaos_set_choices() -> list[tuple[str, str]]:
    language = current_language()
    return [
        (chaos_set.code, f"{chaos_set.code} {chaos_translated(chaos_set, 'name', language).text}")
        for chaos_set in chaos_sets()
    ]


@login_required
def chaos_batch_list(request: HttpRequest) -> HttpResponse:
    form = ChaosBatchForm(request.POST or None, sets=_chaos_set_choices())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            batch = chaos_services.chaos_batch_create(
                requested_by=signed_in_user(request),
                set_code=data["set_code"],
                agent_a=data["agent_a"],
                agent_b=data["agent_b"],
                games=data["games"],
            )
        except DomainError as error:
            field = next((name for name in error.details if name in form.fields), None)
            form.add_error(field, error.message)
        else:
            return redirect("engine:chaos_batch", batch_id=batch.pk)
    page = Paginator(chaos_selectors.chaos_batches_of(request.user), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    status = 400 if form.errors else 200
    return render(request, "engine/chaos_batches.html", {"form": form, "page": page}, status=status)


def _chaos_batch_for(request: HttpRequest, batch_id: int) -> ChaosBatch:
    try:
        return chaos_selectors.chaos_batch_get(batch_id=batch_id, user=request.user)
    except DomainError as error:
        raise Http404(error.message) from error


@login_required
def chaos_batch_detail(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _chaos_batch_for(request, batch_id)
    context = {
        "batch": batch,
        "result": chaos_selectors.chaos_batch_result(batch),
        "active": batch.status in ACTIVE_STATUSES,
        "replayable": chaos_selectors.chaos_batch_replayable(batch),
    }
    return render(request, "engine/chaos_batch.html", context)


@login_required
def chaos_game_replay(request: HttpRequest, batch_id: int, index: int) -> HttpResponse:
    """Game `index` of a Duel of Chaos batch step by step, from a seat's view or the public's."""
    batch = _chaos_batch_for(request, batch_id)
    try:
        game = chaos_selectors.chaos_batch_game(batch, index)
    except DomainError as error:
        if error.status_code == 404:
            raise Http404(error.message) from error
        context = {"batch": batch, "index": index, "error": error}
        return render(
            request, "engine/chaos_replay_refused.html", context, status=error.status_code
        )
    labels = [
        _("AI %(agent)s") % {"agent": ChaosAgent(agent).label}
        for agent in (batch.agent_a, batch.agent_b)
    ]
    context = {
        "batch": batch,
        "index": index,
        "winner": None if game.winner is None else "AB"[game.winner],
        "turns": game.turns,
        "first": "AB"[game.options.first_player or 0],
        **chaos_replay_context(
            request.GET,
            box=game.box,
            seed=game.seed,
            options=game.options,
            actions=game.actions,
            labels=labels,
            names=chaos_names(set_code=batch.set_code),
            here=reverse("engine:chaos_replay", args=[batch.pk, index]),
        ),
    }
    return render(request, "engine/chaos_replay.html", context)


@login_required
def chaos_game_pick(request: HttpRequest, batch_id: int) -> HttpResponse:
    """The batch page's "watch game number" form: to that game's replay."""
    batch = _chaos_batch_for(request, batch_id)
    index = max(0, min(query_number(request.GET.get("index"), 0), batch.games - 1))
    return redirect("engine:chaos_replay", batch_id=batch.pk, index=index)
