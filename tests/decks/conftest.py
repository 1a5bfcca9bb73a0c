"""Fixtures of the decks tests: the preconstructed and Constructed deck lists, a staff user (the
catalogue and the other users come from tests/support)."""

import pytest

# The four preconstructed decks as the Swedish rulebook (seeds/002) lists them.
PRECON = {
    1: ["annihilation", "baron", "boom", "brute", "carapace", "partisan", "revenant", "troll"],
    2: ["abomination", "alpha", "combustion", "lieutenant", "microctopus", "ogre", "scribe",
        "shaman"],
    3: ["brigand", "disciple", "gnome", "grrr", "martyr", "meteorite", "parasite", "vortex"],
    4: ["aberration", "assassin", "carnivore", "cyclone", "machine", "mutant", "reptile", "zombie"],
}  # fmt: skip
# A legal Constructed deck mixing expansions.
CONSTRUCTED = [
    "grrr", "baron", "emerald-dragon", "troll", "boom", "abyssal-grrr", "dryad", "dislocation",
]  # fmt: skip


@pytest.fixture
def staff(django_user_model: object) -> object:
    return django_user_model.objects.create_user(  # type: ignore[attr-defined]
        "stella", password="pw-stella-123456", is_staff=True
    )
