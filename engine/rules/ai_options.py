"""The Solo AI's parameters (rulebook, "Solo Mode - Custom Play"), as one immutable value.

Quick Play is the default value. Custom Play buys harder parameters with difficulty points; the
points and the levels are not the engine's business (the web app keeps that table as data): the
engine only plays the parameters and refuses values the rulebook does not offer. The JSON form is
the scenario format's ``options.ai`` mapping (docs/scenario-format-extensions.md), so a stored
game, a scenario and an API request say the same thing the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.rules.abilities.registry import REGISTRY
from engine.rules.errors import InputError

QUICK_PLAY_FIXED_MANA: Final = 6
# Custom Play's fixed Mana: 7 to 10 (Quick Play's 6 is the cheapest choice).
FIXED_MANA_RANGE: Final = (6, 10)
MANA_PER_CREATURE_CHOICES: Final = (1, 2)
# The special abilities Custom Play may give all the AI's creatures: the current edition's list,
# exactly ten (French text: Affûtage, Aquatique, Catalyseur, Instinct, Protection, Dérobade,
# Perforation, Rage, Splash, Sprint; docs/rulings.md, SO12).
GIVEN_ABILITIES: Final = (
    "sharpening",
    "aquatic",
    "catalyst",
    "instinct",
    "protection",
    "vanish",
    "perforation",
    "rage",
    "splash",
    "sprint",
)
# The Swedish 2021 edition's extra choices (Berserk given, an AI without a Bastion) exist only
# under ``edition="2021"``, a labelled variant no default difficulty level uses (SO12).
CURRENT_EDITION: Final = "current"
EDITION_2021: Final = "2021"
EDITIONS: Final = (CURRENT_EDITION, EDITION_2021)
EDITION_2021_ABILITIES: Final = ("berserk",)
KEYS: Final = (
    "fixed_mana",
    "mana_per_creature",
    "ai_first",
    "resistance",
    "abilities",
    "champion",
    "bastion",
    "edition",
)


@dataclass(frozen=True, slots=True)
class AiOptions:
    """The AI's parameters: Quick Play by default.

    - ``fixed_mana``: Phase 1's fixed Mana (6; Custom Play 7-10).
    - ``mana_per_creature``: Phase 1's Mana per creature the player has in play (1, or 2).
    - ``ai_first``: the AI plays the first turn (the player is first otherwise).
    - ``resistance``: each attack on the AI's deck pile inflicts only 1 damage.
    - ``abilities``: ability codes every AI creature bears (among :data:`GIVEN_ABILITIES`).
    - ``champion``: the player plays with a Champion (Custom Play only; the level's -2).
    - ``bastion``: False for the 2021 edition's AI that starts with its Fort side up (only with
      ``edition="2021"``).
    - ``edition``: ``"current"`` (the rulebook of 2022), or ``"2021"``, the Swedish edition's
      variant that also offers Berserk and ``bastion=False``.
    """

    fixed_mana: int = QUICK_PLAY_FIXED_MANA
    mana_per_creature: int = 1
    ai_first: bool = False
    resistance: bool = False
    abilities: tuple[str, ...] = ()
    champion: bool = False
    bastion: bool = True
    edition: str = CURRENT_EDITION

    def __post_init__(self) -> None:
        _check(self)

    @property
    def quick_play(self) -> bool:
        """Whether these are Quick Play's parameters (where the Champion module is not offered)."""
        return self == AiOptions(champion=self.champion)

    def ability_mask(self) -> int:
        mask = 0
        for code in self.abilities:
            mask |= REGISTRY[code].bit
        return mask

    def to_json(self) -> dict[str, Any]:
        """Every key, so that a stored value reads the same whatever the defaults become;
        ``edition`` only for the 2021 variant (values stored before the key read the same)."""
        data: dict[str, Any] = {
            "fixed_mana": self.fixed_mana,
            "mana_per_creature": self.mana_per_creature,
            "ai_first": self.ai_first,
            "resistance": self.resistance,
            "abilities": list(self.abilities),
            "champion": self.champion,
            "bastion": self.bastion,
        }
        if self.edition != CURRENT_EDITION:
            data["edition"] = self.edition
        return data

    @classmethod
    def from_json(cls, data: object, where: str = "ai") -> AiOptions:
        """The parameters of ``data`` (untrusted: a mapping of some of :data:`KEYS`); a missing
        key takes its Quick Play value. Errors name ``where`` and the key."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InputError(f"{where}: expected a mapping")
        for key in data:
            if key not in KEYS:
                raise InputError(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
        abilities = data.get("abilities", [])
        if not isinstance(abilities, list):
            raise InputError(f"{where}.abilities: expected a list of ability codes")
        try:
            return cls(
                fixed_mana=data.get("fixed_mana", QUICK_PLAY_FIXED_MANA),
                mana_per_creature=data.get("mana_per_creature", 1),
                ai_first=data.get("ai_first", False),
                resistance=data.get("resistance", False),
                abilities=tuple(abilities),
                champion=data.get("champion", False),
                bastion=data.get("bastion", True),
                edition=data.get("edition", CURRENT_EDITION),
            )
        except InputError as exc:
            raise InputError(f"{where}.{exc}") from None


def _check(options: AiOptions) -> None:
    """Refuse what the rulebook does not offer; messages start with the key (from_json prefixes
    ``where.``)."""
    fixed = options.fixed_mana
    low, high = FIXED_MANA_RANGE
    if type(fixed) is not int or not low <= fixed <= high:
        raise InputError(f"fixed_mana: expected a whole number from {low} to {high}, not {fixed!r}")
    per = options.mana_per_creature
    if type(per) is not int or per not in MANA_PER_CREATURE_CHOICES:
        raise InputError(f"mana_per_creature: expected 1 or 2, not {per!r}")
    for key in ("ai_first", "resistance", "champion", "bastion"):
        if type(getattr(options, key)) is not bool:
            raise InputError(f"{key}: expected true or false")
    edition = options.edition
    if edition not in EDITIONS:
        raise InputError(f"edition: expected 'current' or '2021', not {edition!r}")
    codes = options.abilities
    if type(codes) is not tuple:
        raise InputError("abilities: expected a list of ability codes")
    offered = GIVEN_ABILITIES + (EDITION_2021_ABILITIES if edition == EDITION_2021 else ())
    for code in codes:
        if code not in offered:
            only_2021 = " (Berserk only with edition '2021')" if code == "berserk" else ""
            raise InputError(
                f"abilities: {code!r} is not an ability Custom Play gives "
                f"(one of {', '.join(GIVEN_ABILITIES)}){only_2021}"
            )
    if not options.bastion and edition != EDITION_2021:
        raise InputError(
            "bastion: the current edition's AI always has a Bastion "
            "(false only with edition '2021')"
        )
    if len(set(codes)) != len(codes):
        raise InputError("abilities: an ability is given once")
