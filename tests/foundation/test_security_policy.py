"""Content-Security-Policy and Permissions-Policy on every answer (issue 25, fault 7).

The browser test (test_browser_csp.py) shows the pages work under the policy; these check the
headers themselves and that no template writes a script into its markup.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
PERMISSIONS = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()"
)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/cards/", "/api/v1/cards/", "/no-such-page/", "/api/v1/docs/"]
)
def test_every_answer_has_both_policies(client: Client, path: str) -> None:
    response = client.get(path)
    assert response["Content-Security-Policy"] == POLICY
    assert response["Permissions-Policy"] == PERMISSIONS


@pytest.mark.django_db
def test_redoc_may_start_its_worker_and_loads_no_web_font(client: Client) -> None:
    response = client.get("/api/v1/redoc/")
    assert response["Content-Security-Policy"] == POLICY + "; worker-src 'self' blob:"
    html = response.content.decode()
    assert "fonts.googleapis" not in html
    assert re.findall(r"<script>", html) == []


@pytest.mark.django_db
def test_the_swagger_page_loads_its_start_up_script_as_a_file(client: Client) -> None:
    html = client.get("/api/v1/docs/").content.decode()
    assert re.findall(r"<script>", html) == []
    script = client.get("/api/v1/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def test_no_template_writes_a_script_or_a_handler_into_its_markup() -> None:
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=\"|javascript:", re.IGNORECASE)
    found = []
    for template in Path(settings.BASE_DIR).glob("*/templates/**/*.html"):
        for number, line in enumerate(template.read_text().splitlines(), 1):
            if inline.search(line):
                found.append(f"{template.relative_to(settings.BASE_DIR)}:{number}")
    assert found == []


def test_no_template_asks_htmx_for_a_trigger_filter() -> None:
    # htmx compiles a trigger filter (`every 2s[cond]`) with eval, which script-src 'self' refuses:
    # the filter then never runs and the element never polls (the Duel of Chaos table did).
    filtered = re.compile(r"hx-trigger=\"[^\"]*\[")
    found = []
    for template in Path(settings.BASE_DIR).glob("*/templates/**/*.html"):
        for number, line in enumerate(template.read_text().splitlines(), 1):
            if filtered.search(line):
                found.append(f"{template.relative_to(settings.BASE_DIR)}:{number}")
    assert found == []
