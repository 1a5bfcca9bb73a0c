"""Grimoire pages: the gallery, the puzzle of the day and a puzzle to solve."""

import datetime
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards.selectors import Translated, ability_names_in, card_names_in
from champions.models import Visibility
from cod_site.errors import DomainError
from cod_site.users import signed_in_user
from grimoire import display, services
from grimoire.forms import AttemptForm, PuzzleEditorForm, TurnForm, puzzle_initial
from grimoire.image import share_image
from grimoire.models import (
    ACTIVE_JOB_STATUSES,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    JobKind,
    JobStatus,
    ProofStatus,
    Puzzle,
    SolverJob,
)
from grimoire.selectors import (
    PuzzleText,
    Visitor,
    ability_choices,
    ability_codes,
    catalogue_cards,
    catalogue_labels,
    catalogue_pages,
    editor_definitions,
    job_status,
    lesson_number,
    lessons,
    proof_running,
    puzzle_get,
    puzzle_get_for_edit,
    puzzle_next,
    puzzle_of_the_day,
    puzzle_state,
    puzzle_text,
    puzzle_turn,
    puzzles_listed,
    solution_given_up,
    solution_shown,
    solver_job_get,
)
from grimoire.throttles import proof_wait
from grimoire.visitors import visitor

PAGE_SIZE = 24
# A share image is drawn once per puzzle version and language (`Puzzle.updated` in its key).
IMAGE_CACHE_SECONDS = 7 * 24 * 3600


def _difficulty(raw: str) -> int | None:
    if raw.isdigit() and DIFFICULTY_MIN <= int(raw) <= DIFFICULTY_MAX:
        return int(raw)
    return None


def _rows(page: Page[Puzzle]) -> list[tuple[Puzzle, Translated, str]]:
    """The list's rows: a puzzle, its title and its goal."""
    return [(puzzle, puzzle_text(puzzle).title, display.goal_text(puzzle.goal)) for puzzle in page]


@require_GET
def gallery(request: HttpRequest) -> HttpResponse:
    ability = request.GET.get("ability", "")[:40]
    difficulty = _difficulty(request.GET.get("difficulty", ""))
    puzzles = puzzles_listed(viewer=request.user, ability=ability, difficulty=difficulty)
    page = Paginator(puzzles, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "rows": _rows(page),
        "abilities": ability_choices(),
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
    return render(request, "grimoire/mine.html", {"page": page, "rows": _rows(page)})


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


def _solution(puzzle: Puzzle, text: PuzzleText, who: Visitor) -> dict[str, Any]:
    """The solution's section: the proved line and the explanation for those who may see it
    (the author, staff, a visitor who solved it or gave up), else the offer to give up."""
    shown = solution_shown(puzzle, who)
    report = (puzzle.report or {}) if shown else {}
    return {
        "puzzle": puzzle,
        "shown": shown,
        # Only on request (issue 29): folded, unless they just gave up to see it.
        "open": shown and solution_given_up(puzzle, who),
        "steps": [display.action_text(action) for action in report.get("shortest") or []],
        "solutions": report.get("solutions"),
        "explanation": text.explanation if shown else None,
    }


def _verdict(puzzle: Puzzle, who: Visitor, result: dict[str, Any] | None) -> dict[str, Any]:
    """What follows a verdict: on a met goal, the solution's section, swapped in out of band
    beside the board or the typed form's answer."""
    if not (result and result["met"]):
        return {}
    return {
        "solution": {**_solution(puzzle, puzzle_text(puzzle), who), "swap": True},
        **_next(puzzle, who),
    }


def _next(puzzle: Puzzle, who: Visitor) -> dict[str, Any]:
    """The link that follows the puzzle: a lesson's next step (after the last, a first game),
    else the next puzzle to try (`puzzle_next`)."""
    number = lesson_number(puzzle)
    if number is not None:
        steps = lessons()
        if number == len(steps):
            return {"next_url": reverse("play:new"), "next_label": _("Play a first game")}
        title = puzzle_text(steps[number]).title
        return {
            "next_url": reverse("grimoire:learn_step", args=[number + 1]),
            "next_label": _("Next step: %(title)s") % {"title": title},
        }
    following = puzzle_next(puzzle, who)
    if following is None:
        return {}
    title = puzzle_text(following).title
    return {
        "next_url": reverse("grimoire:detail", args=[following.uid]),
        "next_label": _("Next puzzle: %(title)s") % {"title": title},
    }


def _solve_context(
    puzzle: Puzzle,
    who: Visitor,
    actions: list[Any],
    *,
    job: SolverJob | None = None,
) -> dict[str, Any]:
    """The board after ``actions``, the buttons of the legal actions that follow (each carrying
    the whole turn so far), and once the turn is over the verdict of the puzzle's attempts (or
    the ``job`` judging it, when the judge needs longer than the request's budget)."""
    turn = puzzle_turn(puzzle, actions)
    result = None
    if job is not None:
        result = job.result if job_status(job) == JobStatus.DONE else None
    elif turn.over:
        judged = services.puzzle_attempt(puzzle=puzzle, visitor=who, actions=turn.actions)
        if isinstance(judged, SolverJob):
            job = judged
        else:
            result = judged
    return {
        "puzzle": puzzle,
        # The catalogue's cards named in the page's language, as the editor names them, and
        # their faces on demand.
        "board": display.board(
            puzzle.scenario,
            turn.state,
            catalogue_labels(set(puzzle.scenario.get("cards") or {})),
            catalogue_pages(puzzle.scenario),
        ),
        "chosen": [display.action_text(action) for action in turn.actions],
        "moves": []
        if job
        else [
            (display.action_text(move), json.dumps([*turn.actions, move])) for move in turn.moves()
        ],
        "refused": turn.refused,
        "result": result,
        **_job_context(job if result is None else None),
        "turn_json": json.dumps(turn.actions),
        **_verdict(puzzle, who, result),
    }


def _job_context(job: SolverJob | None) -> dict[str, Any]:
    """A job the page waits for: its status and progress, or its failure."""
    if job is None:
        return {}
    status = job_status(job)
    return {
        "job": job,
        "job_active": status in ACTIVE_JOB_STATUSES,
        "job_failed": status == JobStatus.FAILED,
        "job_error": job.error,
        "job_nodes": job.nodes,
    }


@require_GET
def learn(request: HttpRequest) -> HttpResponse:
    """Learn to play: the steps of a first game, each a lesson's position to play."""
    steps = [(number, puzzle_text(lesson).title) for number, lesson in enumerate(lessons(), 1)]
    return render(request, "grimoire/learn.html", {"steps": steps})


@require_GET
def learn_step(request: HttpRequest, number: int) -> HttpResponse:
    """One step of Learn to play: its lesson, then its position on the puzzle's board, played
    and judged as any puzzle's (`grimoire:solve`); once its goal is met, the next step."""
    steps = lessons()
    if not 1 <= number <= len(steps):
        raise Http404(_("No such step."))
    puzzle = steps[number - 1]
    who = visitor(request, start=True)
    text = puzzle_text(puzzle)
    context = {
        "number": number,
        "steps": len(steps),
        "text": text,
        "goal": display.goal_text(puzzle.goal),
        **_solve_context(puzzle, who, []),
        "solution": {**_solution(puzzle, text, who), "swap": False},
        **_next(puzzle, who),
    }
    return render(request, "grimoire/learn_step.html", context)


@require_GET
def detail(request: HttpRequest, uid: str) -> HttpResponse:
    puzzle = _get(request, uid)
    return _detail(request, puzzle, [])


def _detail(request: HttpRequest, puzzle: Puzzle, actions: list[Any]) -> HttpResponse:
    # An anonymous visitor gets a session here, so that their attempts count (once).
    who = visitor(request, start=True)
    text = puzzle_text(puzzle)
    context = {
        "text": text,
        "goal": display.goal_text(puzzle.goal),
        "cards": display.card_rows(puzzle.scenario),
        "share_url": request.build_absolute_uri(reverse("grimoire:detail", args=[puzzle.uid])),
        "image_url": request.build_absolute_uri(reverse("grimoire:image", args=[puzzle.uid])),
        "hidden": puzzle.visibility != Visibility.PUBLIC,
        **_solve_context(puzzle, who, actions),
        # In place on the page (the board's verdict swaps it out of band).
        "solution": {**_solution(puzzle, text, who), "swap": False},
        **_next(puzzle, who),
    }
    return render(request, "grimoire/detail.html", context)


# Part of the image's cache key: bumped when the drawing changes (3: readable cards, issue 29).
IMAGE_VERSION = 3


@require_GET
def image(request: HttpRequest, uid: str) -> HttpResponse:
    """The position as a PNG for social media (the page's og:image), cached: the position of a
    shared puzzle does not change, and any edit changes the key."""
    puzzle = _get(request, uid)
    language = get_language()
    key = f"grimoire:image:{IMAGE_VERSION}:{puzzle.uid}:{language}:{puzzle.updated.timestamp()}"
    png = cache.get(key)
    if png is None:
        png = share_image(
            title=puzzle_text(puzzle).title.text,
            goal=display.goal_text(puzzle.goal),
            difficulty=puzzle.difficulty,
            board=display.board(puzzle.scenario, puzzle_state(puzzle)),
            cards=puzzle.scenario.get("cards") or {},
            names=card_names_in(language),
            abilities=ability_names_in(language),
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
    form = TurnForm(request.POST)
    # Only a hand-made request is invalid: start the turn again.
    actions = form.cleaned_data["actions"] if form.is_valid() else []
    if not request.headers.get("HX-Request"):
        return _detail(request, puzzle, actions)
    who = visitor(request, start=True)
    return _attempt_answer(request, "grimoire/_solve.html", puzzle, who, actions)


def _attempt_answer(
    request: HttpRequest, template: str, puzzle: Puzzle, who: Visitor, actions: list[Any]
) -> HttpResponse:
    try:
        context = _solve_context(puzzle, who, actions)
    except DomainError as exc:  # the solver's jobs are too many: say so, keep the turn
        context = {**_solve_context(puzzle, who, actions[:-1]), "error": exc.message}
    return render(request, template, context)


@require_POST
def attempt(request: HttpRequest, uid: str) -> HttpResponse:
    """Check the turn typed on the puzzle page (the scenario format's actions, as YAML)."""
    puzzle = _get(request, uid)
    who = visitor(request, start=True)
    form = AttemptForm(request.POST)
    context: dict[str, Any] = {"puzzle": puzzle, "error": "", "result": None}
    if not form.is_valid():
        context["error"] = str(form.errors["actions"][0])
    else:
        try:
            judged = services.puzzle_attempt(
                puzzle=puzzle, visitor=who, actions=form.cleaned_data["actions"]
            )
        except DomainError as exc:
            context["error"] = exc.message
        else:
            if isinstance(judged, SolverJob):
                context.update(_job_context(judged))
            else:
                context.update(result=judged, **_verdict(puzzle, who, judged))
    return render(request, "grimoire/_attempt.html", context)


@require_GET
def job(request: HttpRequest, uid: str, job_id: str) -> HttpResponse:
    """The verdict of a turn the judge needed longer for, polled by the board (or by the typed
    form's answer, ``?typed=1``) until it comes."""
    puzzle = _get(request, uid)
    who = visitor(request)
    try:
        found = solver_job_get(puzzle=puzzle, job_id=job_id, visitor=who)
    except DomainError:
        raise Http404(_("No such job of yours.")) from None
    if found.kind != JobKind.ATTEMPT:
        raise Http404(_("No such job of yours."))
    if request.GET.get("typed"):
        result = found.result if job_status(found) == JobStatus.DONE else None
        context = {
            "puzzle": puzzle,
            "result": result,
            **_job_context(None if result else found),
            **_verdict(puzzle, who, result),
        }
        return render(request, "grimoire/_attempt.html", context)
    context = _solve_context(puzzle, who, found.actions or [], job=found)
    return render(request, "grimoire/_solve.html", context)


@require_POST
def give_up(request: HttpRequest, uid: str) -> HttpResponse:
    """ "Show the solution", confirmed: recorded as a give-up, then the page with the solution."""
    puzzle = _get(request, uid)
    services.puzzle_give_up(puzzle=puzzle, visitor=visitor(request, start=True))
    return redirect(reverse("grimoire:detail", args=[puzzle.uid]) + "#puzzle-solution")


# The editor ------------------------------------------------------------------------------------

NEW_PUZZLE = {
    "active": "A",
    "phase": "summoning",
    "turn": 1,
    "goal_kind": "win",
    "difficulty": 1,
    "a_stronghold": "bastion",
    "b_stronghold": "bastion",
    "a_stronghold_at": 0,
    "b_stronghold_at": 0,
    "a_mana": 0,
    "b_mana": 0,
}


def _own(request: HttpRequest, uid: str) -> Puzzle:
    try:
        return puzzle_get_for_edit(uid=uid, user=signed_in_user(request))
    except DomainError:
        raise Http404(_("No such puzzle of yours.")) from None


def _problems(form: PuzzleEditorForm, checked: services.Checked | None) -> list[tuple[str, str]]:
    """(where, what) per problem: the form's own (an unknown card...), then the API's checks."""
    found = [
        (form.where(name), str(error)) for name, errors in form.errors.items() for error in errors
    ]
    for problem in checked.problems if checked else []:
        field = str(problem.details.get("field", ""))
        what = problem.message.removeprefix(f"{field}: ")
        found.append((display.problem_where(field), what))
    return found


def _editor(
    request: HttpRequest, puzzle: Puzzle | None, initial: dict[str, object]
) -> HttpResponse:
    """The editor of a new puzzle or the author's own: every change is checked (htmx posts the
    form without ``save``) through the API's validation, with a preview of the board; saving
    creates or updates the puzzle, private until the solver proves it."""
    form = PuzzleEditorForm(request.POST if request.method == "POST" else None, initial=initial)
    checked = None
    board = None
    # The page's first drawing of the board: the initial values, checked as if posted, their
    # problems left unsaid until the author changes something.
    drawing = form if form.is_bound else PuzzleEditorForm(initial)
    if drawing.is_valid():
        definitions = editor_definitions(
            known=dict(puzzle.scenario.get("cards") or {}) if puzzle else {},
            custom=drawing.custom_definitions(),
            typed=drawing.card_names(),
        )
        document = drawing.document(definitions, puzzle.scenario if puzzle else {})
        checked = services.puzzle_check(**document)
        # Drawn even when a puzzle cannot start from it: the board is where it gets fixed.
        if checked.drawn is not None:
            # In the page's language, as the card picker names them.
            labels = catalogue_labels(set(document["scenario"]["cards"]))
            board = display.board(document["scenario"], checked.drawn, labels)
        saving = "save" in request.POST and not request.headers.get("HX-Request")
        if not form.is_bound:
            checked = None
        # Only the form's own submission saves: a check that htmx sends as Save is clicked
        # (a field's change on leaving it) carries the clicked button too, and saved twice.
        elif saving and not form.errors and not checked.problems:
            if puzzle is None:
                puzzle = services.puzzle_create(author=signed_in_user(request), **document)
            else:
                puzzle = services.puzzle_update(puzzle=puzzle, **document)
            messages.success(request, _("Saved. Prove it with the solver before sharing it."))
            return redirect("grimoire:edit", uid=puzzle.uid)
    context: dict[str, Any] = {
        "form": form,
        "puzzle": puzzle,
        "problems": _problems(form, checked),
        "checked": form.is_bound,
        "board": board,
        **(_proof_context(puzzle, polled=False) if puzzle else {}),
    }
    if request.headers.get("HX-Request"):
        return render(request, "grimoire/_editor_check.html", context)
    context["cards"] = catalogue_cards()
    context["ability_codes"] = ability_codes()
    context["places"] = json.dumps(form.places())
    return render(request, "grimoire/editor.html", context)


@login_required
def editor_new(request: HttpRequest) -> HttpResponse:
    return _editor(request, None, NEW_PUZZLE)


@login_required
def editor_edit(request: HttpRequest, uid: str) -> HttpResponse:
    puzzle = _own(request, uid)
    initial = puzzle_initial(puzzle)
    if initial is None:
        message = _("This position is larger than the editor's slots: edit it through the API.")
        messages.error(request, message)
        return redirect("grimoire:detail", uid=uid)
    return _editor(request, puzzle, initial)


@login_required
@require_POST
def prove(request: HttpRequest, uid: str) -> HttpResponse:
    puzzle = _own(request, uid)
    wait = proof_wait(request)
    if wait is not None:
        message = _("Too many proofs in a short time: try again in %(seconds)d seconds.")
        messages.error(request, message % {"seconds": round(wait)})
        return redirect("grimoire:edit", uid=uid)
    try:
        proved = services.puzzle_prove(puzzle=puzzle, user=signed_in_user(request))
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("grimoire:edit", uid=uid)
    if isinstance(proved, SolverJob):
        return redirect("grimoire:edit", uid=uid)
    report = proved.report or {}
    if proved.proof_status == ProofStatus.PROVED:
        messages.success(request, _proved_text(report))
    else:
        messages.error(request, display.refusal_text(report))
    return redirect("grimoire:edit", uid=uid)


def _proved_text(report: dict[str, Any]) -> str:
    return _("Proved: %(count)d distinct solution(s); you can share it now.") % {
        "count": report.get("solutions", 0)
    }


def _proof_context(puzzle: Puzzle, *, polled: bool) -> dict[str, Any]:
    """The editor's proof and sharing section: the proof running (polled) or its outcome, once
    a poll saw it end."""
    running = proof_running(puzzle)
    if running is None:
        # The puzzle was read before the job was looked for: a job that ended in between
        # committed its outcome after that read. Read again, or the section would show a proof
        # running with nothing polling it.
        puzzle.refresh_from_db()
    outcome = ""
    if polled and running is None and puzzle.report is not None:
        proved = puzzle.proof_status == ProofStatus.PROVED
        outcome = _proved_text(puzzle.report) if proved else display.refusal_text(puzzle.report)
    return {
        "puzzle": puzzle,
        "visibilities": Visibility.choices,
        "proof_job": running,
        "outcome": outcome,
    }


@login_required
@require_GET
def proof(request: HttpRequest, uid: str) -> HttpResponse:
    """The editor's proof section, polled while a proof runs."""
    return render(request, "grimoire/_proof.html", _proof_context(_own(request, uid), polled=True))


@login_required
@require_POST
def publish(request: HttpRequest, uid: str) -> HttpResponse:
    try:
        services.puzzle_publish(
            puzzle=_own(request, uid), visibility=request.POST.get("visibility", "")
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("grimoire:edit", uid=uid)
