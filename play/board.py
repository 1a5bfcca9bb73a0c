"""The table's board as the page draws it, built from one seat's view (`engine.rules.view`):
the engine board's cards (`engine.board` faces, engine/board.css) with the controls of the seat
whose turn it is, and what happened worded as every page words the engine's events
(`engine.event_text`). Only the seat's view goes in, so a card hidden from that seat never
reaches the page.

Playing a card is a two-step choice: the page asks for the board with a card chosen, and the
board then marks where that card may go (a line of my Kingdom for a creature, a creature for a
Symbiote or an Incantation), each place a button of the action.
"""

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from engine.board import CardFace, card_face, line_halves
from engine.event_text import engine_text
from engine.rules.abilities.costs import WINDOW
from engine.rules.events import LINE_NAMES, Arg
from engine.rules.view import CARD_KEYS, SPECTATOR


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
    available: bool  # among the WINDOW leftmost cards of the seat to play
    playable: bool  # the rules let it be played now
    chosen: bool


@dataclass(frozen=True)
class Slot:
    """One place of a hand, left to right: a card face up, the Stronghold, or (neither) a back."""

    card: HandCard | None
    stronghold: bool


@dataclass(frozen=True)
class TableCreature:
    id: int
    face: CardFace
    attack: int
    hp: int
    damage: int
    symbiote: CardFace | None
    chained: tuple[str, ...]  # the cards it holds by Enchain (public: Enchain reveals them)
    choice: Choice | None  # the chosen card goes onto / is cast on this creature


@dataclass(frozen=True)
class Half:
    seat: str
    title: str
    creatures: tuple[TableCreature, ...]  # from the Bridge outward
    choice: Choice | None  # the chosen creature may be placed on this line


@dataclass(frozen=True)
class Line:
    name: str
    left: Half
    right: Half


@dataclass(frozen=True)
class TableSeat:
    letter: str
    title: str
    mine: bool
    active: bool
    fort: bool
    hp: int
    mana: int
    hand_count: int
    hand: tuple[Slot, ...]
    # Solo's and Co-op's automaton: no hand but a face-down deck pile over its Stronghold (None
    # for a hand player) and a face-up discard pile, its top card first.
    pile: int | None = None
    discard: tuple[CardFace, ...] = ()
    # The Champion waiting outside the Kingdom (rule champion-setup; None: none, or in play),
    # face up for every seat as the engine's board shows it, and whether it is ready.
    champion: HandCard | None = None
    champion_ready: bool = False


@dataclass(frozen=True)
class TableBoard:
    seats: tuple[TableSeat, ...]
    lines: tuple[Line, ...]
    chosen: HandCard | None
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class DraftCard:
    """A card of a draft: its pool id, its face, and its abilities as (name, rules text) in the
    page's language (issue 29: offered cards showed no abilities)."""

    id: int
    face: CardFace
    abilities: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DraftBoard:
    """A Draft table's draft as one seat sees it: the pack it picks from (empty unless it is its
    pick), its own picks, each drafting seat's number of cards, the cards revealed this round
    and the other seats' picks (visible to every player, as the rulebook has them)."""

    pack: tuple[DraftCard, ...]
    picks: tuple[DraftCard, ...]
    held: tuple[tuple[str, int], ...]
    revealed: tuple[DraftCard, ...] = ()
    others: tuple[tuple[str, tuple[DraftCard, ...]], ...] = ()


def _ability_lines(
    codes: Sequence[str], texts: Mapping[str, tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
    lines = []
    for code in codes:
        bare = code.removeprefix("aura:")
        name, rules = texts.get(bare, (bare, ""))
        if code.startswith("aura:"):
            name = _("Aura: %(ability)s") % {"ability": name}
        lines.append((name, rules))
    return tuple(lines)


def draft_card(
    card: Mapping[str, Any], local: Mapping[str, str], texts: Mapping[str, tuple[str, str]]
) -> DraftCard:
    return DraftCard(card["id"], face_of(card, local), _ability_lines(card["abilities"], texts))


# No translation: the engine's (English) names.
ENGLISH: Mapping[str, str] = {}


def face_of(card: Mapping[str, Any], local: Mapping[str, str] = ENGLISH) -> CardFace:
    """A card of the view as the board draws it (its emblem from its played values), named in
    the page's language by `local` (`cards.selectors.card_names_in`)."""
    return definition_face(
        {
            "name": card["name"],
            "type": "creature" if card["creature"] else "incantation",
            "cost": card["cost"],
            "attack": card["attack"],
            "hp": card["hp"],
            "abilities": card["abilities"],
        },
        local,
    )


def definition_face(definition: Mapping[str, Any], local: Mapping[str, str] = ENGLISH) -> CardFace:
    """A card as the engine defines it (a seat's stored deck or Champion) as the board draws
    it: named in the page's language when `local` knows its engine name (a Champion, a mutated
    card keep theirs), its emblem drawn from its engine name and played values (the same
    picture in every language)."""
    name = str(definition["name"])
    label = local.get(name, name)
    return card_face(name=name, label=label, slug=name, expansion_code="", definition=definition)


def seat_board(
    state: Mapping[str, Any],
    *,
    seat: int,
    titles: Sequence[str],
    chosen: int | None,
    local: Mapping[str, str] = ENGLISH,
) -> TableBoard:
    """The board of `state` (the view of `seat`), `titles` by seat, `chosen` the card id of my
    hand whose places are marked (ignored unless the rules let me play it now), card names in
    the page's language by `local`."""
    players = state["players"]
    names: dict[int, str] = {}
    for player in players:
        for line in player["lines"]:
            for creature in line:
                names[creature["id"]] = local.get(creature["name"], creature["name"])
    legal: dict[int, list[dict[str, Any]]] = {}
    for action in state["legal_actions"]:
        if action["kind"] in ("play", "play_onto", "cast"):
            legal.setdefault(action["card"], []).append(action)
    my_turn = bool(state["legal_actions"])
    chosen_card: HandCard | None = None
    seats = []
    for index, player in enumerate(players):
        hand: list[Slot] = []
        for position, card in enumerate(player["hand"] or []):
            item = _hand_card(
                card,
                mine=index == seat,
                legal=legal,
                chosen=chosen,
                available=index == seat and my_turn and position < WINDOW,
                local=local,
            )
            if item.chosen:
                chosen_card = item
            hand.append(Slot(item, False))
        champion = None
        if player["champion"] is not None:
            champion = _hand_card(
                player["champion"], mine=index == seat, legal=legal, chosen=chosen, local=local
            )
            if champion.chosen:
                chosen_card = champion
        automaton = player["controller"] == "automaton"
        if player["hand"] is None:
            hand = [Slot(None, False) for _card in range(player["hand_count"])]
        if not automaton:
            hand.insert(player["stronghold"]["position"], Slot(None, True))
        seats.append(
            TableSeat(
                letter=player["seat"],
                title=titles[index],
                mine=index == seat,
                active=player["seat"] == state["active"] and state["phase"] != "over",
                fort=player["stronghold"]["side"] == "fort",
                hp=player["stronghold"]["hit_points"],
                mana=player["mana"],
                hand_count=player["hand_count"],
                hand=tuple(hand),
                pile=player["pile_count"] if automaton else None,
                discard=tuple(
                    face_of(card, local) for card in reversed(player.get("discard") or [])
                ),
                champion=champion,
                champion_ready=not player["champion_exhausted"],
            )
        )
    halves = line_halves(len(players))
    # My lanes by the name of the line they are half of (a creature goes on a lane).
    lane_names = {lane: name for name, *parts in halves for side, lane in parts if side == seat}
    choices = _choices(legal, chosen_card, names, lane_names)
    lines = [
        Line(
            name=name,
            left=_half(players[left], titles[left], left_lane, left == seat, choices, local),
            right=_half(players[right], titles[right], right_lane, right == seat, choices, local),
        )
        for name, (left, left_lane), (right, right_lane) in halves
    ]
    return TableBoard(
        seats=tuple(seats), lines=tuple(lines), chosen=chosen_card, choices=tuple(choices)
    )


def _hand_card(
    card: Mapping[str, Any],
    *,
    mine: bool,
    legal: Mapping[int, list[dict[str, Any]]],
    chosen: int | None,
    available: bool = False,
    local: Mapping[str, str] = ENGLISH,
) -> HandCard:
    """A card I may choose (a card of my hand, my Champion) or see (another seat's)."""
    playable = mine and card["id"] in legal
    return HandCard(
        id=card["id"],
        face=face_of(card, local),
        available=available,
        playable=playable,
        chosen=playable and card["id"] == chosen,
    )


def _choices(
    legal: Mapping[int, list[dict[str, Any]]],
    chosen: HandCard | None,
    names: Mapping[int, str],
    lane_names: Mapping[int, str],
) -> list[Choice]:
    if chosen is None:
        return []
    card = chosen.face.name
    choices: list[Choice] = []
    for action in legal[chosen.id]:
        target = names.get(action["arg"], "?")
        if action["kind"] == "play":
            label = _("Play %(card)s on %(line)s") % {
                "card": card,
                "line": lane_names[action["arg"]],
            }
        elif action["kind"] == "play_onto":
            label = _("Play %(card)s onto %(host)s") % {"card": card, "host": target}
        else:
            label = _("Cast %(card)s on %(target)s") % {"card": card, "target": target}
        choices.append(Choice(action["kind"], action["card"], action["arg"], label, not choices))
    return choices


def _half(
    player: Mapping[str, Any],
    title: str,
    lane: int,
    mine: bool,
    choices: Sequence[Choice],
    local: Mapping[str, str] = ENGLISH,
) -> Half:
    creatures = []
    for creature in player["lines"][lane]:
        aimed = [c for c in choices if c.kind != "play" and c.arg == creature["id"]]
        symbiote = creature["symbiote"]
        creatures.append(
            TableCreature(
                id=creature["id"],
                face=face_of(creature, local),
                attack=creature["attack"],
                hp=creature["hp"],
                damage=creature["damage"],
                symbiote=face_of(symbiote, local) if symbiote else None,
                chained=tuple(
                    local.get(card["name"], card["name"]) for card in creature["chained"]
                ),
                choice=aimed[0] if aimed else None,
            )
        )
    placed = [c for c in choices if mine and c.kind == "play" and c.arg == lane]
    return Half(player["seat"], title, tuple(creatures), placed[0] if placed else None)


def table_context(
    view: Mapping[str, Any],
    names: Sequence[str],
    *,
    seat: int,
    chosen: int | None = None,
    since: int | None = None,
    local: Mapping[str, str] = ENGLISH,
    abilities: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """What the table's page shows of `view` (`play.selectors.game_view` of `seat`, or of a
    spectator: `SPECTATOR`, who sees every seat by its name and has no controls), `names`
    the card names by card id, `chosen` the card of my hand whose places it marks, `since` the
    event count of the last board the page showed (its events since then shown step by step),
    `local` the catalogue's names in the page's language by engine name."""
    names = [local.get(name, name) for name in names]
    state = view["state"]
    my_team = None if seat == SPECTATOR else view["seats"][seat]["team"]
    # Teammates win together: the result names the team.
    team_play = len({other["team"] for other in view["seats"]}) < len(view["seats"])
    context: dict[str, Any] = {
        "view": view,
        "state": state,
        "my_team": my_team,
        "team_play": team_play,
        "client_id": uuid.uuid4().hex,
    }
    draft = view.get("draft")
    if draft is not None:
        texts = abilities or {}
        me = view["seat"]
        context["draft"] = DraftBoard(
            pack=tuple(draft_card(card, local, texts) for card in draft["pack"]),
            picks=tuple(draft_card(card, local, texts) for card in draft["picks"]),
            held=tuple(draft["held"].items()),
            revealed=tuple(draft_card(card, local, texts) for card in draft.get("revealed", [])),
            others=tuple(
                (letter, tuple(draft_card(card, local, texts) for card in cards))
                for letter, cards in draft.get("seat_picks", {}).items()
                if letter != me
            ),
        )
    if state is None:
        return context
    titles = [
        _("Me (%(seat)s)") % {"seat": other["seat"]}
        if other["seat"] == view["seat"]
        else _("Partner: %(name)s (%(seat)s)") % other
        if team_play and other["team"] == my_team
        else f"{other['name']} ({other['seat']})"
        for other in view["seats"]
    ]
    kinds = {action["kind"] for action in state["legal_actions"]}
    events = state["events"]
    new_events = events[since:] if since is not None and 0 <= since <= len(events) else []
    context.update(
        my_turn=bool(state["legal_actions"]),
        board=seat_board(state, seat=seat, titles=titles, chosen=chosen, local=local),
        can_assault="assault" in kinds,
        can_end="end_turn" in kinds or "assault" in kinds,
        events=[event_text(event, names) for event in events[-30:]],
        steps=[
            {"text": event_text(event, names), "cards": _event_cards(event)} for event in new_events
        ],
    )
    return context


def event_text(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """An event of a seat's view in the page's language; a hidden card is "a hidden card". The
    view names a line by its English word, which `engine_text` takes as its index."""
    args: list[tuple[str, Arg]] = []
    for key, value in event["args"].items():
        if key in CARD_KEYS and value is None:
            args.append((key, _("a hidden card")))
        elif key == "line" and value in LINE_NAMES:
            args.append((key, LINE_NAMES.index(value)))
        else:
            args.append((key, value))
    return engine_text("event", event["code"], args, names)


def _event_cards(event: Mapping[str, Any]) -> str:
    """The ids of the cards an event names and the seat may see, for the board to mark them."""
    return " ".join(
        str(value) for key, value in event["args"].items() if key in CARD_KEYS and value is not None
    )
