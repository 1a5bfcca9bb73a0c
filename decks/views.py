"""Deck pages: the deckbuilder, a deck with its history, public decks, "My decks"."""

import contextlib
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards.search import QueryError
from cards.selectors import card_search, cards_with_details
from cards.views import card_face
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.users import signed_in_user
from decks import deck_code, services
from decks.forms import BuilderState, new_seed
from decks.legality import DECK_WIDE
from decks.markdown import render as render_markdown
from decks.models import Deck, PoolKind, Visibility
from decks.selectors import lists
from decks.selectors.access import (
    Viewer,
    champion_for,
    champion_picker,
    champion_visible,
    deck_can_edit,
    deck_can_read,
    deck_champion,
    deck_champion_uid,
    deck_final_cards,
    deck_get,
)
from decks.selectors.checks import deck_check, deck_validate
from decks.selectors.codes import deck_decode, preconstructed_deck_codes
from decks.selectors.figures import deck_figures
from decks.selectors.formats import (
    format_description,
    format_get,
    format_list,
    format_name,
    formats_of_mode,
    game_mode_list,
    mode_name,
)
from decks.selectors.lookup import cards_require, cards_resolve
from decks.selectors.text import deck_import_text
from decks.selectors.versions import deck_version_diff, deck_versions, versions_seen_by

SEARCH_RESULTS = 30
PAGE_SIZE = 24
# What the deck list's box sends in its URL: a deck's card list takes a few hundred characters,
# and a URL should stay well under what servers and proxies accept.
PASTE_LIMIT = 4_000


def _or_404(error: DomainError) -> Http404:
    return Http404(error.message)


def _deck_for(request: HttpRequest, share_id: str) -> Deck:
    try:
        return deck_get(share_id=share_id, viewer=request.user)
    except DomainError as error:
        raise _or_404(error) from error


# The deckbuilder ----------------------------------------------------------------------------


def _state_from_deck(deck: Deck, viewer: Viewer) -> BuilderState:
    entries = list(deck.deck_cards.all())
    return BuilderState(
        name=deck.name,
        description=deck.description,
        format=deck.format.slug,
        visibility=deck.visibility,
        cards=[entry.card.slug for entry in entries],
        removed=[index for index, entry in enumerate(entries) if entry.removed],
        pool_text="\n".join(sorted(card.slug for card in deck.pool.all())),
        champion=deck_champion_uid(deck, viewer) or "",
        seed=new_seed(),
    )


def _state_from_code(code: str) -> BuilderState:
    decoded = deck_decode(code)
    slugs = [card.slug for card in decoded.cards]
    removed: list[int] = []
    for card in decoded.removed:
        removed.append(
            next(i for i, slug in enumerate(slugs) if slug == card.slug and i not in removed)
        )
    return BuilderState(
        format=decoded.format.slug,
        cards=slugs,
        removed=sorted(removed),
        champion=decoded.champion or "",
        seed=new_seed(),
    )


def _panel_context(
    request: HttpRequest, state: BuilderState, deck: Deck | None = None, **extra: Any
) -> dict[str, Any]:
    formats = format_list()
    fmt = next((one for one in formats if one.slug == state.format), formats[0])
    state.format = fmt.slug
    if not fmt.removals:
        # Only a format with removals shows their checkboxes: none are kept across a switch.
        state.removed = []
    modes = game_mode_list()
    mode = next((one for one in modes if one.slug == state.mode), None)
    state.mode = mode.slug if mode else ""
    resolved = cards_resolve(state.cards)
    check = deck_check(
        format=fmt,
        cards=[card or slug for card, slug in zip(resolved, state.cards, strict=True)],
        mode=mode,
        pool=state.pool if fmt.pool_kind == PoolKind.SUPPLIED else None,
        removed=state.removed_slugs,
        champion=state.champion if deck_code.CHAMPION_ALPHABET.fullmatch(state.champion) else None,
    )
    errors = [error.as_dict() for error in check.errors]
    # A problem of one card is told under that card; one of the whole deck (not one of the
    # preconstructed decks, too many removals) is told once above the list, its cards marked.
    own = [e for e in errors if e["cards"] and e["code"] not in DECK_WIDE]
    shared = [e for e in errors if not e["cards"] or e["code"] in DECK_WIDE]
    entries = [
        {
            "index": index,
            "slug": slug,
            "card": card,
            "removed": index in state.removed,
            "errors": [e for e in own if card is not None and card.slug in e["cards"]],
            "in_deck_error": card is not None and any(card.slug in e["cards"] for e in shared),
        }
        for index, (slug, card) in enumerate(zip(state.cards, resolved, strict=True))
    ]
    played = [
        card
        for index, card in enumerate(resolved)
        if card is not None and index not in state.removed
    ]
    share_url = (
        request.build_absolute_uri(reverse("decks:code", args=[check.code])) if check.code else ""
    )
    return {
        "state": state,
        "deck": deck,
        "format_choices": [(one.slug, format_name(one)) for one in formats],
        "format": fmt,
        "format_name": format_name(fmt),
        "format_description": format_description(fmt),
        "modes": [(one, mode_name(one)) for one in modes],
        "check": check,
        "deck_errors": shared,
        "entries": entries,
        "figures": deck_figures(played, seed=state.seed),
        "share_url": share_url,
        "login_next": reverse("decks:new") + "?" + urlencode({"code": check.code or ""}),
        "visibilities": Visibility.choices,
        "needs_pool": fmt.pool_kind == PoolKind.SUPPLIED,
        "champion": champion_visible(state.champion, request.user),
        **extra,
    }


def _builder(
    request: HttpRequest, state: BuilderState, deck: Deck | None = None, **extra: Any
) -> HttpResponse:
    picker = champion_picker(request.user, state.champion)
    context = _panel_context(request, state, deck, champion_picker=picker, **extra)
    return render(request, "decks/builder.html", context)


def _paste_into(state: BuilderState, text: str) -> dict[str, Any]:
    """Replaces the deck of `state` with what `text` holds: a deck code (alone or in a share
    link), with its format, removals and Champion, or a card list; returns what the builder's
    panel tells about it (an unreadable code, the lines that matched no card)."""
    pasted = deck_code.code_in_paste(text)
    if pasted is None:
        lines = deck_import_text(text)
        state.cards = [line.card.slug for line in lines if line.card]
        state.removed = []
        return {"imported": lines, "import_misses": [line for line in lines if line.card is None]}
    try:
        coded = _state_from_code(pasted)
    except DomainError as error:
        return {"import_error": error.message}
    changed = coded.format != state.format
    state.format, state.cards = coded.format, coded.cards
    state.removed, state.champion = coded.removed, coded.champion
    return {"format_changed": changed}


def deck_new(request: HttpRequest) -> HttpResponse:
    """The deckbuilder; `?code=` opens a deck code in it, `?card=` starts a deck with that card
    (the catalogue's "Build a deck with this card"), `?format=` picks the format."""
    if request.method == "POST":
        return _save(request, None)
    state = BuilderState(
        format=request.GET.get("format", "constructed"),
        cards=[slug for slug in request.GET.getlist("card") if slug][: deck_code.MAX_CARDS],
        seed=new_seed(),
    )
    code = request.GET.get("code")
    if code:
        try:
            state = _state_from_code(code)
        except DomainError as error:
            messages.error(request, error.message)
    # The deck list's box: a deck code, a share link or a card list, opened here.
    paste = request.GET.get("paste", "")[:PASTE_LIMIT]
    if paste.strip():
        told = _paste_into(state, paste)
        # The whole page shows the new format: the panel's out-of-band format select is for
        # the htmx import only (here it would be a second select of the same id).
        told.pop("format_changed", None)
        return _builder(request, state, **told)
    return _builder(request, state)


def deck_edit(request: HttpRequest, share_id: str) -> HttpResponse:
    deck = _deck_for(request, share_id)
    if not deck_can_edit(deck, request.user):
        raise Http404(_("Only the deck's owner may change it."))
    if request.method == "POST":
        return _save(request, deck)
    return _builder(request, _state_from_deck(deck, request.user), deck)


def _save(request: HttpRequest, deck: Deck | None) -> HttpResponse:
    state = BuilderState.from_data(request.POST)
    if not request.user.is_authenticated:
        context = _panel_context(request, state)
        target = reverse("decks:new") + "?" + urlencode({"code": context["check"].code or ""})
        return redirect(reverse("login") + "?" + urlencode({"next": target}))
    try:
        fmt = format_get(slug=state.format)
        cards = cards_require(state.cards, "cards")
        removed = cards_require(state.removed_slugs, "removed")
        pool = cards_require(state.pool or [], "pool")
        champion = champion_for(uid=state.champion, viewer=request.user) if state.champion else None
        if deck is None:
            deck = services.deck_create(
                owner=request.user,
                name=state.name,
                description=state.description,
                format=fmt,
                visibility=state.visibility,
                cards=cards,
                removed=removed,
                pool=pool,
                champion=champion,
            )
        else:
            deck = services.deck_update(
                deck=deck,
                actor=request.user,
                name=state.name,
                description=state.description,
                format=fmt,
                visibility=state.visibility,
                cards=cards,
                removed=removed,
                pool=pool,
                champion=champion,
            )
    except DomainError as error:
        messages.error(request, error.message)
        return render(
            request, "decks/builder.html", _panel_context(request, state, deck), status=400
        )
    messages.success(request, _("Saved as version %(number)d.") % {"number": deck.version})
    return redirect("decks:detail", share_id=deck.share_id)


@require_POST
def builder_panel(request: HttpRequest) -> HttpResponse:
    """The deck side of the builder, re-rendered after every change (htmx)."""
    state = BuilderState.from_data(request.POST)
    extra: dict[str, Any] = {}
    # Several at once: the builder's page sends together the adds clicked while a request was out.
    for slug in request.POST.getlist("add"):
        state.add(slug)
    if "remove" in request.POST:
        with contextlib.suppress(ValueError):
            state.remove(int(request.POST["remove"]))
    if "shuffle" in request.POST:
        state.seed = new_seed()
    if "import" in request.POST:
        extra.update(_paste_into(state, request.POST.get("import_text", "")))
    response = render(request, "decks/_builder_panel.html", _panel_context(request, state, **extra))
    # The search results mark the deck's cards: htmx re-runs the search on this event.
    response["HX-Trigger"] = "deck-changed"
    return response


@require_GET
def builder_search(request: HttpRequest) -> HttpResponse:
    """Cards for the builder, found with the catalogue's own query language."""
    query = request.GET.get("q", "").strip()
    try:
        page = max(1, int(request.GET.get("page", "1")))
    except ValueError:
        page = 1
    context: dict[str, Any] = {
        "query": query,
        "faces": [],
        "error": None,
        # The deck's cards come along (hx-include): they are marked, not offered twice.
        "in_deck": set(request.GET.getlist("card")),
    }
    if query:
        try:
            found = card_search(query)
            total = found.count()
            page = min(page, max(1, -(-total // SEARCH_RESULTS)))
            start = (page - 1) * SEARCH_RESULTS
            cards = cards_with_details(found)[start : start + SEARCH_RESULTS]
            language = current_language()
            context.update(
                total=total,
                page=page,
                first=start + 1,
                last=min(total, start + SEARCH_RESULTS),
                has_next=start + SEARCH_RESULTS < total,
                faces=[card_face(card, language) for card in cards],
            )
        except QueryError as error:
            context["error"] = error
    return render(request, "decks/_builder_search.html", context)


# A deck and its history ---------------------------------------------------------------------


def _figures_context(request: HttpRequest, cards: list, code: str | None) -> dict[str, Any]:
    seed = new_seed()
    return {
        "figures": deck_figures(cards, seed=seed),
        "share_url": request.build_absolute_uri(reverse("decks:code", args=[code])) if code else "",
    }


def deck_detail(request: HttpRequest, share_id: str) -> HttpResponse:
    deck = _deck_for(request, share_id)
    check = deck_validate(deck, viewer=request.user)
    versions = versions_seen_by(deck_versions(deck), request.user)
    context = {
        "deck": deck,
        "check": check,
        "error_dicts": [error.as_dict() for error in check.errors],
        "format_name": format_name(deck.format),
        "description_html": render_markdown(deck.description),
        "entries": list(deck.deck_cards.all()),
        "versions": versions,
        "can_edit": deck_can_edit(deck, request.user),
        "champion": deck_champion(deck, request.user),
        "parent_visible": deck.parent is not None and deck_can_read(deck.parent, request.user),
        "deck_url": request.build_absolute_uri(deck_path(deck)),
        **_figures_context(request, deck_final_cards(deck), check.code),
        **_solo_context(deck),
    }
    return render(request, "decks/detail.html", context)


SOLO = "solo"


def _solo_context(deck: Deck) -> dict[str, Any]:
    """Which formats Solo takes, and whether this deck's is one (its difficulty curve)."""
    formats = formats_of_mode(slug=SOLO)
    return {
        "solo_formats": [format_name(fmt) for fmt in formats],
        "solo_playable": any(fmt.pk == deck.format_id for fmt in formats),
    }


def deck_path(deck: Deck) -> str:
    return reverse("decks:detail", args=[deck.share_id])


def deck_diff(request: HttpRequest, share_id: str) -> HttpResponse:
    deck = _deck_for(request, share_id)
    try:
        old, new = int(request.GET.get("from", "")), int(request.GET.get("to", ""))
        if old > new:
            old, new = new, old
        diff = deck_version_diff(deck, old, new, viewer=request.user)
    except ValueError as error:
        raise Http404(_("Give two version numbers.")) from error
    except DomainError as error:
        raise _or_404(error) from error
    return render(request, "decks/diff.html", {"deck": deck, "diff": diff})


@require_POST
def deck_restore(request: HttpRequest, share_id: str, number: int) -> HttpResponse:
    deck = _deck_for(request, share_id)
    try:
        deck = services.deck_version_restore(
            deck=deck, actor=signed_in_user(request), number=number
        )
    except DomainError as error:
        if error.status_code == 404:
            raise _or_404(error) from error
        messages.error(request, error.message)
        return redirect(deck_path(deck))
    messages.success(
        request,
        _("Version %(old)d restored as version %(number)d.")
        % {"old": number, "number": deck.version},
    )
    return redirect(deck_path(deck))


@require_POST
@login_required
def deck_fork(request: HttpRequest, share_id: str) -> HttpResponse:
    deck = _deck_for(request, share_id)
    fork = services.deck_fork(deck=deck, owner=signed_in_user(request))
    messages.success(request, _("Forked: this copy is yours."))
    return redirect(deck_path(fork))


@require_POST
def deck_delete(request: HttpRequest, share_id: str) -> HttpResponse:
    deck = _deck_for(request, share_id)
    try:
        services.deck_delete(deck=deck, actor=signed_in_user(request))
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(deck_path(deck))
    messages.success(request, _("Deck “%(name)s” deleted.") % {"name": deck.name})
    return redirect("decks:mine")


def deck_from_code(request: HttpRequest, code: str) -> HttpResponse:
    """Any deck from its code, no account needed."""
    try:
        decoded = deck_decode(code)
    except DomainError as error:
        return render(request, "decks/bad_code.html", {"error": error, "code": code}, status=400)
    check = deck_check(
        format=decoded.format,
        cards=decoded.cards,
        removed=decoded.removed,
        champion=decoded.champion,
    )
    removed_slugs = [card.slug for card in decoded.removed]
    played = list(decoded.cards)
    for card in decoded.removed:
        played.remove(card)
    context = {
        "decoded": decoded,
        "check": check,
        "format_name": format_name(decoded.format),
        "removed_slugs": removed_slugs,
        "champion": champion_visible(decoded.champion, request.user),
        **_figures_context(request, played, decoded.code),
    }
    return render(request, "decks/code.html", context)


# Lists and accounts -------------------------------------------------------------------------


def _page(request: HttpRequest, decks: Any) -> Any:
    return Paginator(decks, PAGE_SIZE).get_page(request.GET.get("page"))


def deck_list(request: HttpRequest) -> HttpResponse:
    params = request.GET
    filters = {
        "q": params.get("q", ""),
        "card": params.get("card", ""),
        "ability": params.get("ability", ""),
        "format": params.get("format", ""),
        "author": params.get("author", ""),
        "sort": params.get("sort", "updated"),
    }
    error = None
    try:
        decks = lists.deck_list(
            q=filters["q"],
            cards=[filters["card"]] if filters["card"].strip() else [],
            ability=filters["ability"],
            format=filters["format"],
            author=filters["author"],
            sort=filters["sort"],
        )
    except DomainError as problem:
        error, decks = problem.message, Deck.objects.none()
    context = {
        "filters": filters,
        "error": error,
        "page": _page(request, decks),
        "page_query": urlencode({k: v for k, v in filters.items() if v}),
    }
    if request.headers.get("HX-Request"):
        # A filter changed: only the results are swapped, the form around them stays.
        return render(request, "decks/_list_results.html", context)
    context |= {
        "formats": [(one.slug, format_name(one)) for one in format_list()],
        "preconstructed": preconstructed_deck_codes(),
        "sorts": [
            ("updated", _("Recently updated")),
            ("created", _("Newest")),
            ("name", _("Name")),
            ("forks", _("Most forked")),
        ],
    }
    return render(request, "decks/list.html", context)


@login_required
def my_decks(request: HttpRequest) -> HttpResponse:
    decks = lists.deck_list(owner=request.user, sort=request.GET.get("sort", "updated"))
    return render(request, "decks/mine.html", {"page": _page(request, decks)})
