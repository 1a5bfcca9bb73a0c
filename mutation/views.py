"""The Mutation pages: used at the table on phones, so each page does one thing and htmx keeps
the draft and the workshop live. Thin: forms parse, services decide, selectors read."""

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from cards.selectors import card_name
from cod_site.errors import DomainError
from cod_site.users import signed_in_user
from mutation import forms, rules, selectors, services
from mutation.access import Actor, holds_seat, is_organiser, may_act_for
from mutation.models import CostRule, MutationSession, Seat

SEAT_TOKENS = "mutation_seat_tokens"


def page_actor(request: HttpRequest) -> Actor:
    return Actor(user=request.user, seat_tokens=frozenset(request.session.get(SEAT_TOKENS, [])))


def _session(request: HttpRequest, pk: int) -> MutationSession:
    try:
        return selectors.session_get(actor=page_actor(request), pk=pk)
    except DomainError as error:
        raise Http404(error.message) from None


def _seat(request: HttpRequest, session: MutationSession) -> Seat | None:
    """The seat the page is about: `?seat=N` when the visitor may act for it (the organiser for
    any), else the visitor's own seat; None for an organiser who has not chosen one."""
    actor = page_actor(request)
    wanted = request.GET.get("seat") or request.POST.get("seat")
    if wanted and wanted.isdigit():
        for seat in session.seats.all():
            if seat.number == int(wanted) and may_act_for(actor, seat, session):
                return seat
    held = [seat for seat in session.seats.all() if holds_seat(actor, seat)]
    return held[0] if held else None


def _base_context(request: HttpRequest, session: MutationSession, **extra: Any) -> dict[str, Any]:
    actor = page_actor(request)
    return {
        "session": session,
        "seats": list(session.seats.all()),
        "is_organiser": is_organiser(actor, session),
        "my_seats": selectors.viewer_seats(actor, session),
        "Status": MutationSession.Status,
        **extra,
    }


def _page_url(name: str, session: MutationSession, seat: Seat | None = None) -> str:
    url = reverse(f"mutation:{name}", args=[session.pk])
    return f"{url}?seat={seat.number}" if seat is not None else url


# --- sessions -------------------------------------------------------------------------------------


def session_list(request: HttpRequest) -> HttpResponse:
    sessions = selectors.sessions_for(page_actor(request))
    return render(request, "mutation/session_list.html", {"sessions": sessions})


@login_required
@require_http_methods(["GET", "POST"])
def session_create(request: HttpRequest) -> HttpResponse:
    form = forms.SessionCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.mutation_session_create(
                organiser=signed_in_user(request),
                name=form.cleaned_data["name"],
                expansion_a=form.cleaned_data["expansion_a"],
                expansion_b=form.cleaned_data["expansion_b"],
                seed=form.cleaned_data["seed"],
                players=form.players(),
                organiser_seat=form.cleaned_data["organiser_seat"],
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            return redirect("mutation:detail", session.pk)
    return render(request, "mutation/session_create.html", {"form": form})


@require_http_methods(["GET", "POST"])
def seat_join(request: HttpRequest, token: str) -> HttpResponse:
    seat = selectors.seat_by_token(token)
    if seat is None:
        raise Http404(_("This join link is not valid."))
    form = forms.JoinForm(request.POST or None, initial={"name": seat.guest_name})
    if request.method == "POST" and form.is_valid():
        try:
            services.seat_join(token=token, user=request.user, guest_name=form.cleaned_data["name"])
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            tokens = set(request.session.get(SEAT_TOKENS, []))
            tokens.add(token)
            request.session[SEAT_TOKENS] = sorted(tokens)
            messages.success(request, _("You hold seat %(seat)s. Welcome!") % {"seat": seat.number})
            return redirect("mutation:detail", seat.session_id)
    return render(request, "mutation/join.html", {"seat": seat, "form": form})


def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    context = _base_context(
        request,
        session,
        pick_counts=selectors.pick_counts(session),
        join_urls={
            seat.number: request.build_absolute_uri(
                reverse("mutation:join", args=[seat.join_token])
            )
            for seat in selectors.viewer_seats(page_actor(request), session)
        },
        seat=_seat(request, session),
        # Still "deckbuilding" until the first game or mutation: the page says the decks are
        # ready and leads on, rather than "Build your deck" to players who already have.
        decks_ready=session.status == MutationSession.Status.DECKBUILDING
        and not session.seats.filter(deck_chosen_at__isnull=True).exists(),
    )
    return render(request, "mutation/session_detail.html", context)


# --- the draft ------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def draft_table(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    actor = page_actor(request)
    if request.method == "POST":
        form = forms.PickForm(request.POST)
        if form.is_valid():
            seat_number = form.cleaned_data["seat"]
            try:
                services.draft_pick(
                    session=session,
                    actor=actor,
                    seat_number=seat_number,
                    card_id=form.cleaned_data["card"],
                )
            except DomainError as error:
                messages.error(request, error.message)
            else:
                picker = selectors.seat_get(session, seat_number)
                if not holds_seat(actor, picker):
                    # One device for everyone: hide the hand until the next player takes it.
                    messages.success(
                        request,
                        _("%(player)s picked a card. Pass the device on.")
                        % {"player": picker.display_name},
                    )
                    return redirect("mutation:draft", session.pk)
                return redirect(_page_url("draft", session, picker))
        return redirect("mutation:draft", session.pk)
    seat = _seat(request, session)
    context = _base_context(
        request,
        session,
        seat=seat,
        view=selectors.draft_seat_view(session, seat) if seat is not None else None,
        pick_counts=selectors.pick_counts(session),
        names=selectors.ability_names(),
    )
    template = "mutation/_draft_panel.html" if request.headers.get("HX-Request") else None
    return render(request, template or "mutation/draft.html", context)


# --- deckbuilding ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def deckbuilding(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    seat = _seat(request, session)
    if seat is None:
        return render(
            request, "mutation/choose_seat.html", _base_context(request, session, page="deck")
        )
    pool = list(selectors.seat_pool(seat))
    strongholds = list(selectors.strongholds(session))
    form = forms.DeckForm(
        request.POST or None,
        pool=[(row.card_id, card_name(row.card)) for row in pool],
        strongholds=[(card.pk, card_name(card)) for card in strongholds],
        initial={
            "cards": [row.card_id for row in pool if row.in_deck],
            "stronghold": seat.stronghold_id or (strongholds[0].pk if strongholds else None),
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.seat_deck_choose(
                session=session,
                actor=page_actor(request),
                seat_number=seat.number,
                card_ids=form.cleaned_data["cards"],
                stronghold_id=form.cleaned_data["stronghold"],
            )
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Deck saved: the other 8 cards are your Laboratory."))
            return redirect(_page_url("deck", session, seat))
    context = _base_context(
        request,
        session,
        seat=seat,
        form=form,
        pool=pool,
        chosen={int(value) for value in (form["cards"].value() or [])},
        names=selectors.ability_names(),
    )
    return render(request, "mutation/deckbuilding.html", context)


# --- the mutation workshop ------------------------------------------------------------------------


def _workshop_context(
    request: HttpRequest, session: MutationSession, seat: Seat, form: forms.MutationForm
) -> dict[str, Any]:
    deck = selectors.deck_cards(seat)
    target = None
    if form.is_bound and form.is_valid() and form.cleaned_data["target"]:
        target = next(
            (card for card in deck if card.draft_card.card_id == form.cleaned_data["target"]), None
        )
    return _base_context(
        request,
        session,
        seat=seat,
        form=form,
        deck=deck,
        laboratory=selectors.laboratory(seat),
        budget=selectors.seat_budget(session, seat),
        target=target,
        covers=set(form.cleaned_data.get("covers", []))
        if form.is_bound and form.is_valid()
        else set(),
        selected_element=form.data.get("element", "") if form.is_bound else "",
        history=list(selectors.seat_mutations(seat)),
        names=selectors.ability_names(),
        quote=None,
        refusal=None,
    )


def _quote(
    session: MutationSession, seat: Seat, form: forms.MutationForm
) -> tuple[rules.MutationPlan | None, str | None]:
    """The preview of the chosen mutation, or why it is refused; (None, None) until complete."""
    if not form.is_valid():
        return None, None
    chosen = form.source_and_element()
    if form.cleaned_data["target"] is None or chosen is None:
        return None, None
    try:
        return (
            selectors.mutation_quote(
                session=session,
                seat=seat,
                target_card_id=form.cleaned_data["target"],
                source_card_id=chosen[0],
                element=chosen[1],
                covers=form.cleaned_data["covers"],
            ),
            None,
        )
    except DomainError as error:
        return None, error.message


@require_http_methods(["GET", "POST"])
def workshop(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    seat = _seat(request, session)
    if seat is None:
        return render(
            request, "mutation/choose_seat.html", _base_context(request, session, page="workshop")
        )
    form = forms.MutationForm(request.POST or None)
    if request.method == "POST" and request.POST.get("action") == "apply" and form.is_valid():
        chosen = form.source_and_element()
        try:
            if form.cleaned_data["target"] is None or chosen is None:
                raise DomainError(
                    "incomplete", _("Choose a deck creature and a Laboratory element.")
                )
            services.mutation_apply(
                session=session,
                actor=page_actor(request),
                seat_number=seat.number,
                target_card_id=form.cleaned_data["target"],
                source_card_id=chosen[0],
                element=chosen[1],
                covers=form.cleaned_data["covers"],
            )
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Mutation glued on."))
            return redirect(_page_url("workshop", session, seat))
    context = _workshop_context(request, session, seat, form)
    chosen = form.source_and_element() if form.is_valid() else None
    if (
        chosen is not None
        and chosen[1].startswith("ability")
        and not form.cleaned_data["covers"]
        and context["target"] is not None
        and context["target"].state.boxes
    ):
        context["hint"] = _("Now tick the ability box it covers (two boxes for an Aura).")
        return _render_workshop(request, context)
    context["quote"], context["refusal"] = _quote(session, seat, form)
    if context["quote"] is not None:
        context["remaining_after"] = context["budget"].remaining - context["quote"].cost
    return _render_workshop(request, context)


def _render_workshop(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    if request.headers.get("HX-Request") and request.POST.get("action") != "apply":
        return render(request, "mutation/_workshop_dynamic.html", context)
    return render(request, "mutation/workshop.html", context)


# --- the cost table -------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def cost_table(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    actor = page_actor(request)
    if request.method == "POST":
        changed = 0
        for rule in selectors.cost_rules(session):
            raw = request.POST.get(f"points-{rule.pk}")
            if raw is None or raw.strip() == "":
                continue
            try:
                points = Decimal(raw.replace(",", "."))
            except InvalidOperation:
                messages.error(request, _("%(value)s is not a number.") % {"value": raw})
                continue
            if points == rule.points:
                continue
            try:
                services.cost_rule_set(
                    session=session,
                    actor=actor,
                    key=rule.key,
                    ability_code=rule.ability_code,
                    points=points,
                )
                changed += 1
            except DomainError as error:
                messages.error(request, error.message)
        if changed:
            messages.success(request, _("Cost table saved."))
        return redirect("mutation:costs", session.pk)
    rules_by_key: dict[str, list[CostRule]] = {}
    for rule in selectors.cost_rules(session):
        rules_by_key.setdefault(rule.key, []).append(rule)
    context = _base_context(
        request,
        session,
        rules_by_key=rules_by_key,
        Key=CostRule.Key,
        names=selectors.ability_names(),
        editable=is_organiser(actor, session) and session.status != MutationSession.Status.FINISHED,
    )
    return render(request, "mutation/costs.html", context)


# --- games and standings --------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def schedule_page(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    actor = page_actor(request)
    if request.method == "POST":
        form = forms.ResultForm(request.POST)
        if form.is_valid():
            try:
                services.game_result_record(
                    session=session,
                    actor=actor,
                    round_number=form.cleaned_data["round"],
                    table=form.cleaned_data["table"],
                    winner_seat=form.cleaned_data["winner"],
                )
            except DomainError as error:
                messages.error(request, error.message)
            else:
                messages.success(request, _("Result recorded."))
        return redirect("mutation:schedule", session.pk)
    games = list(selectors.games(session))
    rounds = [(number, [g for g in games if g.round == number]) for number in range(1, 7)]
    organiser = is_organiser(actor, session)
    own = {seat.pk for seat in selectors.viewer_seats(actor, session) if not organiser}
    context = _base_context(
        request,
        session,
        rounds=rounds,
        can_record={
            game.pk
            for game in games
            if organiser or (game.winner_id is None and {game.seat_a_id, game.seat_b_id} & own)
        },
    )
    return render(request, "mutation/schedule.html", context)


def standings_page(request: HttpRequest, pk: int) -> HttpResponse:
    session = _session(request, pk)
    seats = {seat.number: seat for seat in session.seats.all()}
    context = _base_context(
        request,
        session,
        standings=selectors.standings(session),
        grid=[(seats[row.seat], row) for row in selectors.score_grid(session)],
    )
    return render(request, "mutation/standings.html", context)


@require_POST
def forget_seats(request: HttpRequest) -> HttpResponse:
    request.session.pop(SEAT_TOKENS, None)
    return redirect("mutation:list")


@require_POST
def export_deck(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session = _session(request, pk)
    try:
        deck = services.seat_deck_export(
            session=session, actor=page_actor(request), seat_number=number
        )
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(f"{reverse('mutation:workshop', args=[session.pk])}?seat={number}")
    messages.success(request, _("The deck is saved in your decks."))
    return redirect("decks:detail", deck.share_id)


def engine_deck(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """A seat's mutated deck as rules-engine card definitions (download)."""
    session = _session(request, pk)
    seat = selectors.seat_get(session, number)
    if not may_act_for(page_actor(request), seat, session):
        raise Http404
    response = JsonResponse(selectors.seat_deck_definitions(seat), safe=False)
    response["Content-Disposition"] = (
        f'attachment; filename="mutation-{session.pk}-seat-{number}.json"'
    )
    return response
