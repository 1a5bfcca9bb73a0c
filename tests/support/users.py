"""The users most tests act as: olga owns, oscar is someone else (tests/champions has its own)."""

from typing import Any

import pytest


@pytest.fixture
def owner(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("olga", password="pw-olga-123456")


@pytest.fixture
def other(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("oscar", password="pw-oscar-123456")
