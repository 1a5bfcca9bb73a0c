"""Writes of the metagame: a refresh of the round robin, one pairing's games, the standings.

`metagame_refresh` (the Celery beat's task every METAGAME_REFRESH_SECONDS, or
`manage.py metagame_refresh`) takes the METAGAME_DECKS most popular public decks legal for a
Duel. When they and their versions are those of the latest refresh, there is nothing to do;
otherwise a new refresh lists every pair of them, and a pair already played by the same versions
of both decks, the same AI, games and engine is reused: only the pairs where a deck changed (or
joined) are played again, one task each. The pairing that completes its refresh computes the
standings (`engine.metagame.rating`).
"""

import hashlib
import logging
import time
from itertools import combinations
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from cod_site.errors import DomainError
from engine import background, simulation
from engine.adapters.decks import DeckChoice, ResolvedDeck, simulation_deck_resolve
from engine.metagame import rating
from engine.metagame.selectors import popular_public_decks
from engine.models import ACTIVE_STATUSES, MetagamePairing, MetagameRefresh, Status
from engine.rules import engine_digest
from engine.services import agent_for

logger = logging.getLogger(__name__)

RUN_PAIRING_TASK = "engine.run_metagame_pairing"
REFRESH_TASK = "engine.refresh_metagame"
# Games of each pair of decks: with 16 decks, each deck's rating rests on 6,000 games (an
# interval of about +-20 Elo points).
GAMES_PER_PAIR = 400
# Looked at beyond METAGAME_DECKS, in case some popular decks are not legal for a Duel.
LOOK_AHEAD = 2


def _pairing_seed(a: int, version_a: int, b: int, version_b: int) -> int:
    """The games of a pair depend on the decks and their versions only."""
    digest = hashlib.blake2b(
        f"{a}:{version_a}:{b}:{version_b}".encode(), digest_size=8, person=b"cod-meta"
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def _field() -> list[tuple[dict[str, Any], ResolvedDeck]]:
    """The decks the metagame ranks, most popular first, with what their games play."""
    viewer = AnonymousUser()
    chosen: list[tuple[dict[str, Any], ResolvedDeck]] = []
    for deck in popular_public_decks().select_related("owner")[
        : LOOK_AHEAD * settings.METAGAME_DECKS
    ]:
        try:
            resolved = simulation_deck_resolve(
                side="a", choice=DeckChoice(deck=deck.share_id), viewer=viewer
            )
        except DomainError:
            continue  # a public deck not legal for a Duel (or not playable) is not ranked
        entry = {
            "deck": deck.pk,
            "share_id": deck.share_id,
            "name": deck.name,
            "owner": deck.owner.get_username(),
            "version": deck.version,
            "forks": deck.fork_count,  # type: ignore[attr-defined]  # the selector's annotation
            "players": deck.player_count,  # type: ignore[attr-defined]
        }
        chosen.append((entry, resolved))
        if len(chosen) == settings.METAGAME_DECKS:
            break
    return chosen


def metagame_refresh(*, send: bool = True) -> MetagameRefresh | None:
    """Start a refresh if the decks changed (None: fewer than 2 decks to rank), else send again
    the pairings of an unfinished one; returns the refresh that holds the current decks.
    `send`: False leaves the pairings to the caller (`play_unplayed`)."""
    field = _field()
    if len(field) < 2:
        return None
    entries = [entry for entry, _resolved in field]
    pairs = len(field) * (len(field) - 1) // 2
    agent = agent_for(pairs * GAMES_PER_PAIR)
    digest = engine_digest()
    key = [(entry["deck"], entry["version"]) for entry in entries]
    latest = MetagameRefresh.objects.exclude(status__in=(Status.FAILED, Status.CANCELLED)).first()
    if (
        latest is not None
        and [(entry["deck"], entry["version"]) for entry in latest.entries] == key
        and (latest.agent, latest.games_per_pair, latest.engine_digest)
        == (agent, GAMES_PER_PAIR, digest)
    ):
        if send and latest.status in ACTIVE_STATUSES:
            _send_when_committed(_unplayed(latest))
        return latest
    with transaction.atomic():
        refresh = MetagameRefresh.objects.create(
            entries=entries, agent=agent, games_per_pair=GAMES_PER_PAIR, engine_digest=digest
        )
        for (entry_a, deck_a), (entry_b, deck_b) in combinations(
            sorted(field, key=lambda one: one[0]["deck"]), 2
        ):
            pairing, _created = MetagamePairing.objects.get_or_create(
                deck_a_id=entry_a["deck"],
                version_a=entry_a["version"],
                deck_b_id=entry_b["deck"],
                version_b=entry_b["version"],
                agent=agent,
                games=GAMES_PER_PAIR,
                engine_digest=digest,
                defaults={
                    "cards_a": deck_a.cards,
                    "cards_b": deck_b.cards,
                    "seed": _pairing_seed(
                        entry_a["deck"], entry_a["version"], entry_b["deck"], entry_b["version"]
                    ),
                },
            )
            if pairing.status == Status.FAILED:
                # Failed in an earlier refresh (a worker lost, say): given another chance.
                MetagamePairing.objects.filter(pk=pairing.pk).update(status=Status.QUEUED)
            refresh.pairings.add(pairing)
        unplayed = _unplayed(refresh)
        if not unplayed:
            _refresh_close(refresh.pk)
        if send:
            _send_when_committed(unplayed)
    return refresh


def _unplayed(refresh: MetagameRefresh) -> list[int]:
    return list(
        refresh.pairings.exclude(status=Status.DONE).order_by("pk").values_list("pk", flat=True)
    )


def _send_when_committed(pairing_ids: list[int]) -> None:
    def send() -> None:
        if current_app.conf.task_always_eager:
            for pairing_id in pairing_ids:
                background.submit(pairing_run, pairing_id=pairing_id)
            return
        task = current_app.tasks[RUN_PAIRING_TASK]
        for pairing_id in pairing_ids:
            task.apply_async(args=(pairing_id,))

    if pairing_ids:
        transaction.on_commit(send)


def pairing_run(*, pairing_id: int) -> bool:
    """Play a pairing's games and write them once (False: already written, or gone); the
    pairing that completes a refresh closes it."""
    pairing = MetagamePairing.objects.filter(pk=pairing_id).first()
    if pairing is None or pairing.status not in ACTIVE_STATUSES:
        return False
    if pairing.engine_digest != engine_digest():
        logger.warning("metagame pairing %s: another engine; left for a refresh", pairing_id)
        return False
    spec = simulation.BatchSpec.from_json(
        seed=pairing.seed,
        decks=[pairing.cards_a, pairing.cards_b],
        agents=[pairing.agent, pairing.agent],
    )
    started = time.thread_time()
    totals = simulation.play_games(spec, 0, pairing.games)
    with transaction.atomic():
        written = MetagamePairing.objects.filter(pk=pairing_id, status__in=ACTIVE_STATUSES).update(
            wins_a=totals.wins[0],
            wins_b=totals.wins[1],
            draws=totals.draws,
            status=Status.DONE,
            engine_seconds=time.thread_time() - started,
            finished_at=timezone.now(),
        )
        if not written:
            return False
        for refresh_id in pairing.refreshes.filter(status__in=ACTIVE_STATUSES).values_list(
            "pk", flat=True
        ):
            _refresh_close(refresh_id)
    return True


def _refresh_close(refresh_id: int) -> None:
    """Compute the standings of a refresh whose pairings are all played (else do nothing)."""
    refresh = MetagameRefresh.objects.select_for_update().get(pk=refresh_id)
    if (
        refresh.status not in ACTIVE_STATUSES
        or refresh.pairings.exclude(status=Status.DONE).exists()
    ):
        return
    refresh.standings = standings_compute(refresh.entries, list(refresh.pairings.all()))
    refresh.status = Status.DONE
    refresh.finished_at = timezone.now()
    refresh.save(update_fields=["standings", "status", "finished_at"])


def standings_compute(
    entries: list[dict[str, Any]], pairings: list[MetagamePairing]
) -> list[dict[str, Any]]:
    """Each deck's Elo with its 95% interval, its score and its best and worst matchups,
    strongest first."""
    index = {entry["deck"]: position for position, entry in enumerate(entries)}
    results = [
        rating.PairResult(
            index[one.deck_a_id], index[one.deck_b_id], one.games, one.wins_a + one.draws / 2
        )
        for one in pairings
    ]
    rated = rating.ratings(len(entries), results)
    matchups: list[list[dict[str, Any]]] = [[] for _ in entries]
    for pair in results:
        for mine, theirs, score in (
            (pair.a, pair.b, pair.score),
            (pair.b, pair.a, pair.games - pair.score),
        ):
            other = entries[theirs]
            matchups[mine].append(
                {
                    "share_id": other["share_id"],
                    "name": other["name"],
                    "games": pair.games,
                    "score": score,
                }
            )
    rows = []
    for position, entry in enumerate(entries):
        played = sorted(
            matchups[position], key=lambda one: (one["score"] / one["games"], one["name"])
        )
        rows.append(
            {
                **{key: entry[key] for key in ("share_id", "name", "owner", "version")},
                "forks": entry["forks"],
                "players": entry["players"],
                "elo": round(rated[position].elo, 1),
                "low": round(rated[position].low, 1),
                "high": round(rated[position].high, 1),
                "games": sum(one["games"] for one in played),
                "score": sum(one["score"] for one in played),
                "best": played[-1] if played else None,
                "worst": played[0] if played else None,
            }
        )
    return sorted(rows, key=lambda row: (-row["elo"], row["name"]))


def pairing_fail(*, pairing_id: int, error: str) -> None:
    """A pairing failed for good: it and the refreshes waiting for it stop."""
    logger.error("metagame pairing %s failed: %s", pairing_id, error)
    with transaction.atomic():
        MetagamePairing.objects.filter(pk=pairing_id, status__in=ACTIVE_STATUSES).update(
            status=Status.FAILED, finished_at=timezone.now()
        )
        MetagameRefresh.objects.filter(pairings__pk=pairing_id, status__in=ACTIVE_STATUSES).update(
            status=Status.FAILED, finished_at=timezone.now()
        )


def play_unplayed(refresh: MetagameRefresh) -> int:
    """Play a refresh's unplayed pairings in this process (the command's `--wait`, without
    workers); returns how many."""
    unplayed = _unplayed(refresh)
    for pairing_id in unplayed:
        pairing_run(pairing_id=pairing_id)
    return len(unplayed)
