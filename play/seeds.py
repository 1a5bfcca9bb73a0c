"""A table's seed and the seeds derived from it, for Clash of Decks and Duel of Chaos tables
alike: the server draws it (`new_seed`); the computer players, the drafters and a computer
seat's default deck take seeds derived from it (`derived_seed`)."""

import hashlib
import secrets

# Seeds fit a JSON number any client reads exactly (a replay file's seed replays the game).
SEED_BITS = 53


def new_seed() -> int:
    """A table's seed, from the operating system's secure source: it decides every hidden card
    (the deal, the AI's pile, Co-op's split, the Draft's packs), so no one may guess it."""
    return secrets.randbelow(2**SEED_BITS)


def derived_seed(seed: int, use: str, index: int) -> int:
    """A seed for `use` (`agent`, `drafter`, `deck`) number `index` of a table of `seed`: a
    keyed hash, so that what a computer player's choices or its deck may let someone learn of
    it tells nothing of the table's seed (as `seed + index` would)."""
    key = seed.to_bytes(8, "big")
    digest = hashlib.blake2b(f"{use}:{index}".encode(), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)
