"""The Champion cost model: a pure function over a table of ability costs.

The model is the one in `data/README.md` (inferred from the printed cards, not published):
a creature costs `(attack + hp) / 2 − 1 + Σ ability costs`, an Aura its ability's cost + 1.
The ability costs are the catalogue's admin-editable `Ability` rows; `selectors.ability_costs()`
turns them into the `AbilityCost` table this module prices from, so nothing here touches the
database and the designer, the API, the proposal generator and the data check share one formula.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.rules import AURA_PREFIX

ATTACK_MIN, ATTACK_MAX = 0, 9
HP_MIN, HP_MAX = 1, 9
MANA_MIN, MANA_MAX = 0, 20
MAX_ABILITIES = 5
AURA_SURCHARGE = Decimal(1)
# How far the chosen cost may stray from the suggestion before the designer warns.
WARNING_DISTANCE = 1


@dataclass(frozen=True)
class AbilityCost:
    """One row of the cost table, with its name in the active language for the breakdown."""

    code: str
    name: str
    creature_cost: Decimal
    can_be_aura: bool
    is_malus: bool


@dataclass(frozen=True)
class AbilityChoice:
    """A Champion's ability: `splash` is the ability itself, `aura:rage` an Aura granting Rage."""

    code: str
    aura: bool = False

    @classmethod
    def parse(cls, token: str) -> "AbilityChoice":
        token = token.strip().lower()
        if token.startswith(AURA_PREFIX):
            return cls(code=token[len(AURA_PREFIX) :].strip(), aura=True)
        return cls(code=token)

    @property
    def token(self) -> str:
        return f"{AURA_PREFIX}{self.code}" if self.aura else self.code


@dataclass(frozen=True)
class PriceLine:
    kind: str  # "body", "ability" or "aura"
    code: str
    label: str
    cost: Decimal

    @property
    def display(self) -> str:
        """`4/4 body: 3`, `Splash: +1`, `Defender: −1`: abilities signed, the body plain."""
        cost = format_cost(self.cost, signed=self.kind != "body")
        # French puts a space before the colon: the pattern is translated.
        return _("%(label)s: %(cost)s") % {"label": self.label, "cost": cost}


@dataclass(frozen=True)
class Price:
    exact: Decimal
    suggested_cost: int
    lines: tuple[PriceLine, ...]

    def distance(self, chosen_cost: int) -> int:
        return abs(chosen_cost - self.suggested_cost)

    def warning(self, chosen_cost: int | None) -> str | None:
        """A message when the chosen cost is more than one Mana away from the suggestion."""
        if chosen_cost is None or self.distance(chosen_cost) <= WARNING_DISTANCE:
            return None
        if chosen_cost > self.suggested_cost:
            return _(
                "A cost of %(chosen)s is %(distance)s more than the suggested %(suggested)s: "
                "this Champion is overpriced."
            ) % {
                "chosen": chosen_cost,
                "distance": self.distance(chosen_cost),
                "suggested": self.suggested_cost,
            }
        return _(
            "A cost of %(chosen)s is %(distance)s less than the suggested %(suggested)s: "
            "this Champion is underpriced."
        ) % {
            "chosen": chosen_cost,
            "distance": self.distance(chosen_cost),
            "suggested": self.suggested_cost,
        }


def format_cost(value: Decimal, *, signed: bool = False) -> str:
    """`3`, `2.5`, `+1`, `−0.5` (a real minus sign, as printed); `2,5` in French and Swedish."""
    text = number_format(Decimal(f"{abs(value).normalize():f}"))
    if value < 0:
        return f"−{text}"
    return f"+{text}" if signed else text


def round_cost(exact: Decimal) -> int:
    """Half up: most catalogue creatures whose model value ends in .5 print the higher cost."""
    return max(MANA_MIN, int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP)))


def parse_abilities(tokens: Iterable[str]) -> list[AbilityChoice]:
    return [AbilityChoice.parse(token) for token in tokens]


def validate_stats(*, attack: int, hp: int) -> None:
    if not ATTACK_MIN <= attack <= ATTACK_MAX:
        raise DomainError(
            "invalid_attack",
            _("Attack must be between %(low)s and %(high)s; %(value)s is not.")
            % {"low": ATTACK_MIN, "high": ATTACK_MAX, "value": attack},
            {"field": "attack", "value": attack},
        )
    if not HP_MIN <= hp <= HP_MAX:
        raise DomainError(
            "invalid_hp",
            _("HP must be between %(low)s and %(high)s; %(value)s is not.")
            % {"low": HP_MIN, "high": HP_MAX, "value": hp},
            {"field": "hp", "value": hp},
        )


def validate_mana(mana: int) -> None:
    if not MANA_MIN <= mana <= MANA_MAX:
        raise DomainError(
            "invalid_mana",
            _("The Mana cost must be between %(low)s and %(high)s; %(value)s is not.")
            % {"low": MANA_MIN, "high": MANA_MAX, "value": mana},
            {"field": "mana", "value": mana},
        )


def validate_abilities(choices: Sequence[AbilityChoice], costs: Mapping[str, AbilityCost]) -> None:
    """Refuse unknown abilities, duplicates, more than five, several Auras, impossible Auras."""
    for choice in choices:
        if choice.code not in costs:
            raise DomainError(
                "unknown_ability",
                _("Unknown ability %(ability)r.") % {"ability": choice.token},
                {"field": "abilities", "ability": choice.token},
            )
    if len(choices) > MAX_ABILITIES:
        raise DomainError(
            "too_many_abilities",
            _("A Champion has at most %(max)s special abilities; %(count)s were given.")
            % {"max": MAX_ABILITIES, "count": len(choices)},
            {"field": "abilities", "count": len(choices)},
        )
    seen: set[AbilityChoice] = set()
    for choice in choices:
        if choice in seen:
            raise DomainError(
                "duplicate_ability",
                _("%(ability)s is listed twice.") % {"ability": _label(choice, costs)},
                {"field": "abilities", "ability": choice.token},
            )
        seen.add(choice)
    auras = [choice for choice in choices if choice.aura]
    if len(auras) > 1:
        raise DomainError(
            "too_many_auras",
            _("A Champion can have only one Aura; %(auras)s were given.")
            % {"auras": ", ".join(_label(choice, costs) for choice in auras)},
            {"field": "abilities", "abilities": [choice.token for choice in auras]},
        )
    for choice in auras:
        if not costs[choice.code].can_be_aura:
            raise DomainError(
                "ability_cannot_be_aura",
                _("%(ability)s cannot be an Aura.") % {"ability": costs[choice.code].name},
                {"field": "abilities", "ability": choice.token},
            )


def _label(choice: AbilityChoice, costs: Mapping[str, AbilityCost]) -> str:
    name = costs[choice.code].name if choice.code in costs else choice.code
    return _("Aura: %(ability)s") % {"ability": name} if choice.aura else name


def price_champion(
    *,
    attack: int,
    hp: int,
    abilities: Sequence[AbilityChoice],
    costs: Mapping[str, AbilityCost],
) -> Price:
    """The suggested Mana cost and its breakdown; raises DomainError on an impossible Champion."""
    validate_stats(attack=attack, hp=hp)
    validate_abilities(abilities, costs)
    body = Decimal(attack + hp) / 2 - 1
    lines = [
        PriceLine(
            kind="body",
            code="body",
            label=_("%(attack)s/%(hp)s body") % {"attack": attack, "hp": hp},
            cost=body,
        )
    ]
    for choice in abilities:
        cost = costs[choice.code].creature_cost + (AURA_SURCHARGE if choice.aura else 0)
        lines.append(
            PriceLine(
                kind="aura" if choice.aura else "ability",
                code=choice.token,
                label=_label(choice, costs),
                cost=cost,
            )
        )
    exact = sum((line.cost for line in lines), Decimal(0))
    return Price(exact=exact, suggested_cost=round_cost(exact), lines=tuple(lines))
