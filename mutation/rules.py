"""The Mutation rules over plain values: what a creature currently is, what a mutation costs and
whether the rulebook allows it (rulebook "Mutation Format", `shared/seeds/001…` and `000…`).

A deck card has an attack box, an HP box, a mana box and its printed ability boxes, numbered from
1 in printed order like `cards.CardAbility.position`. A mutation
glues one element cut from a Laboratory card over one of them (an Aura over two ability boxes
or over another Aura). Nothing may be glued over an earlier mutation, so every box of a deck card
mutates at most once, and every element of a Laboratory card is cut out at most once.

Every refusal is a `DomainError` whose stable code names the broken rule.

Readings where the rulebook (EN 001 / FR 000) is silent, chosen to add no rule of our own:
- a value element goes on its own box (an attack value on the attack box, …);
- a plain special ability may cover an Aura box ("must cover an existing Special Ability");
- an Aura covers any two ability boxes not yet under a mutation, or one Aura box;
- the cover surcharge (Defender, Mercenary, Blackmail +1.5; Cursed, the English "Reanimation",
  +1) applies to each covered box carrying that ability, Aura or not;
- the values of an incantation in the Laboratory (mana, attack, abilities) can be cut out too.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.rules import AURA_PREFIX

MAX_VALUE = 9
CREATURE = "creature"
STAT_ELEMENTS = ("attack", "hp", "mana")


def is_aura(code: str) -> bool:
    return code.startswith(AURA_PREFIX)


def base_code(code: str) -> str:
    """The ability an ability box is about: `aura:rage` → `rage`."""
    return code.removeprefix(AURA_PREFIX)


def ability_element(position: int) -> str:
    return f"ability:{position}"


@dataclass(frozen=True)
class CardValues:
    """A card as printed."""

    name: str
    type: str
    mana: int
    attack: int
    hp: int | None
    abilities: tuple[str, ...] = ()  # ability codes in printed order, Auras as `aura:CODE`

    def elements(self) -> list[str]:
        """Everything that can be cut out of this card when it sits in a Laboratory."""
        stats = ["mana", "attack"] + (["hp"] if self.hp is not None else [])
        return stats + [ability_element(i) for i in range(1, len(self.abilities) + 1)]


@dataclass(frozen=True)
class AppliedMutation:
    """A mutation already glued on a deck card."""

    element: str  # "attack" | "hp" | "mana" | "ability"
    value: int | None = None  # the new stat value
    ability: str | None = None  # the glued ability code (`aura:CODE` for an Aura)
    covers: tuple[int, ...] = ()  # printed ability positions it covers


@dataclass(frozen=True)
class AbilityBox:
    position: int  # first printed position it covers (from 1)
    code: str
    mutated: bool


@dataclass(frozen=True)
class CardState:
    """A deck card now: printed values with its mutations glued on."""

    name: str
    type: str
    mana: int
    attack: int
    hp: int | None
    boxes: tuple[AbilityBox, ...]
    covered: frozenset[str]  # box keys already under a mutation: "attack", "ability:2", …

    @property
    def abilities(self) -> tuple[str, ...]:
        return tuple(box.code for box in self.boxes)


def card_state(printed: CardValues, mutations: Sequence[AppliedMutation]) -> CardState:
    values = {"mana": printed.mana, "attack": printed.attack}
    if printed.hp is not None:
        values["hp"] = printed.hp
    covered: set[str] = set()
    glued: dict[int, tuple[str, int]] = {}  # printed position → (glued code, first position)
    for mutation in mutations:
        if mutation.element in STAT_ELEMENTS:
            assert mutation.value is not None
            values[mutation.element] = mutation.value
            covered.add(mutation.element)
        else:
            assert mutation.ability is not None
            first = min(mutation.covers)
            for position in mutation.covers:
                glued[position] = (mutation.ability, first)
                covered.add(ability_element(position))
    boxes = []
    for position, code in enumerate(printed.abilities, start=1):
        if position not in glued:
            boxes.append(AbilityBox(position, code, mutated=False))
        elif glued[position][1] == position:
            boxes.append(AbilityBox(position, glued[position][0], mutated=True))
    return CardState(
        name=printed.name,
        type=printed.type,
        mana=values["mana"],
        attack=values["attack"],
        hp=values.get("hp"),
        boxes=tuple(boxes),
        covered=frozenset(covered),
    )


@dataclass(frozen=True)
class CostTable:
    """Mutation Points: the phase budget and the price of each element (editable data)."""

    budget: Decimal
    attack_point: Decimal
    hp_point: Decimal
    mana_point: Decimal
    aura_extra: Decimal
    ability: Mapping[str, Decimal]  # gaining ability CODE
    cover: Mapping[str, Decimal]  # surcharge for covering ability CODE (Aura or not)


@dataclass(frozen=True)
class MutationPlan:
    """An accepted mutation, ready to record."""

    element: str  # as cut from the Laboratory card: "attack", "hp", "mana" or "ability:N"
    kind: str  # "attack" | "hp" | "mana" | "ability"
    value_before: int | None
    value_after: int | None
    ability: str | None
    covers: tuple[int, ...]
    covered_abilities: tuple[str, ...]
    boxes: tuple[str, ...]  # the deck card's box keys it covers
    cost: Decimal


def format_points(value: Decimal) -> str:
    """Mutation Points as the page language writes them: 2.5, 2,5, 1."""
    return number_format(value, decimal_pos=0 if value == value.to_integral() else 1)


def _refuse(code: str, message: str, **details: object) -> DomainError:
    return DomainError(code, message, {"rule": code, **details})


def ability_label(names: Mapping[str, str], code: str) -> str:
    """An ability box named as every other page names it: "Rage", "Aura: Rage"."""
    if is_aura(code):
        return _("Aura: %(ability)s") % {"ability": names.get(base_code(code), base_code(code))}
    return names.get(code, code)


def element_label(source: CardValues, element: str, names: Mapping[str, str]) -> str:
    """An element of a Laboratory card as players say it: "attack value", "Aura: Rage"."""
    stats = {"attack": _("attack value"), "hp": _("HP value"), "mana": _("mana value")}
    if element in stats:
        return stats[element]
    position = _ability_position(element)
    if position is not None and 1 <= position <= len(source.abilities):
        return ability_label(names, source.abilities[position - 1])
    return element


def _ability_position(element: str) -> int | None:
    prefix, _sep, number = element.partition(":")
    if prefix != "ability" or not number.isdigit():
        return None
    return int(number)


def plan_mutation(
    *,
    target: CardValues,
    target_mutations: Sequence[AppliedMutation] = (),
    source: CardValues,
    element: str,
    covers: Sequence[int] = (),
    used_elements: Collection[str] = (),
    spent: Decimal = Decimal(0),
    table: CostTable,
    malus: Collection[str] = (),
    names: Mapping[str, str] | None = None,
) -> MutationPlan:
    """Check one mutation of `target` (with its earlier mutations) by an element of the Laboratory
    card `source`, given the points already `spent` in this Mutation Phase; return what it does
    and costs, or raise a `DomainError` naming the first rule it breaks."""
    names = names or {}
    if target.type != CREATURE:
        raise _refuse(
            "incantation_cannot_mutate",
            _("%(card)s is an incantation: only creatures can mutate.") % {"card": target.name},
            card=target.name,
        )
    if element not in source.elements():
        raise _refuse(
            "element_missing",
            _("%(source)s has no %(element)s to cut out.")
            % {"source": source.name, "element": element_label(source, element, names)},
            source=source.name,
            element=element,
        )
    if element in used_elements:
        raise _refuse(
            "element_used",
            _(
                "The %(element)s of %(source)s has already been cut out: each element of a "
                "Laboratory card can be used once."
            )
            % {"element": element_label(source, element, names), "source": source.name},
            source=source.name,
            element=element,
        )
    state = card_state(target, target_mutations)
    if element in STAT_ELEMENTS:
        if covers:
            raise _refuse(
                "covers_only_abilities",
                _("Only a special ability covers ability boxes; a value goes on its own box."),
                element=element,
            )
        plan = _plan_stat(state, source, element, table)
    else:
        plan = _plan_ability(state, target, source, element, covers, table, malus, names)
    if spent + plan.cost > table.budget:
        raise _refuse(
            "over_budget",
            _(
                "This mutation costs %(cost)s Mutation Points but only %(left)s of the "
                "%(budget)s of this Mutation Phase are left."
            )
            % {
                "cost": format_points(plan.cost),
                "left": format_points(table.budget - spent),
                "budget": format_points(table.budget),
            },
            cost=str(plan.cost),
            remaining=str(table.budget - spent),
        )
    return plan


def _plan_stat(
    state: CardState, source: CardValues, element: str, table: CostTable
) -> MutationPlan:
    before = getattr(state, element)
    after = getattr(source, element)
    if element in state.covered:
        raise _refuse(
            "covers_mutation",
            _(
                "The %(box)s of %(card)s is already a mutation: a new mutation cannot cover a "
                "previous one."
            )
            % {"box": element_label(source, element, {}), "card": state.name},
            card=state.name,
            box=element,
        )
    if element == "mana":
        if after >= before:
            raise _refuse(
                "mana_not_lower",
                _(
                    "A mana value can only be lowered: %(card)s costs %(before)s, %(source)s "
                    "offers %(after)s."
                )
                % {"card": state.name, "before": before, "source": source.name, "after": after},
                card=state.name,
                before=before,
                after=after,
            )
        cost = (before - after) * table.mana_point
    else:
        if after <= before:
            raise _refuse(
                "value_not_higher",
                _(
                    "The %(box)s of %(card)s can only rise: it is %(before)s, %(source)s offers "
                    "%(after)s."
                )
                % {
                    "box": element_label(source, element, {}),
                    "card": state.name,
                    "before": before,
                    "source": source.name,
                    "after": after,
                },
                card=state.name,
                before=before,
                after=after,
            )
        if after > MAX_VALUE:
            raise _refuse(
                "value_above_max",
                _("A creature cannot exceed %(max)s: %(source)s offers %(after)s.")
                % {"max": MAX_VALUE, "source": source.name, "after": after},
                card=state.name,
                after=after,
            )
        cost = (after - before) * (table.attack_point if element == "attack" else table.hp_point)
    return MutationPlan(
        element=element,
        kind=element,
        value_before=before,
        value_after=after,
        ability=None,
        covers=(),
        covered_abilities=(),
        boxes=(element,),
        cost=cost,
    )


def _plan_ability(
    state: CardState,
    target: CardValues,
    source: CardValues,
    element: str,
    covers: Sequence[int],
    table: CostTable,
    malus: Collection[str],
    names: Mapping[str, str],
) -> MutationPlan:
    position = _ability_position(element)
    assert position is not None  # `element` is one of source.elements()
    code = source.abilities[position - 1]
    if base_code(code) in malus:
        raise _refuse(
            "malus_not_gainable",
            _("%(ability)s is a malus: a creature never gains a malus by mutation.")
            % {"ability": ability_label(names, code)},
            ability=code,
        )
    positions = tuple(sorted(set(covers)))
    if not positions or len(positions) != len(covers):
        raise _refuse(
            "ability_must_cover",
            _("A special ability mutation must cover an existing special ability of %(card)s.")
            % {"card": state.name},
            card=state.name,
        )
    for position in positions:
        if not 1 <= position <= len(target.abilities):
            raise _refuse(
                "ability_must_cover",
                _("%(card)s has no special ability box number %(position)s to cover.")
                % {"card": state.name, "position": position},
                card=state.name,
                position=position,
            )
        if ability_element(position) in state.covered:
            raise _refuse(
                "covers_mutation",
                _(
                    "Special ability box %(position)s of %(card)s is already a mutation: a new "
                    "mutation cannot cover a previous one."
                )
                % {"position": position, "card": state.name},
                card=state.name,
                box=ability_element(position),
            )
    covered_codes = tuple(target.abilities[position - 1] for position in positions)
    if is_aura(code):
        if not (len(positions) == 2 or (len(positions) == 1 and is_aura(covered_codes[0]))):
            raise _refuse(
                "aura_must_cover_two",
                _("An Aura must cover two special ability boxes or another Aura."),
                card=state.name,
            )
    elif len(positions) != 1:
        raise _refuse(
            "ability_covers_one",
            _("A special ability covers exactly one special ability box."),
            card=state.name,
        )
    after = [box.code for box in state.boxes if box.position not in positions]
    if code in after:
        raise _refuse(
            "duplicate_ability",
            _(
                "%(card)s already has %(ability)s: a creature can only have one instance of a "
                "given special ability."
            )
            % {"card": state.name, "ability": ability_label(names, code)},
            card=state.name,
            ability=code,
        )
    if is_aura(code) and any(is_aura(other) for other in after):
        raise _refuse(
            "second_aura",
            _("%(card)s already has an Aura: a creature cannot have more than one Aura.")
            % {"card": state.name},
            card=state.name,
            ability=code,
        )
    price = table.ability.get(base_code(code))
    if price is None:
        raise _refuse(
            "ability_without_cost",
            _("The cost table has no price for %(ability)s.")
            % {"ability": ability_label(names, code)},
            ability=code,
        )
    cost = price + (table.aura_extra if is_aura(code) else Decimal(0))
    cost += sum(
        (table.cover.get(base_code(covered), Decimal(0)) for covered in covered_codes), Decimal(0)
    )
    return MutationPlan(
        element=element,
        kind="ability",
        value_before=None,
        value_after=None,
        ability=code,
        covers=positions,
        covered_abilities=covered_codes,
        boxes=tuple(ability_element(position) for position in positions),
        cost=cost,
    )
