"""Writes of the Grimoire: create, update, import, prove, publish, record attempts and give-ups.

A puzzle is checked before it is stored, part by part (``grimoire.checks``: the position, its
size, the goal, the difficulty, the texts). The proof is the solver's complete report.

The solver never runs long inside a request: a proof or an attempt gets ``INLINE_SECONDS`` there,
and a search that needs more becomes a ``SolverJob`` run by the ``grimoire.solver_job`` task (the
Celery workers, or without a broker the web process's background threads,
``cod_site.background``), whose status the API and the pages poll.

Each person trying a puzzle has a ``PuzzleRecord``: the puzzle's figures count records, so a
person counts once, and a give-up (which shows the solution) is never a solve.
"""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from champions.models import Visibility
from cod_site.background import task_send
from cod_site.errors import DomainError
from engine.rules import GameState
from engine.rules.solver import Attempt, Report, attempt, goal_from_json, solve
from grimoire import checks
from grimoire.book import UID_PREFIX
from grimoire.models import (
    ACTIVE_JOB_STATUSES,
    DIFFICULTY_MIN,
    JobKind,
    JobStatus,
    ProofStatus,
    Puzzle,
    PuzzleRecord,
    PuzzleTranslation,
    SolverJob,
)
from grimoire.selectors import (
    Visitor,
    jobs_active,
    position_digest,
    proof_running,
    puzzle_state,
    sees_from_start,
)

logger = logging.getLogger(__name__)

SOLVER_JOB_TASK = "grimoire.solver_job"

SOLVER_MAX_NODES = 200_000
SOLVER_MAX_SECONDS = 60.0
ATTEMPT_MAX_NODES = 50_000
ATTEMPT_MAX_SECONDS = 10.0
# The solver's time within a request: a search not over by then starts again as a job.
INLINE_SECONDS = 0.05
# A running job writes its progress at most this often (its sign of life).
PROGRESS_SECONDS = 1.0
# The actions of one attempted turn.
MAX_ACTIONS = 40


def _write_translations(puzzle: Puzzle, translations: dict[str, dict[str, str]]) -> None:
    puzzle.translations.all().delete()
    PuzzleTranslation.objects.bulk_create(
        PuzzleTranslation(
            puzzle=puzzle,
            language_code=language,
            title=texts.get("title", ""),
            hint=texts.get("hint", ""),
            explanation=texts.get("explanation", ""),
        )
        for language, texts in translations.items()
    )


@dataclass(frozen=True)
class Checked:
    """Every problem of a puzzle's parts, as `puzzle_create` would refuse them one at a time;
    ``state``: the position, when it is valid (the goal is only checked against one);
    ``drawn``: the position as built, even one a puzzle cannot start from (a Stronghold without
    hit points, a creature dead of its damage), which the editor's board still draws."""

    problems: list[DomainError]
    state: GameState | None
    drawn: GameState | None = None


def puzzle_check(
    *, scenario: Any, goal: Any, difficulty: int, translations: dict[str, dict[str, str]]
) -> Checked:
    """The editor's check as it is built: the API's own validation, each part on its own."""
    problems = []
    state = None
    drawn = None
    try:
        _, _, drawn = checks.position_built(scenario)
        checks.playable_check(drawn)
        state = drawn
        checks.goal_check(goal, state)
    except DomainError as exc:
        problems.append(exc)
    try:
        checks.difficulty_check(difficulty)
    except DomainError as exc:
        problems.append(exc)
    try:
        checks.translations_check(translations)
    except DomainError as exc:
        problems.append(exc)
    return Checked(problems, state, drawn)


def puzzle_create(
    *,
    author: User | None,
    scenario: Any,
    goal: Any,
    difficulty: int,
    translations: dict[str, dict[str, str]],
    uid: str = "",
) -> Puzzle:
    """A private puzzle, not proved yet. ``author`` None: the project's (the starter book)."""
    stored, parsed, state = checks.position_check(scenario)
    goal_data = checks.goal_check(goal, state)
    checks.difficulty_check(difficulty)
    checks.translations_check(translations)
    with transaction.atomic():
        puzzle = Puzzle(
            author=author,
            scenario=stored,
            goal=goal_data,
            abilities=checks.abilities_of(parsed),
            difficulty=difficulty,
        )
        if uid:
            puzzle.uid = uid
        puzzle.save()
        _write_translations(puzzle, translations)
    return puzzle


def puzzle_update(
    *,
    puzzle: Puzzle,
    scenario: Any = None,
    goal: Any = None,
    difficulty: int | None = None,
    translations: dict[str, dict[str, str]] | None = None,
) -> Puzzle:
    """Change what is given; a new position or goal drops the proof and makes it private again,
    and is a new puzzle to its solvers: their records (who solved it or saw its solution) and
    the figures start again."""
    changed = False
    if scenario is not None or goal is not None:
        stored, parsed, state = checks.position_check(
            puzzle.scenario if scenario is None else scenario
        )
        goal_data = checks.goal_check(puzzle.goal if goal is None else goal, state)
        changed = stored != puzzle.scenario or goal_data != puzzle.goal
        puzzle.scenario, puzzle.goal, puzzle.abilities = (
            stored,
            goal_data,
            checks.abilities_of(parsed),
        )
    if difficulty is not None:
        checks.difficulty_check(difficulty)
        puzzle.difficulty = difficulty
    if translations is not None:
        checks.translations_check(translations)
    with transaction.atomic():
        if changed:
            puzzle.report = None
            puzzle.proof_status = ProofStatus.NONE
            puzzle.visibility = Visibility.PRIVATE
            puzzle.records.all().delete()
            puzzle.attempts = puzzle.solved = 0
        puzzle.save()
        if translations is not None:
            _write_translations(puzzle, translations)
    return puzzle


def puzzle_import(*, author: User | None, document: Any, uid: str = "") -> Puzzle:
    """A puzzle from an exported document ``{scenario, goal, difficulty, translations}``.

    ``scenario`` may be any scenario file: its ``actions`` and ``expect`` are dropped, and the goal
    defaults to winning when ``expect.winner`` names the active player."""
    if not isinstance(document, dict) or not isinstance(document.get("scenario"), dict):
        raise checks.refuse("invalid_position", _("expected a scenario document"), "scenario")
    scenario = document["scenario"]
    goal = document.get("goal")
    if goal is None:
        expect = scenario.get("expect") or {}
        active = (
            (scenario.get("state") or {}).get("active")
            if isinstance(scenario.get("state"), dict)
            else None
        )
        if (
            not isinstance(expect, dict)
            or expect.get("winner") is None
            or expect.get("winner") != active
        ):
            raise checks.refuse(
                "invalid_goal",
                _("missing, and the scenario's expect.winner is not the active player"),
                "goal",
            )
        goal = {"kind": "win"}
    position = {key: scenario[key] for key in checks.POSITION_KEYS if key in scenario}
    description = str(scenario.get("description") or "") or "Imported puzzle"
    translations = document.get("translations") or {
        "en": {"title": description[: checks.MAX_TITLE]}
    }
    difficulty = document.get("difficulty", DIFFICULTY_MIN)
    if not isinstance(difficulty, int) or isinstance(difficulty, bool):
        raise checks.refuse("invalid_difficulty", _("expected a whole number"), "difficulty")
    if not isinstance(translations, dict) or not all(
        isinstance(texts, dict) and all(isinstance(t, str) for t in texts.values())
        for texts in translations.values()
    ):
        raise checks.refuse("invalid_text", _("expected texts per language"), "translations")
    return puzzle_create(
        author=author,
        scenario=position,
        goal=goal,
        difficulty=difficulty,
        translations=translations,
        uid=uid,
    )


def _refuse_busy(*, user: User | None, kind: str) -> None:
    """A job more would be too many: for everyone's, or for the user's own proofs (429)."""
    active = jobs_active()
    limit = settings.GRIMOIRE_MAX_ACTIVE_JOBS
    if active.count() >= limit:
        raise DomainError(
            "solver_busy",
            _("The solver is busy with other searches: try again in a minute."),
            {"limit": limit},
            status_code=429,
        )
    own = settings.GRIMOIRE_MAX_ACTIVE_PROOFS
    if (
        kind == JobKind.PROOF
        and user is not None
        and active.filter(kind=JobKind.PROOF, requested_by=user).count() >= own
    ):
        raise DomainError(
            "too_many_proofs",
            _("At most %(limit)d of your proofs run at once: wait for one to end.")
            % {"limit": own},
            {"limit": own},
            status_code=429,
        )


def _job_start(**fields: Any) -> SolverJob:
    job = SolverJob.objects.create(**fields)
    task_send(SOLVER_JOB_TASK, job_id=str(job.pk))
    return job


def _proof_write(puzzle: Puzzle, report: Report) -> Puzzle:
    puzzle.report = report.to_json()
    puzzle.proof_status = ProofStatus.PROVED if report.proved else ProofStatus.REFUSED
    if not report.proved:
        puzzle.visibility = Visibility.PRIVATE
    puzzle.save(update_fields=["report", "proof_status", "visibility", "updated"])
    return puzzle


def _prove(puzzle: Puzzle, *, seconds: float, progress: Callable[[int], None] | None) -> Report:
    return solve(
        puzzle_state(puzzle),
        goal_from_json(puzzle.goal),
        max_nodes=SOLVER_MAX_NODES,
        max_seconds=seconds,
        progress=progress,
    )


def puzzle_prove(*, puzzle: Puzzle, user: User) -> Puzzle | SolverJob:
    """Prove the puzzle: at once (the puzzle, its report stored) when the solver's search ends
    within the request's budget, else a proof job (the one already running, if any)."""
    running = proof_running(puzzle)
    if running is not None:
        return running
    report = _prove(puzzle, seconds=INLINE_SECONDS, progress=None)
    if report.cut != "time":
        return _proof_write(puzzle, report)
    _refuse_busy(user=user, kind=JobKind.PROOF)
    with transaction.atomic():
        Puzzle.objects.filter(pk=puzzle.pk).update(proof_status=ProofStatus.PENDING)
        return _job_start(
            puzzle=puzzle,
            kind=JobKind.PROOF,
            requested_by=user,
            position=position_digest(puzzle),
            max_nodes=SOLVER_MAX_NODES,
        )


def puzzle_prove_run(*, puzzle_id: int) -> Puzzle:
    """The solver's complete search of the puzzle, now, stored as its report (the starter book's
    loader, outside any request)."""
    puzzle = Puzzle.objects.get(pk=puzzle_id)
    return _proof_write(puzzle, _prove(puzzle, seconds=SOLVER_MAX_SECONDS, progress=None))


class _Progress:
    """The search's progress callback: writes the job's nodes (and so its sign of life) at
    most once per PROGRESS_SECONDS."""

    def __init__(self, job: SolverJob) -> None:
        self.job_id = job.pk
        self.nodes = 0
        self.written = time.monotonic()

    def __call__(self, nodes: int) -> None:
        self.nodes = nodes
        now = time.monotonic()
        if now - self.written >= PROGRESS_SECONDS:
            self.written = now
            SolverJob.objects.filter(pk=self.job_id).update(nodes=nodes, updated=timezone.now())


def solver_job_run(*, job_id: str) -> None:
    """Run a job: the proof (written to the puzzle if its position has not changed since) or
    the attempt (recorded for its visitor). A job already over is not run again (a task the
    broker delivered twice); one that fails is marked failed, its puzzle's proof no longer
    pending."""
    taken = SolverJob.objects.filter(pk=job_id, status__in=ACTIVE_JOB_STATUSES).update(
        status=JobStatus.RUNNING, started=timezone.now(), updated=timezone.now()
    )
    if not taken:
        return
    job = SolverJob.objects.select_related("puzzle", "record").get(pk=job_id)
    progress = _Progress(job)
    try:
        if position_digest(job.puzzle) != job.position:
            _job_fail(job, _("The puzzle changed while the job waited: run it again."))
            return
        if job.kind == JobKind.PROOF:
            report = _prove(job.puzzle, seconds=SOLVER_MAX_SECONDS, progress=progress)
            _proof_job_done(job, report)
        else:
            result = _judge(job.puzzle, job.actions or [], ATTEMPT_MAX_SECONDS, progress)
            with transaction.atomic():
                _job_done(job, result.to_json(), progress.nodes)
                _record_judged(job.record, met=result.met)
    except Exception:
        logger.exception("solver job %s failed", job_id)
        _job_fail(job, _("The solver failed on this puzzle."))


def _job_done(job: SolverJob, result: dict[str, Any], nodes: int) -> None:
    SolverJob.objects.filter(pk=job.pk).update(
        status=JobStatus.DONE,
        result=result,
        nodes=nodes,
        finished=timezone.now(),
        updated=timezone.now(),
    )


def _proof_job_done(job: SolverJob, report: Report) -> None:
    with transaction.atomic():
        _job_done(job, report.to_json(), report.nodes)
        # (A puzzle deleted meanwhile took its job with it.)
        puzzle = Puzzle.objects.select_for_update().filter(pk=job.puzzle_id).first()
        if puzzle is not None and position_digest(puzzle) == job.position:
            _proof_write(puzzle, report)


def _job_fail(job: SolverJob, message: str) -> None:
    with transaction.atomic():
        SolverJob.objects.filter(pk=job.pk).update(
            status=JobStatus.FAILED, error=message, finished=timezone.now(), updated=timezone.now()
        )
        if job.kind == JobKind.PROOF:
            Puzzle.objects.filter(pk=job.puzzle_id, proof_status=ProofStatus.PENDING).update(
                proof_status=ProofStatus.NONE
            )


def puzzle_publish(*, puzzle: Puzzle, visibility: str) -> Puzzle:
    """Share a proved puzzle (public: in the gallery; unlisted: by its link), or make it private."""
    if visibility not in Visibility.values:
        raise checks.refuse(
            "invalid_visibility",
            _("expected one of %(choices)s") % {"choices": ", ".join(Visibility.values)},
            "visibility",
        )
    if visibility != Visibility.PRIVATE and puzzle.proof_status != ProofStatus.PROVED:
        raise DomainError(
            "not_proved",
            _(
                "Only a puzzle the solver proved can be shared: run the proof first; it must have "
                "a solution, a complete search, and take more than ending the turn."
            ),
            {"field": "visibility", "proof_status": puzzle.proof_status},
        )
    puzzle.visibility = visibility
    puzzle.save(update_fields=["visibility", "updated"])
    return puzzle


def puzzle_delete(*, puzzle: Puzzle) -> None:
    puzzle.delete()


def _record(puzzle: Puzzle, visitor: Visitor) -> PuzzleRecord | None:
    """The visitor's record on the puzzle, made at their first attempt or give-up (counted then
    as one more person who tried it); None for the author and staff, who are not counted."""
    if sees_from_start(puzzle, visitor):
        return None
    if visitor.user is not None:
        lookup: dict[str, Any] = {"user": visitor.user}
    elif visitor.session:
        lookup = {"user": None, "session": visitor.session}
    else:
        raise ValueError("an anonymous visitor is recorded by their session")
    with transaction.atomic():
        record, created = PuzzleRecord.objects.get_or_create(
            puzzle=puzzle,
            **lookup,
            defaults={"counted": visitor.user is not None or visitor.returning},
        )
        if created and record.counted:
            Puzzle.objects.filter(pk=puzzle.pk).update(attempts=F("attempts") + 1)
    return record


def _record_judged(record: PuzzleRecord | None, *, met: bool) -> None:
    """A judged turn: the first that meets the goal marks the record solved, and counts as a
    solve unless the person gave up before."""
    if record is None or not met:
        return
    with transaction.atomic():
        locked = PuzzleRecord.objects.select_for_update().filter(pk=record.pk).first()
        if locked is None or locked.solved_at is not None:
            return
        locked.solved_at = timezone.now()
        locked.save(update_fields=["solved_at"])
        if locked.counted and locked.gave_up_at is None:
            Puzzle.objects.filter(pk=locked.puzzle_id).update(solved=F("solved") + 1)


def _judge(
    puzzle: Puzzle, actions: list[Any], seconds: float, progress: Callable[[int], None] | None
) -> Attempt:
    return attempt(
        puzzle_state(puzzle),
        goal_from_json(puzzle.goal),
        actions,
        max_nodes=ATTEMPT_MAX_NODES,
        max_seconds=seconds,
        progress=progress,
    )


def puzzle_attempt(
    *, puzzle: Puzzle, visitor: Visitor, actions: list[Any]
) -> dict[str, Any] | SolverJob:
    """Judge a visitor's turn against the goal and record it: the result at once when the judge
    (the enemy's replies, for ``survive``) ends within the request's budget, else a job."""
    record = _record(puzzle, visitor)
    result = _judge(puzzle, actions, INLINE_SECONDS, None)
    if result.complete:
        _record_judged(record, met=result.met)
        return dict(result.to_json())
    requester = visitor.user
    mine = jobs_active().filter(puzzle=puzzle, kind=JobKind.ATTEMPT)
    mine = mine.filter(requested_by=requester) if requester else mine.filter(record=record)
    pending = mine.first()
    if pending is not None:
        raise DomainError(
            "attempt_running",
            _("Your previous turn is still being judged: wait for its verdict."),
            {"job": str(pending.pk)},
            status_code=429,
        )
    _refuse_busy(user=requester, kind=JobKind.ATTEMPT)
    return _job_start(
        puzzle=puzzle,
        kind=JobKind.ATTEMPT,
        requested_by=requester,
        record=record,
        position=position_digest(puzzle),
        actions=actions,
        max_nodes=ATTEMPT_MAX_NODES,
    )


def puzzle_give_up(*, puzzle: Puzzle, visitor: Visitor) -> None:
    """The visitor chooses to see the solution: recorded, so that a later solve is not counted
    (nothing to record for someone who solved it, nor for the author and staff)."""
    record = _record(puzzle, visitor)
    if record is None:
        return
    PuzzleRecord.objects.filter(pk=record.pk, solved_at=None, gave_up_at=None).update(
        gave_up_at=timezone.now()
    )


def starter_book_load(
    *,
    entries: list[dict[str, Any]],
    prefix: str = UID_PREFIX,
    visibility: str = Visibility.PUBLIC,
) -> list[Puzzle]:
    """Create or update the book's puzzles (uid ``<prefix><key>``: ``book-`` for the starter
    book, ``learn-`` for the lessons of Learn to play, which are `visibility` unlisted: not in
    the gallery), prove and publish each one.

    A puzzle the solver does not prove refuses the whole load: the book only holds proved ones.
    """
    puzzles = []
    with transaction.atomic():
        for entry in entries:
            uid = f"{prefix}{entry['key']}"
            existing = Puzzle.objects.filter(uid=uid).first()
            if existing is None:
                puzzle = puzzle_create(
                    author=None,
                    scenario=entry["scenario"],
                    goal=entry["goal"],
                    difficulty=entry["difficulty"],
                    translations=entry["translations"],
                    uid=uid,
                )
            else:
                puzzle = puzzle_update(
                    puzzle=existing,
                    scenario=entry["scenario"],
                    goal=entry["goal"],
                    difficulty=entry["difficulty"],
                    translations=entry["translations"],
                )
            puzzle = puzzle_prove_run(puzzle_id=puzzle.pk)
            if puzzle.proof_status != ProofStatus.PROVED:
                raise DomainError(
                    "not_proved",
                    _("starter book puzzle %(key)s: the solver did not prove it")
                    % {"key": entry["key"]},
                    {"key": entry["key"], "report": puzzle.report},
                )
            puzzles.append(puzzle_publish(puzzle=puzzle, visibility=visibility))
    return puzzles
