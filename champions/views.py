"""Pages: the designer (live preview and price with htmx), my Champions, the public gallery,
a Champion's page, and printing sheets."""

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

from champions import documents, images, services
from champions.designs import ChampionDesign
from champions.faces import Illustration
from champions.forms import ChampionForm, PrintForm, ProposeForm, initial_from
from champions.images import NormalisedImage
from champions.models import Champion, PrintJobStatus, Visibility
from champions.pnp import SheetOptions
from champions.pricing import Price, parse_abilities, price_champion
from champions.proposals import Proposal, new_seed, propose_champion
from champions.selectors import (
    ability_costs,
    can_edit,
    champion_get,
    champion_illustration,
    champion_name,
    champion_price,
    champions_listed_for,
    print_job_get,
)
from cod_site.api.throttles import page_throttled
from cod_site.errors import DomainError
from cod_site.i18n import current_language
from cod_site.users import signed_in_user

PAGE_SIZE = 24
DEFAULT_DESIGN = ChampionDesign(names={"en": ""}, mana=3, attack=3, hp=3)


def _get_or_404(uid: str, request: HttpRequest) -> Champion:
    try:
        return champion_get(uid=uid, user=request.user)
    except DomainError as error:
        raise Http404(error.message) from error


def _cards(champions: Any, language: str) -> list[dict[str, Any]]:
    return [
        {
            "champion": champion,
            "name": champion_name(champion, language),
            "preview": reverse("api:champion-card-png", args=[champion.uid])
            + "?"
            + urlencode({"size": "preview", "lang": language}),
        }
        for champion in champions
    ]


@require_GET
def gallery(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    page = Paginator(champions_listed_for(request.user, query=query), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    context = {"page": page, "cards": _cards(page, current_language()), "query": query}
    template = (
        "champions/_grid.html" if request.headers.get("HX-Request") else "champions/gallery.html"
    )
    return render(request, template, context)


@login_required
@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    page = Paginator(champions_listed_for(request.user, mine=True), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "champions/mine.html",
        {"page": page, "cards": _cards(page, current_language())},
    )


def detail(request: HttpRequest, uid: str) -> HttpResponse:
    champion = _get_or_404(uid, request)
    language = current_language()
    costs = ability_costs(language)
    price = champion_price(champion, costs)
    card_url = reverse("api:champion-card-png", args=[uid])
    abilities = [
        {
            "row": row,
            "name": costs[row.ability.code].name if row.ability.code in costs else row.ability.code,
        }
        for row in champion.abilities.all()
    ]
    return render(
        request,
        "champions/detail.html",
        {
            "champion": champion,
            "name": champion_name(champion, language),
            "abilities": abilities,
            "price": price,
            "warning": price.warning(champion.mana) if price else None,
            "card_url": f"{card_url}?{urlencode({'lang': language})}",
            "preview_url": request.build_absolute_uri(
                f"{card_url}?{urlencode({'size': 'preview', 'lang': language})}"
            ),
            "share_url": request.build_absolute_uri(request.path),
            "hidden": champion.visibility != Visibility.PUBLIC,
            "can_edit": can_edit(champion, request.user),
            "print_form": PrintForm(),
            "pnp_url": reverse("api:champion-pnp", args=[uid]),
        },
    )


def _proposal(request: HttpRequest) -> tuple[Proposal | None, ProposeForm, str | None]:
    """The proposal asked for in the query string (`?propose=5&seed=…&require=…`), if any."""
    if "propose" not in request.GET:
        return None, ProposeForm(initial={"seed": new_seed()}), None
    form = ProposeForm(request.GET)
    if not form.is_valid():
        return None, form, _("Choose a Mana cost for the proposal.")
    seed = form.cleaned_data["seed"] or new_seed()
    require = [token for token in form.cleaned_data["require"].replace(" ", "").split(",") if token]
    try:
        proposal = propose_champion(
            mana=form.cleaned_data["propose"],
            required=parse_abilities(require),
            seed=seed,
            costs=ability_costs(),
        )
    except DomainError as error:
        return None, form, error.message
    # A fresh seed for the "another one" button; the shared link keeps this proposal's seed.
    next_form = ProposeForm(
        initial={
            "propose": proposal.mana,
            "require": form.cleaned_data["require"],
            "seed": new_seed(),
        }
    )
    return proposal, next_form, None


def _designer(
    request: HttpRequest,
    *,
    form: ChampionForm,
    champion: Champion | None,
    status: int = 200,
    error: str | None = None,
    propose_form: ProposeForm | None = None,
    proposal: Proposal | None = None,
) -> HttpResponse:
    language = current_language()
    preview = _preview_context(form.data if form.is_bound else form.initial, champion, language)
    return render(
        request,
        "champions/designer.html",
        {
            "form": form,
            "champion": champion,
            "error": error,
            "propose_form": propose_form or ProposeForm(initial={"seed": new_seed()}),
            "proposal": proposal,
            "share_proposal": (
                request.build_absolute_uri(request.get_full_path()) if proposal else None
            ),
            **preview,
        },
        status=status,
    )


def _initial(design: ChampionDesign) -> dict[str, Any]:
    """The form's starting values; the card is previewed in the page's language."""
    return {**initial_from(design), "preview_language": current_language()}


def _submitted_illustration(request: HttpRequest, form: ChampionForm) -> Any:
    upload = request.FILES.get("illustration")
    if upload is not None:
        return upload
    token = form.cleaned_data.get("draft_illustration")
    return services.draft_illustration(token) if token else None


def _save(request: HttpRequest, champion: Champion | None) -> HttpResponse:
    costs = ability_costs()
    try:
        images.refuse_oversized_request(request.META.get("CONTENT_LENGTH"))
    except DomainError as error:
        # The body is not read at all, so the form starts again from the stored design.
        design = ChampionDesign.of(champion) if champion else DEFAULT_DESIGN
        form = ChampionForm(costs=costs, initial=_initial(design))
        return _designer(request, form=form, champion=champion, status=413, error=error.message)
    form = ChampionForm(request.POST, request.FILES, costs=costs)
    if not form.is_valid():
        return _designer(request, form=form, champion=champion, status=400)
    try:
        illustration = _submitted_illustration(request, form)
        if champion is None:
            champion = services.champion_create(
                owner=signed_in_user(request), design=form.design(), illustration=illustration
            )
            messages.success(request, _("Your Champion is saved."))
        else:
            champion = services.champion_update(
                champion=champion,
                actor=signed_in_user(request),
                design=form.design(),
                illustration=illustration,
                remove_illustration=form.cleaned_data["remove_illustration"],
            )
            messages.success(request, _("Your changes are saved."))
    except DomainError as error:
        field = error.details.get("field") if isinstance(error.details, dict) else None
        if field in form.fields:
            form.add_error(field, error.message)
        return _designer(
            request,
            form=form,
            champion=champion,
            status=error.status_code,
            error=error.message,
        )
    return redirect("champions:detail", uid=champion.uid)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _save(request, None)
    proposal, propose_form, proposal_error = _proposal(request)
    design = DEFAULT_DESIGN
    if proposal is not None:
        design = ChampionDesign(
            names={"en": proposal.name},
            mana=proposal.mana,
            attack=proposal.attack,
            hp=proposal.hp,
            abilities=[choice.token for choice in proposal.abilities],
        )
    form = ChampionForm(costs=ability_costs(), initial=_initial(design))
    return _designer(
        request,
        form=form,
        champion=None,
        error=proposal_error,
        propose_form=propose_form,
        proposal=proposal,
    )


@login_required
def edit(request: HttpRequest, uid: str) -> HttpResponse:
    champion = _get_or_404(uid, request)
    if not can_edit(champion, request.user):
        raise Http404(_("No such Champion."))
    if request.method == "POST":
        return _save(request, champion)
    form = ChampionForm(costs=ability_costs(), initial=_initial(ChampionDesign.of(champion)))
    return _designer(request, form=form, champion=champion)


def _preview_context(data: Any, champion: Champion | None, language: str) -> dict[str, Any]:
    """Price, warning and card image of the form's current values (nothing is saved)."""
    form = ChampionForm(data, costs=ability_costs())
    if not form.is_valid():
        return {"preview_error": _("Fill in the name, cost, attack and HP to see the card.")}
    design = form.design()
    preview_language = form.cleaned_data.get("preview_language") or language
    try:
        price: Price = price_champion(
            attack=design.attack,
            hp=design.hp,
            abilities=parse_abilities(design.abilities),
            costs=ability_costs(language),
        )
        picture = _preview_picture(form, champion)
    except DomainError as error:
        return {"preview_error": error.message}
    face = documents.design_face(design, picture, preview_language)
    return {
        "price": price,
        "warning": price.warning(design.mana),
        "preview_image": documents.face_data_uri(face),
        "preview_alt": face.name,
    }


def _preview_picture(
    form: ChampionForm, champion: Champion | None
) -> NormalisedImage | Illustration | None:
    """A freshly uploaded draft, else the stored picture (unless it is being removed)."""
    token = form.cleaned_data.get("draft_illustration")
    if token:
        return services.draft_illustration(token)
    if champion is not None and not form.cleaned_data.get("remove_illustration"):
        return champion_illustration(champion)
    return None


@require_POST
def preview(request: HttpRequest) -> HttpResponse:
    """The htmx live preview: the card and its price for the form as it is now."""
    champion = None
    uid = request.POST.get("champion", "")
    if uid:
        champion = _get_or_404(uid, request)
        if not can_edit(champion, request.user):
            raise Http404(_("No such Champion."))
    context = _preview_context(request.POST, champion, current_language())
    return render(request, "champions/_preview.html", context)


@login_required
@require_POST
def draft_illustration(request: HttpRequest) -> HttpResponse:
    """The htmx upload of a picture for the preview: checked now, kept an hour in the cache."""
    try:
        images.refuse_oversized_request(request.META.get("CONTENT_LENGTH"))
        upload = request.FILES.get("illustration")
        if upload is None:
            raise DomainError("file_required", _("Choose a picture."), {"field": "illustration"})
        token = services.champion_draft_illustration(illustration=upload)
    except DomainError as error:
        return render(request, "champions/_illustration.html", {"error": error.message})
    response = render(request, "champions/_illustration.html", {"token": token})
    # After the swap: the preview must be asked for once the picture's token is in the form, or
    # it is drawn without the picture (HX-Trigger fires before the swap).
    response["HX-Trigger-After-Swap"] = "champion-preview"
    return response


@login_required
@require_POST
def delete(request: HttpRequest, uid: str) -> HttpResponse:
    champion = _get_or_404(uid, request)
    if not can_edit(champion, request.user):
        raise Http404(_("No such Champion."))
    services.champion_delete(champion=champion, actor=signed_in_user(request))
    messages.success(request, _("The Champion is deleted."))
    return redirect("champions:mine")


@login_required
@require_POST
def fork(request: HttpRequest, uid: str) -> HttpResponse:
    original = _get_or_404(uid, request)
    copy = services.champion_fork(champion=original, owner=signed_in_user(request))
    messages.success(request, _("This is your copy: change it as you like."))
    return redirect("champions:edit", uid=copy.uid)


@login_required
def print_sheets(request: HttpRequest) -> HttpResponse:
    """Choose Champions and copies; the PDF is made by a background job."""
    champions = list(champions_listed_for(request.user, mine=True))
    language = current_language()
    rows = [
        {"champion": champion, "name": champion_name(champion, language)} for champion in champions
    ]
    form = PrintForm(request.POST or None)
    error = None
    if request.method == "POST" and (refused := page_throttled(request, "pdfs")):
        return refused
    if request.method == "POST" and form.is_valid():
        items = []
        for champion in champions:
            raw = request.POST.get(f"copies_{champion.uid}", "0").strip() or "0"
            if raw.isdigit() and int(raw) > 0:
                items.append((champion.uid, int(raw)))
        data = form.cleaned_data
        try:
            job = services.print_job_create(
                owner=signed_in_user(request),
                items=items,
                options=SheetOptions(
                    paper=data["paper"],
                    bleed=data["bleed"],
                    backs=data["backs"],
                    back_offset_x_mm=data["back_offset_x"] or 0.0,
                    back_offset_y_mm=data["back_offset_y"] or 0.0,
                ),
                language=language,
            )
        except DomainError as error_:
            error = error_.message
        else:
            return redirect("champions:print_job", job_id=job.pk)
    return render(
        request,
        "champions/print.html",
        {"rows": rows, "form": form, "error": error},
        status=400 if error else 200,
    )


@login_required
@require_GET
def print_job(request: HttpRequest, job_id: str) -> HttpResponse:
    try:
        job = print_job_get(job_id=str(job_id), user=request.user)
    except DomainError as error:
        raise Http404(error.message) from error
    context = {
        "job": job,
        "finished": job.status in (PrintJobStatus.DONE, PrintJobStatus.FAILED),
        "download_url": reverse("api:champion-print-job-download", args=[job.pk])
        if job.status == PrintJobStatus.DONE
        else None,
    }
    template = (
        "champions/_print_job.html"
        if request.headers.get("HX-Request")
        else "champions/print_job.html"
    )
    return render(request, template, context)
