"""What the designer edits, as one value: passed from the pages and the API to the services."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from champions.models import Champion, Visibility


@dataclass(frozen=True)
class ChampionDesign:
    """A Champion as submitted; the services check it (nothing here is trusted yet)."""

    names: Mapping[str, str]
    mana: int
    attack: int
    hp: int
    abilities: Sequence[str] = ()
    flavours: Mapping[str, str] = field(default_factory=dict)
    visibility: str = Visibility.PRIVATE
    illustration_x: float = 0.5
    illustration_y: float = 0.5
    illustration_zoom: float = 1.0

    def patched(self, changes: Mapping[str, Any]) -> "ChampionDesign":
        """A partial update: names and flavours merge per language ("" removes one)."""
        changes = dict(changes)
        for texts in ("names", "flavours"):
            if texts in changes:
                changes[texts] = {**getattr(self, texts), **changes[texts]}
        return replace(self, **changes)

    @classmethod
    def of(cls, champion: Champion) -> "ChampionDesign":
        """The design of a stored Champion (translations and abilities prefetched)."""
        rows = list(champion.translations.all())
        return cls(
            names={row.language_code: row.name for row in rows},
            flavours={row.language_code: row.flavour for row in rows if row.flavour},
            mana=champion.mana,
            attack=champion.attack,
            hp=champion.hp,
            abilities=[
                f"aura:{row.ability.code}" if row.is_aura else row.ability.code
                for row in champion.abilities.all()
            ],
            visibility=champion.visibility,
            illustration_x=champion.illustration_x,
            illustration_y=champion.illustration_y,
            illustration_zoom=champion.illustration_zoom,
        )
