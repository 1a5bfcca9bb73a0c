"""The compiled engine (engine.rules.native): the same games as the sources, never a stale build."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import types
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


def test_the_engine_digest_covers_the_rules_and_agents_not_the_python(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What a batch of simulated games records: a change to a rule, an agent, the reading of
    card definitions, a drafter or the learned evaluation's weights changes it; the Python
    version, the command-line tools do not."""
    expected = hashlib.sha256()
    sources = ("cards.py", "drafts.py", "drafters.py", "evaluation_model.py")
    for name in (*native.COMPILED, *sources, "evaluation_model.json"):
        expected.update(name.encode() + b"\0" + (native.PACKAGE_DIR / name).read_bytes() + b"\0")
    assert native.engine_digest() == expected.hexdigest()
    copy = tmp_path / "rules"
    for name in (*native.GAME_SOURCES, "play.py"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((native.PACKAGE_DIR / name).read_bytes())
    monkeypatch.setattr(native, "PACKAGE_DIR", copy)
    fresh = native.engine_digest.__wrapped__  # the cached value is this process's engine's
    assert fresh() == native.engine_digest()
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(cache_tag="cpython-399"))
    assert fresh() == native.engine_digest()
    (copy / "play.py").write_text((copy / "play.py").read_text() + "\n# an edit\n")
    assert fresh() == native.engine_digest()
    for name in ("agents.py", "cards.py", "drafters.py", "evaluation_model.json"):
        before = fresh()
        (copy / name).write_text((copy / name).read_text() + "\n# an edit\n")
        assert fresh() != before
