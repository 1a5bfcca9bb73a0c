"""What a seat's view of a game names: the hidden-information tests of the engine and of Play."""

from typing import Any

# The keys under which a view or an event names a card by its id.
ID_KEYS = {"id", "card", "target", "host", "source"}


def card_ids(value: Any) -> set[int]:
    """Every card id a view, an event list or an API body names."""
    found: set[int] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ID_KEYS and type(item) is int:
                found.add(item)
            else:
                found |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids(item)
    return found
