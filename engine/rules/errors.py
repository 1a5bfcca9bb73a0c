"""Typed errors of the rules engine.

Every error meant for a person carries a readable message. An illegal action carries a refusal
code of ``engine.rules.events.REFUSALS``, its arguments and the id of the rule it breaks (see
``rule_ids``), with the English message rendered from the same template table: the web app renders
the code in its own languages, the CLI and the scenario runner show the English.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules.events import REFUSALS, Arg, english


class RulesError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(RulesError):
    """An action the rules forbid in the current position; the position is left unchanged."""

    def __init__(
        self, code: str, names: Sequence[str] = (), *, rule: str = "", **args: Arg
    ) -> None:
        """Refusal ``code`` with ``args`` (cards by card id, players by seat); ``names``: the
        card names by card id, for the English message; ``rule``: the rule broken when the
        code's own is a family of them (each Draft procedure has its rule id)."""
        self.code = code
        # Not ``args``: that is the exception's own (its message).
        self.arguments: tuple[tuple[str, Arg], ...] = tuple(args.items())
        self.rule_id = rule or REFUSALS[code][0]
        self.message_en = english(REFUSALS, code, self.arguments, names)
        super().__init__(f"{self.message_en} (rule {self.rule_id})")


class InputError(RulesError):
    """Bad input from outside the engine: an unknown card or ability, a malformed deck."""


class ReplayError(InputError):
    """A replay file that cannot be loaded or does not replay."""


class ScenarioError(InputError):
    """A scenario file that does not follow the scenario format; the message names the key."""


class NotSupported(InputError):
    """A mode or module the engine does not implement yet (Solo, multiplayer)."""


class EngineLoop(RulesError):
    """A resolution that did not terminate within the safety budget: an engine bug, never a rule."""


class GameOver(Exception):
    """Raised inside a resolution when a Fort falls, to stop everything at once (rule game-end)."""
