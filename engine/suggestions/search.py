"""Which card swaps make a deck win more: candidate decks raced by simulated games.

Pure Python over ``engine.simulation`` (no Django), so a unit of work plays the same games in a
Celery worker, in the in-process thread pool, in a benchmark or in a test.

- **Candidates.** Candidate 0 is the deck as it is (the baseline); every other one is the deck
  with one swap (a card out, a card in) or two. The card brought in takes the place of the card
  it replaces in the deck's order, so a game's shuffle puts it where the other card was.
- **Common random numbers.** Game ``g`` against opponent ``o`` has the same seeds for every
  candidate (``matchup_seed``: the search's seed, the opponent, the stream; then the game's
  index as in a batch): the candidate's game and the deck's game differ only by the swapped
  cards, and the change in win rate is measured on pairs of games, whose difference has far
  less variance than two independent win rates (measured on the preconstructed decks: a third
  less).
- **Scouting.** Round 0 tries every card the format allows in one slot of the deck, its
  weakest card by the engine's worth (``engine.suggestions.candidates``), with few games; the
  ``KEEP_IN`` cards that raised the win rate most are then tried in every slot.
- **Racing in rounds.** Round ``r`` brings every candidate still racing to ``target(r)`` games
  per opponent (doubling each round from round 1). After each round a candidate stops as soon as its
  interval shows it is worse: wholly below the deck (``WORSE``) or wholly below the leader's,
  on the games both played (``BEHIND``); then successive halving keeps the better half (by the
  change measured, at least ``KEEP_AT_LEAST``), the others are ``CUT``. These intervals are
  95% ones corrected for the number of candidates racing (Bonferroni, ``race_z``): among 96
  candidates, plain 95% intervals would stop a few good ones by bad luck every round.
- **Proof.** A candidate whose (corrected) interval lies wholly above the deck's is confirmed
  on games of a stream of its own, never played before (``CONFIRMING``): the winner of a race
  among many is favoured by its luck, fresh games are not. It is ``PROVED`` when the
  confirmation's 95% interval lies wholly above 0, else ``UNPROVED``; the confirmation's change
  and interval are what the search shows, with the change against each opponent (the matchups
  it improves). At most ``MAX_CONFIRMED[1]`` singles and ``MAX_CONFIRMED[2]`` pairs are
  confirmed, the best first.
- **Pairs.** Once the race of single swaps has narrowed, the best singles are combined in pairs
  (different cards out, different cards in), the pairs of the best sum of changes first, which
  join the race from game 0.

A game's result for the candidate's deck is one character: ``w`` won, ``l`` lost, ``d`` a draw
(the turn limit), worth 1, 0 and 1/2. Everything the search decides follows from these results
and the seed: the same seed gives the same suggestions, whatever the workers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any, Final

from engine import simulation
from engine.rules import CardDef

# A swap: (catalogue slug of the card out, slug of the card in); a candidate holds one or two.
Swap = tuple[str, str]
Swaps = tuple[Swap, ...]

WIN: Final = "w"
LOSS: Final = "l"
DRAW: Final = "d"
SCORES: Final = {WIN: 1.0, LOSS: 0.0, DRAW: 0.5}

BASELINE = 0
# Stream 0: the race's games; stream k >= 1: the k-th confirmation's.
SCREEN = 0

# Statuses (engine.models.CandidateStatus).
BASE = "baseline"
RACING = "racing"
WORSE = "worse"
BEHIND = "behind"
CUT = "cut"
CONFIRMING = "confirming"
PROVED = "proved"
UNPROVED = "unproved"
UNDECIDED = "undecided"

# The 95% intervals: of a change in win rate, two-sided.
Z: Final = 1.959964
# Round 0 (the scouting) plays this many games per opponent, round 1 FIRST_TARGET, each round
# after it twice as many, up to MAX_TARGET.
SCOUT_TARGET: Final = 16
FIRST_TARGET: Final = 32
MAX_TARGET: Final = 1024
# The scouting keeps this many cards to try in every slot of the deck.
KEEP_IN: Final = 12
# Successive halving never leaves fewer candidates racing than this.
KEEP_AT_LEAST: Final = 4
# A confirmation plays this many games in all (at least CONFIRM_MIN per opponent): about 1.7
# points of standard error on the preconstructed decks, so a gain of 4 points is proved.
CONFIRM_GAMES: Final = 768
CONFIRM_MIN: Final = 64
# The most candidates a search confirms, by number of swaps (the best it shows as proved).
MAX_CONFIRMED: Final = {1: 4, 2: 3}
# Pairs of swaps: at most MAX_PAIRS, made of the PAIR_SINGLES best singles (by their change),
# once at most PAIR_WHEN_RACING singles race or from round PAIR_ROUND on.
PAIR_SINGLES: Final = 12
MAX_PAIRS: Final = 10
PAIR_WHEN_RACING: Final = 6
PAIR_ROUND: Final = 4
# A chunk of ``(first, games)`` of a unit never splits a job finer than this many games.
MIN_PIECE: Final = 8


def matchup_seed(seed: int, opponent: int, stream: int) -> int:
    """The seed of the games against ``opponent`` in ``stream``, shared by every candidate."""
    return simulation.derived_seed(seed, opponent, 1000 + stream)


def candidate_deck(
    cards: Sequence[CardDef],
    slugs: Sequence[str],
    swaps: Swaps,
    incoming: Mapping[str, CardDef],
) -> tuple[CardDef, ...]:
    """The deck with ``swaps`` made, each card in taking the place of the card it replaces."""
    deck = list(cards)
    for out, into in swaps:
        deck[list(slugs).index(out)] = incoming[into]
    return tuple(deck)


@dataclass(frozen=True)
class SearchSpec:
    """What every game of a search plays: the deck (its cards in order, with their catalogue
    slugs), the cards it may bring in, and the opponents' decks."""

    cards: tuple[CardDef, ...]
    slugs: tuple[str, ...]
    incoming: Mapping[str, CardDef]
    opponents: tuple[tuple[CardDef, ...], ...]

    @classmethod
    def from_json(
        cls,
        *,
        cards: Sequence[dict[str, Any]],
        slugs: Sequence[str],
        incoming: Mapping[str, dict[str, Any]],
        opponents: Sequence[Sequence[dict[str, Any]]],
    ) -> SearchSpec:
        """From the engine card JSON a search stores (``InputError`` if it is not valid)."""
        return cls(
            tuple(CardDef.from_json(card, f"card {i}") for i, card in enumerate(cards)),
            tuple(slugs),
            {slug: CardDef.from_json(card, slug) for slug, card in incoming.items()},
            tuple(
                tuple(
                    CardDef.from_json(card, f"opponent {o} card {i}") for i, card in enumerate(deck)
                )
                for o, deck in enumerate(opponents)
            ),
        )

    def deck(self, swaps: Swaps) -> tuple[CardDef, ...]:
        return candidate_deck(self.cards, self.slugs, swaps, self.incoming)


def result_code(returns: int) -> str:
    return WIN if returns > 0 else LOSS if returns < 0 else DRAW


def play(
    deck: tuple[CardDef, ...],
    opponents: Sequence[tuple[CardDef, ...]],
    agent: str,
    seed: int,
    stream: int,
    first: int,
    count: int,
    keep_going: Callable[[], bool] = lambda: True,
) -> list[str] | None:
    """``deck``'s results in games ``first`` … ``first + count - 1`` of ``stream`` against each
    opponent, the deck always entered first (it plays first in the even games); None if
    ``keep_going`` said stop (it is asked between games)."""
    results = []
    for opponent, other in enumerate(opponents):
        spec = simulation.BatchSpec(
            seed=matchup_seed(seed, opponent, stream), decks=(deck, other), agents=(agent, agent)
        )
        codes = []
        for index in range(first, first + count):
            if not keep_going():
                return None
            codes.append(result_code(simulation.play_game(spec, index).returns[0]))
        results.append("".join(codes))
    return results


# Statistics -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """A candidate's win rate against the deck's on the same games: the change and its 95%
    interval (in win rate: 0.05 is 5 points), and both win rates."""

    games: int
    change: float
    low: float
    high: float
    rate: float
    base_rate: float

    @property
    def better(self) -> bool:
        return self.games > 0 and self.low > 0

    @property
    def worse(self) -> bool:
        return self.games > 0 and self.high < 0


def race_z(racing: int) -> float:
    """The z of a 95% interval corrected for ``racing`` comparisons at once (Bonferroni)."""
    return NormalDist().inv_cdf(1 - 0.025 / max(1, racing))


def paired_change(mine: str, theirs: str, z: float = Z) -> Change:
    """The change from ``theirs`` to ``mine``, two result strings of the same games (``z``: of
    the interval, 95% two-sided by default).

    The interval is Agresti and Min's for paired results: one pseudo-game won by each side is
    added before the variance is taken, so a handful of games that differ (most pairs are
    equal) does not give an interval of zero width.
    """
    games = min(len(mine), len(theirs))
    if not games:
        return Change(0, 0.0, -1.0, 1.0, 0.0, 0.0)
    total = squares = mine_total = 0.0
    for a, b in zip(mine[:games], theirs[:games], strict=True):
        score = SCORES[a]
        difference = score - SCORES[b]
        mine_total += score
        total += difference
        squares += difference * difference
    padded = games + 2
    mean = total / padded
    variance = (squares + 2) / padded - mean * mean
    half = z * math.sqrt(max(variance, 0.0) / padded)
    rate = mine_total / games
    return Change(games, total / games, mean - half, mean + half, rate, rate - total / games)


@dataclass
class Racer:
    """A candidate and its results: by stream, one string per opponent."""

    index: int
    swaps: Swaps
    status: str
    results: dict[int, list[str]] = field(default_factory=dict)
    confirm_stream: int | None = None
    settled_round: int | None = None

    def games(self, stream: int = SCREEN) -> int:
        """Games played per opponent in ``stream`` (every opponent the same number)."""
        rows = self.results.get(stream)
        return min(len(row) for row in rows) if rows else 0


def change(
    racer: Racer,
    other: Racer,
    stream: int = SCREEN,
    opponent: int | None = None,
    z: float = Z,
) -> Change:
    """``racer`` against ``other`` on the games of ``stream`` both played, every opponent (or
    one) with as many games."""
    mine, theirs = racer.results.get(stream), other.results.get(stream)
    if not mine or not theirs:
        return paired_change("", "")
    games = min(racer.games(stream), other.games(stream))
    opponents = range(len(mine)) if opponent is None else (opponent,)
    return paired_change(
        "".join(mine[o][:games] for o in opponents),
        "".join(theirs[o][:games] for o in opponents),
        z,
    )


def verdict(racer: Racer, baseline: Racer) -> Change:
    """What the search shows of a candidate: its confirmation once it has one, else the race."""
    stream = racer.confirm_stream if racer.status in (PROVED, UNPROVED) else None
    return change(racer, baseline, SCREEN if stream is None else stream)


def matchups(racer: Racer, baseline: Racer, opponents: int) -> list[Change]:
    """The change against each opponent, on the games ``verdict`` counts."""
    stream = racer.confirm_stream if racer.status in (PROVED, UNPROVED) else None
    played = SCREEN if stream is None else stream
    return [change(racer, baseline, played, opponent) for opponent in range(opponents)]


# Rounds ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """Games ``first`` … ``first + count - 1`` of ``stream`` for candidate ``candidate``,
    against every opponent."""

    candidate: int
    stream: int
    first: int
    count: int

    def to_json(self) -> list[int]:
        return [self.candidate, self.stream, self.first, self.count]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Job:
        candidate, stream, first, count = data
        return cls(candidate, stream, first, count)


@dataclass(frozen=True)
class Plan:
    """What a round's close decided: the candidates (statuses updated, pairs added), the next
    round's target and jobs (none: the search is over)."""

    racers: tuple[Racer, ...]
    target: int
    jobs: tuple[Job, ...]
    pairs_added: bool
    # The scouting's close: the cards it kept to try in every slot (else empty).
    kept: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        return not self.jobs


def target(round_: int) -> int:
    """Games per opponent every racing candidate has played once round ``round_`` is over."""
    return SCOUT_TARGET if round_ == 0 else min(MAX_TARGET, FIRST_TARGET << (round_ - 1))


def confirm_games(opponents: int) -> int:
    """Games per opponent of a confirmation."""
    return max(CONFIRM_MIN, -(-CONFIRM_GAMES // opponents))


def _ranked(racers: Iterable[Racer], baseline: Racer) -> list[Racer]:
    """Best change first (ties: the earlier candidate)."""
    return sorted(racers, key=lambda one: (-change(one, baseline).change, one.index))


def close_round(
    racers: Sequence[Racer],
    *,
    round_: int,
    opponents: int,
    outs: Sequence[str],
    pairs_added: bool,
    budget: int,
    legal: Callable[[list[Swaps]], list[Swaps]],
) -> Plan:
    """Settle round ``round_`` (its games are in ``racers``) and plan round ``round_ + 1``.

    ``outs``: the deck's cards (slugs) that may go out; ``budget``: the games the search may
    still play (a round that does not fit plays its confirmations only, if they fit; else the
    search ends); ``legal``: which of some swaps make a legal deck.
    """
    racers = [replace(one, results=dict(one.results)) for one in racers]
    baseline = racers[BASELINE]

    def settle(racer: Racer, status: str) -> None:
        racer.status = status
        racer.settled_round = round_

    for racer in racers:
        stream = racer.confirm_stream
        if (
            racer.status == CONFIRMING
            and stream
            and racer.games(stream) >= confirm_games(opponents)
        ):
            proved = change(racer, baseline, stream).better
            settle(racer, PROVED if proved else UNPROVED)
    racing = [one for one in racers if one.status == RACING]
    z = race_z(len(racing))
    for racer in racing:
        if change(racer, baseline, z=z).worse:
            settle(racer, WORSE)
    leaders = _ranked(
        (one for one in racers if one.status in (RACING, CONFIRMING, PROVED)), baseline
    )
    if leaders:
        leader = leaders[0]
        for racer in racers:
            if racer.status == RACING and racer is not leader and change(racer, leader, z=z).worse:
                settle(racer, BEHIND)
    confirmed = Counter(len(one.swaps) for one in racers if one.confirm_stream is not None)
    streams = sum(confirmed.values())
    for racer in _ranked((one for one in racers if one.status == RACING), baseline):
        size = len(racer.swaps)
        if confirmed[size] < MAX_CONFIRMED[size] and change(racer, baseline, z=z).better:
            confirmed[size] += 1
            streams += 1
            racer.status = CONFIRMING
            racer.confirm_stream = streams
    kept: tuple[str, ...] = ()
    if round_ == 0:
        kept = _scouted(racers, baseline, settle)
        racers.extend(_racers(len(racers), _slots(racers, kept, outs), legal))
    else:
        still = _ranked((one for one in racers if one.status == RACING), baseline)
        if round_ + 1 > _last_round():
            for racer in still:
                settle(racer, UNDECIDED)
            still = []
        keep = max(KEEP_AT_LEAST, -(-len(still) // 2))
        for racer in still[keep:]:
            settle(racer, CUT)
        singles_racing = sum(1 for one in still[:keep] if len(one.swaps) == 1)
        if not pairs_added and (singles_racing <= PAIR_WHEN_RACING or round_ + 1 >= PAIR_ROUND):
            pairs_added = True
            racers.extend(_racers(len(racers), _pairs(racers, baseline), legal)[:MAX_PAIRS])
    goal = target(round_ + 1)
    screening = [
        Job(one.index, SCREEN, one.games(), goal - one.games())
        for one in racers
        if one.status == RACING and one.games() < goal
    ]
    if screening and baseline.games() < goal:
        screening.insert(0, Job(BASELINE, SCREEN, baseline.games(), goal - baseline.games()))
    confirming = []
    for one in racers:
        stream = one.confirm_stream
        if one.status == CONFIRMING and stream is not None and not one.games(stream):
            games = confirm_games(opponents)
            confirming += [Job(BASELINE, stream, 0, games), Job(one.index, stream, 0, games)]
    jobs = screening + confirming
    if _cost(jobs, opponents) > budget:
        for racer in racers:
            if racer.status == RACING:
                settle(racer, UNDECIDED)
        jobs = confirming
    if _cost(jobs, opponents) > budget:
        for racer in racers:
            if racer.status == CONFIRMING:
                settle(racer, UNDECIDED)
        jobs = []
    return Plan(tuple(racers), goal, tuple(jobs), pairs_added, kept)


def _last_round() -> int:
    """The round whose target reaches MAX_TARGET: the race's last."""
    return next(r for r in range(64) if target(r) >= MAX_TARGET)


def _cost(jobs: Sequence[Job], opponents: int) -> int:
    return sum(job.count for job in jobs) * opponents


def _scouted(
    racers: list[Racer], baseline: Racer, settle: Callable[[Racer, str], None]
) -> tuple[str, ...]:
    """The scouting's close: the KEEP_IN cards whose scout raised the win rate most (among
    those not stopped as worse); the other scouts still racing are cut."""
    scouts = _ranked((one for one in racers if len(one.swaps) == 1), baseline)
    kept = [one.swaps[0][1] for one in scouts if one.status in (RACING, CONFIRMING, PROVED)][
        :KEEP_IN
    ]
    for one in scouts:
        if one.status == RACING and one.swaps[0][1] not in kept:
            settle(one, CUT)
    return tuple(kept)


def _slots(racers: list[Racer], kept: Sequence[str], outs: Sequence[str]) -> list[Swaps]:
    """Each kept card in the place of each card of the deck, but the swaps already raced."""
    raced = {one.swaps for one in racers}
    return [((out, into),) for into in kept for out in outs if ((out, into),) not in raced]


def _racers(
    start: int, proposed: list[Swaps], legal: Callable[[list[Swaps]], list[Swaps]]
) -> list[Racer]:
    """New racers, numbered from ``start``: those of ``proposed`` that are legal, in order."""
    return [Racer(start + offset, swaps, RACING) for offset, swaps in enumerate(legal(proposed))]


def _pairs(racers: list[Racer], baseline: Racer) -> list[Swaps]:
    """Pairs of the best single swaps that raised the win rate (two different cards out, two
    different cards in), the best sum of changes first."""
    singles = [
        (one.swaps[0], change(one, baseline).change)
        for one in _ranked((r for r in racers if len(r.swaps) == 1), baseline)
        if one.status != WORSE and change(one, baseline).change > 0
    ][:PAIR_SINGLES]
    proposed: list[tuple[float, int, Swaps]] = []
    for i, (first, gain) in enumerate(singles):
        for j, (second, other) in enumerate(singles[i + 1 :], i + 1):
            if first[0] != second[0] and first[1] != second[1]:
                proposed.append((-(gain + other), i * len(singles) + j, (first, second)))
    return [swaps for _gain, _order, swaps in sorted(proposed)]


def first_round(racers: Sequence[Racer]) -> Plan:
    """Round 0, the scouting: every candidate (a card of the pool in one slot of the deck) and
    the deck to ``target(0)`` games per opponent."""
    goal = target(0)
    return Plan(
        tuple(racers),
        goal,
        tuple(Job(one.index, SCREEN, 0, goal) for one in racers),
        pairs_added=False,
    )


def pack(jobs: Sequence[Job], opponents: int, unit_games: int) -> list[list[Job]]:
    """The jobs cut into units of at most about ``unit_games`` games each (a job's span may be
    cut, never finer than MIN_PIECE games per opponent), in order."""
    per_unit = max(MIN_PIECE, unit_games // max(1, opponents))
    units: list[list[Job]] = []
    current: list[Job] = []
    size = 0
    for job in jobs:
        first, left = job.first, job.count
        while left:
            room = per_unit - size
            if room < min(MIN_PIECE, left) and current:
                units.append(current)
                current, size = [], 0
                room = per_unit
            count = min(left, room)
            current.append(Job(job.candidate, job.stream, first, count))
            size += count
            first += count
            left -= count
    if current:
        units.append(current)
    return units


def merge(racer: Racer, stream: int, first: int, results: Sequence[str]) -> None:
    """Add a unit's results (games ``first`` on, one string per opponent) to ``racer``'s: the
    units of a round are merged in order, so the strings grow game by game."""
    rows = racer.results.setdefault(stream, ["" for _ in results])
    for opponent, codes in enumerate(results):
        row = rows[opponent]
        rows[opponent] = row[:first] + codes + row[first + len(codes) :]
