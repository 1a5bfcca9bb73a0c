"""The mutation rule checker over plain values: costs, the card's state, every refusal."""

from decimal import Decimal

import pytest
from django.utils import translation

from cod_site.errors import DomainError
from mutation.rules import (
    AppliedMutation,
    CardValues,
    CostTable,
    card_state,
    format_points,
    plan_mutation,
)

D = Decimal
TABLE = CostTable(
    budget=D("2.5"),
    attack_point=D("0.5"),
    hp_point=D("0.5"),
    mana_point=D("1"),
    aura_extra=D("0"),
    ability={"rage": D("1.5"), "sprint": D("0.5"), "splash": D("1"), "protection": D("2")},
    cover={"defender": D("1.5"), "mercenary": D("1.5"), "blackmail": D("1.5"), "cursed": D("1")},
)
MALUS = {"defender", "mercenary", "blackmail", "cursed"}

SCRIBE = CardValues("Scribe", "creature", 4, 3, 3, ("rage", "indestructible"))
GUARD = CardValues("Guard", "creature", 3, 2, 4, ("defender", "splash", "cursed"))
SHAMAN = CardValues("Shaman", "creature", 3, 2, 2, ("aura:rage",))
PLAIN = CardValues("Microctopus", "creature", 2, 5, 1, ())
BARON = CardValues("Baron", "creature", 3, 3, 5, ())
CHEAP = CardValues("Runt", "creature", 1, 1, 1, ("sprint", "splash", "aura:sprint"))
GIANT = CardValues("Giant", "creature", 9, 10, 9, ("protection",))
BOOM = CardValues("Boom!", "incantation", 1, 1, None, ("splash",))
HEXER = CardValues("Hexer", "creature", 2, 1, 1, ("cursed", "aura:blackmail"))


def plan(target: CardValues, source: CardValues, element: str, **kwargs: object):
    return plan_mutation(
        target=target, source=source, element=element, table=TABLE, malus=MALUS, **kwargs
    )


def refusal(target: CardValues, source: CardValues, element: str, **kwargs: object) -> DomainError:
    with pytest.raises(DomainError) as refused:
        plan(target, source, element, **kwargs)
    assert refused.value.details["rule"] == refused.value.code
    return refused.value


# --- costs -----------------------------------------------------------------------------------


def test_attack_and_hp_cost_half_a_point_per_point_gained() -> None:
    hp = plan(SCRIBE, BARON, "hp")
    assert (hp.kind, hp.value_before, hp.value_after, hp.cost, hp.boxes) == (
        "hp",
        3,
        5,
        D("1.0"),
        ("hp",),
    )
    attack = plan(SCRIBE, PLAIN, "attack")
    assert (attack.value_before, attack.value_after, attack.cost) == (3, 5, D("1.0"))


def test_mana_costs_one_point_per_point_lowered() -> None:
    mana = plan(SCRIBE, PLAIN, "mana")
    assert (mana.kind, mana.value_before, mana.value_after, mana.cost) == ("mana", 4, 2, D("2"))


def test_an_ability_costs_its_table_price_plus_covering_a_malus() -> None:
    splash = plan(SCRIBE, CHEAP, "ability:2", covers=[2])
    assert (splash.ability, splash.covers, splash.covered_abilities, splash.cost) == (
        "splash",
        (2,),
        ("indestructible",),
        D("1"),
    )
    assert splash.boxes == ("ability:2",)
    over_defender = plan(GUARD, CHEAP, "ability:1", covers=[1])
    assert (over_defender.covered_abilities, over_defender.cost) == (("defender",), D("2.0"))
    over_cursed = plan(GUARD, CHEAP, "ability:1", covers=[3])
    assert over_cursed.cost == D("1.5")


def test_an_aura_costs_the_same_as_the_ability_alone() -> None:
    aura = plan(SCRIBE, CHEAP, "ability:3", covers=[1, 2])
    assert (aura.ability, aura.covers, aura.covered_abilities, aura.cost) == (
        "aura:sprint",
        (1, 2),
        ("rage", "indestructible"),
        D("0.5"),
    )
    over_aura = plan(SHAMAN, CHEAP, "ability:3", covers=[1])
    assert (over_aura.covered_abilities, over_aura.cost) == (("aura:rage",), D("0.5"))


def test_covering_a_malus_aura_pays_the_malus_surcharge() -> None:
    result = plan(HEXER, CHEAP, "ability:3", covers=[2])
    assert (result.covered_abilities, result.cost) == (("aura:blackmail",), D("2.0"))


def test_the_edited_table_is_what_counts() -> None:
    table = CostTable(**{**TABLE.__dict__, "hp_point": D("1"), "aura_extra": D("1")})
    assert plan_mutation(target=SCRIBE, source=BARON, element="hp", table=table).cost == D(2)
    aura = plan_mutation(
        target=SCRIBE, source=CHEAP, element="ability:3", covers=[1, 2], table=table
    )
    assert aura.cost == D("1.5")


def test_points_already_spent_count_and_the_whole_budget_may_be_used() -> None:
    assert plan(SCRIBE, BARON, "hp", spent=D("1.5")).cost == D("1.0")


# --- the card's state ------------------------------------------------------------------------


def test_card_state_glues_mutations_over_printed_values() -> None:
    state = card_state(
        GUARD,
        [
            AppliedMutation("attack", value=5),
            AppliedMutation("ability", ability="aura:sprint", covers=(1, 2)),
        ],
    )
    assert (state.mana, state.attack, state.hp) == (3, 5, 4)
    assert state.abilities == ("aura:sprint", "cursed")
    assert [(b.position, b.mutated) for b in state.boxes] == [(1, True), (3, False)]
    assert state.covered == {"attack", "ability:1", "ability:2"}


def test_an_unmutated_card_is_its_printed_self() -> None:
    state = card_state(SCRIBE, [])
    assert (state.mana, state.attack, state.hp, state.abilities) == (4, 3, 3, SCRIBE.abilities)
    assert state.covered == frozenset()


# --- every refusal ---------------------------------------------------------------------------


def test_incantations_never_mutate() -> None:
    error = refusal(BOOM, BARON, "hp")
    assert error.code == "incantation_cannot_mutate"
    assert error.message == "Boom! is an incantation: only creatures can mutate."


@pytest.mark.parametrize(
    ("source", "element", "message"),
    [
        (BOOM, "hp", "Boom! has no HP value to cut out."),
        (PLAIN, "ability:1", "Microctopus has no ability:1 to cut out."),
        (SCRIBE, "toughness", "Scribe has no toughness to cut out."),
    ],
)
def test_a_missing_element_is_refused(source: CardValues, element: str, message: str) -> None:
    error = refusal(SCRIBE, source, element)
    assert (error.code, error.message) == ("element_missing", message)


def test_each_laboratory_element_is_used_once() -> None:
    error = refusal(SCRIBE, BARON, "hp", used_elements={"hp"})
    assert error.code == "element_used"
    assert error.message == (
        "The HP value of Baron has already been cut out: each element of a Laboratory card "
        "can be used once."
    )
    ability = refusal(SCRIBE, CHEAP, "ability:3", covers=[1, 2], used_elements={"ability:3"})
    assert ability.message.startswith("The Aura: sprint of Runt has already been cut out")


def test_names_are_shown_when_given() -> None:
    with pytest.raises(DomainError) as refused:
        plan_mutation(
            target=SCRIBE,
            source=CHEAP,
            element="ability:3",
            covers=[1, 2],
            used_elements={"ability:3"},
            table=TABLE,
            names={"sprint": "Sprint"},
        )
    assert refused.value.message.startswith("The Aura: Sprint of Runt")


def test_a_value_is_never_lowered() -> None:
    error = refusal(PLAIN, SCRIBE, "attack")
    assert error.code == "value_not_higher"
    assert error.message == (
        "The attack value of Microctopus can only rise: it is 5, Scribe offers 3."
    )
    equal = refusal(SCRIBE, BARON, "attack")
    assert (equal.code, equal.details["before"], equal.details["after"]) == (
        "value_not_higher",
        3,
        3,
    )


def test_a_value_never_goes_above_nine() -> None:
    error = refusal(SCRIBE, GIANT, "attack")
    assert error.code == "value_above_max"
    assert error.message == "A creature cannot exceed 9: Giant offers 10."


def test_nine_is_allowed() -> None:
    brute = CardValues("Brute", "creature", 5, 4, 7, ())
    result = plan(brute, GIANT, "hp")
    assert (result.value_before, result.value_after, result.cost) == (7, 9, D("1.0"))


def test_mana_only_goes_down() -> None:
    error = refusal(PLAIN, SCRIBE, "mana")
    assert error.code == "mana_not_lower"
    assert (
        error.message == "A mana value can only be lowered: Microctopus costs 2, Scribe offers 4."
    )


def test_a_mutation_never_covers_an_earlier_mutation() -> None:
    earlier = [AppliedMutation("hp", value=4)]
    error = refusal(SCRIBE, BARON, "hp", target_mutations=earlier)
    assert error.code == "covers_mutation"
    assert error.message == (
        "The HP value of Scribe is already a mutation: a new mutation cannot cover a previous one."
    )
    glued = [AppliedMutation("ability", ability="splash", covers=(2,))]
    box = refusal(SCRIBE, CHEAP, "ability:1", covers=[2], target_mutations=glued)
    assert box.code == "covers_mutation"
    assert box.message == (
        "Special ability box 2 of Scribe is already a mutation: a new mutation cannot cover a "
        "previous one."
    )


def test_an_ability_must_cover_an_existing_ability() -> None:
    error = refusal(PLAIN, CHEAP, "ability:1")
    assert error.code == "ability_must_cover"
    assert error.message == (
        "A special ability mutation must cover an existing special ability of Microctopus."
    )
    beyond = refusal(SCRIBE, CHEAP, "ability:1", covers=[3])
    assert beyond.code == "ability_must_cover"
    assert beyond.message == "Scribe has no special ability box number 3 to cover."
    twice = refusal(SCRIBE, CHEAP, "ability:3", covers=[1, 1])
    assert twice.code == "ability_must_cover"


def test_a_plain_ability_covers_one_box() -> None:
    error = refusal(SCRIBE, CHEAP, "ability:1", covers=[1, 2])
    assert error.code == "ability_covers_one"
    assert error.message == "A special ability covers exactly one special ability box."


def test_an_aura_covers_two_boxes_or_an_aura() -> None:
    error = refusal(SCRIBE, CHEAP, "ability:3", covers=[1])
    assert error.code == "aura_must_cover_two"
    assert error.message == "An Aura must cover two special ability boxes or another Aura."


def test_no_ability_twice() -> None:
    error = refusal(GUARD, CHEAP, "ability:2", covers=[1])
    assert error.code == "duplicate_ability"
    assert error.message == (
        "Guard already has splash: a creature can only have one instance of a given special "
        "ability."
    )


def test_covering_an_ability_with_itself_is_no_duplicate() -> None:
    assert plan(GUARD, CHEAP, "ability:2", covers=[2]).covered_abilities == ("splash",)


def test_at_most_one_aura() -> None:
    shaman_plus = CardValues("Shaman", "creature", 3, 2, 2, ("aura:rage", "rage", "splash"))
    error = refusal(shaman_plus, CHEAP, "ability:3", covers=[2, 3])
    assert error.code == "second_aura"
    assert error.message == "Shaman already has an Aura: a creature cannot have more than one Aura."


def test_a_malus_is_never_gained() -> None:
    error = refusal(SCRIBE, GUARD, "ability:1", covers=[1])
    assert error.code == "malus_not_gainable"
    assert error.message == "defender is a malus: a creature never gains a malus by mutation."
    aura = refusal(SCRIBE, HEXER, "ability:2", covers=[1, 2])
    assert aura.code == "malus_not_gainable"


def test_an_ability_the_table_does_not_price_is_refused() -> None:
    error = refusal(
        SCRIBE, CardValues("Odd", "creature", 1, 1, 1, ("lucidity",)), "ability:1", covers=[1]
    )
    assert error.code == "ability_without_cost"
    assert error.message == "The cost table has no price for lucidity."


def test_covers_are_for_abilities_only() -> None:
    error = refusal(SCRIBE, BARON, "hp", covers=[1])
    assert error.code == "covers_only_abilities"


def test_the_budget_is_two_and_a_half_points_per_phase() -> None:
    error = refusal(SCRIBE, CHEAP, "mana")
    assert error.code == "over_budget"
    assert error.message == (
        "This mutation costs 3 Mutation Points but only 2.5 of the 2.5 of this Mutation Phase "
        "are left."
    )
    assert error.details == {"rule": "over_budget", "cost": "3", "remaining": "2.5"}
    spent = refusal(SCRIBE, BARON, "hp", spent=D("2"))
    assert spent.message == (
        "This mutation costs 1 Mutation Points but only 0.5 of the 2.5 of this Mutation Phase "
        "are left."
    )


def test_points_are_written_the_page_language_way() -> None:
    with translation.override("fr"):
        assert format_points(D("2.5")) == "2,5"
        assert format_points(D("1.0")) == "1"
