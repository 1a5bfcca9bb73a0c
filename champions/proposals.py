""" "Propose a Champion": a random Champion whose model price is exactly the chosen Mana cost.

Everything random comes from one `random.Random` seeded with the request (cost, required
abilities, seed), so a proposal is reproduced from its link on any machine and Python version
(string seeds are hashed with SHA-512 by `random`, independent of PYTHONHASHSEED).
"""

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from champions.pricing import (
    ATTACK_MAX,
    ATTACK_MIN,
    HP_MAX,
    HP_MIN,
    MAX_ABILITIES,
    AbilityChoice,
    AbilityCost,
    Price,
    price_champion,
    validate_abilities,
)
from cod_site.errors import DomainError

PROPOSAL_MANA_MIN, PROPOSAL_MANA_MAX = 0, 12
ATTEMPTS = 400
# How many abilities a proposal gets on top of the required ones, weighted like the catalogue
# (most creatures carry one or two).
EXTRA_ABILITY_WEIGHTS = {0: 2, 1: 5, 2: 4, 3: 1}
AURA_CHANCE = 0.15
MALUS_CHANCE = 0.1
SEED_MAX_LENGTH = 32
# A proposed Champion hits: with 0 attack, Splash, Perforation or Rage would do nothing (the
# designer still lets a player build a 0-attack wall on purpose).
PROPOSAL_ATTACK_MIN = max(1, ATTACK_MIN)

NAME_STARTS = (
    "Ar", "Bel", "Cor", "Dra", "El", "Fen", "Gor", "Hal", "Ith", "Kar", "Lum", "Mor", "Nyx",
    "Or", "Py", "Quel", "Rha", "Syl", "Tor", "Ul", "Vor", "Wyn", "Xa", "Yr", "Zel",
)  # fmt: skip
NAME_MIDDLES = ("a", "e", "i", "o", "u", "ae", "ia", "or", "", "")
NAME_ENDS = (
    "dor", "wyn", "rak", "mir", "thas", "gorn", "lith", "vald", "rien", "mos", "zar", "nox",
    "grim", "bane", "ryn", "drake",
)  # fmt: skip


@dataclass(frozen=True)
class Proposal:
    seed: str
    mana: int
    name: str
    attack: int
    hp: int
    abilities: tuple[AbilityChoice, ...]
    price: Price


def new_seed() -> str:
    return secrets.token_urlsafe(6)


def propose_champion(
    *,
    mana: int,
    required: Sequence[AbilityChoice],
    seed: str,
    costs: Mapping[str, AbilityCost],
) -> Proposal:
    """A Champion priced exactly `mana` by the model, carrying every required ability."""
    if not PROPOSAL_MANA_MIN <= mana <= PROPOSAL_MANA_MAX:
        raise DomainError(
            "invalid_mana",
            _("Proposals are made for a Mana cost between %(low)s and %(high)s.")
            % {"low": PROPOSAL_MANA_MIN, "high": PROPOSAL_MANA_MAX},
            {"field": "mana", "value": mana},
        )
    if not seed or len(seed) > SEED_MAX_LENGTH:
        raise DomainError(
            "invalid_seed",
            _("A seed is 1 to %(max)s characters long.") % {"max": SEED_MAX_LENGTH},
            {"field": "seed"},
        )
    validate_abilities(required, costs)
    tokens = ",".join(choice.token for choice in required)
    rng = random.Random(f"{mana}|{tokens}|{seed}")
    for attempt in range(ATTEMPTS):
        # The last attempt adds nothing, so any feasible request finds its answer.
        extras = [] if attempt == ATTEMPTS - 1 else _extra_abilities(rng, required, costs)
        abilities = tuple(required) + tuple(extras)
        stats = _body_for(rng, mana, abilities, costs)
        if stats is not None:
            attack, hp = stats
            price = price_champion(attack=attack, hp=hp, abilities=abilities, costs=costs)
            return Proposal(
                seed=seed,
                mana=mana,
                name=_name(rng),
                attack=attack,
                hp=hp,
                abilities=abilities,
                price=price,
            )
    raise DomainError(
        "no_fair_champion",
        _(
            "No Champion costing %(mana)s can carry these abilities: they alone are worth more "
            "(or less) than any body allows."
        )
        % {"mana": mana},
        {"field": "abilities", "abilities": [choice.token for choice in required]},
    )


def _extra_abilities(
    rng: random.Random, required: Sequence[AbilityChoice], costs: Mapping[str, AbilityCost]
) -> list[AbilityChoice]:
    room = MAX_ABILITIES - len(required)
    counts, weights = zip(*EXTRA_ABILITY_WEIGHTS.items(), strict=True)
    count = min(room, rng.choices(counts, weights)[0])
    taken = {choice.code for choice in required}
    has_aura = any(choice.aura for choice in required)
    extras: list[AbilityChoice] = []
    for code in rng.sample(sorted(costs), len(costs)):
        if len(extras) == count:
            break
        if code in taken:
            continue
        row = costs[code]
        if row.is_malus and rng.random() >= MALUS_CHANCE:
            continue
        aura = not has_aura and row.can_be_aura and rng.random() < AURA_CHANCE
        has_aura = has_aura or aura
        taken.add(code)
        extras.append(AbilityChoice(code=code, aura=aura))
    return extras


def _body_for(
    rng: random.Random,
    mana: int,
    abilities: Sequence[AbilityChoice],
    costs: Mapping[str, AbilityCost],
) -> tuple[int, int] | None:
    """Attack and HP that make the model price exactly `mana`, or None if no body fits."""
    ability_total = sum(
        (costs[c.code].creature_cost + (1 if c.aura else 0) for c in abilities), Decimal(0)
    )
    body_sum = 2 * (Decimal(mana) + 1 - ability_total)
    if body_sum != body_sum.to_integral_value():
        return None
    total = int(body_sum)
    low = max(PROPOSAL_ATTACK_MIN, total - HP_MAX)
    high = min(ATTACK_MAX, total - HP_MIN)
    if low > high:
        return None
    # A triangular pick favours balanced bodies over 0/9 extremes.
    attack = round(rng.triangular(low, high, total / 2))
    return attack, total - attack


def _name(rng: random.Random) -> str:
    return rng.choice(NAME_STARTS) + rng.choice(NAME_MIDDLES) + rng.choice(NAME_ENDS)
