from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from grimoire import services


def signed_in(django_user_model: type[User], name: str, **extra: Any) -> Client:
    """A client signed in as a new user `name`."""
    client = Client()
    client.force_login(django_user_model.objects.create_user(name, password="x", **extra))
    return client


@pytest.fixture
def ana(django_user_model: type[User]) -> Client:
    """The author of the tests' puzzles."""
    return signed_in(django_user_model, "ana")


@pytest.fixture(autouse=True)
def inline_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request's solver budget that the tests' small puzzles never outrun, however loaded the
    machine: with the 50 ms of production a CI run's proof became a job and the test read a job
    where it waited for a report. The tests of the job path set the budget to 0 themselves."""
    monkeypatch.setattr(services, "INLINE_SECONDS", 30.0)
