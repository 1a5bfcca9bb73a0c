"""What a Grimoire puzzle must be before it is stored, checked part by part: its position (the
scenario format's own checks, whose messages name the offending key, then what a puzzle cannot
start from), its size (a puzzle is a turn to think through, not a whole game), its goal (its
format, and that it is not impossible from the start), its difficulty and its texts. Each
refusal is a DomainError whose message starts with the offending field.
"""

from typing import Any

from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from cod_site.text import hidden_character
from engine.rules import LINE_NAMES, PLAYER_NAMES, GameState, InputError
from engine.rules.scenario import Scenario, build_state, parse
from engine.rules.solver import goal_from_json, goal_problems
from grimoire.models import (
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
)

LANGUAGES = ("en", "fr", "sv")
TEXT_FIELDS = ("title", "hint", "explanation")
MAX_CARDS = 40
MAX_HAND = 16
MAX_LINE = 8
MAX_TITLE = 120
MAX_TEXT = 2000
POSITION_KEYS = ("description", "source", "cards", "state")


def refuse(code: str, message: str, field: str) -> DomainError:
    """A refusal whose message starts with the offending field (``field: what is wrong``)."""
    return DomainError(code, f"{field}: {message}", {"field": field})


def position_check(scenario: Any) -> tuple[dict[str, Any], Scenario, GameState]:
    """The stored form of a position, checked; a DomainError names the offending field."""
    stored, parsed, state = position_built(scenario)
    playable_check(state)
    return stored, parsed, state


def position_built(scenario: Any) -> tuple[dict[str, Any], Scenario, GameState]:
    """The stored form of a position and its state, as the scenario format builds it: not yet
    checked to be a position a puzzle can start from (`playable_check`)."""
    if not isinstance(scenario, dict):
        raise refuse("invalid_position", _("expected a mapping"), "scenario")
    for key in ("actions", "expect"):
        if scenario.get(key):
            raise refuse(
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
        raise refuse("invalid_position", detail, field) from None
    return stored, parsed, state


def playable_check(state: GameState) -> None:
    """A built position a puzzle can start from: the game not over, nothing already dead."""
    if state.outcome is not None:
        raise refuse("invalid_position", _("the game is already over"), "scenario.state")
    _check_live(state)


def _check_live(state: GameState) -> None:
    """What the scenario format allows (to test the end of a game) but a puzzle cannot start
    from: a Stronghold without hit points, a creature already dead of its damage."""
    for seat, kingdom in enumerate(state.players):
        where = f"scenario.state.players.{PLAYER_NAMES[seat]}"
        if kingdom.hit_points() < 1:
            message = _("the Stronghold needs at least one card to its right (1 hit point)")
            raise refuse("invalid_position", message, f"{where}.hand")
        for lane, line in enumerate(kingdom.lines):
            for index, creature in enumerate(line):
                if creature.damage >= creature.hp:
                    message = _("%(damage)d damage destroy a creature of %(hp)d HP") % {
                        "damage": creature.damage,
                        "hp": creature.hp,
                    }
                    field = f"{where}.lines.{LINE_NAMES[lane]}[{index}].damage"
                    raise refuse("invalid_position", message, field)


def _check_size(scenario: dict[str, Any]) -> None:
    cards = scenario.get("cards")
    if isinstance(cards, dict) and len(cards) > MAX_CARDS:
        raise refuse(
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
            raise refuse("position_too_large", message, field)
        lines = player.get("lines")
        for line, entries in lines.items() if isinstance(lines, dict) else ():
            if isinstance(entries, list) and len(entries) > MAX_LINE:
                field = f"scenario.state.players.{name}.lines.{line}"
                message = _("at most %(limit)d creatures on a line") % {"limit": MAX_LINE}
                raise refuse("position_too_large", message, field)


def goal_check(data: Any, state: GameState) -> dict[str, Any]:
    try:
        goal = goal_from_json(data)
    except InputError as exc:
        field, _sep, detail = str(exc).partition(":")
        raise refuse("invalid_goal", detail.strip(), field) from None
    problems = goal_problems(goal, state)
    if problems:
        field, _sep, detail = problems[0].partition(":")
        raise refuse("unmeetable_goal", detail.strip(), field)
    return goal.to_json()


def abilities_of(parsed: Scenario) -> str:
    # An Aura counts as its ability: a search for Splash finds a Splash Aura too.
    codes = {
        code.removeprefix("aura:") for card in parsed.cards.values() for code in card.abilities
    }
    return f",{','.join(sorted(codes))}," if codes else ""


def difficulty_check(difficulty: int) -> None:
    if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
        raise refuse(
            "invalid_difficulty",
            _("expected %(low)d to %(high)d") % {"low": DIFFICULTY_MIN, "high": DIFFICULTY_MAX},
            "difficulty",
        )


def translations_check(translations: dict[str, dict[str, str]]) -> None:
    if "en" not in translations or not translations["en"].get("title"):
        raise refuse(
            "missing_title",
            _("an English title is required"),
            "translations.en.title",
        )
    for language, texts in translations.items():
        if language not in LANGUAGES:
            raise refuse(
                "invalid_language",
                _("expected one of %(choices)s") % {"choices": ", ".join(LANGUAGES)},
                f"translations.{language}",
            )
        for key, text in texts.items():
            field = f"translations.{language}.{key}"
            if key not in TEXT_FIELDS:
                raise refuse("invalid_text", _("unknown text"), field)
            limit = MAX_TITLE if key == "title" else MAX_TEXT
            if len(text) > limit:
                message = _("at most %(limit)d characters") % {"limit": limit}
                raise refuse("invalid_text", message, field)
            # The title is the puzzle's name (cod_site.text); hint and explanation are prose.
            character = hidden_character(text) if key == "title" else None
            if character is not None:
                message = _("an invisible or control character (U+%(code)04X)") % {
                    "code": ord(character)
                }
                raise refuse("invisible_character", message, field)
