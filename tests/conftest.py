import uuid

import pytest
from django.conf import settings as django_settings


@pytest.fixture(autouse=True)
def _isolated_cache(settings: object) -> None:
    """A fresh cache namespace per test: with Redis the cache outlives a test's transaction."""
    caches = {alias: dict(conf) for alias, conf in django_settings.CACHES.items()}
    for conf in caches.values():
        conf["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches  # type: ignore[attr-defined]


pytest_plugins = ["tests.support.browser", "tests.support.database"]
