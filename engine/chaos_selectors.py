"""Reads of Duel of Chaos test batches: a user's batches, one batch, its results, its games
played again from their seed.
"""

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from engine.adapters.chaos import chaos_box
from engine.chaos import batch as chaos_batch
from engine.chaos.actions import Action
from engine.chaos.batch import BatchTotals, wilson
from engine.chaos.cards import Box
from engine.chaos.digest import engine_digest as chaos_engine_digest
from engine.chaos.replay import readable, record
from engine.chaos.state import Options
from engine.chaos.turn import new_game as chaos_new_game
from engine.models import ChaosAgent, ChaosBatch, Status
from engine.selectors import REPLAY_CACHE_SECONDS, Viewer, engine_changed_error, game_index_check


def chaos_batches_of(user: Viewer) -> QuerySet[ChaosBatch]:
    if not user.is_authenticated:
        return ChaosBatch.objects.none()
    return ChaosBatch.objects.filter(requested_by=user)


def chaos_batch_get(*, batch_id: int, user: Viewer) -> ChaosBatch:
    """A batch its requester (or staff) may see; anyone else gets the same 404."""
    batch = ChaosBatch.objects.filter(pk=batch_id).first()
    if batch is None or not (
        user.is_authenticated and (batch.requested_by_id == user.pk or user.is_staff)
    ):
        raise DomainError(
            "not_found",
            _("There is no Duel of Chaos test batch #%(id)s.") % {"id": batch_id},
            {"batch": batch_id},
            status_code=404,
        )
    return batch


@dataclass(frozen=True)
class ChaosSeatResult:
    seat: str
    agent: str
    wins: int
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class ChaosBatchResult:
    totals: BatchTotals
    seats: tuple[ChaosSeatResult, ...]
    mean_turns: float
    first_player_rate: float


def chaos_batch_result(batch: ChaosBatch) -> ChaosBatchResult | None:
    """A done batch's win rates by seat (95% Wilson intervals), mean turns, first player's wins."""
    if batch.totals is None:
        return None
    totals = BatchTotals.from_json(batch.totals)
    games = max(totals.games, 1)
    seats = []
    for index, agent in enumerate((batch.agent_a, batch.agent_b)):
        wins = totals.wins[index]
        low, high = wilson(wins, games)
        seats.append(
            ChaosSeatResult(
                "AB"[index], str(ChaosAgent(agent).label), wins, wins / games, low, high
            )
        )
    return ChaosBatchResult(
        totals, tuple(seats), totals.mean_turns(), totals.first_player_wins / games
    )


def chaos_batch_replayable(batch: ChaosBatch) -> bool:
    """Whether this process plays the batch's games again: played (done), by the same rules
    and agents (a batch from before digests were recorded: unknown, so no)."""
    return batch.status == Status.DONE and batch.engine_digest == chaos_engine_digest()


@dataclass(frozen=True)
class ChaosBatchGame:
    """Game `index` of a Duel of Chaos batch, played again: its box, seed, options and actions,
    and its end (winner: a seat, None at the turn limit)."""

    batch: ChaosBatch
    index: int
    box: Box
    seed: int
    options: Options
    actions: list[Action]
    winner: int | None
    turns: int

    def replay(self) -> dict[str, Any]:
        """The engine's replay of the game (`engine.chaos.replay.record`: its cards, seed,
        options, actions in their readable form and result)."""
        shown = readable(chaos_new_game(self.box, self.seed, self.options), self.actions)
        return record(self.box, self.seed, self.options, shown)


def chaos_batch_game(batch: ChaosBatch, index: int) -> ChaosBatchGame:
    """Game `index` of the batch, played again by its agents from its seed (games are not
    stored): a 404 `unknown_game` for a game the batch does not have, a 409 `not_played` before
    the batch played, `engine_changed` once the rules or the agents changed (they would play
    another game from the same seed)."""
    game_index_check(batch.games, index)
    if batch.status != Status.DONE:
        raise DomainError(
            "not_played",
            _("The games of this test batch are not played yet."),
            {"batch": batch.pk, "status": batch.status},
            status_code=409,
        )
    if not chaos_batch_replayable(batch):
        raise engine_changed_error(batch.pk, index)
    box = chaos_box(batch.cards, batch.set_code)
    # Stepping through a game asks for it again and again; a game of search agents takes up to
    # a second to play: its actions and end are kept (plain data), the steps replay the actions.
    key = f"chaos-replay:{batch.pk}:{index}:{batch.engine_digest}"
    kept = cache.get(key)
    if not isinstance(kept, dict):
        game = chaos_batch.batch_game(box, [batch.agent_a, batch.agent_b], batch.seed, index)
        kept = {"actions": game.actions, "winner": game.winner, "turns": game.turns}
        cache.set(key, kept, REPLAY_CACHE_SECONDS)
    return ChaosBatchGame(
        batch=batch,
        index=index,
        box=box,
        seed=chaos_batch.game_seed(batch.seed, index),
        options=chaos_batch.game_options("duel", index),
        actions=[(int(kind), int(value)) for kind, value in kept["actions"]],
        winner=kept["winner"],
        turns=kept["turns"],
    )
