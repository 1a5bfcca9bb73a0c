"""Simulated games of a batch: game ``index`` of a batch played to its end, and the batch's
reading of it.

Pure Python over the rules engine (no Django), so a chunk plays the same games in a Celery worker,
in the in-process thread pool, in a benchmark or in a unit test. The work is cut by concern:

- ``engine.batches.seeding``: which game is which (the seeds, the chunks, who sits where, the
  decks a Draft batch drafts): :class:`BatchSpec`;
- the game object (``engine.rules.game``) deals each mode's decks and plays the game to its end,
  as it does for every other caller (Play, the ladder, the command line);
- ``engine.batches.totals``: what a game counts and the batch's totals and statistics;
- ``engine.batches.replay``: a game played again step by step for the replay viewer.

This module plays a batch's games and is what the rest of the project imports (the names of the
three modules above that it uses are listed in ``__all__``).
"""

from __future__ import annotations

from engine.batches.replay import (
    EventData,
    Frame,
    ReplayedGame,
    players_view,
    replay_frames,
    replay_game,
)
from engine.batches.seeding import (
    AI_MODES,
    ALL_END_REASONS,
    AUTOMATON,
    COOP,
    DECK_LETTERS,
    END_REASONS,
    SOLO,
    SOLO_END_REASONS,
    BatchSpec,
    DraftSpec,
    chunk_count,
    chunk_span,
    deck_in_seat,
    deck_seats,
    derived_seed,
    end_reasons,
    player_seats,
)
from engine.batches.totals import (
    EARLY_TURNS,
    NOTABLE,
    CardStats,
    DeckResult,
    GameOutcome,
    Rate,
    Summary,
    TeamResult,
    Totals,
    card_stats,
    game_outcome,
    histogram,
    summarise,
)
from engine.rules import DRAFT_PROCEDURES


def play_game(spec: BatchSpec, index: int) -> GameOutcome:
    """Play game ``index`` of the batch from scratch."""
    game = spec.game(index, stats=True)
    game.advance(spec.agents_for(index))
    return game_outcome(game.state, index, spec.rotation(index))


def play_games(spec: BatchSpec, first: int, count: int) -> Totals:
    """The totals of games ``first`` … ``first + count - 1``."""
    totals = Totals.empty(spec.entrants, spec.end_reasons)
    for index in range(first, first + count):
        totals.add(play_game(spec, index))
    return totals


__all__ = [
    "AI_MODES",
    "ALL_END_REASONS",
    "AUTOMATON",
    "COOP",
    "DECK_LETTERS",
    "DRAFT_PROCEDURES",
    "EARLY_TURNS",
    "END_REASONS",
    "NOTABLE",
    "SOLO",
    "SOLO_END_REASONS",
    "BatchSpec",
    "CardStats",
    "DeckResult",
    "DraftSpec",
    "EventData",
    "Frame",
    "GameOutcome",
    "Rate",
    "ReplayedGame",
    "Summary",
    "TeamResult",
    "Totals",
    "card_stats",
    "chunk_count",
    "chunk_span",
    "deck_in_seat",
    "deck_seats",
    "derived_seed",
    "end_reasons",
    "histogram",
    "play_game",
    "play_games",
    "player_seats",
    "players_view",
    "replay_frames",
    "replay_game",
    "summarise",
]
