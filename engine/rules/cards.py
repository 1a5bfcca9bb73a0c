"""Card definitions, the catalogue read from the project's data copy, and deck validation.

A deck is a list of :class:`CardDef`, not of names: a mutated card (Mutation format) or a custom
Champion is just another definition with its own values, and a replay stores the definitions it was
played with.
"""

from __future__ import annotations

import csv
import difflib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.rules.abilities.registry import REGISTRY, parse_abilities
from engine.rules.errors import InputError
from engine.rules.native import PROJECT_DIR

CREATURE = "creature"
INCANTATION = "incantation"
CHAMPION = "champion"
CARD_TYPES = (CREATURE, INCANTATION, CHAMPION)

DECK_SIZE = 8
DATA_DIR = PROJECT_DIR / "data"


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card as it is played: printed values, or mutated ones."""

    name: str
    type: str
    cost: int
    attack: int = 0
    hp: int = 0
    # Codes as printed, in order; ``aura:CODE`` for an Aura.
    abilities: tuple[str, ...] = ()
    name_fr: str = ""
    mask: int = field(init=False, compare=False, repr=False)
    aura_mask: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        label = f"card {self.name!r}" if isinstance(self.name, str) and self.name else "card"
        if not isinstance(self.name, str) or not self.name.strip():
            raise InputError("a card needs a non-empty name")
        if self.type not in CARD_TYPES:
            raise InputError(f"{label}: type must be one of {', '.join(CARD_TYPES)}")
        for key in ("cost", "attack", "hp"):
            value = getattr(self, key)
            if type(value) is not int or value < 0:
                raise InputError(f"{label}: {key} must be a whole number >= 0, not {value!r}")
        if self.type == INCANTATION:
            if self.hp:
                raise InputError(f"{label}: an incantation has no hp")
        elif self.hp < 1:
            raise InputError(f"{label}: a creature needs hp >= 1")
        if isinstance(self.abilities, str) or not all(isinstance(a, str) for a in self.abilities):
            raise InputError(f"{label}: abilities must be a list of ability codes")
        codes = tuple(a.strip() for a in self.abilities)
        object.__setattr__(self, "abilities", codes)
        mask, aura = parse_abilities(codes, self.name)
        if self.type == INCANTATION:
            if aura:
                raise InputError(f"{label}: an incantation cannot have an Aura")
            for code in codes:
                if REGISTRY[code].creature_only:
                    raise InputError(f"{label}: ability {code!r} only applies to creatures")
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "aura_mask", aura)

    @property
    def is_creature(self) -> bool:
        return self.type != INCANTATION

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "type": self.type, "cost": self.cost}
        data["attack"] = self.attack
        if self.is_creature:
            data["hp"] = self.hp
        if self.abilities:
            data["abilities"] = list(self.abilities)
        if self.name_fr:
            data["name_fr"] = self.name_fr
        return data

    @classmethod
    def from_json(cls, data: Any, where: str = "card") -> CardDef:
        """A definition from its JSON form; errors name ``where`` and the offending key."""
        if not isinstance(data, Mapping):
            raise InputError(f"{where}: expected a mapping with name, type, cost, attack, hp")
        allowed = {"name", "type", "cost", "attack", "hp", "abilities", "name_fr"}
        for key in data:
            if key not in allowed:
                raise InputError(f"{where}: unknown key {key!r}")
        for key in ("name", "type", "cost"):
            if key not in data:
                raise InputError(f"{where}: missing key {key!r}")
        abilities = data.get("abilities") or []
        if not isinstance(abilities, list):
            raise InputError(f"{where}.abilities: expected a list of ability codes")
        try:
            return cls(
                name=data["name"],
                type=data["type"],
                cost=data["cost"],
                attack=data.get("attack", 0),
                hp=data.get("hp", 0) or 0,
                abilities=tuple(abilities),
                name_fr=data.get("name_fr", "") or "",
            )
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None


@lru_cache(maxsize=4096)
def fold(name: str) -> str:
    """Case-, accent- and spacing-insensitive form of a card name, for look-ups."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


@dataclass(frozen=True, slots=True)
class CatalogueCard:
    card: CardDef
    set_code: str
    precon_deck: int | None


class Catalogue:
    """The published cards of the project's data copy, found by English or French name."""

    def __init__(self, cards: Sequence[CatalogueCard]) -> None:
        self.cards = tuple(cards)
        self._by_name: dict[str, CardDef] = {}
        for entry in self.cards:
            for name in (entry.card.name, entry.card.name_fr):
                if name:
                    self._by_name.setdefault(fold(name), entry.card)

    def __len__(self) -> int:
        return len(self.cards)

    def find(self, name: str) -> CardDef:
        """The card named ``name`` (English or French); unknown names suggest the closest ones."""
        card = self._by_name.get(fold(name))
        if card is None:
            raise InputError(self.unknown_card_message(name))
        return card

    def unknown_card_message(self, name: str) -> str:
        close = difflib.get_close_matches(fold(name), list(self._by_name), n=3, cutoff=0.6)
        suggestions = []
        for key in close:
            display = self._by_name[key].name
            if display not in suggestions:
                suggestions.append(display)
        message = f"unknown card {name.strip()!r}"
        if suggestions:
            message += "; did you mean " + ", ".join(repr(s) for s in suggestions) + "?"
        return message

    def precon(self, number: int) -> list[CardDef]:
        """Preconstructed deck ``number`` (1-4) of the Initiation Pack."""
        deck = [e.card for e in self.cards if e.precon_deck == number]
        if not deck:
            raise InputError(f"there is no preconstructed deck {number} (choose 1, 2, 3 or 4)")
        return deck

    def parse_deck(self, text: str) -> list[CardDef]:
        """A deck from ``"1"``-``"4"`` (preconstructed) or comma-separated card names."""
        stripped = text.strip()
        if stripped.isdigit():
            return self.precon(int(stripped))
        names = [n.strip() for n in stripped.split(",")]
        if any(not n for n in names):
            raise InputError("empty card name in deck list (check the commas)")
        return [self.find(n) for n in names]


def _int(value: str, column: str, row: int) -> int:
    try:
        return int(value)
    except ValueError:
        raise InputError(f"cards.csv row {row}: {column} {value!r} is not a number") from None


@lru_cache(maxsize=4)
def load_catalogue(data_dir: Path = DATA_DIR) -> Catalogue:
    """Read ``cards.csv`` of ``data_dir`` (the project's copy of the card data)."""
    path = data_dir / "cards.csv"
    entries: list[CatalogueCard] = []
    with path.open(encoding="utf-8", newline="") as handle:
        for row_number, row in enumerate(csv.DictReader(handle), start=2):
            codes = tuple(c for c in row["abilities"].split(";") if c.strip())
            is_creature = row["type"] == CREATURE
            card = CardDef(
                name=row["name_en"],
                name_fr=row["name_fr"],
                type=row["type"],
                cost=_int(row["mana"], "mana", row_number),
                attack=_int(row["attack"] or "0", "attack", row_number),
                hp=_int(row["hp"], "hp", row_number) if is_creature else 0,
                abilities=codes,
            )
            precon = row["precon_deck"].strip()
            entries.append(CatalogueCard(card, row["set_code"], int(precon) if precon else None))
    return Catalogue(entries)


def validate_deck(
    deck: Iterable[CardDef], label: str = "deck", size: int = DECK_SIZE
) -> list[CardDef]:
    """The deck as a list, if it holds ``size`` different cards (rule deck-construction)."""
    cards = list(deck)
    for card in cards:
        if not isinstance(card, CardDef):
            raise InputError(f"{label}: expected card definitions, got {type(card).__name__}")
        if card.type == CHAMPION:
            raise InputError(
                f"{label}: {card.name!r} is a Champion; Champions stay out of the deck"
            )
    seen: set[str] = set()
    for card in cards:
        key = fold(card.name)
        if key in seen:
            raise InputError(
                f"{label}: duplicate card {card.name!r} (a deck holds 8 different cards)"
            )
        seen.add(key)
    if len(cards) != size:
        raise InputError(
            f"{label}: {len(cards)} cards; a deck holds exactly {size} different cards"
        )
    return cards
