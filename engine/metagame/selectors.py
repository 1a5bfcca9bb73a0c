"""Reads of the metagame: which public decks are popular, the latest standings, a deck's place.

The decks app records forks (a deck's `parent`) but not views; the engine app records which
decks were played in test games. A public deck's popularity is the number of its forks plus the
number of accounts that played it in a test batch: what the metagame ranks (the public decks
most forked or played) and what "the public decks most played" of a suggestion search are.
"""

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from decks.models import Deck, Visibility
from engine.models import MetagamePairing, MetagameRefresh, SimulationSeat, Status
from engine.simulation import Rate


def popular_public_decks() -> QuerySet[Deck]:
    """Public decks, most popular first (forks plus the accounts that played them in test
    batches), annotated with `fork_count` and `player_count`; ties: the most recently updated."""
    players = (
        SimulationSeat.objects.filter(deck=OuterRef("pk"))
        .order_by()
        .values("deck")
        .annotate(count=Count("batch__requested_by", distinct=True))
        .values("count")
    )
    return (
        Deck.objects.filter(visibility=Visibility.PUBLIC)
        .annotate(
            fork_count=Count("forks", distinct=True),
            player_count=Coalesce(Subquery(players, output_field=IntegerField()), Value(0)),
        )
        .annotate(popularity=F("fork_count") + F("player_count"))
        .order_by("-popularity", "-updated_at", "-id")
    )


@dataclass(frozen=True)
class Matchup:
    """One deck's results against another in the round robin."""

    share_id: str
    name: str
    rate: Rate  # the deck's score (draws count half) with its 95% interval

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Matchup":
        return cls(data["share_id"], data["name"], _score(data["games"], data["score"]))


@dataclass(frozen=True)
class Standing:
    rank: int
    share_id: str
    name: str
    owner: str
    version: int
    elo: float
    low: float
    high: float
    score: Rate  # over all its games
    best: Matchup | None
    worst: Matchup | None
    forks: int
    players: int


def _score(games: int, score: float) -> Rate:
    """A score with half points as a rate (a half point rounded to the even whole)."""
    return Rate.of(round(score), games) if games else Rate.of(0, 0)


def standings(refresh: MetagameRefresh) -> list[Standing]:
    """The refresh's decks, strongest first (empty until it is done)."""
    return [
        Standing(
            rank=rank,
            share_id=row["share_id"],
            name=row["name"],
            owner=row["owner"],
            version=row["version"],
            elo=row["elo"],
            low=row["low"],
            high=row["high"],
            score=_score(row["games"], row["score"]),
            best=Matchup.from_json(row["best"]) if row["best"] else None,
            worst=Matchup.from_json(row["worst"]) if row["worst"] else None,
            forks=row["forks"],
            players=row["players"],
        )
        for rank, row in enumerate(refresh.standings or [], 1)
    ]


def latest_refresh() -> MetagameRefresh | None:
    """The latest refresh whose games are all played: the metagame shown."""
    return MetagameRefresh.objects.filter(status=Status.DONE).first()


def refresh_running() -> MetagameRefresh | None:
    """A newer refresh being played, if any (with its progress)."""
    latest = MetagameRefresh.objects.first()
    return (
        latest if latest is not None and latest.status in (Status.QUEUED, Status.RUNNING) else None
    )


def refresh_progress(refresh: MetagameRefresh) -> tuple[int, int]:
    """(pairs played, pairs) of a refresh."""
    pairings = refresh.pairings.all()
    return pairings.filter(status=Status.DONE).count(), pairings.count()


def deck_place(share_id: str) -> Standing | None:
    """A deck's standing in the metagame shown (None: not one of its decks)."""
    refresh = latest_refresh()
    if refresh is None:
        return None
    return next((one for one in standings(refresh) if one.share_id == share_id), None)


def deck_matchups(refresh: MetagameRefresh, share_id: str) -> list[Matchup]:
    """A deck's results against every other deck of the refresh, best first."""
    entries = {entry["deck"]: entry for entry in refresh.entries}
    mine = next((entry["deck"] for entry in refresh.entries if entry["share_id"] == share_id), None)
    if mine is None:
        return []
    rows = []
    for pairing in refresh.pairings.filter(status=Status.DONE):
        if mine not in (pairing.deck_a_id, pairing.deck_b_id):
            continue
        first = pairing.deck_a_id == mine
        other = entries[pairing.deck_b_id if first else pairing.deck_a_id]
        wins = pairing.wins_a if first else pairing.wins_b
        score = wins + pairing.draws / 2
        rows.append(Matchup(other["share_id"], other["name"], _score(pairing.games, score)))
    return sorted(rows, key=lambda row: (-(row.rate.value or 0), row.name))


def pairings_of(refresh: MetagameRefresh) -> list[MetagamePairing]:
    return list(refresh.pairings.all())
