"""A digest of the sources that decide a Duel of Chaos game, as ``engine.rules.native`` has one
for Clash of Decks: a test batch records it, and one of its games is only played again (its
replay) by the engine and agents that played it. ``RULES_VERSION`` names the rules of a stored
table's actions, which an agent's change does not touch; a batch's games are the agents' choices
too, so another agent would replay another game from the same seed."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Final

PACKAGE_DIR: Final = Path(__file__).resolve().parent

# Every module of the package decides the games (the rules, the agents, the cards' reading, the
# seeding of a batch's games) but these, which read or show a game already played.
NOT_GAME_SOURCES: Final = {
    "__init__.py": "the package: it re-exports the modules",
    "digest.py": "this digest",
    "play.py": "the command-line player",
    "replay.py": "the replay file's format and the steps of a game already played",
    "scenario.py": "the scenario files' reader",
    "view.py": "what a seat sees of a position",
}


def game_sources(root: Path = PACKAGE_DIR) -> list[str]:
    return sorted(path.name for path in root.glob("*.py") if path.name not in NOT_GAME_SOURCES)


def game_digest(root: Path = PACKAGE_DIR) -> str:
    """The digest of the game's sources under ``root`` (a copy in a test)."""
    digest = hashlib.sha256()
    for name in game_sources(root):
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


@functools.cache
def engine_digest() -> str:
    """This process's digest, read once: the code a process runs is the code it imported."""
    return game_digest()
