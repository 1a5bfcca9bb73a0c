"""Pages of "Improve this deck": a deck's searches and the form to start one, a search with its
live progress and the best swaps found."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cod_site.api.throttles import page_throttled
from cod_site.errors import DomainError
from cod_site.users import signed_in_user
from decks.models import Deck, PoolKind
from decks.selectors.access import deck_get
from engine.models import ACTIVE_STATUSES, SuggestionSearch
from engine.suggestions import selectors, services
from engine.suggestions.forms import SuggestionForm

LISTED = 10


def _deck_for(request: HttpRequest, share_id: str) -> Deck:
    try:
        return deck_get(share_id=share_id, viewer=request.user)
    except DomainError as error:
        raise Http404(error.message) from error


def _search_for(request: HttpRequest, search_id: int) -> SuggestionSearch:
    try:
        return selectors.search_get(search_id=search_id, user=request.user)
    except DomainError as error:
        raise Http404(error.message) from error


def deck_suggestions(request: HttpRequest, share_id: str) -> HttpResponse:
    """A deck's "Improve this deck" page: the form, and the viewer's searches of the deck."""
    deck = _deck_for(request, share_id)
    error: DomainError | None = None
    form = SuggestionForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if throttled := page_throttled(request, "suggestions"):
            return throttled
        if form.is_valid():
            data = form.cleaned_data
            try:
                item = services.search_create(
                    requested_by=signed_in_user(request),
                    share_id=deck.share_id,
                    field=data["field"],
                    decks=data["decks"],
                    games=data["games"],
                    seed=data["seed"],
                    agent=data["agent"] or None,
                )
            except DomainError as refused:
                error = refused
            else:
                return redirect("engine:suggestions", item.pk)
    context = {
        "deck": deck,
        "form": form,
        "error": error,
        "searches": selectors.searches_of(request.user, deck)[:LISTED],
        "fixed": deck.format.pool_kind == PoolKind.PRECONSTRUCTED,
    }
    return render(
        request, "engine/suggestions/deck.html", context, status=error.status_code if error else 200
    )


def _context(item: SuggestionSearch) -> dict[str, Any]:
    result = selectors.search_result(item)
    return {
        "search": item,
        "result": result,
        "opponents": [selectors.opponent_name(opponent) for opponent in item.opponents],
        "method": selectors.search_method(item),
        "active": item.status in ACTIVE_STATUSES,
        "chart_rows": [
            (" + ".join(f"{swap.out_name} → {swap.in_name}" for swap in one.swaps), one.verdict)
            for one in result.suggestions
            if one.verdict.games
        ],
    }


@login_required
def search_detail(request: HttpRequest, search_id: int) -> HttpResponse:
    item = _search_for(request, search_id)
    return render(request, "engine/suggestions/search.html", _context(item))


@login_required
def search_progress(request: HttpRequest, search_id: int) -> HttpResponse:
    """The part of the search page that htmx polls while the games run."""
    item = _search_for(request, search_id)
    return render(request, "engine/suggestions/_progress.html", _context(item))


@login_required
@require_POST
def search_cancel(request: HttpRequest, search_id: int) -> HttpResponse:
    item = _search_for(request, search_id)
    try:
        services.search_cancel(item=item, actor=signed_in_user(request))
    except DomainError as error:
        messages.info(request, error.message)
    return redirect("engine:suggestions", item.pk)
