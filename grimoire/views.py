"""Grimoire pages: the gallery, the puzzle of the day and a puzzle to solve."""

import datetime

import yaml
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards.models import Ability
from cards.selectors import translated
from cod_site.api.limits import bounded_list
from cod_site.errors import DomainError
from grimoire import display, services
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, Puzzle
from grimoire.selectors import puzzle_get, puzzle_of_the_day, puzzle_text, puzzles_listed

PAGE_SIZE = 24
MAX_ATTEMPT_CHARS = 4000


def _difficulty(raw: str) -> int | None:
    if raw.isdigit() and DIFFICULTY_MIN <= int(raw) <= DIFFICULTY_MAX:
        return int(raw)
    return None


@require_GET
def gallery(request: HttpRequest) -> HttpResponse:
    ability = request.GET.get("ability", "")[:40]
    difficulty = _difficulty(request.GET.get("difficulty", ""))
    puzzles = puzzles_listed(viewer=request.user, ability=ability, difficulty=difficulty)
    page = Paginator(puzzles, PAGE_SIZE).get_page(request.GET.get("page"))
    abilities = sorted(
        (translated(a, "name").text, a.code)
        for a in Ability.objects.prefetch_related("translations")
    )
    context = {
        "page": page,
        "rows": [
            (puzzle, puzzle_text(puzzle).title, display.goal_text(puzzle.goal)) for puzzle in page
        ],
        "abilities": abilities,
        "ability": ability,
        "difficulty": difficulty,
        "difficulties": range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1),
        "today": puzzle_of_the_day(datetime.date.today()),
    }
    template = (
        "grimoire/_list.html" if request.headers.get("HX-Request") else "grimoire/gallery.html"
    )
    return render(request, template, context)


@login_required
@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    """The visitor's own puzzles, whatever their visibility and proof."""
    puzzles = puzzles_listed(viewer=request.user, mine=True)
    page = Paginator(puzzles, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(p, puzzle_text(p).title, display.goal_text(p.goal)) for p in page]
    return render(request, "grimoire/mine.html", {"page": page, "rows": rows})


@require_GET
def today(request: HttpRequest) -> HttpResponse:
    puzzle = puzzle_of_the_day(datetime.date.today())
    if puzzle is None:
        raise Http404(_("No puzzle has been published yet."))
    return redirect("grimoire:detail", uid=puzzle.uid)


def _get(request: HttpRequest, uid: str) -> Puzzle:
    try:
        return puzzle_get(uid=uid, viewer=request.user)
    except DomainError:
        raise Http404(_("No such puzzle.")) from None


@require_GET
def detail(request: HttpRequest, uid: str) -> HttpResponse:
    puzzle = _get(request, uid)
    report = puzzle.report or {}
    context = {
        "puzzle": puzzle,
        "text": puzzle_text(puzzle),
        "goal": display.goal_text(puzzle.goal),
        "sides": display.sides(puzzle.scenario),
        "cards": display.card_rows(puzzle.scenario),
        "solution": [display.action_text(action) for action in report.get("shortest") or []],
        "solutions": report.get("solutions"),
        "example": yaml.safe_dump(report.get("shortest") or ["assault"], allow_unicode=True),
    }
    return render(request, "grimoire/detail.html", context)


@require_POST
def attempt(request: HttpRequest, uid: str) -> HttpResponse:
    """Check the turn typed on the puzzle page (the scenario format's actions, as YAML)."""
    puzzle = _get(request, uid)
    text = request.POST.get("actions", "")[:MAX_ATTEMPT_CHARS]
    error = ""
    result = None
    try:
        actions = yaml.safe_load(text) or []
    except yaml.YAMLError:
        actions, error = None, _("This is not valid YAML.")
    if actions is not None and not isinstance(actions, list):
        error = _("Write a list of actions, one per line, each starting with a dash.")
    elif actions is not None:
        try:
            bounded_list(actions, limit=services.MAX_ACTIONS, field="actions")
            result = services.puzzle_attempt(puzzle=puzzle, actions=actions)
        except DomainError as exc:
            error = exc.message
    return render(request, "grimoire/_attempt.html", {"result": result, "error": error})
