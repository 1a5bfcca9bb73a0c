"""The 27 special abilities of the current edition: codes, bits, names and handlers.

An ability is data (an :class:`Ability` record) plus small handler functions registered under its
code for the hooks of the activation orders where it acts. Card definitions hold their abilities as
a bitmask of these bits, so the hot path tests ``mask & BIT`` instead of comparing strings.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.rules.errors import InputError


@dataclass(frozen=True, slots=True)
class Ability:
    code: str
    bit: int
    name_en: str
    name_fr: str
    # Abilities that need a position on a line or an attack mean nothing on an Incantation.
    creature_only: bool
    # Where the ability acts, in the words of the activation orders (for the rules reference).
    acts_at: str


_SPECS: tuple[tuple[str, str, str, bool, str], ...] = (
    ("aerial", "Aerial", "Aérienne", True, "assault: target identification"),
    ("sharpening", "Sharpening", "Affûtage", False, "both orders: sharpening step"),
    ("aquatic", "Aquatic", "Aquatique", True, "both orders: damage calculation"),
    ("berserk", "Berserk", "Berserk", True, "assault: step 19"),
    ("catalyst", "Catalyst", "Catalyseur", True, "phase 1"),
    ("defender", "Defender", "Défenseur", True, "assault: target identification"),
    ("vanish", "Vanish", "Dérobade", True, "both orders: vanish step"),
    ("indestructible", "Indestructible", "Indestructible", True, "both orders: dealing damage"),
    ("instinct", "Instinct", "Instinct", True, "assault: step 20"),
    ("mercenary", "Mercenary", "Mercenaire", False, "both orders: return to hand"),
    ("symbiote", "Symbiote", "Symbiote", True, "summoning: placement"),
    ("perforation", "Perforation", "Perforation", False, "both orders: target identification"),
    ("price_of_blood", "Price of Blood", "Prix du sang", False, "summoning: step 2"),
    ("protection", "Protection", "Protection", True, "both orders: dealing damage"),
    ("rage", "Rage", "Rage", True, "assault: attack clearance"),
    ("regeneration", "Regeneration", "Régénération", False, "both orders: regeneration step"),
    ("splash", "Splash", "Splash", False, "both orders: target identification"),
    ("sprint", "Sprint", "Sprint", True, "assault: step 4"),
    ("vulnerability", "Vulnerability", "Vulnérabilité", False, "both orders: damage calculation"),
    ("backlash", "Backlash", "Retour de flammes", False, "summoning: step 6"),
    ("counter_order", "Counter-order", "Contre-ordre", False, "summoning: step 7"),
    ("lucidity", "Lucidity", "Lucidité", False, "summoning: step 1"),
    ("blackmail", "Blackmail", "Chantage", True, "phase 2: available cards"),
    ("immolation", "Immolation", "Immolation", True, "summoning: step 5"),
    ("reinforcement", "Reinforcement", "Renfort", True, "assault: step 11"),
    ("enchain", "Enchain", "Enchaîner", True, "summoning: when played; assault: step 8"),
    ("cursed", "Cursed", "Maudit", False, "both orders: return to hand"),
)

REGISTRY: MappingProxyType[str, Ability] = MappingProxyType(
    {
        code: Ability(code, 1 << i, en, fr, creature_only, acts_at)
        for i, (code, en, fr, creature_only, acts_at) in enumerate(_SPECS)
    }
)

AURA_PREFIX = "aura:"


def bit(code: str) -> int:
    return REGISTRY[code].bit


def codes_of(mask: int) -> list[str]:
    """The codes set in ``mask``, in registry order."""
    return [a.code for a in REGISTRY.values() if mask & a.bit]


def parse_abilities(codes: Iterable[str], card_name: str = "") -> tuple[int, int]:
    """``(ability_mask, aura_mask)`` of a card's ability codes; ``aura:CODE`` goes to the aura mask.

    Unknown codes raise :class:`InputError` naming the card and the code.
    """
    mask = 0
    aura = 0
    where = f" on card {card_name!r}" if card_name else ""
    for raw in codes:
        code = raw.strip()
        target_is_aura = code.startswith(AURA_PREFIX)
        if target_is_aura:
            code = code[len(AURA_PREFIX) :]
        ability = REGISTRY.get(code)
        if ability is None:
            close = difflib.get_close_matches(code, list(REGISTRY), n=3, cutoff=0.6)
            if close:
                hint = "; did you mean " + ", ".join(repr(c) for c in close) + "?"
            else:
                hint = f" (known codes: {', '.join(sorted(REGISTRY))})"
            raise InputError(f"unknown ability code {raw.strip()!r}{where}{hint}")
        if target_is_aura:
            if ability.code == "symbiote":
                # Symbiote is a way for the card itself to enter play: nothing an Aura can grant.
                raise InputError(f"'symbiote' cannot be paired with an Aura{where}")
            aura |= ability.bit
        else:
            mask |= ability.bit
    return mask, aura


# ---- handlers -------------------------------------------------------------------------------

Handler = Callable[..., Any]
_HANDLERS: dict[tuple[str, str], Handler] = {}


def handler(hook: str, code: str) -> Callable[[Handler], Handler]:
    """Register ``fn`` as what ability ``code`` does at ``hook`` (one of the activation steps)."""
    if code not in REGISTRY:
        raise KeyError(code)

    def register(fn: Handler) -> Handler:
        key = (hook, code)
        if key in _HANDLERS:
            raise KeyError(f"two handlers for {key}")
        _HANDLERS[key] = fn
        return fn

    return register


def hook_table(hook: str, order: tuple[str, ...]) -> tuple[tuple[int, Handler], ...]:
    """``(bit, handler)`` pairs of ``hook`` in ``order`` (the order the rulebook resolves them)."""
    return tuple((REGISTRY[code].bit, _HANDLERS[(hook, code)]) for code in order)


def registered_hooks(code: str) -> list[str]:
    """Hooks where ``code`` has a handler (used to prove every ability is implemented)."""
    return sorted(hook for hook, c in _HANDLERS if c == code)


# ---- bits, for ``mask & BIT`` tests in the hot path ----------------------------------------

AERIAL = bit("aerial")
SHARPENING = bit("sharpening")
AQUATIC = bit("aquatic")
BERSERK = bit("berserk")
CATALYST = bit("catalyst")
DEFENDER = bit("defender")
VANISH = bit("vanish")
INDESTRUCTIBLE = bit("indestructible")
INSTINCT = bit("instinct")
MERCENARY = bit("mercenary")
SYMBIOTE = bit("symbiote")
PERFORATION = bit("perforation")
PRICE_OF_BLOOD = bit("price_of_blood")
PROTECTION = bit("protection")
RAGE = bit("rage")
REGENERATION = bit("regeneration")
SPLASH = bit("splash")
SPRINT = bit("sprint")
VULNERABILITY = bit("vulnerability")
BACKLASH = bit("backlash")
COUNTER_ORDER = bit("counter_order")
LUCIDITY = bit("lucidity")
BLACKMAIL = bit("blackmail")
IMMOLATION = bit("immolation")
REINFORCEMENT = bit("reinforcement")
ENCHAIN = bit("enchain")
CURSED = bit("cursed")
