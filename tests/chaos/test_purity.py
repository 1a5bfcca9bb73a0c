"""The Duel of Chaos engine is pure Python: importing all of it loads no Django, DRF or Celery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    "engine.chaos",
    "engine.chaos.agents",
    "engine.chaos.batch",
    "engine.chaos.digest",
    "engine.chaos.play",
    "engine.chaos.replay",
    "engine.chaos.scenario",
]


def test_no_framework_is_imported() -> None:
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in MODULES)
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'rest_framework', 'celery', 'cards', 'decks', 'mutation', 'champions'))\n"
        "print(bad, 'engine.rules' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout == "[] False\n"
