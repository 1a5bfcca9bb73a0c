"""Solo's difficulty levels in order (issue 28 item 7): at each level of the shipped table, the
agent a difficulty curve plays (the batch rule's default for this many games, lookahead) wins no
more often than at the level below on each preconstructed deck, within the 95% interval, and far
less at the last level than at the first.

Seeded (SEED, not the seed the defaults were chosen with: `manage.py difficulty_levels --choose
--seed 515`, docs/rulings.md); every level plays the same games, as a curve's levels do, so they
differ by the AI only. GAMES games per deck and level (2,400 lookahead games in all): measured
with the compiled engine, the whole pytest run of this file took 40.6 s of CPU (the test
database's set-up included), 52.6 to 86 s of wall clock on the 2-core machine shared with other
jobs (load 7-8).
"""

import itertools

import pytest

from engine.adapters.difficulty import difficulty_level_options, difficulty_levels
from engine.management.commands.difficulty_levels import deck_wins
from engine.rules.corpus import PRECONSTRUCTED
from engine.rules.play import wilson
from engine.services import agent_for

pytestmark = pytest.mark.django_db

SEED = 28
GAMES = 60


@pytest.mark.parametrize("deck", PRECONSTRUCTED)
def test_no_level_is_won_more_often_than_the_one_below(deck: int) -> None:
    agent = agent_for(GAMES, "solo")
    assert agent == "lookahead"
    levels = [row.level for row in difficulty_levels()]
    assert levels == list(range(1, 11))
    wins = [
        deck_wins(difficulty_level_options(level=level), deck, GAMES, SEED, agent)
        for level in levels
    ]
    for level, (below, won) in enumerate(itertools.pairwise(wins), 2):
        _low, high = wilson(below, GAMES)
        assert won / GAMES <= high, f"deck {deck}, level {level}: {wins}"
    assert wilson(wins[-1], GAMES)[1] < wilson(wins[0], GAMES)[0], f"deck {deck}: {wins}"
