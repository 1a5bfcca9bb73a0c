"""Settings come from the environment; each check runs a fresh interpreter with that environment."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.processes import child_environ

ROOT = Path(__file__).resolve().parents[2]
EMAIL_VARS = (
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "DEFAULT_FROM_EMAIL",
)
SERVICE_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_DEBUG",
    "DJANGO_SECURE",
    "DJANGO_SECRET_KEY",
    *EMAIL_VARS,
)


def settings_in(env: dict[str, str], expression: str) -> object:
    base = child_environ(*SERVICE_VARS)
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        f"print(json.dumps({expression}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "cod_site.settings", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def test_defaults_need_no_services() -> None:
    assert settings_in(
        {},
        "[s.DATABASES['default']['ENGINE'], str(s.DATABASES['default']['NAME']), "
        "s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'], s.DEBUG]",
    ) == [
        "django.db.backends.sqlite3",
        str(ROOT / "db.sqlite3"),
        True,
        "django.core.cache.backends.locmem.LocMemCache",
        False,
    ]


def test_services_from_urls() -> None:
    assert settings_in(
        {"DATABASE_URL": "postgres://u:p@db.example:5433/cod", "REDIS_URL": "redis://r:6379/2"},
        "[s.DATABASES['default']['ENGINE'], s.DATABASES['default']['HOST'], "
        "s.DATABASES['default']['PORT'], s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL, "
        "s.CELERY_RESULT_BACKEND, s.CACHES['default']['LOCATION']]",
    ) == [
        "django.db.backends.postgresql",
        "db.example",
        5433,
        False,
        "redis://r:6379/2",
        "redis://r:6379/2",
        "redis://r:6379/2",
    ]


EMAIL_SETTINGS = (
    "[s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, "
    "s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL, s.DEFAULT_FROM_EMAIL]"
)


def test_email_goes_to_the_console_unless_an_smtp_server_is_set() -> None:
    assert settings_in({}, EMAIL_SETTINGS) == [
        "django.core.mail.backends.console.EmailBackend",
        "",
        587,
        "",
        "",
        True,
        False,
        "Clash of Decks <noreply@localhost>",
    ]
    assert settings_in(
        {
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_HOST_USER": "cod",
            "EMAIL_HOST_PASSWORD": "s3cret",
            "DEFAULT_FROM_EMAIL": "cod@example.org",
        },
        EMAIL_SETTINGS,
    ) == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.org",
        587,
        "cod",
        "s3cret",
        True,
        False,
        "cod@example.org",
    ]
    # TLS from the first byte (port 465) instead of STARTTLS: Django refuses both at once.
    assert settings_in(
        {"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "465", "EMAIL_USE_SSL": "1"},
        "[s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_USE_SSL]",
    ) == [465, False, True]


def test_languages() -> None:
    assert settings_in({}, "[c for c, _ in s.LANGUAGES]") == ["en", "fr", "sv"]


def test_bad_boolean_is_refused_with_its_name() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failure:
        settings_in({"DJANGO_DEBUG": "maybe"}, "s.DEBUG")
    assert "DJANGO_DEBUG='maybe' is not a boolean" in failure.value.stderr


def test_check_deploy_passes_with_production_settings() -> None:
    env = child_environ(*SERVICE_VARS)
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECURE="1",
        DJANGO_SECRET_KEY="a-production-secret-" + "x9Qz" * 12,
        DJANGO_ALLOWED_HOSTS="cod.example.org",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
