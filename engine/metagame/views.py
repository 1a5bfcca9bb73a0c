"""Pages of the metagame: the standings of the round robin, and a deck's place (the part of its
page that htmx loads)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.metagame import selectors


def metagame(request: HttpRequest) -> HttpResponse:
    refresh = selectors.latest_refresh()
    running = selectors.refresh_running()
    rows = selectors.standings(refresh) if refresh is not None else []
    context = {
        "refresh": refresh,
        "rows": rows,
        "running": running,
        "progress": selectors.refresh_progress(running) if running is not None else None,
        "chart_rows": [(row.name, row.elo, row.low, row.high) for row in rows],
    }
    return render(request, "engine/metagame/standings.html", context)


def deck_place(request: HttpRequest, share_id: str) -> HttpResponse:
    """A deck's place in the metagame, for its page (nothing about the deck but its share id is
    read: the metagame ranks public decks only)."""
    refresh = selectors.latest_refresh()
    context = {
        "place": selectors.deck_place(share_id),
        "decks": len(refresh.entries) if refresh is not None else 0,
        "share_id": share_id,
    }
    return render(request, "engine/metagame/_place.html", context)
