"""What the Grimoire's pages show of a puzzle, in the page's language: the goal, the position and
the proved solution as sentences. Read from the stored scenario document; no engine run."""

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from cards.models import Ability
from cards.selectors import ability_names_in, translated
from cod_site.i18n import current_language
from engine.display.board import Board, board_of
from engine.display.faces import CardFace, card_face
from engine.rules import SPECTATOR, GameState, observe


def goal_text(goal: dict[str, Any]) -> str:
    kind = goal.get("kind")
    if kind == "all":
        return _(" and ").join(goal_text(part) for part in goal.get("goals", []))
    if kind == "win":
        return _("Win this turn")
    if kind == "destroy_stronghold":
        if goal.get("side") == "fort":
            return _("Destroy the enemy Fort this turn")
        return _("Destroy the enemy Bastion this turn")
    if kind == "destroy_creatures":
        return _("Destroy %(count)d enemy creature(s) this turn") % {"count": goal["count"]}
    if kind == "survive":
        return _("Survive the enemy's next turn")
    return _("End the turn with at least %(hp)d HP") % {"hp": goal.get("hp", 0)}


def line_name(line: str) -> str:
    return _("the upper line") if line == "top" else _("the lower line")


def action_text(action: Any) -> str:
    """One action of the scenario format as a sentence."""
    if action == "assault":
        return _("Go to the Assault (Phase 3).")
    if action == "end_turn":
        return _("End the turn.")
    card = action.get("play", "")
    if "line" in action:
        return _("Play %(card)s on %(line)s.") % {"card": card, "line": line_name(action["line"])}
    if "onto" in action:
        return _("Place %(card)s onto %(host)s.") % {"card": card, "host": action["onto"]}
    target = action.get("target") or {}
    return _("Cast %(card)s on %(target)s (player %(player)s).") % {
        "card": card,
        "target": target.get("card", ""),
        "player": target.get("player", ""),
    }


@dataclass(frozen=True)
class CardRow:
    name: str
    kind: str
    cost: int
    attack: int
    hp: int | None
    abilities: str


def _ability_names(codes: list[str], names: dict[str, str]) -> str:
    shown = []
    for code in codes:
        bare = code.removeprefix("aura:")
        name = names.get(bare, bare)
        shown.append(_("Aura: %(name)s") % {"name": name} if code.startswith("aura:") else name)
    return ", ".join(shown)


def card_rows(scenario: dict[str, Any]) -> list[CardRow]:
    cards: dict[str, Any] = scenario.get("cards") or {}
    codes = {c.removeprefix("aura:") for card in cards.values() for c in card.get("abilities", [])}
    names = {
        ability.code: translated(ability, "name").text
        for ability in Ability.objects.filter(code__in=codes).prefetch_related("translations")
    }
    return [
        CardRow(
            name=name,
            kind=_("creature") if card["type"] != "incantation" else _("incantation"),
            cost=card.get("cost", 0),
            attack=card.get("attack", 0),
            hp=card.get("hp") if card["type"] != "incantation" else None,
            abilities=_ability_names(card.get("abilities", []), names),
        )
        for name, card in cards.items()
    ]


def board(
    scenario: dict[str, Any],
    state: GameState,
    labels: Mapping[str, str] | None = None,
    pages: Mapping[str, str] | None = None,
) -> Board:
    """``state`` (a position of the puzzle) drawn by the engine's board, both hands face up;
    ``labels``: the cards' names to show by their names in the scenario (else those); ``pages``:
    the catalogue cards they link to, whose faces show on demand."""
    shown, linked = labels or {}, pages or {}
    faces: dict[str, CardFace] = {
        name: card_face(
            name=name,
            label=shown.get(name, name),
            slug=name,
            expansion_code="",
            definition=card,
            page=linked.get(name, ""),
        )
        for name, card in (scenario.get("cards") or {}).items()
    }
    active = scenario["state"]["active"]
    titles = [
        (_("Player %(letter)s (you)") if letter == active else _("Player %(letter)s"))
        % {"letter": letter}
        for letter in ("A", "B")
    ]
    return board_of(
        observe(state, SPECTATOR, all_hands=True),
        titles=titles,
        faces=faces,
        abilities=ability_names_in(current_language()),
    )


# The state's keys that the editor's "The turn" sets.
TURN_KEYS = ("phase", "first_turn", "turn", "options")
_PLAYER_FIELD = re.compile(
    r"scenario\.state\.players\.(?P<side>[AB])(\.(?P<key>hand|mana|stronghold|lines))?"
    r"(\.(?P<line>top|bottom))?(\[(?P<index>\d+)\])?"
)


def problem_where(field: str) -> str:
    """Where a refusal's field (``details.field``, as the API names it) is in the editor."""
    match = _PLAYER_FIELD.match(field)
    if match is None:
        if field.startswith("goal"):
            return _("Goal")
        if field.startswith("translations."):
            return _("Texts")
        if field == "difficulty":
            return _("Difficulty")
        if field.split(".")[:3][-1] in TURN_KEYS and field.startswith("scenario.state."):
            return _("The turn")
        return _("Position")
    where = _("Player %(letter)s") % {"letter": match["side"]}
    if match["line"]:
        where += ", " + line_name(match["line"])
        if match["index"] is not None:
            where += ", " + _("creature %(number)d") % {"number": int(match["index"]) + 1}
    elif match["key"] == "hand":
        where += ", " + _("hand")
    return where


def refusal_text(report: dict[str, Any]) -> str:
    """Why the solver's report does not prove the puzzle."""
    if not report.get("complete", True):
        return _("No proof: the position is too large for the solver's search. Make it smaller.")
    if report.get("trivial"):
        return _("No proof: going straight to the Assault already meets the goal.")
    return _("No proof: the solver's complete search found no solution.")
