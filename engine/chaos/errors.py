"""Typed errors of the Duel of Chaos engine.

An illegal action carries a refusal code of ``engine.chaos.events.REFUSALS``, its arguments and
the id of the rule it breaks, with the English message rendered from the same template table: the
web app renders the code in its own languages, the CLI and the scenario runner show the English.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.chaos.events import REFUSALS, Arg, english


class ChaosError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(ChaosError):
    """An action the rules forbid in the current position; the position is left unchanged."""

    def __init__(self, code: str, names: Sequence[str] = (), **args: Arg) -> None:
        self.code = code
        self.arguments: tuple[tuple[str, Arg], ...] = tuple(args.items())
        self.rule_id = REFUSALS[code][0]
        self.message_en = english(REFUSALS, code, self.arguments, names)
        super().__init__(f"{self.message_en} (rule {self.rule_id})")


class InputError(ChaosError):
    """Bad input from outside the engine: a malformed card, effect, box or action."""


class ScenarioError(InputError):
    """A scenario file that does not follow the format; the message names the key."""


class EngineLoop(ChaosError):
    """A resolution that did not end within the safety budget: an engine bug, never a rule."""
