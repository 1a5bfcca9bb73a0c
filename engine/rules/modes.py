"""Game modes as data: how the lines face each other, who sits where, who wins.

The rulebook's modes differ in the table, not in the activation orders: a Duel is two Kingdoms
facing each other on two lines; Free-For-All and Team Play are four Kingdoms around four lines,
each Kingdom sharing its upper line with one neighbour and its lower line with the other; Solo and
Co-op seat the rulebook's automaton instead of a hand player. A :class:`Mode` records exactly
those differences, so the rules read them from ``setup.mode`` / ``setup.topology`` instead of
assuming two players (``new_game`` refuses the modes whose own rules are not written yet).
Free-For-All and Team Play are played by the very same rules code as the Duel: rulings P1-P12 of
docs/rulings.md say how each rule reads around four lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from engine.rules.errors import NotSupported
from engine.rules.events import LINE_NAMES, PLAYER_NAMES

# Controller kinds of a seat: who plays the Kingdom, hence which variant of an ability's handler
# applies to its cards (engine.rules.abilities.registry).
HAND: Final = 0  # a player with a hand and a Stronghold in it (a person or a computer agent)
AUTOMATON: Final = (
    1  # the Solo/Co-op AI: a deck pile, a discard pile, the Stronghold under the pile
)
CONTROLLERS: Final = ("hand", "automaton")

# Win rules (rule game-end and the multiplayer modes).
# The enemies of the seat whose Stronghold fell win, whatever destroyed it (Duel, Solo).
OTHER_TEAMS: Final = "other_teams"
# The team of the player controlling the card that destroyed the Fort wins (4 players).
SOURCE_TEAM: Final = "source_team"
WIN_RULES: Final = (OTHER_TEAMS, SOURCE_TEAM)

# The end of a game the rulebook does not end (docs/rulings.md, A1: the rules allow an endless
# game): one still running after this many turns is a draw. No rulebook text, so no rule of its
# own: it cites the rule it completes. Every mode has the same limit; it is a field of the mode
# so that everything that plays a game to its end reads it from there (engine.rules.game).
TURN_LIMIT: Final = 200
TURN_LIMIT_RULE: Final = "game-end"
TURN_LIMIT_RULING: Final = "A1"


@dataclass(frozen=True, slots=True)
class Topology:
    """How the lines of the players face each other."""

    players: int
    lanes: int
    # facing[p][lane] = (opponent, opponent's lane): the other half of the same line.
    facing: tuple[tuple[tuple[int, int], ...], ...]
    # Splash's "neighbouring line" of each lane of a Kingdom.
    neighbour: tuple[int, ...]
    # Which lanes are the upper line (Aerial, activation order).
    upper: tuple[bool, ...]
    # line_number[player][lane]: the index of the line that lane is half of, in the order the
    # rulebook resolves simultaneous effects (upper lines first).
    line_number: tuple[tuple[int, ...], ...]

    def facing_player(self, player: int, lane: int) -> int:
        """The player whose half of the line faces ``player``'s ``lane`` (Mercenary, Enchain)."""
        return self.facing[player][lane][0]

    def lane_names(self, player: int) -> tuple[str, ...]:
        """What the readable forms (scenarios, replays) call ``player``'s lanes: ``top`` and
        ``bottom`` in a Duel, else the letter of the opponent across each line (scenario format,
        "Multiplayer")."""
        if self.players == 2:
            return LINE_NAMES
        return tuple(PLAYER_NAMES[opponent] for opponent, _ in self.facing[player])


DUEL: Final = Topology(
    players=2,
    lanes=2,
    facing=(((1, 0), (1, 1)), ((0, 0), (0, 1))),
    neighbour=(1, 0),
    upper=(True, False),
    line_number=((0, 1), (0, 1)),
)

# A shares its top line with B and its bottom line with D; C its top line with D and its bottom
# line with B (scenario format, "Multiplayer"): B's lanes face A then C, D's face C then A.
# Lines, upper first: A-B, C-D, then A-D, C-B.
FOUR_PLAYERS: Final = Topology(
    players=4,
    lanes=2,
    facing=(
        ((1, 0), (3, 1)),
        ((0, 0), (2, 1)),
        ((3, 0), (1, 1)),
        ((2, 0), (0, 1)),
    ),
    neighbour=(1, 0),
    upper=(True, False),
    line_number=((0, 2), (0, 3), (1, 3), (1, 2)),
)


@dataclass(frozen=True, slots=True)
class Seat:
    controller: int  # HAND or AUTOMATON
    team: int


@dataclass(frozen=True, slots=True)
class Mode:
    name: str
    topology: Topology
    seats: tuple[Seat, ...]
    # The Mana of the very first turn of the first, second... player in turn order; a player
    # past the end of the table gets the regular Phase 1 Mana from their first turn on.
    first_turn_mana: tuple[int, ...]
    win_rule: str
    # False: the mode is described here but its own rules are not written yet.
    playable: bool
    # A game still running after this many turns is a draw (TURN_LIMIT_RULE, ruling A1).
    turn_limit: int = TURN_LIMIT

    def controller(self, seat: int) -> int:
        return self.seats[seat].controller

    def teammates(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s team, itself included, in seat order."""
        team = self.seats[seat].team
        return tuple(s for s, other in enumerate(self.seats) if other.team == team)


DUEL_MODE: Final = Mode(
    name="duel",
    topology=DUEL,
    seats=(Seat(HAND, 0), Seat(HAND, 1)),
    first_turn_mana=(6,),
    win_rule=OTHER_TEAMS,
    playable=True,
)

# Solo: the player (seat 0, "A") against the rulebook's automaton (seat 1, "AI"). As in the Duel,
# only the first player has 6 Mana on their first turn: with Custom Play's "the AI plays first"
# the player is the second player and has their full Phase 1 Mana (docs/rulings.md, SO3). The
# automaton never reads the table (its Phase 1 is its own, rule solo-mana).
SOLO_MODE: Final = Mode(
    name="solo",
    topology=DUEL,
    seats=(Seat(HAND, 0), Seat(AUTOMATON, 1)),
    first_turn_mana=(6,),
    win_rule=OTHER_TEAMS,
    playable=True,
)

_FOUR_HANDS_MANA: Final = (6, 7, 8)

# Co-op: the players (seats A and C) against two automata (B and D) on the four lines of the
# 4-player table, so each player shares one line with each AI and none with their partner
# (docs/rulings.md, CO1). Turns alternate player, AI, player, AI (CO2); the Multiplayer
# chapter's first-turn Mana by position in the order of play, 6/7/8, of which the players read
# theirs: A, AI, B, AI gives A 6 and B (third) 8 (CO3); the Solo game end, played by teams (CO4).
COOP_MODE: Final = Mode(
    name="coop",
    topology=FOUR_PLAYERS,
    seats=(Seat(HAND, 0), Seat(AUTOMATON, 1), Seat(HAND, 0), Seat(AUTOMATON, 1)),
    first_turn_mana=_FOUR_HANDS_MANA,
    win_rule=OTHER_TEAMS,
    playable=True,
)

MODES: Final[MappingProxyType[str, Mode]] = MappingProxyType(
    {
        mode.name: mode
        for mode in (
            DUEL_MODE,
            SOLO_MODE,
            Mode(
                name="free_for_all",
                topology=FOUR_PLAYERS,
                seats=tuple(Seat(HAND, seat) for seat in range(4)),
                first_turn_mana=_FOUR_HANDS_MANA,
                win_rule=SOURCE_TEAM,
                playable=True,
            ),
            Mode(
                name="teams",
                topology=FOUR_PLAYERS,
                # Partners never share a line: A with C, B with D.
                seats=(Seat(HAND, 0), Seat(HAND, 1), Seat(HAND, 0), Seat(HAND, 1)),
                first_turn_mana=_FOUR_HANDS_MANA,
                win_rule=SOURCE_TEAM,
                playable=True,
            ),
            COOP_MODE,
        )
    }
)


def playable_mode(name: str) -> Mode:
    """The registered mode ``name`` if the engine plays it, else :class:`NotSupported`."""
    mode = MODES.get(name)
    if mode is None or not mode.playable:
        playable = ", ".join(repr(m.name) for m in MODES.values() if m.playable)
        raise NotSupported(f"mode {name!r} is not supported yet (only {playable})")
    return mode
