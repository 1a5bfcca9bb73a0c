"""The engine's one typed observation of a position (engine.rules.observe): each creature's
values as they stand and where a change comes from, hands as the observer may see them."""

from pathlib import Path

import yaml

from engine.rules import ASSAULT_ACTION, SPECTATOR, CreatureSeen, Observation, apply, observe
from engine.rules.scenario import build_state, parse

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _assaulted(name: str, seat: int = SPECTATOR) -> Observation:
    state = build_state(parse(yaml.safe_load((SCENARIOS / name).read_text())))
    apply(state, ASSAULT_ACTION)
    return observe(state, seat)


def _changes(creature: CreatureSeen) -> tuple[str, int, bool, tuple[str, ...], tuple[str, ...]]:
    return (
        creature.card.name,
        creature.damage,
        creature.protection_used,
        creature.aura_abilities,
        creature.given_abilities,
    )


def test_an_aura_s_ability_and_the_protection_it_used_show_on_the_neighbour() -> None:
    observation = _assaulted("abilities/aura-protection-neighbour-protected.yaml")
    totem, grunt = observation.seats[1].lines[0]
    assert _changes(totem) == ("Totem", 1, False, (), ())
    assert _changes(grunt) == ("Grunt", 0, True, ("protection",), ())
    assert totem.card.abilities == ("aura:protection",)
    # The spectator sees no hand, only how many cards each holds and where the Stronghold is.
    assert [(seat.hand, seat.hand_count, seat.stronghold_at) for seat in observation.seats] == [
        (None, 1, 0),
        (None, 1, 0),
    ]


def test_custom_play_s_given_abilities_and_the_ai_s_piles() -> None:
    observation = _assaulted("solo/given-ability-protection.yaml", seat=0)
    me, ai = observation.seats
    (wisp,) = ai.lines[0]
    assert _changes(wisp) == ("Wisp", 3, True, (), ("protection",))
    assert (wisp.attack, wisp.hp, wisp.new, wisp.sprint_bonus) == (1, 4, False, 0)
    assert [card.name for card in me.hand or ()] == ["Pawn"]
    assert (ai.automaton, ai.hand, ai.pile_count, ai.stronghold_at, ai.discard) == (
        True, (), 1, None, (),
    )  # fmt: skip
    assert (observation.phase, observation.active, me.available, ai.available) == (
        "assault_done", 0, 1, 0,
    )  # fmt: skip
