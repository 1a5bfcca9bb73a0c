"""What one seat (or a spectator) sees of a position: the one typed observation every reader takes.

The Play table, the replay viewer, the Grimoire and the games API read a position only through
``observe``: the board of every page is drawn from an ``Observation`` (``engine.display``), and
the API's JSON is its serialisation (``engine.rules.view``). The frozen dataclasses hold plain
values (card ids, seat indices, ability codes), never engine objects, so a reader cannot reach
past what the seat may see.

Hidden information (the rulebook's): a seat sees its own hand in order with the Stronghold among
it; of the other hands only the backs (how many cards, where the Stronghold sits, which side is
up); of the Solo and Co-op AI's face-down deck pile only its count. Everything on the table is
public: the lines with each creature's values as they stand and where a change comes from, the
Symbiotes, the cards under a creature by Enchain (Enchain reveals them before it turns them face
down), the Champions, the Mana, the AI's face-up discard pile. Once the game is over every hand
shows; a replay or a puzzle, which shows every hand, asks for ``all_hands``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.rules.abilities.costs import WINDOW
from engine.rules.abilities.registry import codes_of
from engine.rules.actions import Action, legal_actions
from engine.rules.events import PLAYER_NAMES
from engine.rules.kingdom import AutomatonKingdom, HandKingdom, Kingdom
from engine.rules.state import ASSAULT_DONE, NO_CARD, OVER, Creature, GameState

# The seat of a spectator: no seat's, so no hand or card of a hand is its own.
SPECTATOR: Final = -1
PHASES: Final = {ASSAULT_DONE: "assault_done", OVER: "over"}


@dataclass(frozen=True)
class CardSeen:
    """A card face up: its id in the game, its engine name and its printed values."""

    id: int
    name: str
    cost: int
    attack: int
    hp: int  # 0 for an Incantation
    creature: bool
    abilities: tuple[str, ...]  # as printed ("aura:" codes for the abilities its Aura gives)


@dataclass(frozen=True)
class CreatureSeen:
    """A creature in play as it stands now, and where each change from its card comes from."""

    card: CardSeen
    attack: int  # printed, plus its Symbiote's (Sprint's bonus apart)
    hp: int  # its hit points (printed plus its Symbiote's), before damage
    damage: int
    new: bool  # entered play this turn
    symbiote: CardSeen | None  # the creature carried by this one (Symbiote)
    chained: tuple[CardSeen, ...]  # the cards it holds by Enchain, public
    sprint_bonus: int  # Sprint's damage bonus, until the end of Phase 3
    protection_used: bool  # its Protection has absorbed an attack
    # Abilities it has now that its card does not print: given by adjacent Auras, and given to
    # every creature of its controller by Custom Play (the Solo AI's options).
    aura_abilities: tuple[str, ...]
    given_abilities: tuple[str, ...]


@dataclass(frozen=True)
class SeatSeen:
    """One seat's Kingdom and hand as the observer may see them."""

    seat: int
    letter: str  # "A", "B"...
    automaton: bool  # Solo's and Co-op's AI: a deck pile and a discard pile, no hand
    hand: tuple[CardSeen, ...] | None  # left to right; None: only the backs show
    hand_count: int
    stronghold_at: int | None  # the Stronghold's place in the hand (None: under the AI's pile)
    fort: bool  # the Stronghold's side: False for the Bastion
    hit_points: int
    mana: int
    # The leftmost cards of the hand that may be played now (rule phase-2-available-cards): the
    # seat whose turn it is, while the game goes on; 0 for the others.
    available: int
    lines: tuple[tuple[CreatureSeen, ...], ...]  # by lane, from the Bridge outward
    removed_count: int
    removed: tuple[CardSeen, ...] | None  # None: not shown to this observer
    champion: CardSeen | None  # waiting outside the Kingdom (None: none, or in play)
    champion_exhausted: bool
    pile_count: int | None  # the AI's face-down deck pile (None: a hand player)
    discard: tuple[CardSeen, ...]  # the AI's face-up discard pile, top card first


@dataclass(frozen=True)
class LineSeen:
    """A line of the table: the (seat, lane) of its left and its right half (rule 2.1: the first
    seat's Kingdom left of the Bridges)."""

    left: tuple[int, int]
    right: tuple[int, int]


@dataclass(frozen=True)
class OutcomeSeen:
    winners: tuple[int, ...]
    loser: int
    reason: str


@dataclass(frozen=True)
class Observation:
    seat: int  # the observer's seat; SPECTATOR for no seat
    active: int  # the seat whose turn it is (or was, once the game is over)
    phase: str  # "summoning", "assault_done" or "over"
    turn: int
    seats: tuple[SeatSeen, ...]
    lines: tuple[LineSeen, ...]  # in the rulebook's order, upper lines first
    legal_actions: tuple[Action, ...]  # the observer's, on its turn; else none
    outcome: OutcomeSeen | None

    @property
    def over(self) -> bool:
        return self.phase == "over"


def observe(
    state: GameState, seat: int, *, reveal: bool = False, all_hands: bool = False
) -> Observation:
    """What ``seat`` sees of ``state`` (``SPECTATOR``: what anyone at no seat sees). ``reveal``:
    the game ended outside the rules (a player conceded), so it is over and every hand shows;
    ``all_hands``: every hand shows though the game goes on (a replay, a puzzle)."""
    over = state.phase == OVER or reveal
    seats = tuple(
        _seat_seen(state, kingdom, over or all_hands or kingdom.seat == seat, over)
        for kingdom in state.players
    )
    outcome = state.outcome
    return Observation(
        seat=seat,
        active=state.active,
        phase="over" if over else PHASES.get(state.phase, "summoning"),
        turn=state.turn,
        seats=seats,
        lines=table_lines(state),
        legal_actions=tuple(legal_actions(state)) if state.active == seat and not over else (),
        outcome=None
        if outcome is None
        else OutcomeSeen(outcome.winners(), outcome.loser, outcome.reason),
    )


def table_lines(state: GameState) -> tuple[LineSeen, ...]:
    """The lines of ``state``'s table in the rulebook's order, each with its two halves."""
    halves: dict[int, list[tuple[int, int]]] = {}
    for seat, numbers in enumerate(state.setup.topology.line_number[: len(state.players)]):
        for lane, number in enumerate(numbers):
            halves.setdefault(number, []).append((seat, lane))
    return tuple(LineSeen(halves[number][0], halves[number][1]) for number in sorted(halves))


def card_seen(state: GameState, card: int) -> CardSeen:
    setup = state.setup
    return CardSeen(
        id=card,
        name=setup.names[card],
        cost=setup.cost[card],
        attack=setup.attack[card],
        hp=setup.hp[card],
        creature=setup.creature[card],
        abilities=tuple(setup.cards[card].abilities),
    )


def _creature_seen(state: GameState, creature: Creature) -> CreatureSeen:
    given = state.setup.given[creature.owner]
    return CreatureSeen(
        card=card_seen(state, creature.card),
        attack=creature.attack,
        hp=creature.hp,
        damage=creature.damage,
        new=creature.new,
        symbiote=None if creature.symbiote == NO_CARD else card_seen(state, creature.symbiote),
        chained=tuple(card_seen(state, card) for card, _owner in creature.chained),
        sprint_bonus=creature.bonus,
        protection_used=creature.protection_used,
        aura_abilities=tuple(codes_of(creature.eff & ~creature.base)),
        given_abilities=tuple(codes_of(given & creature.base)),
    )


def _seat_seen(state: GameState, kingdom: Kingdom, visible: bool, over: bool) -> SeatSeen:
    champion = kingdom.champion
    removed = kingdom.removed
    automaton = isinstance(kingdom, AutomatonKingdom)
    if isinstance(kingdom, AutomatonKingdom):
        hand: tuple[CardSeen, ...] | None = ()
        stronghold_at: int | None = None
        pile_count: int | None = len(kingdom.pile)
        discard = tuple(card_seen(state, card) for card in reversed(kingdom.discard))
    else:
        assert isinstance(kingdom, HandKingdom)
        hand = tuple(card_seen(state, card) for card in kingdom.hand) if visible else None
        stronghold_at = kingdom.sh
        pile_count = None
        discard = ()
    hand_cards = kingdom.hand if isinstance(kingdom, HandKingdom) else []
    return SeatSeen(
        seat=kingdom.seat,
        letter=PLAYER_NAMES[kingdom.seat],
        automaton=automaton,
        hand=hand,
        hand_count=len(hand_cards),
        stronghold_at=stronghold_at,
        fort=kingdom.fort,
        hit_points=kingdom.hit_points(),
        mana=kingdom.mana,
        available=min(WINDOW, len(hand_cards)) if kingdom.seat == state.active and not over else 0,
        lines=tuple(
            tuple(_creature_seen(state, creature) for creature in line) for line in kingdom.lines
        ),
        removed_count=len(removed),
        removed=tuple(card_seen(state, card) for card in removed) if visible else None,
        champion=None if champion == NO_CARD else card_seen(state, champion),
        champion_exhausted=kingdom.champion_exhausted,
        pile_count=pile_count,
        discard=discard,
    )
