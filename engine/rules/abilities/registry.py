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
from typing import Any, Final

from engine.rules.errors import InputError
from engine.rules.modes import CONTROLLERS, HAND


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


_SPECS: Final[tuple[tuple[str, str, str, bool, str], ...]] = (
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

REGISTRY: Final[MappingProxyType[str, Ability]] = MappingProxyType(
    {
        code: Ability(code, 1 << i, en, fr, creature_only, acts_at)
        for i, (code, en, fr, creature_only, acts_at) in enumerate(_SPECS)
    }
)

AURA_PREFIX: Final = "aura:"


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


# ---- handlers ------------------------------------------------------------------------------

Handler = Callable[..., Any]
# (hook, code, controller kind): the handler. The hand player's is the ability as printed; a
# controller kind (engine.rules.modes) registers a variant only where the rulebook gives it an
# exception (Solo's "AI exceptions").
_HANDLERS: Final[dict[tuple[str, str, int], Handler]] = {}


class HookTable:
    """The handlers of one hook, in the rulebook's order, for each controller kind:
    ``by_controller[kind]`` is a tuple of ``(bit, handler)`` pairs. The activation orders call
    the handlers of the seat whose card acts (``setup.controllers[seat]``), so a variant is a
    registration, never a branch in the rules."""

    __slots__ = ("by_controller", "hook", "order")

    def __init__(self, hook: str, order: tuple[str, ...]) -> None:
        self.hook = hook
        self.order = order
        self.by_controller: tuple[tuple[tuple[int, Handler], ...], ...] = ()
        self.build()

    def build(self) -> None:
        self.by_controller = tuple(
            tuple((REGISTRY[code].bit, _handler_of(self.hook, code, kind)) for code in self.order)
            for kind in range(len(CONTROLLERS))
        )

    def of(self, controller: int, position: int = 0) -> Handler:
        """The handler of the ``position``-th ability of the hook for ``controller``."""
        return self.by_controller[controller][position][1]


_TABLES: Final[list[HookTable]] = []


def _handler_of(hook: str, code: str, controller: int) -> Handler:
    variant = _HANDLERS.get((hook, code, controller))
    return variant if variant is not None else _HANDLERS[(hook, code, HAND)]


def handler(hook: str, code: str, controller: int = HAND) -> Callable[[Handler], Handler]:
    """Register ``fn`` as what ability ``code`` does at ``hook`` (one of the activation steps)
    for the seats of ``controller`` kind."""
    if code not in REGISTRY:
        raise KeyError(code)

    def register(fn: Handler) -> Handler:
        key = (hook, code, controller)
        if key in _HANDLERS:
            raise KeyError(f"two handlers for {key}")
        _HANDLERS[key] = fn
        _rebuild(hook)
        return fn

    return register


def unregister(hook: str, code: str, controller: int) -> None:
    """Drop a controller's variant (the hand player's handlers stay for good)."""
    if controller == HAND:
        raise KeyError("the hand player's handlers cannot be removed")
    del _HANDLERS[(hook, code, controller)]
    _rebuild(hook)


def _rebuild(hook: str) -> None:
    for table in _TABLES:
        if table.hook == hook:
            table.build()


def hook_table(hook: str, order: tuple[str, ...]) -> HookTable:
    """The :class:`HookTable` of ``hook``, its abilities in ``order`` (the rulebook's)."""
    table = HookTable(hook, order)
    _TABLES.append(table)
    return table


def registered_hooks(code: str) -> list[str]:
    """Hooks where ``code`` has a handler (used to prove every ability is implemented)."""
    return sorted({hook for hook, c, _ in _HANDLERS if c == code})


def dispatched_hooks() -> set[tuple[str, str]]:
    """The (hook, code) pairs some activation order dispatches through a table."""
    return {(table.hook, code) for table in _TABLES for code in table.order}


# ---- bits, for ``mask & BIT`` tests in the hot path ----------------------------------------

AERIAL: Final = bit("aerial")
SHARPENING: Final = bit("sharpening")
AQUATIC: Final = bit("aquatic")
BERSERK: Final = bit("berserk")
CATALYST: Final = bit("catalyst")
DEFENDER: Final = bit("defender")
VANISH: Final = bit("vanish")
INDESTRUCTIBLE: Final = bit("indestructible")
INSTINCT: Final = bit("instinct")
MERCENARY: Final = bit("mercenary")
SYMBIOTE: Final = bit("symbiote")
PERFORATION: Final = bit("perforation")
PRICE_OF_BLOOD: Final = bit("price_of_blood")
PROTECTION: Final = bit("protection")
RAGE: Final = bit("rage")
REGENERATION: Final = bit("regeneration")
SPLASH: Final = bit("splash")
SPRINT: Final = bit("sprint")
VULNERABILITY: Final = bit("vulnerability")
BACKLASH: Final = bit("backlash")
COUNTER_ORDER: Final = bit("counter_order")
LUCIDITY: Final = bit("lucidity")
BLACKMAIL: Final = bit("blackmail")
IMMOLATION: Final = bit("immolation")
REINFORCEMENT: Final = bit("reinforcement")
ENCHAIN: Final = bit("enchain")
CURSED: Final = bit("cursed")
