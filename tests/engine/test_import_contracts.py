"""The seams of issue 27, as import-linter checks them (`lint-imports`, pyproject.toml): the
project uses the rules engine only through `engine.rules` (and its documented public tool
modules), the display package never reaches into the engine app, and Play reaches the engine app
through one adapter."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ("rules-public-api", "display-package", "play-seams")


def test_lint_imports_keeps_the_engine_s_seams() -> None:
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    for contract in CONTRACTS:
        command += ["--contract", contract]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken." in done.stdout
