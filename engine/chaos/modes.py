"""Ways to play, as data: the duel of the rulebook and the Prologue's solo objective.

A :class:`Mode` records what differs between them (seats, whether there is a Domain to recruit
from, the turn limit and what reaching it means); the rules read ``setup.mode`` instead of
assuming two players.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.chaos.errors import InputError

DOMAIN_SLOTS: Final = 5  # "Révélez les 5 premières cartes du Domaine"
HAND_SIZE: Final = 5  # "Chaque joueur pioche 5 cartes", and 5 again at each end of turn

# What reaching the turn limit means (rule site-turn-limit; docs/chaos/rulings.md C12).
DRAW: Final = "draw"  # nobody wins
LOSS: Final = "loss"  # the player did not reach the objective (Prologue)


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    seats: int
    # A Domain to recruit from (Recruitment, Interventions, Cover).
    domain: bool
    # The site's turn limit: turns begun by all players together; the game then ends.
    turn_limit: int
    at_limit: str


DUEL: Final = Mode(name="duel", seats=2, domain=True, turn_limit=60, at_limit=DRAW)
# The Prologue's objective, "vider votre pioche en un seul tour", as a solo introduction: alone
# with the Emissaries 1 and the Domain, within the site's turns (docs/chaos/rulings.md C13).
PROLOGUE: Final = Mode(name="prologue", seats=1, domain=True, turn_limit=10, at_limit=LOSS)

MODES: Final[MappingProxyType[str, Mode]] = MappingProxyType({m.name: m for m in (DUEL, PROLOGUE)})


def mode_named(name: str) -> Mode:
    mode = MODES.get(name)
    if mode is None:
        raise InputError(f"unknown mode {name!r} (known: {', '.join(MODES)})")
    return mode
