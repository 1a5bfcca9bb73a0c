"""The puzzle editor's form: a position built slot by slot (each side's hand, its Stronghold's
side and place, its Mana and both lines), the goal, the difficulty and the texts.

The form only shapes what was typed into the API's document (`document`): a scenario, a goal, a
difficulty and translations; `grimoire.services` checks it, as it checks the API's.
"""

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml
from django import forms
from django.utils.translation import gettext_lazy as _

from cod_site.api.limits import bounded_list
from cod_site.errors import DomainError
from engine.rules import LINE_NAMES as LINES
from engine.rules import STRONGHOLD_TOKEN as STRONGHOLD
from engine.rules.solver import DESTROY_CREATURES, DESTROY_STRONGHOLD, HP_AT_LEAST
from grimoire.checks import LANGUAGES, MAX_TEXT, MAX_TITLE, TEXT_FIELDS
from grimoire.display import line_name
from grimoire.models import DIFFICULTY_MAX, DIFFICULTY_MIN, Puzzle
from grimoire.selectors import puzzle_custom_cards, puzzle_translations
from grimoire.services import MAX_ACTIONS

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

SIDES = ("A", "B")
HAND_SLOTS = 10
LINE_SLOTS = 4
MAX_MANA = 30
# A player's keys the editor writes; the scenario's others are kept.
EDITED_KEYS = ("hand", "stronghold", "mana", "lines")
# A line's entry beyond its card, in the scenario format's words.
ENTRY_FLAGS = ("new", "protection_used")
ENTRY_NAMES = ("symbiote", "enchained")
GOAL_LABELS = {
    "win": _("Win this turn"),
    "destroy_stronghold": _("Destroy the enemy Stronghold this turn"),
    "destroy_creatures": _("Destroy enemy creatures this turn"),
    "survive": _("Survive the enemy's next turn"),
    "hp_at_least": _("End the turn with at least N HP"),
}
TEXT_LABELS = {"title": _("Title"), "hint": _("Hint"), "explanation": _("Explanation")}
STRONGHOLD_SIDES = [("bastion", _("Bastion")), ("fort", _("Fort"))]
LINE_LABELS = {"top": _("Top line"), "bottom": _("Bottom line")}
LANGUAGE_LABELS = {"en": _("English"), "fr": _("French"), "sv": _("Swedish")}
# Cards of the puzzle's own, defined as the scenario format defines them (the Champions designer's
# idea: a card that the catalogue lacks).
CUSTOM_SLOTS = 10
CUSTOM_PARTS = ("name", "type", "cost", "attack", "hp", "abilities")
CUSTOM_TYPES = [("creature", _("Creature")), ("incantation", _("Incantation"))]
MAX_CUSTOM_STAT = 20


@dataclass(frozen=True)
class Slot:
    """One creature place of a line: its fields' names, for the template."""

    card: str
    damage: str
    new: str
    protection_used: str
    symbiote: str
    enchained: str


SLOT_PARTS = tuple(Slot.__dataclass_fields__)


_SLOT_FIELD = re.compile(
    r"(?P<side>[ab])_(?P<part>hand|top|bottom)_(?P<index>\d+)(_(?P<field>\w+))?$"
)


_CUSTOM_FIELD = re.compile(r"custom_(?P<index>\d+)_(?P<part>\w+)$")


def _custom(index: int, part: str) -> str:
    return f"custom_{index}_{part}"


def _name(side: str, *parts: object) -> str:
    return "_".join([side.lower(), *(str(part) for part in parts)])


def _card_field(label: "str | _StrPromise") -> forms.CharField:
    return forms.CharField(
        label=label, required=False, max_length=80, widget=forms.TextInput(attrs={"list": "cards"})
    )


def _goal_side() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Stronghold side to destroy"), choices=STRONGHOLD_SIDES, required=False
    )


def _goal_count() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("N (creatures to destroy, or HP to keep)"),
        min_value=1,
        max_value=99,
        required=False,
    )


PHASES = [
    ("summoning", _("Summoning (Phase 2), its Mana already gained")),
    ("start", _("The start of the turn (Phase 1 first)")),
]
MAX_TURN = 99


class PuzzleEditorForm(forms.Form):
    active = forms.ChoiceField(label=_("Player to play"), choices=[(s, s) for s in SIDES])
    # The scenario format's state options: left at their defaults they are not written.
    phase = forms.ChoiceField(label=_("The position is at"), choices=PHASES)
    first_turn = forms.BooleanField(label=_("The first player's very first turn"), required=False)
    turn = forms.IntegerField(
        label=_("Turns the active player has begun (the Exhaustion module)"),
        min_value=1,
        max_value=MAX_TURN,
    )
    exhaustion = forms.BooleanField(label=_("Exhaustion module"), required=False)
    goal_kind = forms.ChoiceField(label=_("Goal"), choices=list(GOAL_LABELS.items()))
    goal_side = _goal_side()
    goal_count = _goal_count()
    also_kind = forms.ChoiceField(
        label=_("And also"),
        choices=[("", _("nothing else")), *GOAL_LABELS.items()],
        required=False,
    )
    also_side = _goal_side()
    also_count = _goal_count()
    difficulty = forms.TypedChoiceField(
        label=_("Difficulty"),
        coerce=int,
        choices=[(level, str(level)) for level in range(DIFFICULTY_MIN, DIFFICULTY_MAX + 1)],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for language in LANGUAGES:
            for key in TEXT_FIELDS:
                limit = MAX_TITLE if key == "title" else MAX_TEXT
                widget = forms.TextInput if key == "title" else forms.Textarea(attrs={"rows": 2})
                self.fields[f"{key}_{language}"] = forms.CharField(
                    label=f"{TEXT_LABELS[key]} ({LANGUAGE_LABELS[language]})",
                    required=False,
                    max_length=limit,
                    widget=widget,
                )
        for side in SIDES:
            self.fields[_name(side, "stronghold")] = forms.ChoiceField(
                label=_("Stronghold side"), choices=STRONGHOLD_SIDES
            )
            self.fields[_name(side, "stronghold_at")] = forms.IntegerField(
                label=_("Cards left of the Stronghold"), min_value=0, max_value=HAND_SLOTS
            )
            self.fields[_name(side, "mana")] = forms.IntegerField(
                label=_("Mana"), min_value=0, max_value=MAX_MANA
            )
            for index in range(HAND_SLOTS):
                label = _("Card %(number)d") % {"number": index + 1}
                self.fields[_name(side, "hand", index)] = _card_field(label)
            for line in LINES:
                for index in range(LINE_SLOTS):
                    slot = self.slot(side, line, index)
                    label = _("Creature %(number)d") % {"number": index + 1}
                    self.fields[slot.card] = _card_field(label)
                    self.fields[slot.damage] = forms.IntegerField(
                        label=_("Damage"), min_value=0, max_value=99, required=False
                    )
                    self.fields[slot.new] = forms.BooleanField(
                        label=_("Entered play this turn"), required=False
                    )
                    self.fields[slot.protection_used] = forms.BooleanField(
                        label=_("Protection used"), required=False
                    )
                    self.fields[slot.symbiote] = _card_field(_("Symbiote on it"))
                    self.fields[slot.enchained] = _card_field(_("Enchained under it"))
        for index in range(CUSTOM_SLOTS):
            self._custom_fields(index)

    def _custom_fields(self, index: int) -> None:
        name, kind, cost, attack, hp, abilities = (_custom(index, part) for part in CUSTOM_PARTS)
        self.fields[name] = forms.CharField(label=_("Name"), required=False, max_length=40)
        self.fields[kind] = forms.ChoiceField(label=_("Type"), choices=CUSTOM_TYPES, required=False)
        self.fields[cost] = forms.IntegerField(
            label=_("Cost"), min_value=0, max_value=MAX_CUSTOM_STAT, required=False
        )
        self.fields[attack] = forms.IntegerField(
            label=_("Attack"), min_value=0, max_value=MAX_CUSTOM_STAT, required=False
        )
        self.fields[hp] = forms.IntegerField(
            label=_("HP (creatures)"), min_value=1, max_value=MAX_CUSTOM_STAT, required=False
        )
        self.fields[abilities] = forms.CharField(
            label=_("Ability codes, separated by commas"),
            required=False,
            max_length=200,
            widget=forms.TextInput(attrs={"placeholder": _("e.g. splash, aura:rage")}),
        )

    def custom_layout(self) -> list[list[forms.BoundField]]:
        """The custom cards' bound fields, a card per row."""
        return [
            [self[_custom(index, part)] for part in CUSTOM_PARTS] for index in range(CUSTOM_SLOTS)
        ]

    def custom_definitions(self) -> dict[str, dict[str, Any]]:
        """The custom cards typed, by name, as the scenario format defines them; a name given
        twice is refused on its second field."""
        data = self.cleaned_data
        definitions: dict[str, dict[str, Any]] = {}
        for index in range(CUSTOM_SLOTS):
            name = data[_custom(index, "name")].strip()
            if not name:
                continue
            if name in definitions:
                self.add_error(
                    _custom(index, "name"),
                    _("Another custom card is named %(name)s.") % {"name": name},
                )
                continue
            kind = data[_custom(index, "type")] or "creature"
            definition: dict[str, Any] = {"type": kind, "cost": data[_custom(index, "cost")] or 0}
            definition["attack"] = data[_custom(index, "attack")] or 0
            if kind == "creature":
                definition["hp"] = data[_custom(index, "hp")] or 1
            codes = [code.strip() for code in data[_custom(index, "abilities")].split(",")]
            if any(codes):
                definition["abilities"] = [code for code in codes if code]
            definitions[name] = definition
        return definitions

    def layout(self) -> list[dict[str, Any]]:
        """The sides' bound fields in the order the page shows them."""
        sides = []
        for side in SIDES:
            lines = [
                (
                    LINE_LABELS[line],
                    [
                        [self[getattr(self.slot(side, line, index), part)] for part in SLOT_PARTS]
                        for index in range(LINE_SLOTS)
                    ],
                )
                for line in LINES
            ]
            sides.append(
                {
                    "letter": side,
                    "facts": [
                        self[_name(side, key)] for key in ("stronghold", "stronghold_at", "mana")
                    ],
                    "hand": [self[_name(side, "hand", index)] for index in range(HAND_SLOTS)],
                    "lines": lines,
                }
            )
        return sides

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("phase", "first_turn", "turn", "exhaustion")]

    def goal_fields(self) -> list[forms.BoundField]:
        names = ("active", "goal_kind", "goal_side", "goal_count", "also_kind", "also_side")
        return [self[name] for name in (*names, "also_count", "difficulty")]

    def texts(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [
            (str(LANGUAGE_LABELS[language]), [self[f"{key}_{language}"] for key in TEXT_FIELDS])
            for language in LANGUAGES
        ]

    @staticmethod
    def slot(side: str, line: str, index: int) -> Slot:
        return Slot(*(_name(side, line, index, part) for part in SLOT_PARTS))

    def where(self, name: str) -> str:
        """Where field ``name`` is, for a message that names it: a slot's side, line and place."""
        custom = _CUSTOM_FIELD.match(name)
        if custom is not None:
            where = _("Custom card %(number)d") % {"number": int(custom["index"]) + 1}
            return f"{where}, {self.fields[name].label}"
        match = _SLOT_FIELD.match(name)
        if match is None:
            return str(self.fields[name].label) if name in self.fields else str(_("Form"))
        where = _("Player %(letter)s") % {"letter": match["side"].upper()}
        place = int(match["index"]) + 1
        if match["part"] == "hand":
            return f"{where}, {_('hand')}, {_('card %(number)d') % {'number': place}}"
        where += f", {line_name(match['part'])}, {_('creature %(number)d') % {'number': place}}"
        if match["field"] != "card":
            where += f", {self.fields[name].label}"
        return where

    def places(self) -> dict[str, str]:
        """The names of the places of the editor's board, for its buttons: a hand or a line
        (``a_hand``, ``b_top``) and each slot of it (``a_hand_0``, ``b_top_3``)."""
        names = {}
        for side in SIDES:
            letter = _("Player %(letter)s") % {"letter": side}
            names[_name(side, "hand")] = f"{letter}, {_('hand')}"
            for index in range(HAND_SLOTS):
                names[_name(side, "hand", index)] = self.where(_name(side, "hand", index))
            for line in LINES:
                names[_name(side, line)] = f"{letter}, {line_name(line)}"
                for index in range(LINE_SLOTS):
                    names[_name(side, line, index)] = self.where(self.slot(side, line, index).card)
        return names

    def card_fields(self) -> list[str]:
        """The names of the fields that hold a card name: hand slots, creatures, Symbiotes and
        enchained cards."""
        names = [_name(side, "hand", index) for side in SIDES for index in range(HAND_SLOTS)]
        for side in SIDES:
            for line in LINES:
                for index in range(LINE_SLOTS):
                    slot = self.slot(side, line, index)
                    names += [slot.card, slot.symbiote, slot.enchained]
        return names

    def card_names(self) -> set[str]:
        """Every card name typed in a slot."""
        return {self.cleaned_data[name].strip() for name in self.card_fields()} - {""}

    def document(self, definitions: dict[str, dict[str, Any]], base: dict[str, Any]) -> Any:
        """The API's document of the typed puzzle: ``definitions`` the cards by name (a name
        without one is refused on its field); ``base`` the scenario edited, whose other keys
        (phase, options...) are kept."""
        data = self.cleaned_data
        typed = {name: data[name].strip() for name in self.card_fields()}
        unknown = [(name, card) for name, card in typed.items() if card and card not in definitions]
        # An unknown card is left out of the position: its slot's error says it once, and the
        # rest of the position is still checked.
        cards = {name: card if card in definitions else "" for name, card in typed.items()}
        state = dict(base.get("state") or {})
        state["active"] = data["active"]
        self._options(state)
        players = dict(state.get("players") or {})
        for side in SIDES:
            kept = {
                key: value
                for key, value in (players.get(side) or {}).items()
                if key not in EDITED_KEYS
            }
            players[side] = {**kept, **self._player(side, cards)}
        state["players"] = players
        used = set(cards.values())
        scenario = {
            **base,
            "cards": {name: card for name, card in definitions.items() if name in used},
            "state": state,
        }
        translations = {
            language: {key: data[f"{key}_{language}"] for key in TEXT_FIELDS}
            for language in LANGUAGES
            if language == "en" or any(data[f"{key}_{language}"] for key in TEXT_FIELDS)
        }
        document = {
            "scenario": scenario,
            "goal": self._goal(),
            "difficulty": data["difficulty"],
            "translations": translations,
        }
        # Last: an error takes its field out of cleaned_data.
        for index in range(CUSTOM_SLOTS):
            custom = data.get(_custom(index, "name"), "").strip()
            if custom and custom not in used:
                self.add_error(
                    _custom(index, "name"),
                    _("Place %(name)s in a hand or on a line, or clear it.") % {"name": custom},
                )
        for name, card in unknown:
            self.add_error(name, _("No card of the catalogue is named %(name)s.") % {"name": card})
        return document

    def _options(self, state: dict[str, Any]) -> None:
        """The state options typed into ``state``; a default is not written, so an unchanged
        puzzle stays identical."""
        data = self.cleaned_data
        for key, value, default in (
            ("phase", data["phase"], "summoning"),
            ("first_turn", data["first_turn"], False),
            ("turn", data["turn"], 1),
        ):
            if value != default:
                state[key] = value
            else:
                state.pop(key, None)
        options = dict(state.get("options") or {})
        if data["exhaustion"]:
            options["exhaustion"] = True
        else:
            options.pop("exhaustion", None)
        if options:
            state["options"] = options
        else:
            state.pop("options", None)

    def _player(self, side: str, cards: dict[str, str]) -> dict[str, Any]:
        """One side of the position; ``cards``: the card fields' known names ("" if none)."""
        data = self.cleaned_data
        hand = [
            cards[_name(side, "hand", index)]
            for index in range(HAND_SLOTS)
            if cards[_name(side, "hand", index)]
        ]
        hand.insert(min(data[_name(side, "stronghold_at")], len(hand)), STRONGHOLD)
        lines: dict[str, list[Any]] = {}
        for line in LINES:
            entries = []
            for index in range(LINE_SLOTS):
                slot = self.slot(side, line, index)
                card = cards[slot.card]
                if not card:
                    continue
                entry: dict[str, Any] = {"card": card}
                if data[slot.damage]:
                    entry["damage"] = data[slot.damage]
                for flag in ENTRY_FLAGS:
                    if data[getattr(slot, flag)]:
                        entry[flag] = True
                for key in ENTRY_NAMES:
                    if cards[getattr(slot, key)]:
                        entry[key] = cards[getattr(slot, key)]
                entries.append(entry if len(entry) > 1 else card)
            lines[line] = entries
        player: dict[str, Any] = {"hand": hand, "lines": lines}
        # The scenario format's defaults stay implicit: an unchanged puzzle stays identical.
        if data[_name(side, "stronghold")] != "bastion":
            player["stronghold"] = data[_name(side, "stronghold")]
        if data[_name(side, "mana")]:
            player["mana"] = data[_name(side, "mana")]
        return player

    def _goal(self) -> dict[str, Any]:
        data = self.cleaned_data
        goals = [
            _goal_data(data[f"{prefix}_kind"], data[f"{prefix}_side"], data[f"{prefix}_count"])
            for prefix in ("goal", "also")
            if data[f"{prefix}_kind"]
        ]
        return goals[0] if len(goals) == 1 else {"kind": "all", "goals": goals}


def _goal_data(kind: str, side: str, count: int | None) -> dict[str, Any]:
    if kind == DESTROY_STRONGHOLD:
        return {"kind": kind, "side": side or "bastion"}
    if kind == DESTROY_CREATURES:
        return {"kind": kind, "count": count or 1}
    if kind == HP_AT_LEAST:
        return {"kind": kind, "hp": count or 1}
    return {"kind": kind}


def editor_initial(
    scenario: dict[str, Any], goal: dict[str, Any], custom: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    """The form's values of a stored puzzle, ``custom`` its cards that are not the catalogue's;
    None when its position has more cards in a hand or on a line than the editor has slots (the
    API edits those)."""
    state = scenario["state"]
    initial: dict[str, Any] = {
        "active": state["active"],
        "phase": state.get("phase", "summoning"),
        "first_turn": bool(state.get("first_turn", False)),
        "turn": state.get("turn", 1),
        "exhaustion": bool((state.get("options") or {}).get("exhaustion", False)),
    }
    # Custom cards past the slots stay the puzzle's own, usable but not edited here.
    for index, (name, definition) in enumerate(list(custom.items())[:CUSTOM_SLOTS]):
        initial[_custom(index, "name")] = name
        initial[_custom(index, "abilities")] = ", ".join(definition.get("abilities") or [])
        for part in ("type", "cost", "attack", "hp"):
            initial[_custom(index, part)] = definition.get(part)
    goals = goal["goals"] if goal["kind"] == "all" else [goal]
    if len(goals) > 2 or any(part["kind"] == "all" for part in goals):
        return None
    for prefix, part in zip(("goal", "also"), goals, strict=False):
        initial[f"{prefix}_kind"] = part["kind"]
        initial[f"{prefix}_side"] = part.get("side", "bastion")
        initial[f"{prefix}_count"] = part.get("count", part.get("hp"))
    for side in SIDES:
        player = state["players"][side]
        hand = list(player["hand"])
        at = hand.index(STRONGHOLD)
        hand.remove(STRONGHOLD)
        if len(hand) > HAND_SLOTS:
            return None
        initial[_name(side, "stronghold")] = player.get("stronghold", "bastion")
        initial[_name(side, "stronghold_at")] = at
        initial[_name(side, "mana")] = player.get("mana", 0)
        for index, card in enumerate(hand):
            initial[_name(side, "hand", index)] = card
        for line in LINES:
            entries = (player.get("lines") or {}).get(line) or []
            if len(entries) > LINE_SLOTS:
                return None
            for index, raw in enumerate(entries):
                slot = PuzzleEditorForm.slot(side, line, index)
                entry = {"card": raw} if isinstance(raw, str) else raw
                initial[slot.card] = entry["card"]
                initial[slot.damage] = entry.get("damage") or None
                for flag in ENTRY_FLAGS:
                    initial[getattr(slot, flag)] = bool(entry.get(flag))
                for key in ENTRY_NAMES:
                    initial[getattr(slot, key)] = entry.get(key) or ""
    return initial


def puzzle_initial(puzzle: Puzzle) -> dict[str, Any] | None:
    """The form's values of a stored puzzle, texts and difficulty included; None as
    `editor_initial`."""
    initial = editor_initial(puzzle.scenario, puzzle.goal, puzzle_custom_cards(puzzle.scenario))
    if initial is None:
        return None
    initial["difficulty"] = puzzle.difficulty
    for language, texts in puzzle_translations(puzzle).items():
        for key, text in texts.items():
            initial[f"{key}_{language}"] = text
    return initial


MAX_ATTEMPT_CHARS = 4000
# The board's hidden field: every action chosen so far, as JSON.
MAX_TURN_CHARS = 8000


def _turn(actions: Any) -> list[Any]:
    """``actions`` if it is a list of at most `MAX_ACTIONS` (an attempt's limit)."""
    if not isinstance(actions, list):
        raise forms.ValidationError(
            _("Write a list of actions, one per line, each starting with a dash.")
        )
    try:
        bounded_list(actions, limit=MAX_ACTIONS, field="actions")
    except DomainError as exc:
        raise forms.ValidationError(exc.message) from None
    return actions


class AttemptForm(forms.Form):
    """The turn typed on the puzzle page: the scenario format's actions, as YAML."""

    # Not stripped: YAML's indentation is its structure.
    actions = forms.CharField(required=False, strip=False)

    def clean_actions(self) -> list[Any]:
        try:
            actions = yaml.safe_load(self.cleaned_data["actions"][:MAX_ATTEMPT_CHARS]) or []
        except yaml.YAMLError:
            raise forms.ValidationError(_("This is not valid YAML.")) from None
        return _turn(actions)


class TurnForm(forms.Form):
    """One click on the puzzle's board: the turn so far, as the JSON list the page carries."""

    actions = forms.CharField(required=False, strip=False)

    def clean_actions(self) -> list[Any]:
        try:
            actions = json.loads(self.cleaned_data["actions"][:MAX_TURN_CHARS] or "[]")
        except ValueError:
            # Refused as no list: the page only sends the lists it wrote.
            actions = None
        return _turn(actions)
