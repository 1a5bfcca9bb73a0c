"""The digest a Duel of Chaos test batch records: it changes with the sources that decide a game
(the rules, the agents, a batch's seeding), not with those that only read or show one."""

import shutil
from pathlib import Path

from engine.chaos.digest import NOT_GAME_SOURCES, PACKAGE_DIR, engine_digest, game_digest


def test_the_digest_follows_the_game_sources_only(tmp_path: Path) -> None:
    copy = tmp_path / "chaos"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert game_digest(copy) == engine_digest()
    with (copy / "view.py").open("a") as view:
        view.write("\n# shown otherwise\n")
    assert game_digest(copy) == engine_digest()
    for name in ("agents.py", "batch.py", "resolve.py"):
        source = copy / name
        original = source.read_text()
        source.write_text(original + "\n# played otherwise\n")
        assert game_digest(copy) != engine_digest(), name
        source.write_text(original)
    assert game_digest(copy) == engine_digest()
    # Every module left out is named with its reason, and exists.
    assert sorted(NOT_GAME_SOURCES) == sorted(
        name for name in NOT_GAME_SOURCES if (PACKAGE_DIR / name).is_file()
    )
