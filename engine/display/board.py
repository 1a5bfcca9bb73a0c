"""The one board of every page: the view object of `engine/templates/engine/board.html`.

A page that shows a position (the Play table, the replay viewer, the Grimoire) builds one `Board`
from the engine's observation of it (`engine.rules.observation.observe`) with `board_of`, and
includes the template with it; the template never reaches into the engine, and only what the
observer may see goes in, so a card hidden from a seat never reaches its page. The board follows
rule 2.1 (`setup-play-area`): each line extends on both sides of its Bridge card, the first
seat's Kingdom to the left of the Bridges, its opponent's to the right (four players: the lines
of `engine.rules.modes.FOUR_PLAYERS`, in the rulebook's order).

The Play table adds its controls to the same board (`Controls`): playing a card is a two-step
choice, the page asks for the board with a card chosen, and the board then marks where that card
may go (a line of my Kingdom for a creature, a creature for a Symbiote or an Incantation), each
place a button of the action.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from engine.display.faces import ENGLISH, UNLINKED, CardFace, seen_face
from engine.display.square import squared
from engine.rules import ACTION_KINDS, CardSeen, CreatureSeen, Observation, SeatSeen

# How `board_of` draws an observation's card.
FaceOf = Callable[[CardSeen], CardFace]


@dataclass(frozen=True)
class Choice:
    """One legal action of the chosen card: the button of the place it goes to."""

    kind: str  # "play", "play_onto", "cast"
    card: int
    arg: int
    label: str  # the button's accessible name: the whole action in words
    first: bool  # the place the keyboard's focus goes to once the card is chosen

    @property
    def cid(self) -> str:
        """Its part of the form's client id (one per action of a board)."""
        return f"{self.kind}-{self.card}-{self.arg}"


@dataclass(frozen=True)
class HandCard:
    id: int
    face: CardFace
    available: bool  # among the leftmost cards the seat to play may play (rule 5.2)
    playable: bool  # the rules let the observer play it now
    chosen: bool


@dataclass(frozen=True)
class Slot:
    """One place of a hand, left to right: a card face up, the Stronghold, or (neither) a back."""

    card: HandCard | None
    stronghold: bool


@dataclass(frozen=True)
class BoardCreature:
    id: int
    face: CardFace
    attack: int  # as it stands now (its Symbiote's values added, and Sprint's bonus)
    hp: int
    damage: int
    new: bool  # summoned this turn
    symbiote: CardFace | None  # a creature carried by this one (Symbiote)
    # The cards it holds by Enchain (public: Enchain reveals them), each face shown on demand.
    chained: tuple[CardFace, ...]
    sprint: int  # Sprint's bonus within `attack`, until the end of the Assault (0: none)
    protection_used: bool  # its Protection has absorbed an attack this turn
    # The names of the abilities it has that its card does not print: given by an adjacent
    # creature's Aura, and given to every creature of the Solo AI by Custom Play.
    aura_given: tuple[str, ...]
    given: tuple[str, ...]
    choice: Choice | None  # the chosen card goes onto / is cast on this creature


@dataclass(frozen=True)
class Half:
    seat: str  # the letter of the seat whose Kingdom this half is
    title: str  # that seat's title
    creatures: tuple[BoardCreature, ...]  # from the Bridge outward
    choice: Choice | None  # the chosen creature may be placed on this line


@dataclass(frozen=True)
class Line:
    name: str  # "Top line", "Bottom line"...
    left: Half
    right: Half
    # A four-player table drawn as a square (`engine.display.square`): the side of the square the
    # line lies along ("": not a square), and whether its right half comes first there.
    side: str = ""
    flipped: bool = False


@dataclass(frozen=True)
class BoardSeat:
    letter: str  # the table's seat: "A", "B"...
    title: str  # who plays there, as the page names them ("Deck A · Aggro")
    mine: bool  # the observer's seat
    active: bool
    fort: bool  # the Stronghold's side: False for the Bastion
    hp: int
    mana: int | None  # None: not shown (not this seat's turn)
    hand_count: int
    hand: tuple[Slot, ...]
    # The Champion waiting outside the Kingdom (rule champion-setup; None: none, or in play),
    # face up for every seat, and whether it is ready.
    champion: HandCard | None
    champion_ready: bool
    # Solo's and Co-op's AI, which has no hand: its face-down deck pile's cards (None: a hand
    # player), its Stronghold under the pile, and its discard pile, top card first.
    pile: int | None
    discard: tuple[CardFace, ...]
    corner: str = ""  # its Kingdom's corner of a four-player table's square ("nw"...; "": none)


@dataclass(frozen=True)
class Controls:
    """The Play table's forms on the board (template names): choosing a card of my hand, and
    playing the chosen card on a place."""

    choose: str
    act: str


@dataclass(frozen=True)
class Board:
    seats: tuple[BoardSeat, ...]
    lines: tuple[Line, ...]
    chosen: HandCard | None = None
    choices: tuple[Choice, ...] = ()
    heading: int = 3  # the level of the seats' headings on the page (the lines' one below)
    controls: Controls | None = None

    @property
    def square(self) -> bool:
        """A four-player table, drawn as a square (`engine.display.square`)."""
        return any(line.side for line in self.lines)


def line_name(number: int, lines: int) -> str:
    if lines == 2:
        return _("Top line") if number == 0 else _("Bottom line")
    return _("Line %(number)d") % {"number": number + 1}


def board_of(
    observation: Observation,
    *,
    titles: Sequence[str],
    local: Mapping[str, str] = ENGLISH,
    faces: Mapping[str, CardFace] | None = None,
    chosen: int | None = None,
    ended: bool = False,
    heading: int = 3,
    controls: Controls | None = None,
    abilities: Mapping[str, str] = ENGLISH,
    slugs: Mapping[str, str] = UNLINKED,
) -> Board:
    """The board of `observation`: `titles` by seat, card names in the page's language by
    `local` (or each card's face by engine name in `faces`, a catalogue card's emblem), `chosen`
    the card id of the observer's hand whose places are marked (ignored unless the rules let it
    be played now), `ended` a game stopped without an end by the rules (a replay's last
    position at the turn limit: no seat to play), `abilities` the abilities' names in the page's
    language by code (`cards.selectors.ability_names_in`; a code it lacks shows as itself),
    `slugs` the catalogue cards' slugs by engine name (each card drawn by `local` links to its
    page and its face, `cards.selectors.card_slugs_by_engine_name`)."""

    def face(card: CardSeen) -> CardFace:
        found = faces.get(card.name) if faces is not None else None
        return found if found is not None else seen_face(card, local, slugs)

    def creature_of(creature: CreatureSeen, choice: Choice | None) -> BoardCreature:
        return _creature(creature, face, choice, abilities)

    legal: dict[int, list[tuple[str, int]]] = {}
    for kind, card_id, arg in observation.legal_actions:
        name = ACTION_KINDS[kind]
        if name in ("play", "play_onto", "cast"):
            legal.setdefault(card_id, []).append((name, arg))
    seats = []
    chosen_card: HandCard | None = None
    # After the Assault no card may be played: none says "can be played" (issue 29).
    summoning = observation.phase == "summoning"
    for player in observation.seats:
        mine = player.seat == observation.seat
        active = player.seat == observation.active and not observation.over and not ended
        hand: list[Slot] = []
        for position, card in enumerate(player.hand or ()):
            item = _hand_card(
                card,
                face(card),
                legal=legal,
                chosen=chosen,
                available=active and summoning and position < player.available,
            )
            chosen_card = item if item.chosen else chosen_card
            hand.append(Slot(item, False))
        if player.hand is None:
            hand = [Slot(None, False) for _card in range(player.hand_count)]
        if player.stronghold_at is not None:
            hand.insert(player.stronghold_at, Slot(None, True))
        champion = None
        if player.champion is not None:
            champion = _hand_card(
                player.champion,
                face(player.champion),
                legal=legal,
                chosen=chosen,
                available=False,
            )
            chosen_card = champion if champion.chosen else chosen_card
        seats.append(
            BoardSeat(
                letter=player.letter,
                title=titles[player.seat],
                mine=mine,
                active=active,
                fort=player.fort,
                hp=player.hit_points,
                mana=player.mana if active else None,
                hand_count=player.hand_count,
                hand=tuple(hand),
                champion=champion,
                champion_ready=not player.champion_exhausted,
                pile=player.pile_count,
                discard=tuple(face(card) for card in player.discard),
            )
        )
    names = [line_name(number, len(observation.lines)) for number in range(len(observation.lines))]
    # The observer's lanes by the name of the line they are half of (a creature goes on a lane).
    lane_names = {
        lane: name
        for name, line in zip(names, observation.lines, strict=True)
        for side, lane in (line.left, line.right)
        if side == observation.seat
    }
    choices = _choices(legal, chosen_card, observation.seats, lane_names, local)
    players = observation.seats
    lines = [
        Line(
            name=name,
            left=_half(
                players[line.left[0]], titles, line.left[1], observation, choices, creature_of
            ),
            right=_half(
                players[line.right[0]], titles, line.right[1], observation, choices, creature_of
            ),
        )
        for name, line in zip(names, observation.lines, strict=True)
    ]
    board = Board(
        seats=tuple(seats),
        lines=tuple(lines),
        chosen=chosen_card,
        choices=tuple(choices),
        heading=heading,
        controls=controls,
    )
    return squared(board, observation.seat)


def _hand_card(
    card: CardSeen,
    face: CardFace,
    *,
    legal: Mapping[int, list[tuple[str, int]]],
    chosen: int | None,
    available: bool,
) -> HandCard:
    """A card the observer may choose (a card of its hand, its Champion) or see (another's)."""
    playable = card.id in legal
    return HandCard(
        id=card.id,
        face=face,
        available=available,
        playable=playable,
        chosen=playable and card.id == chosen,
    )


def _choices(
    legal: Mapping[int, list[tuple[str, int]]],
    chosen: HandCard | None,
    players: Sequence[SeatSeen],
    lane_names: Mapping[int, str],
    local: Mapping[str, str],
) -> list[Choice]:
    if chosen is None:
        return []
    names = {
        creature.card.id: local.get(creature.card.name, creature.card.name)
        for player in players
        for line in player.lines
        for creature in line
    }
    card = chosen.face.name
    choices: list[Choice] = []
    for kind, arg in legal[chosen.id]:
        target = names.get(arg, "?")
        if kind == "play":
            label = _("Play %(card)s on %(line)s") % {"card": card, "line": lane_names[arg]}
        elif kind == "play_onto":
            label = _("Play %(card)s onto %(host)s") % {"card": card, "host": target}
        else:
            label = _("Cast %(card)s on %(target)s") % {"card": card, "target": target}
        choices.append(Choice(kind, chosen.id, arg, label, not choices))
    return choices


def _half(
    player: SeatSeen,
    titles: Sequence[str],
    lane: int,
    observation: Observation,
    choices: Sequence[Choice],
    creature_of: Callable[[CreatureSeen, Choice | None], BoardCreature],
) -> Half:
    creatures = []
    for creature in player.lines[lane]:
        aimed = [c for c in choices if c.kind != "play" and c.arg == creature.card.id]
        creatures.append(creature_of(creature, aimed[0] if aimed else None))
    mine = player.seat == observation.seat
    placed = [c for c in choices if mine and c.kind == "play" and c.arg == lane]
    return Half(player.letter, titles[player.seat], tuple(creatures), placed[0] if placed else None)


def _creature(
    creature: CreatureSeen, face: FaceOf, choice: Choice | None, abilities: Mapping[str, str]
) -> BoardCreature:
    return BoardCreature(
        id=creature.card.id,
        face=face(creature.card),
        attack=creature.attack + creature.sprint_bonus,
        hp=creature.hp,
        damage=creature.damage,
        new=creature.new,
        symbiote=face(creature.symbiote) if creature.symbiote is not None else None,
        chained=tuple(face(card) for card in creature.chained),
        sprint=creature.sprint_bonus,
        protection_used=creature.protection_used,
        aura_given=tuple(abilities.get(code, code) for code in creature.aura_abilities),
        given=tuple(abilities.get(code, code) for code in creature.given_abilities),
        choice=choice,
    )
