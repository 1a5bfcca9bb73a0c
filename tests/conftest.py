import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

# Hypothesis' 200 ms deadline per example is a timing assertion: on a loaded machine a slow
# example fails a correct test. Speed goals live in the benchmarks (CONTRIBUTING).
hypothesis_settings.register_profile("cod_site", deadline=None)
hypothesis_settings.load_profile("cod_site")


@pytest.fixture(autouse=True)
def _isolated_cache(settings: object) -> None:
    """A fresh cache namespace per test: with Redis the cache outlives a test's transaction."""
    caches = {alias: dict(conf) for alias, conf in django_settings.CACHES.items()}
    for conf in caches.values():
        conf["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _plain_static_names(settings: object) -> None:
    """Static files under their own names, served from the finders: a `staticfiles/` left in the
    checkout by `make run` holds a manifest of older files, with hashed names of older content."""
    settings.STORAGES = {  # type: ignore[attr-defined]
        **settings.STORAGES,  # type: ignore[attr-defined]
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Each test starts in English: a request in French or Swedish leaves its language active
    in the thread, and services called directly speak the active language."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _fast_passwords(settings: object) -> None:
    """Real password hashing costs half a second per user; the tests make many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


pytest_plugins = ["tests.support.browser", "tests.support.database", "tests.support.users"]
