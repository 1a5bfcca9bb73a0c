"""Draft scenarios: a stacked deck pile, picks, and the draft expected afterwards.

    python -m engine.rules.draft_scenario PATH [PATH ...]    # files or folders (recursively)

The draft counterpart of ``engine.rules.scenario`` (whose format is a board position), in the same
style; the format is documented in ``docs/draft-scenarios.md``. Prints ``PASS <file>`` or
``FAIL <file>: <what differs>`` per file, then ``N passed, M failed``; exits 0 only if all passed.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.rules.cards import Catalogue, load_catalogue
from engine.rules.drafts import (
    PROCEDURES,
    Draft,
    catalogue_pool,
    new_draft,
    pending,
    pending_for,
    pick,
)
from engine.rules.errors import IllegalAction, InputError, ScenarioError
from engine.rules.scenario import load_file, scenario_files

SEATS = "ABCD"
# ``description`` and ``source`` as board scenarios have them (free text: what it shows, the
# rulebook's words it follows); the runner does not read them.
KEYS = {"name", "rule", "procedure", "pile", "picks", "expect", "description", "source"}
EXPECT_KEYS = {"pending", "decks", "ai", "over", "hands"}


def _mapping(value: Any, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where} must be a mapping")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise ScenarioError(f"{where}: unknown key {unknown[0]!r}")
    return value


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise ScenarioError(f"{where} must be a list of card names")
    return value


def _seat(value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in SEATS:
        raise ScenarioError(f"{where} must be a seat letter A-D, not {value!r}")
    return SEATS.index(value)


def stacked_pile(data: Any, catalogue: Catalogue) -> list[Any]:
    """``pile: {top: [names], rest: "00"}``: the named cards on top in that order, then the
    other cards of the expansions ``rest`` in catalogue order."""
    pile = _mapping(data, "pile", {"top", "rest"})
    top = [catalogue.find(name) for name in _names(pile.get("top", []), "pile.top")]
    rest = pile.get("rest", "")
    if not isinstance(rest, str):
        raise ScenarioError("pile.rest must be expansion codes, e.g. '00' or '01,02'")
    named = {card.name for card in top}
    others = (
        [card for card in catalogue_pool(catalogue, rest) if card.name not in named] if rest else []
    )
    return [*top, *others]


def run(data: Any, catalogue: Catalogue) -> list[str]:
    """What differs from the scenario's expectations (empty: it passes)."""
    scenario = _mapping(data, "scenario", KEYS)
    if not isinstance(scenario.get("rule"), str):
        raise ScenarioError("rule: the rule id the scenario proves is required")
    procedure = scenario.get("procedure")
    if not isinstance(procedure, str) or procedure not in PROCEDURES:
        raise ScenarioError(f"procedure must be one of {', '.join(PROCEDURES)}")
    pile = stacked_pile(scenario.get("pile"), catalogue)
    names = {card.name: index for index, card in enumerate(pile)}
    draft = new_draft(procedure, pile, None)
    failures: list[str] = []
    picks = scenario.get("picks", [])
    if not isinstance(picks, list):
        raise ScenarioError("picks must be a list")
    for number, entry in enumerate(picks):
        where = f"picks[{number}]"
        step = _mapping(entry, where, {"seat", "cards", "refused"})
        cards = [_card(name, names, where) for name in _names(step.get("cards"), f"{where}.cards")]
        refused = step.get("refused")
        try:
            pick(draft, _seat(step.get("seat"), f"{where}.seat"), cards)
        except IllegalAction as error:
            if refused != error.code:
                failures.append(f"{where}: refused ({error.code}: {error.message_en})")
            elif error.rule_id != scenario["rule"]:
                failures.append(f"{where}: refused under rule {error.rule_id}")
            continue
        if refused is not None:
            failures.append(f"{where}: accepted, expected the refusal {refused}")
    return failures + _compare(draft, _mapping(scenario.get("expect", {}), "expect", EXPECT_KEYS))


def _card(name: str, names: dict[str, int], where: str) -> int:
    if name not in names:
        raise ScenarioError(f"{where}: {name!r} is not in the pile")
    return names[name]


def _compare(draft: Draft, expect: dict[str, Any]) -> list[str]:
    failures = []
    pool = draft.names
    waiting = pending(draft)
    if "over" in expect and expect["over"] != (waiting is None):
        failures.append(f"over: {waiting is None}, expected {expect['over']}")
    if "pending" in expect:
        wanted = _mapping(
            expect["pending"], "expect.pending", {"seat", "count", "revealed", "gives_rest"}
        )
        if waiting is None:
            failures.append("pending: the draft is over")
        else:
            shown = {
                "seat": SEATS[waiting.seat],
                "count": waiting.count,
                "revealed": [pool[card] for card in waiting.revealed],
                "gives_rest": waiting.gives_rest,
            }
            for key, value in wanted.items():
                if shown[key] != value:
                    failures.append(f"pending.{key}: {shown[key]!r}, expected {value!r}")
    for seat, names in _mapping(expect.get("decks", {}), "expect.decks", set(SEATS)).items():
        index = SEATS.index(seat)
        got = [pool[card] for card in draft.decks[index]] if index < len(draft.decks) else None
        if got != names:
            failures.append(f"decks.{seat}: {got!r}, expected {names!r}")
    if "ai" in expect:
        got_ai = [pool[card] for card in draft.ai_pile]
        if got_ai != expect["ai"]:
            failures.append(f"ai: {got_ai!r}, expected {expect['ai']!r}")
    for seat, names in _mapping(expect.get("hands", {}), "expect.hands", set(SEATS)).items():
        if SEATS.index(seat) >= draft.procedure.seats:
            raise ScenarioError(
                f"expect.hands: the {draft.procedure.code} draft has no seat {seat}"
            )
        got_hand = _hand(draft, SEATS.index(seat))
        if got_hand != names:
            failures.append(f"hands.{seat}: {got_hand!r}, expected {names!r}")
    return failures


def _hand(draft: Draft, seat: int) -> list[str] | None:
    """The cards ``seat`` may pick from now; None while it waits (for its turn, or for the hand
    its right-hand neighbour has not passed yet), [] once it has all its cards."""
    if len(draft.decks[seat]) >= draft.procedure.cards:
        return []
    offer = pending_for(draft, seat)
    return None if offer is None else [draft.names[card] for card in offer.revealed]


def run_file(path: Path, catalogue: Catalogue) -> list[str]:
    """The failures of one file; a file that is not a valid draft scenario is one failure."""
    try:
        return run(load_file(path), catalogue)
    except InputError as error:
        return [str(error)]


def main(argv: Sequence[str] | None = None) -> int:
    paths = list(sys.argv[1:] if argv is None else argv)
    catalogue = load_catalogue()
    passed = failed = 0
    for path in scenario_files(paths):
        failures = run_file(path, catalogue)
        if failures:
            failed += 1
            print(f"FAIL {path}: {'; '.join(failures)}")
        else:
            passed += 1
            print(f"PASS {path}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
