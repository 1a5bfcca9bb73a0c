"""Writes of the Grimoire: create, update, import, prove, publish, and record attempts.

A position is checked before it is stored: the scenario format's own checks
(``engine.rules.scenario.parse`` and ``build_state``, whose messages name the offending key),
size limits (a puzzle is a turn to think through, not a whole game), and the goal (its format, and
that it is not impossible from the start). The proof is the solver's complete report: a small
position is proved within the request, a large one by the ``grimoire.prove`` Celery task (run in
the process when there is no broker, as the test batches are).
"""

from dataclasses import dataclass
from typing import Any

from celery import current_app
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from champions.models import Visibility
from cod_site.errors import DomainError
from engine.rules.errors import InputError
from engine.rules.scenario import Scenario, build_state, parse
from engine.rules.solver import attempt, goal_from_json, goal_problems, solve
from engine.rules.state import LINE_NAMES, PLAYER_NAMES, GameState
from grimoire.book import UID_PREFIX
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, ProofStatus, Puzzle, PuzzleTranslation
from grimoire.selectors import puzzle_state

PROVE_TASK = "grimoire.prove"

LANGUAGES = ("en", "fr", "sv")
TEXT_FIELDS = ("title", "hint", "explanation")
MAX_CARDS = 40
MAX_HAND = 16
MAX_LINE = 8
MAX_TITLE = 120
MAX_TEXT = 2000
# Positions with more cards than this are proved by the Celery task, not within the request.
PROVE_INLINE_CARDS = 16
SOLVER_MAX_NODES = 200_000
SOLVER_MAX_SECONDS = 60.0
ATTEMPT_MAX_NODES = 50_000
ATTEMPT_MAX_SECONDS = 10.0
POSITION_KEYS = ("description", "source", "cards", "state")
# The actions of one attempted turn.
MAX_ACTIONS = 40


def _refuse(code: str, message: str, field: str) -> DomainError:
    """A refusal whose message starts with the offending field (``field: what is wrong``)."""
    return DomainError(code, f"{field}: {message}", {"field": field})


def _position(scenario: Any) -> tuple[dict[str, Any], Scenario, GameState]:
    """The stored form of a position, checked; a DomainError names the offending field."""
    if not isinstance(scenario, dict):
        raise _refuse("invalid_position", _("expected a mapping"), "scenario")
    for key in ("actions", "expect"):
        if scenario.get(key):
            raise _refuse(
                "invalid_position",
                _("a puzzle's position has no %(key)s (import a scenario file instead)")
                % {"key": key},
                f"scenario.{key}",
            )
    stored = {key: scenario[key] for key in POSITION_KEYS if key in scenario}
    _check_size(stored)
    try:
        parsed = parse({**stored, "expect": {}})
        state = build_state(parsed)
    except InputError as exc:
        message = str(exc)
        field = "scenario." + message.split(":", 1)[0] if ":" in message else "scenario"
        # The scenario format's own message, in English like every message of the engine.
        detail = message.split(":", 1)[1].strip() if ":" in message else message
        raise _refuse("invalid_position", detail, field) from None
    if state.outcome is not None:
        raise _refuse("invalid_position", _("the game is already over"), "scenario.state")
    _check_live(state)
    return stored, parsed, state


def _check_live(state: GameState) -> None:
    """What the scenario format allows (to test the end of a game) but a puzzle cannot start
    from: a Stronghold without hit points, a creature already dead of its damage."""
    for seat, kingdom in enumerate(state.players):
        where = f"scenario.state.players.{PLAYER_NAMES[seat]}"
        if kingdom.hit_points() < 1:
            message = _("the Stronghold needs at least one card to its right (1 hit point)")
            raise _refuse("invalid_position", message, f"{where}.hand")
        for lane, line in enumerate(kingdom.lines):
            for index, creature in enumerate(line):
                if creature.damage >= creature.hp:
                    message = _("%(damage)d damage destroy a creature of %(hp)d HP") % {
                        "damage": creature.damage,
                        "hp": creature.hp,
                    }
                    field = f"{where}.lines.{LINE_NAMES[lane]}[{index}].damage"
                    raise _refuse("invalid_position", message, field)


def _check_size(scenario: dict[str, Any]) -> None:
    cards = scenario.get("cards")
    if isinstance(cards, dict) and len(cards) > MAX_CARDS:
        raise _refuse(
            "position_too_large",
            _("at most %(limit)d cards in a puzzle, not %(count)d")
            % {"limit": MAX_CARDS, "count": len(cards)},
            "scenario.cards",
        )
    players = (
        (scenario.get("state") or {}).get("players")
        if isinstance(scenario.get("state"), dict)
        else None
    )
    if not isinstance(players, dict):
        return
    for name, player in players.items():
        if not isinstance(player, dict):
            continue
        hand = player.get("hand")
        if isinstance(hand, list) and len(hand) > MAX_HAND + 1:
            field = f"scenario.state.players.{name}.hand"
            message = _("at most %(limit)d cards in a hand") % {"limit": MAX_HAND}
            raise _refuse("position_too_large", message, field)
        lines = player.get("lines")
        for line, entries in lines.items() if isinstance(lines, dict) else ():
            if isinstance(entries, list) and len(entries) > MAX_LINE:
                field = f"scenario.state.players.{name}.lines.{line}"
                message = _("at most %(limit)d creatures on a line") % {"limit": MAX_LINE}
                raise _refuse("position_too_large", message, field)


def _goal(data: Any, state: GameState) -> dict[str, Any]:
    try:
        goal = goal_from_json(data)
    except InputError as exc:
        field, _sep, detail = str(exc).partition(":")
        raise _refuse("invalid_goal", detail.strip(), field) from None
    problems = goal_problems(goal, state)
    if problems:
        field, _sep, detail = problems[0].partition(":")
        raise _refuse("unmeetable_goal", detail.strip(), field)
    return goal.to_json()


def _abilities(parsed: Scenario) -> str:
    # An Aura counts as its ability: a search for Splash finds a Splash Aura too.
    codes = {
        code.removeprefix("aura:") for card in parsed.cards.values() for code in card.abilities
    }
    return f",{','.join(sorted(codes))}," if codes else ""


def _check_difficulty(difficulty: int) -> None:
    if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
        raise _refuse(
            "invalid_difficulty",
            _("expected %(low)d to %(high)d") % {"low": DIFFICULTY_MIN, "high": DIFFICULTY_MAX},
            "difficulty",
        )


def _check_translations(translations: dict[str, dict[str, str]]) -> None:
    if "en" not in translations or not translations["en"].get("title"):
        raise _refuse(
            "missing_title",
            _("an English title is required"),
            "translations.en.title",
        )
    for language, texts in translations.items():
        if language not in LANGUAGES:
            raise _refuse(
                "invalid_language",
                _("expected one of %(choices)s") % {"choices": ", ".join(LANGUAGES)},
                f"translations.{language}",
            )
        for key, text in texts.items():
            field = f"translations.{language}.{key}"
            if key not in TEXT_FIELDS:
                raise _refuse("invalid_text", _("unknown text"), field)
            limit = MAX_TITLE if key == "title" else MAX_TEXT
            if len(text) > limit:
                message = _("at most %(limit)d characters") % {"limit": limit}
                raise _refuse("invalid_text", message, field)


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
    ``state``: the position, when it is valid (the goal is only checked against one)."""

    problems: list[DomainError]
    state: GameState | None


def puzzle_check(
    *, scenario: Any, goal: Any, difficulty: int, translations: dict[str, dict[str, str]]
) -> Checked:
    """The editor's check as it is built: the API's own validation, each part on its own."""
    problems = []
    state = None
    try:
        _, _, state = _position(scenario)
        _goal(goal, state)
    except DomainError as exc:
        problems.append(exc)
    try:
        _check_difficulty(difficulty)
    except DomainError as exc:
        problems.append(exc)
    try:
        _check_translations(translations)
    except DomainError as exc:
        problems.append(exc)
    return Checked(problems, state)


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
    stored, parsed, state = _position(scenario)
    goal_data = _goal(goal, state)
    _check_difficulty(difficulty)
    _check_translations(translations)
    with transaction.atomic():
        puzzle = Puzzle(
            author=author,
            scenario=stored,
            goal=goal_data,
            abilities=_abilities(parsed),
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
    """Change what is given; a new position or goal drops the proof and makes it private again."""
    changed = False
    if scenario is not None or goal is not None:
        stored, parsed, state = _position(puzzle.scenario if scenario is None else scenario)
        goal_data = _goal(puzzle.goal if goal is None else goal, state)
        changed = stored != puzzle.scenario or goal_data != puzzle.goal
        puzzle.scenario, puzzle.goal, puzzle.abilities = stored, goal_data, _abilities(parsed)
    if difficulty is not None:
        _check_difficulty(difficulty)
        puzzle.difficulty = difficulty
    if translations is not None:
        _check_translations(translations)
    with transaction.atomic():
        if changed:
            puzzle.report = None
            puzzle.proof_status = ProofStatus.NONE
            puzzle.visibility = Visibility.PRIVATE
        puzzle.save()
        if translations is not None:
            _write_translations(puzzle, translations)
    return puzzle


def puzzle_import(*, author: User | None, document: Any, uid: str = "") -> Puzzle:
    """A puzzle from an exported document ``{scenario, goal, difficulty, translations}``.

    ``scenario`` may be any scenario file: its ``actions`` and ``expect`` are dropped, and the goal
    defaults to winning when ``expect.winner`` names the active player."""
    if not isinstance(document, dict) or not isinstance(document.get("scenario"), dict):
        raise _refuse("invalid_position", _("expected a scenario document"), "scenario")
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
            raise _refuse(
                "invalid_goal",
                _("missing, and the scenario's expect.winner is not the active player"),
                "goal",
            )
        goal = {"kind": "win"}
    position = {key: scenario[key] for key in POSITION_KEYS if key in scenario}
    description = str(scenario.get("description") or "") or "Imported puzzle"
    translations = document.get("translations") or {"en": {"title": description[:MAX_TITLE]}}
    difficulty = document.get("difficulty", DIFFICULTY_MIN)
    if not isinstance(difficulty, int) or isinstance(difficulty, bool):
        raise _refuse("invalid_difficulty", _("expected a whole number"), "difficulty")
    if not isinstance(translations, dict) or not all(
        isinstance(texts, dict) and all(isinstance(t, str) for t in texts.values())
        for texts in translations.values()
    ):
        raise _refuse("invalid_text", _("expected texts per language"), "translations")
    return puzzle_create(
        author=author,
        scenario=position,
        goal=goal,
        difficulty=difficulty,
        translations=translations,
        uid=uid,
    )


def _card_count(puzzle: Puzzle) -> int:
    return len(puzzle.scenario.get("cards") or {})


def puzzle_prove(*, puzzle: Puzzle) -> Puzzle:
    """Run the solver now (small position) or send it to the proof task (large one)."""
    if _card_count(puzzle) <= PROVE_INLINE_CARDS:
        return puzzle_prove_run(puzzle_id=puzzle.pk)
    Puzzle.objects.filter(pk=puzzle.pk).update(proof_status=ProofStatus.PENDING)
    transaction.on_commit(lambda: current_app.tasks[PROVE_TASK].apply_async(args=(puzzle.pk,)))
    puzzle.refresh_from_db()
    return puzzle


def puzzle_prove_run(*, puzzle_id: int) -> Puzzle:
    """The solver's complete search of the puzzle, stored as its report."""
    puzzle = Puzzle.objects.get(pk=puzzle_id)
    report = solve(
        puzzle_state(puzzle),
        goal_from_json(puzzle.goal),
        max_nodes=SOLVER_MAX_NODES,
        max_seconds=SOLVER_MAX_SECONDS,
    )
    puzzle.report = report.to_json()
    puzzle.proof_status = ProofStatus.PROVED if report.proved else ProofStatus.REFUSED
    if not report.proved:
        puzzle.visibility = Visibility.PRIVATE
    puzzle.save(update_fields=["report", "proof_status", "visibility", "updated"])
    return puzzle


def puzzle_publish(*, puzzle: Puzzle, visibility: str) -> Puzzle:
    """Share a proved puzzle (public: in the gallery; unlisted: by its link), or make it private."""
    if visibility not in Visibility.values:
        raise _refuse(
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


def puzzle_attempt(*, puzzle: Puzzle, actions: list[Any]) -> dict[str, Any]:
    """Check a player's turn against the goal and count it (the solve rate)."""
    result = attempt(
        puzzle_state(puzzle),
        goal_from_json(puzzle.goal),
        actions,
        max_nodes=ATTEMPT_MAX_NODES,
        max_seconds=ATTEMPT_MAX_SECONDS,
    )
    Puzzle.objects.filter(pk=puzzle.pk).update(
        attempts=F("attempts") + 1, solved=F("solved") + (1 if result.met else 0)
    )
    return result.to_json()


def starter_book_load(*, entries: list[dict[str, Any]]) -> list[Puzzle]:
    """Create or update the book's puzzles (uid ``book-<key>``), prove and publish each one.

    A puzzle the solver does not prove refuses the whole load: the book only holds proved ones.
    """
    puzzles = []
    with transaction.atomic():
        for entry in entries:
            uid = f"{UID_PREFIX}{entry['key']}"
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
            puzzles.append(puzzle_publish(puzzle=puzzle, visibility=Visibility.PUBLIC))
    return puzzles
