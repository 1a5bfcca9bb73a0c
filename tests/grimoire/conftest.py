from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client


def signed_in(django_user_model: type[User], name: str, **extra: Any) -> Client:
    """A client signed in as a new user `name`."""
    client = Client()
    client.force_login(django_user_model.objects.create_user(name, password="x", **extra))
    return client


@pytest.fixture
def ana(django_user_model: type[User]) -> Client:
    """The author of the tests' puzzles."""
    return signed_in(django_user_model, "ana")
