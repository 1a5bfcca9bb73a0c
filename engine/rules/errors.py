"""Typed errors of the rules engine.

Every error meant for a person carries a readable message; an illegal action also carries the id of
the rule it breaks (see ``rule_ids``) and its message in English and French, so the web app, the CLI
and the scenario runner can show it without a traceback.
"""

from __future__ import annotations

from engine.rules.rule_ids import RULES


class RulesError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(RulesError):
    """An action the rules forbid in the current position; the position is left unchanged."""

    def __init__(self, rule_id: str, message_en: str, message_fr: str) -> None:
        if rule_id not in RULES:
            raise KeyError(f"unknown rule id {rule_id!r}")
        self.rule_id = rule_id
        self.message_en = message_en
        self.message_fr = message_fr
        super().__init__(f"{message_en} (rule {rule_id})")

    def message(self, language: str = "en") -> str:
        """The message in ``language`` ("en" or "fr"), citing the rule id."""
        if language == "fr":
            return f"{self.message_fr} (règle {self.rule_id})"
        return f"{self.message_en} (rule {self.rule_id})"


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
