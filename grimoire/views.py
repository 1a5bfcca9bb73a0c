"""Grimoire pages: the gallery, the puzzle of the day and a puzzle to solve."""

import datetime
import json
from typing import Any

import yaml
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards.models import Ability
from cards.selectors import translated
from champions.models import Visibility
from cod_site.api.limits import bounded_list
from cod_site.errors import DomainError
from grimoire import display, services
from grimoire.image import share_image
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, Puzzle
from grimoire.selectors import (
    puzzle_get,
    puzzle_of_the_day,
    puzzle_text,
    puzzle_turn,
    puzzles_listed,
)

PAGE_SIZE = 24
MAX_ATTEMPT_CHARS = 4000
# A share image is drawn once per puzzle version and language (`Puzzle.updated` in its key).
IMAGE_CACHE_SECONDS = 7 * 24 * 3600
# The board's hidden field: every action chosen so far, as JSON.
MAX_TURN_CHARS = 8000


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


def _solve_context(puzzle: Puzzle, actions: list[Any]) -> dict[str, Any]:
    """The board after ``actions``, the buttons of the legal actions that follow (each carrying
    the whole turn so far), and once the turn is over the verdict of the puzzle's attempts."""
    turn = puzzle_turn(puzzle, actions)
    result = services.puzzle_attempt(puzzle=puzzle, actions=turn.actions) if turn.over else None
    return {
        "puzzle": puzzle,
        "board": display.board(puzzle.scenario, turn.state),
        "chosen": [display.action_text(action) for action in turn.actions],
        "moves": [
            (display.action_text(move), json.dumps([*turn.actions, move])) for move in turn.moves()
        ],
        "refused": turn.refused,
        "result": result,
        "turn_json": json.dumps(turn.actions),
    }


@require_GET
def detail(request: HttpRequest, uid: str) -> HttpResponse:
    puzzle = _get(request, uid)
    return _detail(request, puzzle, [])


def _detail(request: HttpRequest, puzzle: Puzzle, actions: list[Any]) -> HttpResponse:
    report = puzzle.report or {}
    context = {
        "text": puzzle_text(puzzle),
        "goal": display.goal_text(puzzle.goal),
        "cards": display.card_rows(puzzle.scenario),
        "solution": [display.action_text(action) for action in report.get("shortest") or []],
        "solutions": report.get("solutions"),
        "example": yaml.safe_dump(report.get("shortest") or ["assault"], allow_unicode=True),
        "share_url": request.build_absolute_uri(reverse("grimoire:detail", args=[puzzle.uid])),
        "image_url": request.build_absolute_uri(reverse("grimoire:image", args=[puzzle.uid])),
        "hidden": puzzle.visibility != Visibility.PUBLIC,
        **_solve_context(puzzle, actions),
    }
    return render(request, "grimoire/detail.html", context)


@require_GET
def image(request: HttpRequest, uid: str) -> HttpResponse:
    """The position as a PNG for social media (the page's og:image), cached: the position of a
    shared puzzle does not change, and any edit changes the key."""
    puzzle = _get(request, uid)
    key = f"grimoire:image:{puzzle.uid}:{get_language()}:{puzzle.updated.timestamp()}"
    png = cache.get(key)
    if png is None:
        png = share_image(
            title=puzzle_text(puzzle).title.text,
            goal=display.goal_text(puzzle.goal),
            difficulty=puzzle.difficulty,
            sides=display.sides(puzzle.scenario),
            cards=puzzle.scenario.get("cards") or {},
        )
        cache.set(key, png, IMAGE_CACHE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    shared = puzzle.visibility != Visibility.PRIVATE
    response["Cache-Control"] = f"{'public' if shared else 'private'}, max-age=3600"
    return response


@require_POST
def solve(request: HttpRequest, uid: str) -> HttpResponse:
    """One click on the puzzle's board: the turn so far (the form's JSON list of actions)
    replayed from the puzzle's position, with the clicked action last."""
    puzzle = _get(request, uid)
    try:
        actions = json.loads(request.POST.get("actions", "[]")[:MAX_TURN_CHARS])
        if not isinstance(actions, list):
            raise ValueError
        bounded_list(actions, limit=services.MAX_ACTIONS, field="actions")
    except (ValueError, DomainError):
        # Only a hand-made request gets here: start the turn again.
        actions = []
    if not request.headers.get("HX-Request"):
        return _detail(request, puzzle, actions)
    return render(request, "grimoire/_solve.html", _solve_context(puzzle, actions))


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
