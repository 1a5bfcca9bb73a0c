"""The Duel of Chaos engine tests need no database."""

import pytest


@pytest.fixture(autouse=True)
def _isolated_cache() -> None:
    """Overrides the project-wide cache fixture: the rules engine never touches a cache."""
