"""The compiled engine: the same Python sources compiled to C by mypyc, used only when it was built
from exactly the sources on disk.

    make engine      build it (skipped when up to date; `make run`, `make test` and `make bench` do)

Why: the hot path of a game (agents, activation orders, Stronghold arithmetic) is plain typed
Python; compiled by mypyc it plays the same games about three times faster, which the simulation
workers and ``make bench`` need. The sources stay the one definition of the rules: the build is
written to ``.build/engine-native/`` (outside the source tree), records a digest of the sources it
was made from, and is ignored as soon as any of them changes, so an edit never runs stale code.

``COD_ENGINE`` chooses: ``auto`` (default: compiled when the build is current, else pure Python),
``native`` (the compiled engine or an ImportError saying why: the test suite uses it) or ``python``
(always the sources, e.g. to step through them in a debugger).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parents[1]
BUILD_DIR = PROJECT_DIR / ".build" / "engine-native"
LIB_DIR = BUILD_DIR / "lib"
DIGEST_FILE = BUILD_DIR / "SOURCES"
# mypyc puts the code of all the modules in one shared library, imported under this name.
GROUP = "cod_engine"
MODE_VARIABLE = "COD_ENGINE"
MODES = ("auto", "native", "python")

# The modules a game runs through (relative to engine/rules/). The readers of files and the
# command-line tools (scenario, replay, play) and this module stay interpreted: nothing to gain.
COMPILED = (
    "abilities/aftermath.py",
    "abilities/combat.py",
    "abilities/costs.py",
    "abilities/on_play.py",
    "abilities/registry.py",
    "abilities/upkeep.py",
    "actions.py",
    "agents.py",
    "assault.py",
    "board.py",
    "champion.py",
    "damage.py",
    "errors.py",
    "evaluation.py",
    "events.py",
    "game.py",
    "hidden.py",
    "kingdom.py",
    "learned.py",
    "modes.py",
    "rule_ids.py",
    "solo.py",
    "state.py",
    "stats.py",
    "summoning.py",
    "turn.py",
)

# The sources that decide the game a seed, the decks, the options and the actions give (paths from
# the project's directory): the compiled ones (the rules, the agents and the game object,
# ``game.py``, which deals each mode's decks, plays the computer seats and ends the game); the
# reader of card definitions, the AI's parameters and Co-op's division of the AI's cards, which
# stay interpreted; the drafts with their drafters, which deal the decks of a Draft batch's games;
# the learned evaluation's weights, which the learned agent plays by; and a batch's games
# (``engine/batches/seeding.py``: ``derived_seed``, the seat rotation, the decks a Draft batch
# drafts; ``engine/simulation.py``: how it calls the game object). Every module these import from
# the ``engine`` package is here, but for those named in ``NOT_GAME_SOURCES``
# (tests/engine/test_native.py derives the import closure and checks it).
GAME_SOURCES = (
    *(f"engine/rules/{name}" for name in COMPILED),
    "engine/rules/ai_options.py",
    "engine/rules/cards.py",
    "engine/rules/coop.py",
    "engine/rules/drafts.py",
    "engine/rules/drafters.py",
    "engine/rules/evaluation_model.py",
    "engine/rules/evaluation_model.json",
    "engine/batches/seeding.py",
    "engine/simulation.py",
)
# Imported by the game's sources, yet deciding nothing of a game: why, for each.
NOT_GAME_SOURCES = {
    "engine/rules/__init__.py": "the package: its public API, and it activates the build",
    "engine/rules/native.py": "this digest and the build",
    "engine/rules/observation.py": "what a seat sees of a position: read, never written, by a game",
    "engine/rules/play.py": "the command-line player: the batches take only its `wilson` interval",
    "engine/rules/replay.py": "the replay file's format, written after the game is played",
    "engine/batches/totals.py": "what a batch counts of a game, read from its final position",
    "engine/batches/replay.py": "the replay viewer's frames: the positions the game went through",
    "engine/rules/view.py": "what a seat sees, as the API's JSON: read, never written, by a game",
}

# What the engine runs as, for benchmarks and reports: set by activate().
STATUS = "pure Python (engine.rules not imported yet)"


def _digest(names: tuple[str, ...], salt: bytes, root: Path) -> str:
    digest = hashlib.sha256(salt)
    for name in names:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


def sources_digest() -> str:
    """A digest of the compiled sources and of the Python that the build is for."""
    return _digest(COMPILED, sys.implementation.cache_tag.encode(), PACKAGE_DIR)


@functools.cache
def engine_digest() -> str:
    """A digest of the sources that decide a game (GAME_SOURCES), not of what runs them:
    compiled or interpreted, on any Python, the same digest plays the same game from the same
    seed (tests/engine/test_native.py compares the two engines). A batch of simulated games and
    a Play table record it, so that a replay is only played again by the engine that played the
    game (else `engine_changed`). Read once per process: the code a process runs is the code it
    imported."""
    return game_digest(PROJECT_DIR)


def game_digest(root: Path) -> str:
    """The digest of the GAME_SOURCES under the project directory ``root`` (a copy in a test)."""
    return _digest(GAME_SOURCES, b"", root)


def _group_library() -> Path:
    return LIB_DIR / f"{GROUP}__mypyc{sysconfig.get_config_var('EXT_SUFFIX')}"


def _stale_reason() -> str | None:
    """Why the build cannot be used, or None if it is current."""
    if not DIGEST_FILE.is_file() or not _group_library().is_file():
        return "not built (run `make engine`)"
    if DIGEST_FILE.read_text().strip() != sources_digest():
        return "the build is older than the sources (run `make engine`)"
    return None


def activate(package_path: list[str]) -> None:
    """Put the compiled modules in front of the sources of ``engine.rules``, if the mode and the
    build allow it (called once, by ``engine/rules/__init__.py``)."""
    global STATUS
    mode = os.environ.get(MODE_VARIABLE, "auto")
    if mode not in MODES:
        raise ImportError(f"{MODE_VARIABLE}={mode!r}: expected one of {', '.join(MODES)}")
    if mode == "python":
        STATUS = f"pure Python ({MODE_VARIABLE}=python)"
        return
    reason = _stale_reason()
    if reason is not None:
        if mode == "native":
            raise ImportError(f"the compiled engine cannot be used: {reason}")
        STATUS = f"pure Python (compiled engine {reason})"
        return
    name = f"{GROUP}__mypyc"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _group_library())
        assert spec is not None and spec.loader is not None
        library = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(library)
        sys.modules[name] = library
    package_path.insert(0, str(LIB_DIR / "engine" / "rules"))
    STATUS = "compiled (mypyc)"


def extend(package_path: list[str], subpackage: str) -> None:
    """The same for a subpackage of ``engine.rules`` (called by its ``__init__.py``)."""
    if STATUS.startswith("compiled"):
        package_path.insert(0, str(LIB_DIR / "engine" / "rules" / subpackage))


def build() -> bool:
    """Compile the engine into BUILD_DIR unless it is current; whether it compiled anything."""
    if _stale_reason() is None:
        return False
    # Build-time tools only (dev dependencies): the engine itself needs neither.
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    digest = sources_digest()
    # mypyc names the modules after their paths: compile from the project directory.
    os.chdir(PROJECT_DIR)
    paths = [str((PACKAGE_DIR / name).relative_to(PROJECT_DIR)) for name in COMPILED]
    extensions = mypycify(paths, opt_level="3", group_name=GROUP, target_dir=str(BUILD_DIR / "c"))
    DIGEST_FILE.unlink(missing_ok=True)
    # A module taken off COMPILED must not leave its old library behind.
    shutil.rmtree(LIB_DIR, ignore_errors=True)
    setup(
        name="cod-engine-native",
        ext_modules=extensions,
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            str(LIB_DIR),
            "--build-temp",
            str(BUILD_DIR / "temp"),
            "--parallel",
            str(os.cpu_count() or 1),
        ],
    )
    DIGEST_FILE.write_text(digest + "\n")
    return True


def main() -> None:
    print(
        "engine.rules: compiled" if build() else "engine.rules: the compiled engine is up to date"
    )
