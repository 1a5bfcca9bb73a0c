"""The Duel of Chaos catalogue and pages use the database and the cache, as the site does."""

from tests.conftest import _isolated_cache

# The engine tests' conftest (tests/chaos/) turns the project's cache fixture off; these need it.
__all__ = ["_isolated_cache"]
