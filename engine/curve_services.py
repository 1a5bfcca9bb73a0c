"""Writes of difficulty curves: one Solo test batch per level of the difficulty table for one
deck, the same seed at every level (`engine.curve_selectors.curve_summary` reads what they found).
"""

import secrets

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine import selectors
from engine.adapters import difficulty
from engine.adapters.decks import SOLO_MODE
from engine.models import DifficultyCurve
from engine.services import SEED_BITS, agent_for, batch_create

# Games per level a curve plays unless asked otherwise, and the most it may ask for: ten levels
# of this many games stay within a day's allowance (SIMULATION_MAX_GAMES_PER_DAY).
CURVE_GAMES = 2000
MAX_CURVE_GAMES = 10_000


def curve_create(
    *,
    requested_by: User,
    seat: selectors.SeatChoice,
    games_per_level: int = CURVE_GAMES,
    seed: int | None = None,
) -> DifficultyCurve:
    """Queue one Solo batch per level of the difficulty table for the deck of `seat` (the same
    seed at every level, so the levels' games share their shuffles and differ by the AI only);
    the batches run like any other and count as one against the active-batch limit. 400s name
    the bad input (nothing is queued), 429s a per-user limit."""
    if (
        isinstance(games_per_level, bool)
        or not isinstance(games_per_level, int)
        or not 1 <= games_per_level <= MAX_CURVE_GAMES
    ):
        raise DomainError(
            "invalid_games",
            _("Ask for 1 to %(max)d games per level.") % {"max": MAX_CURVE_GAMES},
            {"field": "games", "max": MAX_CURVE_GAMES},
        )
    if seed is not None and not 0 <= seed < 2**SEED_BITS:
        raise DomainError(
            "invalid_seed", _("A seed is a whole number from 0 to 2^63 - 1."), {"field": "seed"}
        )
    levels = [row.level for row in difficulty.difficulty_levels()]
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    with transaction.atomic():
        curve = DifficultyCurve.objects.create(
            requested_by=requested_by,
            deck=None,
            games_per_level=games_per_level,
            seed=seed,
        )
        # The batch rule's default agent (issue 28): greedy wins at most 10% even at level 1, so
        # a deck page would say "beats the AI up to level 0" of every deck.
        played = selectors.SeatChoice(
            seat.deck, seat.agent or agent_for(games_per_level, SOLO_MODE)
        )
        batches = [
            batch_create(
                requested_by=requested_by,
                seats=[played],
                games=games_per_level,
                seed=seed,
                mode=SOLO_MODE,
                ai=selectors.SoloAiChoice(level=level),
                curve=curve,
            )
            for level in levels
        ]
        if batches:
            # The saved deck the batches resolved (None for a deck code or a preconstructed deck).
            curve.deck = batches[0].seats.get(index=0).deck
            curve.save(update_fields=["deck"])
    return curve
