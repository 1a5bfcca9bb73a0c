"""What the table's page shows: the one board of every page (`engine.display.board`, built from
the engine's observation of the position for one seat) with the table's controls, the draft, and
what happened worded as every page words the engine's events (`engine.display.event_text`). Only
the seat's observation and view go in, so a card hidden from that seat never reaches the page.
"""

import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.display.board import Board, Controls, board_of
from engine.display.event_text import engine_text
from engine.display.faces import ENGLISH, UNLINKED, CardFace, definition_face
from engine.display.playback import PlaybackStep, playback_steps
from engine.rules import CARD_KEYS, LINE_NAMES, SPECTATOR, Arg, Observation
from play.position_selectors import TablePlayback

# The table's forms on the board: choosing a card of my hand, playing it on a place.
TABLE_CONTROLS = Controls(choose="play/_choose.html", act="play/_act.html")


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
    card: Mapping[str, Any],
    local: Mapping[str, str],
    texts: Mapping[str, tuple[str, str]],
    slugs: Mapping[str, str] = UNLINKED,
) -> DraftCard:
    face = definition_face(
        {
            "name": card["name"],
            "type": "creature" if card["creature"] else "incantation",
            "cost": card["cost"],
            "attack": card["attack"],
            "hp": card["hp"],
            "abilities": card["abilities"],
        },
        local,
        slugs,
    )
    return DraftCard(card["id"], face, _ability_lines(card["abilities"], texts))


def table_context(
    view: Mapping[str, Any],
    observation: Observation | None,
    names: Sequence[str],
    *,
    seat: int,
    chosen: int | None = None,
    since: int | None = None,
    local: Mapping[str, str] = ENGLISH,
    abilities: Mapping[str, tuple[str, str]] | None = None,
    slugs: Mapping[str, str] = UNLINKED,
    playback: TablePlayback | None = None,
) -> dict[str, Any]:
    """What the table's page shows of `view` (`play.view_selectors.game_view` of `seat`, or of a
    spectator: `SPECTATOR`, who sees every seat by its name and has no controls) and of the
    engine's `observation` of the position for the same seat (its board), `names`
    the card names by card id, `chosen` the card of my hand whose places it marks, `since` the
    event count of the last board the page showed (its events since then shown step by step),
    `local` the catalogue's names in the page's language by engine name, `abilities` the
    abilities' (name, rules text) in it by code, `slugs` the catalogue cards' slugs by engine
    name (each card links to its page and its face), `playback` the positions the board passed
    through since the page's last board (`play.position_selectors.table_playback`), played out
    on it."""
    pages = [slugs.get(name, "") for name in names]
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
            pack=tuple(draft_card(card, local, texts, slugs) for card in draft["pack"]),
            picks=tuple(draft_card(card, local, texts, slugs) for card in draft["picks"]),
            held=tuple(draft["held"].items()),
            revealed=tuple(
                draft_card(card, local, texts, slugs) for card in draft.get("revealed", [])
            ),
            others=tuple(
                (letter, tuple(draft_card(card, local, texts, slugs) for card in cards))
                for letter, cards in draft.get("seat_picks", {}).items()
                if letter != me
            ),
        )
    if state is None or observation is None:
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
    ability_names = {code: name for code, (name, _rules) in (abilities or {}).items()}

    def board(position: Observation, **controls: Any) -> Board:
        return board_of(
            position,
            titles=titles,
            local=local,
            heading=2,
            abilities=ability_names,
            slugs=slugs,
            **controls,
        )

    # The whole log (issue 29: the page kept its last 30 lines).
    lines = [event_text(event, names) for event in events]
    context.update(
        my_turn=bool(state["legal_actions"]),
        board=board(observation, chosen=chosen, controls=TABLE_CONTROLS),
        can_assault="assault" in kinds,
        can_end="end_turn" in kinds or "assault" in kinds,
        events=[event_html(event, names, pages) for event in events],
    )
    if playback is not None and playback.begin <= len(events):
        since = playback.begin
    if since is None or not 0 <= since <= len(events):
        return context
    ends = [] if playback is None else [end - since for _position, end in playback.steps]
    steps = playback_steps(events[since:], lines[since:], ends)
    context["steps"] = steps
    if playback is not None:
        positions = [playback.start, *(position for position, _end in playback.steps)]
        context["playback_boards"] = _playback_boards(steps, positions, board)
    return context


def _playback_boards(
    steps: Sequence[PlaybackStep],
    positions: Sequence[Observation],
    board: Callable[[Observation], Board],
) -> list[tuple[int, Board]]:
    """The boards the steps show, by number, but the last: the page's own board is that one.
    Only those: each costs a board's rendering in the act's answer."""
    last = len(positions) - 1
    shown = sorted({step.board for step in steps if step.board != last})
    return [(number, board(positions[number])) for number in shown]


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


# A card's place in an event's text, before the text is escaped and the card linked.
_CARD_MARK = re.compile("\x00([0-9]+)\x00")


def event_html(event: Mapping[str, Any], names: Sequence[str], pages: Sequence[str]) -> SafeString:
    """`event_text` with each card name linked to its card page in the page's language
    (`pages`: the catalogue slug by card id, "" for a card without a page: a Champion)."""
    text = escape(event_text(event, [f"\x00{card}\x00" for card in range(len(names))]))

    def card(found: re.Match[str]) -> str:
        index = int(found.group(1))
        if not pages[index]:
            return escape(names[index])
        return format_html(
            '<a href="{}">{}</a>', reverse("cards:card", args=[pages[index]]), names[index]
        )

    return mark_safe(_CARD_MARK.sub(card, text))
