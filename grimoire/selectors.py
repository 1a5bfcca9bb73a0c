"""Reads of the Grimoire: who sees which puzzle and its solution, the gallery's search, texts,
the export, the solver's jobs."""

import datetime
import hashlib
import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet
from django.utils import timezone

from cards.models import Ability, Card
from cards.selectors import Translated, card_name, card_prefetches, pick_translation, translated
from champions.models import Visibility
from cod_site.errors import DomainError
from engine.adapters.definitions import deck_engine_definitions
from engine.rules import (
    SUMMONING,
    GameState,
    IllegalAction,
    InputError,
    apply,
    from_json,
    legal_actions,
    to_json,
)
from engine.rules.scenario import build_state, parse
from grimoire.book import LESSON_PREFIX
from grimoire.models import ACTIVE_JOB_STATUSES, JobKind, JobStatus, Puzzle, PuzzleRecord, SolverJob

GOAL_WINNER_KINDS = ("win",)
# A job queued or running without a sign of life for this long is lost: the worker or the web
# process that ran it died (a running search writes its progress every second).
JOB_LOST_SECONDS = 120


def puzzles_visible_to(viewer: User | AnonymousUser) -> QuerySet[Puzzle]:
    """Public and unlisted puzzles (unlisted ones by their link), and the viewer's own."""
    shown = Q(visibility__in=[Visibility.PUBLIC, Visibility.UNLISTED])
    if viewer.is_authenticated:
        shown |= Q(author=viewer)
    return Puzzle.objects.filter(shown).select_related("author").prefetch_related("translations")


def puzzle_get(*, uid: str, viewer: User | AnonymousUser) -> Puzzle:
    puzzle = puzzles_visible_to(viewer).filter(uid=uid).first()
    if puzzle is None:
        raise DomainError("not_found", "No such puzzle.", {"uid": uid}, status_code=404)
    return puzzle


def lessons() -> list[Puzzle]:
    """The lessons of Learn to play in order (their keys start with their number), as the
    starter book's load leaves them: the project's, unlisted."""
    return list(
        Puzzle.objects.filter(
            uid__startswith=LESSON_PREFIX, author__isnull=True, visibility=Visibility.UNLISTED
        )
        .prefetch_related("translations")
        .order_by("uid")
    )


def lesson_number(puzzle: Puzzle) -> int | None:
    """The step of Learn to play that `puzzle` is (1 the first), or None: not a lesson."""
    if not puzzle.uid.startswith(LESSON_PREFIX) or puzzle.author_id is not None:
        return None
    uids = [lesson.uid for lesson in lessons()]
    return uids.index(puzzle.uid) + 1 if puzzle.uid in uids else None


def puzzle_get_for_edit(*, uid: str, user: User) -> Puzzle:
    """The user's own puzzle (staff may edit the starter book's)."""
    puzzle = Puzzle.objects.prefetch_related("translations").filter(uid=uid).first()
    if puzzle is None or not (puzzle.author_id == user.pk or user.is_staff):
        raise DomainError("not_found", "No such puzzle of yours.", {"uid": uid}, status_code=404)
    return puzzle


def puzzles_listed(
    *,
    viewer: User | AnonymousUser,
    ability: str = "",
    difficulty: int | None = None,
    mine: bool = False,
) -> QuerySet[Puzzle]:
    """The gallery: public puzzles (the viewer's own with ``mine``), by ability and difficulty."""
    if mine and viewer.is_authenticated:
        puzzles = Puzzle.objects.filter(author=viewer)
    else:
        puzzles = Puzzle.objects.filter(visibility=Visibility.PUBLIC)
    if ability:
        puzzles = puzzles.filter(abilities__contains=f",{ability},")
    if difficulty is not None:
        puzzles = puzzles.filter(difficulty=difficulty)
    # The API shows each puzzle's author: one join, not a query per puzzle.
    return (
        puzzles.select_related("author")
        .prefetch_related("translations")
        .order_by("difficulty", "uid")
    )


def puzzle_of_the_day(day: datetime.date) -> Puzzle | None:
    """One public puzzle per day, in turn through the gallery (the same for every visitor)."""
    puzzles = Puzzle.objects.filter(visibility=Visibility.PUBLIC).order_by("uid")
    count = puzzles.count()
    if not count:
        return None
    return puzzles.prefetch_related("translations")[day.toordinal() % count]


@dataclass(frozen=True)
class PuzzleText:
    title: Translated
    hint: Translated
    explanation: Translated


def puzzle_text(puzzle: Puzzle, language: str | None = None) -> PuzzleText:
    """The puzzle's texts in ``language`` (default: the request's), else in English."""
    row, is_fallback = pick_translation(puzzle.translations.all(), language)
    if row is None:
        empty = Translated("", "en", True)
        return PuzzleText(empty, empty, empty)
    return PuzzleText(
        *(
            Translated(getattr(row, name), row.language_code, is_fallback)
            for name in ("title", "hint", "explanation")
        )
    )


def puzzle_translations(puzzle: Puzzle) -> dict[str, dict[str, str]]:
    return {
        row.language_code: {"title": row.title, "hint": row.hint, "explanation": row.explanation}
        for row in puzzle.translations.all()
    }


def puzzle_export(puzzle: Puzzle, *, shown: bool) -> dict[str, Any]:
    """The puzzle as a scenario file (``expect`` the winner when the goal is to win) with the
    goal and texts beside it: what ``puzzle_import`` takes back. With its solution when
    ``shown``: ``actions`` the proved shortest line, and the explanations."""
    scenario: dict[str, Any] = dict(puzzle.scenario)
    if shown:
        scenario["actions"] = list((puzzle.report or {}).get("shortest") or [])
    active = scenario["state"]["active"]
    scenario["expect"] = {"winner": active} if puzzle.goal.get("kind") in GOAL_WINNER_KINDS else {}
    translations = puzzle_translations(puzzle)
    if not shown:
        for texts in translations.values():
            del texts["explanation"]
    return {
        "scenario": scenario,
        "goal": puzzle.goal,
        "difficulty": puzzle.difficulty,
        "translations": translations,
    }


# Who sees a solution ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Visitor:
    """Who asks: a signed-in ``user``, or an anonymous visitor known by ``session`` (a digest of
    their session key; empty when they have none). ``returning``: the session came with the
    request (an earlier answer gave it), rather than being made for this one."""

    user: User | None
    session: str = ""
    returning: bool = False


def session_digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()


def sees_from_start(puzzle: Puzzle, visitor: Visitor) -> bool:
    """The author and staff see the solution without solving the puzzle."""
    user = visitor.user
    return user is not None and (user.is_staff or puzzle.author_id == user.pk)


def _records_of(visitor: Visitor) -> QuerySet[PuzzleRecord]:
    if visitor.user is not None:
        return PuzzleRecord.objects.filter(user=visitor.user)
    if visitor.session:
        return PuzzleRecord.objects.filter(user=None, session=visitor.session)
    return PuzzleRecord.objects.none()


def record_of(puzzle: Puzzle, visitor: Visitor) -> PuzzleRecord | None:
    """The visitor's record on ``puzzle`` (None: they never tried it)."""
    return _records_of(visitor).filter(puzzle=puzzle).first()


def solutions_shown(puzzles: Iterable[Puzzle], visitor: Visitor) -> set[int]:
    """The ids of ``puzzles`` whose solution ``visitor`` may see: the author's and staff's, and
    the ones they solved or gave up (one query, none for a visitor without a session)."""
    puzzles = list(puzzles)
    shown = {puzzle.pk for puzzle in puzzles if sees_from_start(puzzle, visitor)}
    others = [puzzle.pk for puzzle in puzzles if puzzle.pk not in shown]
    if others and (visitor.user is not None or visitor.session):
        shown.update(
            _records_of(visitor)
            .filter(puzzle__in=others)
            .filter(Q(solved_at__isnull=False) | Q(gave_up_at__isnull=False))
            .values_list("puzzle_id", flat=True)
        )
    return shown


def puzzle_next(puzzle: Puzzle, visitor: Visitor) -> Puzzle | None:
    """The puzzle to try after ``puzzle``: the next public one in the gallery's order
    (difficulty, then id) that ``visitor`` has not solved, from the start again past the last;
    None when none is left (issue 29: a solved puzzle led nowhere)."""
    solved = _records_of(visitor).filter(solved_at__isnull=False).values("puzzle_id")
    others = (
        Puzzle.objects.filter(visibility=Visibility.PUBLIC)
        .exclude(pk=puzzle.pk)
        .exclude(pk__in=solved)
        .prefetch_related("translations")
        .order_by("difficulty", "uid")
    )
    after = others.filter(
        Q(difficulty__gt=puzzle.difficulty) | Q(difficulty=puzzle.difficulty, uid__gt=puzzle.uid)
    ).first()
    return after or others.first()


def solution_given_up(puzzle: Puzzle, visitor: Visitor) -> bool:
    """Whether ``visitor`` gave ``puzzle`` up without solving it: they asked for its solution,
    which their page then shows open."""
    record = record_of(puzzle, visitor)
    return record is not None and record.gave_up_at is not None and record.solved_at is None


def solution_shown(puzzle: Puzzle, visitor: Visitor) -> bool:
    return puzzle.pk in solutions_shown([puzzle], visitor)


def report_for(report: dict[str, Any] | None, *, shown: bool) -> dict[str, Any] | None:
    """The solver's report as the viewer may see it: without its shortest line, unless shown."""
    if report is None or shown:
        return report
    return {key: value for key, value in report.items() if key != "shortest"}


# The solver's jobs --------------------------------------------------------------------------


def position_digest(puzzle: Puzzle) -> str:
    """What a proof is of: the puzzle's position and goal."""
    document = json.dumps([puzzle.scenario, puzzle.goal], sort_keys=True)
    return hashlib.sha256(document.encode()).hexdigest()


def _alive() -> Q:
    lost = timezone.now() - datetime.timedelta(seconds=JOB_LOST_SECONDS)
    return Q(status__in=ACTIVE_JOB_STATUSES, updated__gte=lost)


def jobs_active() -> QuerySet[SolverJob]:
    """The jobs queued or running, the lost ones left out."""
    return SolverJob.objects.filter(_alive())


def job_status(job: SolverJob) -> str:
    """The job's status as it stands: a queued or running job lost with its process has failed."""
    lost = timezone.now() - datetime.timedelta(seconds=JOB_LOST_SECONDS)
    if job.status in ACTIVE_JOB_STATUSES and job.updated < lost:
        return JobStatus.FAILED
    return str(job.status)


def proof_running(puzzle: Puzzle) -> SolverJob | None:
    """The proof of the puzzle's present position that is queued or running, if any."""
    return (
        jobs_active()
        .filter(puzzle=puzzle, kind=JobKind.PROOF, position=position_digest(puzzle))
        .first()
    )


def solver_job_get(*, puzzle: Puzzle, job_id: str, visitor: Visitor) -> SolverJob:
    """A job of ``puzzle`` as its requester sees it: a proof for the author and staff, an attempt
    for whoever made it (a 404 for anyone else)."""
    key = _uuid(job_id)
    job = (
        SolverJob.objects.select_related("record").filter(puzzle=puzzle, pk=key).first()
        if key
        else None
    )
    if job is not None and (
        (job.kind == JobKind.PROOF and sees_from_start(puzzle, visitor))
        or (visitor.user is not None and job.requested_by_id == visitor.user.pk)
        or (
            visitor.user is None
            and visitor.session
            and job.record is not None
            and job.record.session == visitor.session
        )
    ):
        return job
    raise DomainError("not_found", "No such job of yours.", {"job": job_id}, status_code=404)


def _uuid(text: str) -> str:
    """``text`` if it is a UUID (the jobs' ids), else "" (a lookup would raise)."""
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return ""


def puzzle_state(puzzle: Puzzle) -> GameState:
    """The puzzle's position (stored checked, so it builds), resting in Phase 2."""
    return build_state(parse({**puzzle.scenario, "expect": {}}))


@dataclass(frozen=True)
class PuzzleTurn:
    """A turn played on the puzzle's board: the position after ``actions`` (scenario format, the
    ones the rules took); ``refused``: why the next one was refused (the rest are dropped);
    ``over``: the Assault was chosen or a play ended the game, so the goal can be judged."""

    state: GameState
    actions: list[Any]
    refused: str
    over: bool

    def moves(self) -> list[Any]:
        """The active player's legal actions now (scenario format), the Assault first."""
        if self.over:
            return []
        return [to_json(self.state, action) for action in legal_actions(self.state)]


def puzzle_turn(puzzle: Puzzle, actions: list[Any]) -> PuzzleTurn:
    """Replay ``actions`` from the puzzle's position: the board page sends every action chosen
    so far with each click, so nothing of the turn is stored."""
    state = puzzle_state(puzzle)
    for index, data in enumerate(actions):
        if state.phase != SUMMONING:
            return PuzzleTurn(state, actions[:index], "the turn is already over", True)
        try:
            # Ending the turn is the Assault (Phase 3 always comes), as the attempts judge it.
            apply(state, from_json(state, "assault" if data == "end_turn" else data))
        except IllegalAction as exc:
            return PuzzleTurn(state, actions[:index], exc.message_en, False)
        except InputError as exc:
            return PuzzleTurn(state, actions[:index], str(exc), False)
    return PuzzleTurn(state, list(actions), "", state.phase != SUMMONING)


# The keys of a scenario's card definition (the engine's card JSON has a name beside them).
CARD_KEYS = ("type", "cost", "attack", "hp", "abilities")


@dataclass(frozen=True)
class CatalogueCard:
    name: str  # English: the engine's name, and the scenario's
    label: str  # in the page's language
    kind: str  # "creature" or "incantation": the editor's board puts only a creature on a line


def catalogue_cards() -> list[CatalogueCard]:
    """The cards the editor offers: every creature and incantation of the catalogue."""
    cards = Card.objects.deckable().prefetch_related("translations")
    rows = [
        CatalogueCard(card_name(card, "en") or card.slug, card_name(card), card.card_type)
        for card in cards
    ]
    return sorted(set(rows), key=lambda row: row.label.casefold())


def catalogue_labels(names: set[str]) -> dict[str, str]:
    """The names in the page's language of the catalogue cards named ``names`` (English names,
    the engine's)."""
    cards = (
        Card.objects.deckable()
        .filter(translations__language_code="en", translations__name__in=names)
        .prefetch_related("translations")
        .distinct()
    )
    return {card_name(card, "en") or card.slug: card_name(card) for card in cards}


def _catalogue_cards(names: set[str]) -> dict[str, tuple[Card, dict[str, Any]]]:
    """The catalogue cards named ``names`` by their English names, each with its scenario
    definition."""
    cards = list(
        Card.objects.deckable()
        .filter(translations__language_code="en", translations__name__in=names)
        .prefetch_related(*card_prefetches())
    )
    return {
        definition["name"]: (card, {key: definition[key] for key in CARD_KEYS if key in definition})
        for card, definition in zip(cards, deck_engine_definitions(cards), strict=True)
    }


def catalogue_definitions(names: set[str]) -> dict[str, dict[str, Any]]:
    """The scenario definitions of the catalogue cards named ``names`` (English names)."""
    return {name: definition for name, (_card, definition) in _catalogue_cards(names).items()}


def _same_card(one: dict[str, Any] | None, other: dict[str, Any]) -> bool:
    """Whether two definitions make the same card (the scenario format's defaults filled in)."""
    if one is None:
        return False
    defaults = {"attack": 0, "abilities": []}
    return {**defaults, **one} == {**defaults, **other}


def puzzle_custom_cards(scenario: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The position's cards that the catalogue does not define as they are defined here."""
    own: dict[str, dict[str, Any]] = dict(scenario.get("cards") or {})
    catalogue = catalogue_definitions(set(own))
    return {
        name: definition
        for name, definition in own.items()
        if not _same_card(catalogue.get(name), definition)
    }


def catalogue_pages(scenario: dict[str, Any]) -> dict[str, str]:
    """The catalogue page (slug) of each of the position's cards that the catalogue defines as
    the position does: its face on demand is the catalogue card's. A card the puzzle defines
    its own way links to nothing (the catalogue's text would not be its rules)."""
    own: dict[str, dict[str, Any]] = dict(scenario.get("cards") or {})
    return {
        name: card.slug
        for name, (card, definition) in _catalogue_cards(set(own)).items()
        if _same_card(own.get(name), definition)
    }


def editor_definitions(
    *, known: dict[str, dict[str, Any]], custom: dict[str, dict[str, Any]], typed: set[str]
) -> dict[str, dict[str, Any]]:
    """The definitions of an edited position's cards: ``known`` the stored puzzle's, ``custom``
    the custom cards typed, the catalogue's for the other names ``typed`` in the slots. A custom
    card as it was stored stays as it was written (an unchanged puzzle stays identical); a
    changed one replaces it."""
    kept = {
        name: known[name] if _same_card(known.get(name), definition) else definition
        for name, definition in custom.items()
    }
    return {**catalogue_definitions(typed - set(known) - set(kept)), **known, **kept}


def ability_choices() -> list[tuple[str, str]]:
    """(name in the page's language, code) of every ability, by name: the gallery's search."""
    return sorted(
        (translated(ability, "name").text, ability.code)
        for ability in Ability.objects.prefetch_related("translations")
    )


def ability_codes() -> list[str]:
    """Every ability code, for the editor's custom cards."""
    return sorted(Ability.objects.values_list("code", flat=True))
