"""The compiled engine (engine.rules.native): the same games as the sources, never a stale build."""

from __future__ import annotations

import ast
import hashlib
import os
import subprocess
import sys
import types
from collections.abc import Iterable
from pathlib import Path

import pytest

from engine.rules import native, state

from .fingerprint import fingerprint

ROOT = Path(__file__).resolve().parents[2]
GAMES = 150


def test_make_test_runs_the_compiled_engine() -> None:
    if os.environ.get(native.MODE_VARIABLE) != "native":
        pytest.skip("COD_ENGINE=native is what `make test` sets; this run chose the engine itself")
    assert native.STATUS == "compiled (mypyc)"
    assert Path(state.__file__).parent == native.LIB_DIR / "engine" / "rules"
    assert Path(state.__file__).suffix == ".so"


def test_the_sources_and_this_engine_play_identical_games() -> None:
    """Every action, log line, statistic and final hand of 150 varied games: the interpreted
    sources in a child process against this process's engine (compiled under `make test`)."""
    if native.STATUS != "compiled (mypyc)":
        # Both sides would run the sources: the comparison could not fail.
        pytest.skip(f"this process runs {native.STATUS}, not the compiled engine")
    env = {**os.environ, native.MODE_VARIABLE: "python"}
    child = subprocess.run(
        [sys.executable, "-m", "tests.engine.fingerprint", str(GAMES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    assert child.stdout.strip() == fingerprint(GAMES)


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A build directory of its own, holding a current build (its digest and group library)."""
    monkeypatch.setattr(native, "STATUS", native.STATUS)
    monkeypatch.setattr(native, "LIB_DIR", tmp_path / "lib")
    monkeypatch.setattr(native, "DIGEST_FILE", tmp_path / "SOURCES")
    library = native._group_library()
    library.parent.mkdir()
    library.write_bytes(b"")
    native.DIGEST_FILE.write_text(native.sources_digest() + "\n")
    # activate() loads the group library once per process: a stand-in takes its place here.
    monkeypatch.setitem(sys.modules, f"{native.GROUP}__mypyc", types.ModuleType("stand-in"))
    return tmp_path


def test_a_current_build_is_put_in_front_of_the_sources(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(native.MODE_VARIABLE, "auto")
    path = ["sources"]
    native.activate(path)
    assert path == [str(build / "lib" / "engine" / "rules"), "sources"]
    assert native.STATUS == "compiled (mypyc)"
    subpackage = ["abilities sources"]
    native.extend(subpackage, "abilities")
    assert subpackage == [
        str(build / "lib" / "engine" / "rules" / "abilities"),
        "abilities sources",
    ]


def test_a_build_older_than_the_sources_is_never_used(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (build / "SOURCES").write_text("0" * 64 + "\n")
    monkeypatch.setenv(native.MODE_VARIABLE, "auto")
    path = ["sources"]
    native.activate(path)
    assert path == ["sources"]
    assert native.STATUS == (
        "pure Python (compiled engine the build is older than the sources (run `make engine`))"
    )
    subpackage = ["abilities sources"]
    native.extend(subpackage, "abilities")
    assert subpackage == ["abilities sources"]
    monkeypatch.setenv(native.MODE_VARIABLE, "native")
    with pytest.raises(ImportError, match=r"older than the sources \(run `make engine`\)$"):
        native.activate(path)
    assert path == ["sources"]


def test_a_missing_build_falls_back_or_is_refused(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (build / "SOURCES").unlink()
    monkeypatch.setenv(native.MODE_VARIABLE, "native")
    with pytest.raises(ImportError, match=r"^the compiled engine cannot be used: not built"):
        native.activate([])
    monkeypatch.delenv(native.MODE_VARIABLE)
    native.activate([])
    assert native.STATUS == "pure Python (compiled engine not built (run `make engine`))"


def test_the_sources_can_be_chosen_and_unknown_modes_are_refused(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(native.MODE_VARIABLE, "python")
    path = ["sources"]
    native.activate(path)
    assert (path, native.STATUS) == (["sources"], "pure Python (COD_ENGINE=python)")
    monkeypatch.setenv(native.MODE_VARIABLE, "fast")
    with pytest.raises(
        ImportError, match=r"^COD_ENGINE='fast': expected one of auto, native, python$"
    ):
        native.activate(path)


def test_any_change_to_a_compiled_source_changes_the_digest(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    copy = tmp_path / "rules"
    for name in native.COMPILED:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((native.PACKAGE_DIR / name).read_bytes())
    monkeypatch.setattr(native, "PACKAGE_DIR", copy)
    before = native.sources_digest()
    (copy / "board.py").write_text((copy / "board.py").read_text() + "\n# an edit\n")
    assert native.sources_digest() != before


def _project_copy(tmp_path: Path, names: Iterable[str]) -> Path:
    """The files ``names`` (paths from the project's directory) copied under ``tmp_path``."""
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((native.PROJECT_DIR / name).read_bytes())
    return tmp_path


def _edit(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\n# an edit\n")


def test_the_engine_digest_covers_the_game_sources_not_the_python(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What a batch of simulated games and a Play table record: every game source's path and
    bytes in order; the Python version does not count."""
    expected = hashlib.sha256()
    for name in native.GAME_SOURCES:
        expected.update(name.encode() + b"\0" + (native.PROJECT_DIR / name).read_bytes() + b"\0")
    assert native.engine_digest() == expected.hexdigest()
    copy = _project_copy(tmp_path, native.GAME_SOURCES)
    assert native.game_digest(copy) == native.engine_digest()
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(cache_tag="cpython-399"))
    assert native.game_digest(copy) == native.engine_digest()


# The issue-27 holes (engine/simulation.py's seeding, seat rotation and turn cap, Co-op's
# division of the AI's cards, the AI's parameters) and the sources that were covered before.
@pytest.mark.parametrize("name", native.GAME_SOURCES)
def test_an_edit_of_any_game_source_changes_the_digest(tmp_path: Path, name: str) -> None:
    copy = _project_copy(tmp_path, native.GAME_SOURCES)
    before = native.game_digest(copy)
    _edit(copy / name)
    assert native.game_digest(copy) != before


@pytest.mark.parametrize(
    "name",
    [
        # What shows a game, not what decides it: the boards, the events' text, the Play
        # table's board, the command-line player, the replay file's format.
        "engine/display/board.py",
        "engine/display/event_text.py",
        "engine/rules/observation.py",
        "play/board.py",
        "engine/rules/play.py",
        "engine/rules/replay.py",
        "engine/rules/view.py",
        # What a batch counts of its games, and its replay viewer's frames.
        "engine/batches/totals.py",
        "engine/batches/replay.py",
    ],
)
def test_an_edit_of_a_display_file_leaves_the_digest(tmp_path: Path, name: str) -> None:
    copy = _project_copy(tmp_path, (*native.GAME_SOURCES, name))
    before = native.game_digest(copy)
    _edit(copy / name)
    assert native.game_digest(copy) == before


def _engine_imports(path: Path) -> set[str]:
    """The modules (and names) of the ``engine`` package that the source ``path`` imports."""
    package = ".".join(path.relative_to(native.PROJECT_DIR).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {name for name in found if name.startswith("engine.")}


def _module_file(name: str) -> str | None:
    path = name.replace(".", "/")
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        if (native.PROJECT_DIR / candidate).is_file():
            return candidate
    return None


def _closure(names: Iterable[str]) -> set[str]:
    """The source files ``names`` and every module of the ``engine`` package they import."""
    seen: set[str] = set()
    todo = [name for name in names if name.endswith(".py")]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for module in _engine_imports(native.PROJECT_DIR / name):
            found = _module_file(module)
            if found is not None and found not in seen:
                todo.append(found)
    return seen


def test_every_module_the_game_sources_import_is_a_game_source_or_said_not_to_be() -> None:
    """The import closure of the game's sources (a new module a rule or the seeding imports is
    covered by the digest, or NOT_GAME_SOURCES says why it decides nothing)."""
    seen = _closure(native.GAME_SOURCES)
    assert seen - set(native.GAME_SOURCES) == set(native.NOT_GAME_SOURCES)
    assert {
        "engine/simulation.py",
        "engine/rules/coop.py",
        "engine/rules/ai_options.py",
    } <= set(native.GAME_SOURCES)


def test_what_the_game_object_and_the_batches_import_decides_a_game_or_is_said_not_to() -> None:
    """Issue 27, item 4: the digest's list follows the game object (engine.rules.game: the set-up
    of every mode, the computer seats, the end of a game) and a batch's games (seeding, Co-op's
    division of the AI's cards): each module they import is covered, or NOT_GAME_SOURCES says
    why it decides nothing."""
    entry = ("engine/rules/game.py", "engine/simulation.py")
    seen = _closure(entry)
    assert seen - set(native.GAME_SOURCES) <= set(native.NOT_GAME_SOURCES)
    assert {
        "engine/rules/game.py",
        "engine/rules/coop.py",
        "engine/rules/drafts.py",
        "engine/batches/seeding.py",
    } <= seen & set(native.GAME_SOURCES)
