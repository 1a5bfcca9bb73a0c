"""Page forms: the deckbuilder's state as the page posts it."""

import secrets
from dataclasses import dataclass, field

from django.http import QueryDict

from decks import deck_code, text_io
from decks.models import NAME_MAX_LENGTH, Visibility


def new_seed() -> int:
    return secrets.randbelow(2**31)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


@dataclass
class BuilderState:
    """What the deckbuilder holds: the cards (slugs, in order) and the choices around them.

    Kept in the page (hidden inputs) and posted back on every change, so a visitor can build
    without an account and a reload loses nothing but the last click.
    """

    name: str = ""
    description: str = ""
    format: str = "constructed"
    mode: str = ""
    visibility: str = Visibility.PRIVATE
    cards: list[str] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)  # positions (0-based) in `cards`
    pool_text: str = ""
    champion: str = ""  # a Champion's share id
    seed: int = 0

    @classmethod
    def from_data(cls, data: QueryDict) -> "BuilderState":
        cards = [slug for slug in data.getlist("card") if slug][: deck_code.MAX_CARDS]
        removed = sorted(
            {index for index in (_int(one, -1) for one in data.getlist("removed"))}
            & set(range(len(cards)))
        )
        return cls(
            name=data.get("name", "")[:NAME_MAX_LENGTH],
            description=data.get("description", ""),
            format=data.get("format") or "constructed",
            mode=data.get("mode", ""),
            visibility=data.get("visibility") or Visibility.PRIVATE,
            cards=cards,
            removed=removed,
            pool_text=data.get("pool", ""),
            champion=data.get("champion", "").strip()[:16],
            seed=_int(data.get("seed"), 0) or new_seed(),
        )

    def add(self, slug: str) -> None:
        """A card once: a deck never holds two copies, so none is added to be flagged after."""
        if slug and slug not in self.cards and len(self.cards) < deck_code.MAX_CARDS:
            self.cards.append(slug)

    def remove(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            del self.cards[index]
            self.removed = [one if one < index else one - 1 for one in self.removed if one != index]

    @property
    def pool(self) -> list[str] | None:
        """One card a line (as in a text import); None when the player gave no pool at all."""
        names = [line.name for line in text_io.parse(self.pool_text) for _ in range(line.copies)]
        return names or None

    @property
    def removed_slugs(self) -> list[str]:
        return [self.cards[index] for index in self.removed]
