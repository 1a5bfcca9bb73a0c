""" "Propose a Champion": fairly priced, seeded and reproducible, honouring required abilities."""

import subprocess
import sys
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from champions.pricing import AbilityChoice, parse_abilities
from champions.proposals import propose_champion
from cod_site.errors import DomainError
from tests.champions.test_pricing import COSTS

AURA_ABLE = sorted(code for code, row in COSTS.items() if row.can_be_aura)


@settings(max_examples=300, deadline=None)
@given(
    mana=st.integers(min_value=0, max_value=12),
    seed=st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=12),
)
def test_every_proposal_is_priced_exactly_at_the_chosen_cost(mana: int, seed: str) -> None:
    proposal = propose_champion(mana=mana, required=[], seed=seed, costs=COSTS)
    assert proposal.price.exact == Decimal(mana)
    assert proposal.price.suggested_cost == mana
    assert 1 <= proposal.attack <= 9 and 1 <= proposal.hp <= 9  # a proposal always hits
    assert len(proposal.abilities) <= 5
    assert sum(choice.aura for choice in proposal.abilities) <= 1
    assert len(set(proposal.abilities)) == len(proposal.abilities)
    assert proposal.name and proposal.seed == seed


@settings(max_examples=200, deadline=None)
@given(
    mana=st.integers(min_value=3, max_value=12),
    required=st.lists(st.sampled_from(sorted(COSTS)), min_size=1, max_size=2, unique=True),
    aura=st.sampled_from(AURA_ABLE),
    seed=st.text(alphabet="xyz019", min_size=1, max_size=6),
)
def test_required_abilities_are_kept_first(
    mana: int, required: list[str], aura: str, seed: str
) -> None:
    wanted = [AbilityChoice(code) for code in required if code != aura] + [
        AbilityChoice(aura, aura=True)
    ]
    try:
        proposal = propose_champion(mana=mana, required=wanted, seed=seed, costs=COSTS)
    except DomainError as error:
        # Only when no body (attack 1-9 + HP 1-9) makes the required abilities cost `mana`.
        assert error.code == "no_fair_champion"
        abilities = sum(COSTS[c.code].creature_cost + c.aura for c in wanted)
        assert not 2 <= 2 * (mana + 1 - abilities) <= 18
        return
    assert list(proposal.abilities[: len(wanted)]) == wanted
    assert proposal.price.exact == Decimal(mana)
    assert proposal.attack >= 1


def test_the_same_seed_gives_the_same_proposal_and_another_seed_another() -> None:
    first = propose_champion(mana=5, required=parse_abilities(["splash"]), seed="abc", costs=COSTS)
    again = propose_champion(mana=5, required=parse_abilities(["splash"]), seed="abc", costs=COSTS)
    assert first == again
    others = {
        propose_champion(mana=5, required=[], seed=f"s{index}", costs=COSTS) for index in range(20)
    }
    assert len(others) > 10


def test_a_proposal_is_reproduced_by_a_fresh_interpreter() -> None:
    """A shared link must give the same Champion on another machine: no hash randomisation."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='cod_site.settings'; "
        "django.setup(); "
        "from tests.champions.test_pricing import COSTS; "
        "from champions.proposals import propose_champion; "
        "p = propose_champion(mana=6, required=[], seed='shared', costs=COSTS); "
        "print(p.name, p.attack, p.hp, [c.token for c in p.abilities])"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(hash_seed), "PATH": "/usr/bin:/bin"},
        ).stdout
        for hash_seed in (1, 2)
    }
    local = propose_champion(mana=6, required=[], seed="shared", costs=COSTS)
    assert outputs == {
        f"{local.name} {local.attack} {local.hp} {[c.token for c in local.abilities]}\n"
    }


@pytest.mark.parametrize(
    ("mana", "tokens", "code"),
    [
        (13, [], "invalid_mana"),
        (-1, [], "invalid_mana"),
        (0, ["symbiote", "price_of_blood", "protection"], "no_fair_champion"),
        (4, ["fireball"], "unknown_ability"),
        (4, ["aura:rage", "aura:splash"], "too_many_auras"),
    ],
)
def test_impossible_requests_are_refused(mana: int, tokens: list[str], code: str) -> None:
    with pytest.raises(DomainError) as caught:
        propose_champion(mana=mana, required=parse_abilities(tokens), seed="x", costs=COSTS)
    assert caught.value.code == code


def test_no_fair_champion_message_names_the_cost() -> None:
    with pytest.raises(DomainError) as caught:
        propose_champion(
            mana=0, required=parse_abilities(["symbiote", "reinforcement"]), seed="x", costs=COSTS
        )
    assert caught.value.message.startswith("No Champion costing 0 can carry these abilities")
    assert caught.value.details == {
        "field": "abilities",
        "abilities": ["symbiote", "reinforcement"],
    }
