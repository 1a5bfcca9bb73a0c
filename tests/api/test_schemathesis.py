"""The live API against its own OpenAPI schema: Schemathesis, every check, bounded.

Schemathesis reads /api/v1/schema/ from a running server, then sends each operation generated
requests, valid and invalid, and checks each answer against the schema: no 500, only documented
status codes, content types and bodies, invalid input refused, valid input accepted, and more
(`--checks all`). It runs twice: anonymously and with a token. Exceptions are listed in
EXCLUDED_CHECKS, each with its reason (docs/api.md, "API errors").
"""

import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.throttling import AnonRateThrottle

from tests.support.processes import ROOT, child_environ

ST = Path(sys.executable).with_name("st")
CONFIG = Path(__file__).with_name("schemathesis.toml")
# Per operation, in the fuzzing phase; the coverage phase's cases (each parameter's boundaries
# and wrong types, each unexpected method) come on top. Every operation of the schema is selected
# (102) with every check. Both runs: 7 min 16 s and 8 min 58 s measured on 2 shared cores
# (issue 25), about 5 minutes on an idle machine.
MAX_EXAMPLES = 5
# No check is excluded. The one written exception (a 400 accepted from some operations for
# schema-valid input) is in schemathesis.toml, with its reason.
EXCLUDED_CHECKS: dict[str, str] = {}


@pytest.fixture
def api_url(live_server: Any, committed_catalogue: None, monkeypatch: pytest.MonkeyPatch) -> str:
    from cod_site.celery import app

    # Tasks queued (simulated games, print jobs) wait in an in-memory broker: run in-process,
    # a generated batch of 100,000 games would take the whole run.
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    monkeypatch.setitem(app.conf, "broker_url", "memory://")
    return f"{live_server.url}/api/v1/schema/?format=json"


def _schemathesis(url: str, phases: str, config: Path) -> subprocess.CompletedProcess[str]:
    command = [
        str(ST),
        "--config-file",
        str(config),
        "run",
        url,
        "--checks",
        "all",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        "1",
        "--workers",
        "1",
        "--phases",
        phases,
        "--request-timeout",
        "30",
        "--no-color",
    ]
    for check in EXCLUDED_CHECKS:
        command += ["--exclude-checks", check]
    return subprocess.run(
        command, cwd=ROOT, env=child_environ(), capture_output=True, text=True, timeout=600
    )


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_api_keeps_its_openapi_contract(api_url: str, tmp_path: Path) -> None:
    token = Token.objects.create(user=User.objects.create_user("st", password="pw-st-123456789"))
    # The token as the schema's `tokenAuth` scheme (not a plain header): the `ignored_auth` check
    # then knows which credentials to leave out or spoil.
    with_token_config = tmp_path / "schemathesis.toml"
    with_token_config.write_text(
        CONFIG.read_text() + f'\n[auth.openapi.tokenAuth]\napi_key = "Token {token.key}"\n'
    )
    # The anonymous throttle (600 a minute) would answer most generated requests with a 429.
    with mock.patch.object(AnonRateThrottle, "THROTTLE_RATES", {"anon": "100000/minute"}):
        # The coverage phase (each parameter's boundaries and wrong types, every method) runs
        # once, with the token: anonymously it would mostly meet the same refusals again.
        anonymous = _schemathesis(api_url, "examples,fuzzing", CONFIG)
        with_token = _schemathesis(api_url, "examples,coverage,fuzzing", with_token_config)
    assert anonymous.returncode == 0, anonymous.stdout[-20000:] + anonymous.stderr[-3000:]
    assert with_token.returncode == 0, with_token.stdout[-20000:] + with_token.stderr[-3000:]
