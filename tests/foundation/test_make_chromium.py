"""`make test` on a fresh machine: its `chromium` step installs the browser the browser tests
drive when it can, and says what to do when it cannot. `id` and `apt-get` are stand-ins here,
so that no package is installed and "root" and "not root" can both be tried."""

import subprocess
from pathlib import Path

from tests.support.processes import ROOT, child_environ

SKIPPED = (
    "No Chromium at {path}: the browser tests will be skipped. Install it (as root: "
    "apt-get install chromium fonts-dejavu-core) or set PLAYWRIGHT_CHROMIUM to a Chromium binary."
)


def make_chromium(
    tmp_path: Path, *, uid: int, chromium: Path, apt_status: int = 0
) -> tuple[int, str, list[str]]:
    """`make chromium` as user `uid`, with an apt-get that ends with `apt_status`; returns the
    exit status of make, what it printed and the calls to apt-get."""
    stubs = tmp_path / "bin"
    stubs.mkdir()
    calls = tmp_path / "apt-get.calls"
    (stubs / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (stubs / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexit {apt_status}\n')
    for stub in stubs.iterdir():
        stub.chmod(0o755)
    env = child_environ("PLAYWRIGHT_CHROMIUM", "MAKEFLAGS", "MAKELEVEL")
    env["PATH"] = f"{stubs}:{env['PATH']}"
    env["PLAYWRIGHT_CHROMIUM"] = str(chromium)
    done = subprocess.run(
        ["make", "--no-print-directory", "-s", "chromium"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    made = calls.read_text().splitlines() if calls.exists() else []
    return done.returncode, done.stdout + done.stderr, made


def test_a_chromium_in_place_is_used_as_it_is(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    assert make_chromium(tmp_path, uid=0, chromium=chromium) == (0, "", [])


def test_root_with_apt_installs_debian_chromium(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium"
    status, output, apt_calls = make_chromium(tmp_path, uid=0, chromium=missing)
    assert status == 0
    assert apt_calls == ["update -qq", "install -y -qq chromium fonts-dejavu-core"]
    # The stand-in installed nothing, so the browser tests are then skipped, saying why.
    assert output.splitlines() == [
        f"No Chromium at {missing}: installing Debian's chromium for the browser tests",
        SKIPPED.format(path=missing),
    ]


def test_a_failed_install_stops_make_test(tmp_path: Path) -> None:
    status, output, apt_calls = make_chromium(
        tmp_path, uid=0, chromium=tmp_path / "no-chromium", apt_status=100
    )
    assert status == 2
    assert apt_calls == ["update -qq"]
    assert "Error 100" in output


def test_without_root_it_says_what_to_do_and_installs_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "no-chromium"
    assert make_chromium(tmp_path, uid=1000, chromium=missing) == (
        0,
        SKIPPED.format(path=missing) + "\n",
        [],
    )
