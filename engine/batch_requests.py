"""What a test batch may ask for, checked before anything is stored: the mode's players and
their AIs, Solo's and Co-op's AI, a Draft's entrants, the per-user limits; and the seat rows of
the decks the engine makes (the AI's pile, a Draft's entrants). `engine.services.batch_create`
calls them; the 400s name the bad input, the 429s a limit.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine import selectors, simulation
from engine.adapters.decks import (
    COOP_MODE,
    SOLO_MODE,
    DeckChoice,
    ResolvedDeck,
    coop_ai_deck_resolve,
    solo_ai_deck_resolve,
)
from engine.models import DeckSource, Drafter
from engine.rules import AUTOMATON as AUTOMATON_CONTROLLER
from engine.rules import MODES


@dataclass(frozen=True)
class DraftChoice:
    """A Draft batch as asked for: the expansions to draft from (slugs or codes separated by
    commas), the drafter of every entrant, and each entrant's AI (deck A's first; in Solo and
    Co-op the players' only)."""

    pool: str
    drafter: str
    agents: tuple[str, ...]


def limits_check(user: User, games: int) -> None:
    active = selectors.active_batch_count(user)
    if active > settings.SIMULATION_MAX_ACTIVE_BATCHES:
        raise DomainError(
            "too_many_batches",
            _(
                "You already have %(limit)d test batches queued or running: wait for one to "
                "finish, or cancel one."
            )
            % {"limit": settings.SIMULATION_MAX_ACTIVE_BATCHES},
            {"limit": settings.SIMULATION_MAX_ACTIVE_BATCHES},
            status_code=429,
        )
    used = selectors.games_requested_since(user)
    if used > settings.SIMULATION_MAX_GAMES_PER_DAY:
        raise DomainError(
            "daily_games_limit",
            _(
                "This batch would take you to %(used)d games in 24 hours; the limit is "
                "%(limit)d. Ask for fewer games, or try again later."
            )
            % {"used": used, "limit": settings.SIMULATION_MAX_GAMES_PER_DAY},
            {
                "limit": settings.SIMULATION_MAX_GAMES_PER_DAY,
                "used": used - games,
                "requested": games,
            },
            status_code=429,
        )


# The fields of the API's shorthand for the first two players' seats: deck A's, then deck B's.
SHORTHAND_SIDES = ("a", "b")


def players_check(
    *, mode: str, given: int, fields: Sequence[tuple[str, ...]] | None, draft: bool
) -> None:
    """The players' seats `mode` takes (Duel and Co-op 2, Solo 1, Free-For-All and Team Play 4),
    checked here once for every caller. An API request that named its seats by other fields than
    `seats` gives `fields`: a Draft's `agents` (one `("agents",)` per AI), or its shorthand's
    fields of deck A's seat and of deck B's (`deck_a`, `agent_a`; `deck_b`, `agent_b`; empty: not
    given). A wrong number of them is then a 400 `invalid` whose `details` map each field to its
    message, as a field error of the request; any other wrong number, the 400 `wrong_deck_count`
    of `engine.services.batch_create`."""
    if not fields:
        return
    expected = len(simulation.player_seats(mode))
    errors: dict[str, str] = {}
    if fields[0] == ("agents",):
        if given != expected:
            wording = _("The %(mode)s mode drafts %(count)d decks: give %(count)d AIs.")
            errors["agents"] = wording % {"mode": mode, "count": expected}
    elif mode == SOLO_MODE and any(fields[1:]):
        errors = dict.fromkeys(
            (name for seat in fields[1:] for name in seat),
            _("A Solo game has one deck: the player's."),
        )
    elif not draft:
        sides = SHORTHAND_SIDES[:1] if mode == SOLO_MODE else SHORTHAND_SIDES
        errors = dict.fromkeys(
            (
                f"deck_{side}"
                for index, side in enumerate(sides)
                if f"deck_{side}" not in fields[index]
            ),
            _("Give `seats`, or `deck_a` and `deck_b`."),
        )
    if errors:
        field, message = next(iter(errors.items()))
        raise DomainError(
            "invalid", f"{field}: {message}", {name: [text] for name, text in errors.items()}
        )


def with_ai_seats(
    mode: str, players: list[ResolvedDeck], agents: list[str], seed: int, *, drafted: bool
) -> tuple[list[ResolvedDeck], list[str]]:
    """The seat rows of a mode with AIs, in seat order: the players' decks and, in the AI's
    seats, the automaton with its cards (those of a Draft batch are given game by game). Co-op's
    two AI seats hold the same 48 cards, which each game divides (`simulation.BatchSpec`)."""
    if drafted:
        ai = _drafted_ai_pile(mode)
    elif mode == COOP_MODE:
        ai = coop_ai_deck_resolve(players=players, seed=seed)
    else:
        ai = solo_ai_deck_resolve(player=players[0], seed=seed)
    decks: list[ResolvedDeck] = []
    seated: list[str] = []
    played = iter(zip(players, agents, strict=True))
    for row in MODES[mode].seats:
        automaton = row.controller == AUTOMATON_CONTROLLER
        deck, agent = (ai, simulation.AUTOMATON) if automaton else next(played)
        decks.append(deck)
        seated.append(agent)
    return decks, seated


def ai_check(
    *, mode: str, ai: selectors.SoloAiChoice | None, champions: bool
) -> selectors.SoloAi | None:
    """The AI of Solo or Co-op (None in the other modes), or the 400 naming the field that does
    not fit the mode."""
    if mode not in selectors.SIMULATION_MODES:
        raise DomainError(
            "unknown_mode",
            _("Test games are played in these modes: %(modes)s.")
            % {"modes": ", ".join(selectors.SIMULATION_MODES)},
            {"field": "mode", "choices": list(selectors.SIMULATION_MODES)},
        )
    if mode not in simulation.AI_MODES:
        if ai is not None:
            raise DomainError(
                "ai_without_solo",
                _("The AI's parameters are for Solo and Co-op games (modes “solo” and “coop”)."),
                {"field": "ai"},
            )
        return None
    solo_ai = selectors.solo_ai_resolve(ai or selectors.SoloAiChoice())
    # The Champion module in Solo and Co-op is Custom Play's "champion" parameter (rule champion:
    # not in Quick Play; CO6): the players' Champions and the AI's parameter go together (engine
    # check_solo).
    if champions != bool(solo_ai.options.get("champion")):
        raise DomainError(
            "champions_in_solo",
            _(
                "In Solo and Co-op the Champion module is the AI's Custom Play parameter "
                "“champion”: give both “champions” and an AI with that parameter."
            ),
            {"field": "ai" if not champions else "champions"},
        )
    return solo_ai


def draft_seats(
    draft: DraftChoice, seats: Sequence[selectors.SeatChoice], champions: bool
) -> list[selectors.SeatChoice]:
    """A Draft batch's entrants: one per player's seat, each with its AI and no deck of its own."""
    if seats:
        raise DomainError(
            "decks_in_draft",
            _("A Draft batch drafts its decks: enter no decks."),
            {"field": "seats"},
        )
    if champions:
        raise DomainError(
            "champions_in_draft",
            _("The Champion module needs saved decks: a Draft batch plays without it."),
            {"field": "champions"},
        )
    if draft.drafter not in Drafter.values:
        raise DomainError(
            "unknown_drafter",
            _("There is no drafter “%(drafter)s”.") % {"drafter": draft.drafter},
            {"field": "drafter", "choices": list(Drafter.values)},
        )
    return [selectors.SeatChoice(DeckChoice(), agent) for agent in draft.agents]


def drafted_deck(drafter: str) -> ResolvedDeck:
    """The seat row of a Draft batch's entrant: its cards are drafted game by game."""
    return ResolvedDeck(
        source=DeckSource.DRAFT,
        deck=None,
        code="",
        name=_("Drafted (%(drafter)s)") % {"drafter": Drafter(drafter).label},
        cards=[],
        slugs=[],
        champion=None,
    )


def _drafted_ai_pile(mode: str) -> ResolvedDeck:
    """The AI's seat row of a Solo or Co-op Draft batch: its pile is what the players give it,
    game by game (rule solo-setup, the Co-op Draft)."""
    coop = mode == COOP_MODE
    return ResolvedDeck(
        source=DeckSource.COOP_AI if coop else DeckSource.SOLO_AI,
        deck=None,
        code="",
        name=_("The Co-op AI") if coop else _("The Solo AI"),
        cards=[],
        slugs=[],
        champion=None,
    )
