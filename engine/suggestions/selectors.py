"""Reads of "Improve this deck": a user's searches, what a search plays, and its results."""

from collections import Counter
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from cards.selectors import card_name
from cod_site.errors import DomainError
from decks.models import Deck
from decks.selectors.lookup import cards_by_slug
from engine.metagame.selectors import popular_public_decks
from engine.models import CandidateStatus, SuggestionCandidate, SuggestionSearch
from engine.suggestions import search
from engine.suggestions.search import Change

Viewer = User | AnonymousUser
# The public decks most played: how many make the field (and the most decks given by hand).
FIELD_SIZE = 8
MAX_FIELD_DECKS = 8
# The swaps a search's results list: the proved ones, then the most promising of the others.
SHOWN = 10
# The order of the list: proved first, then those whose verdict is still to come.
ORDER = {
    CandidateStatus.PROVED: 0,
    CandidateStatus.CONFIRMING: 1,
    CandidateStatus.RACING: 2,
    CandidateStatus.UNDECIDED: 3,
    CandidateStatus.UNPROVED: 4,
    CandidateStatus.CUT: 5,
    CandidateStatus.BEHIND: 6,
    CandidateStatus.WORSE: 7,
}


def most_played_decks(*, exclude: Deck | None, limit: int) -> list[str]:
    """Share ids of the public decks most played in test games (then most forked), but
    `exclude`."""
    decks = popular_public_decks()
    if exclude is not None:
        decks = decks.exclude(pk=exclude.pk)
    return list(decks.values_list("share_id", flat=True)[:limit])


def searches_of(user: Viewer, deck: Deck | None = None) -> QuerySet[SuggestionSearch]:
    """The user's searches (of one deck), newest first."""
    if not user.is_authenticated:
        return SuggestionSearch.objects.none()
    searches = SuggestionSearch.objects.filter(requested_by=user)
    return searches.filter(deck=deck) if deck is not None else searches


def search_get(*, search_id: int, user: Viewer) -> SuggestionSearch:
    """A search its requester (or staff) may see; anyone else gets a 404."""
    item = SuggestionSearch.objects.select_related("deck").filter(pk=search_id).first()
    return search_visible(search_id=search_id, item=item, user=user)


def search_visible(
    *, search_id: int, item: SuggestionSearch | None, user: Viewer
) -> SuggestionSearch:
    """`item` if the user may see it; else, or if there is none, the same 404."""
    if item is None or not (
        user.is_authenticated and (item.requested_by_id == user.pk or user.is_staff)
    ):
        raise DomainError(
            "not_found",
            _("There is no search for suggestions #%(id)s.") % {"id": search_id},
            {"search": search_id},
            status_code=404,
        )
    return item


def search_spec(item: SuggestionSearch) -> search.SearchSpec:
    return search.SearchSpec.from_json(
        cards=item.cards,
        slugs=item.slugs,
        incoming=item.incoming,
        opponents=[deck["cards"] for deck in item.opponents],
    )


def _racer(row: SuggestionCandidate) -> search.Racer:
    return search.Racer(
        index=row.index,
        swaps=tuple((out, into) for out, into in row.swaps),
        status=row.status,
        results={int(stream): list(rows) for stream, rows in row.results.items()},
        confirm_stream=row.confirm_stream,
        settled_round=row.settled_round,
    )


def search_racers(item: SuggestionSearch) -> list[search.Racer]:
    """The search's candidates with their results, the deck as it is first."""
    return [
        _racer(row) for row in SuggestionCandidate.objects.filter(search=item).order_by("index")
    ]


# Results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwapView:
    out: str  # catalogue slugs
    into: str
    out_name: str  # in the current language
    in_name: str


@dataclass(frozen=True)
class MatchupChange:
    opponent: str
    change: Change


@dataclass(frozen=True)
class Suggestion:
    index: int
    swaps: tuple[SwapView, ...]
    status: str
    # The confirmation's games once confirmed, else the race's.
    verdict: Change
    confirmed: bool
    matchups: tuple[MatchupChange, ...]

    @property
    def status_label(self) -> str:
        return str(CandidateStatus(self.status).label)


@dataclass(frozen=True)
class SearchResult:
    search: SuggestionSearch
    # The deck's win rate in the race's games, in all and against each opponent.
    baseline: float | None
    baseline_matchups: tuple[tuple[str, float | None], ...]
    suggestions: tuple[Suggestion, ...]
    candidates: int
    counts: dict[str, int]
    percent: float

    @property
    def proved(self) -> tuple[Suggestion, ...]:
        return tuple(one for one in self.suggestions if one.status == CandidateStatus.PROVED)


def opponent_name(opponent: dict[str, object]) -> str:
    """A deck of the field, named in the current language when it is a preconstructed one."""
    number = opponent.get("preconstructed")
    if isinstance(number, int):
        return _("Preconstructed deck %(number)d") % {"number": number}
    return str(opponent["name"])


def search_percent(item: SuggestionSearch) -> float:
    """How much of the budget the search has played (100 once it is over)."""
    if item.finished_at is not None:
        return 100.0
    return round(min(100.0, 100 * item.games_done / item.max_games), 1)


def search_result(item: SuggestionSearch, shown: int = SHOWN) -> SearchResult:
    """The best swaps so far with their change and 95% interval, and against which opponents."""
    racers = search_racers(item)
    baseline = racers[search.BASELINE]
    opponents = [opponent_name(opponent) for opponent in item.opponents]
    ranked = sorted(
        racers[1:],
        key=lambda one: (ORDER[CandidateStatus(one.status)], -search.verdict(one, baseline).change),
    )[:shown]
    names = _card_names({slug for one in ranked for swap in one.swaps for slug in swap})
    suggestions = tuple(
        Suggestion(
            index=one.index,
            swaps=tuple(SwapView(out, into, names[out], names[into]) for out, into in one.swaps),
            status=one.status,
            verdict=search.verdict(one, baseline),
            confirmed=one.status in (CandidateStatus.PROVED, CandidateStatus.UNPROVED),
            matchups=tuple(
                MatchupChange(name, change)
                for name, change in zip(
                    opponents, search.matchups(one, baseline, len(opponents)), strict=True
                )
            ),
        )
        for one in ranked
    )
    games = baseline.games()
    rows = baseline.results.get(search.SCREEN, [])
    return SearchResult(
        search=item,
        baseline=_rate("".join(rows)) if games else None,
        baseline_matchups=tuple(
            (name, _rate(row) if row else None) for name, row in zip(opponents, rows, strict=False)
        ),
        suggestions=suggestions,
        candidates=len(racers) - 1,
        counts=dict(Counter(one.status for one in racers[1:])),
        percent=search_percent(item),
    )


@dataclass(frozen=True)
class Method:
    """How a search chose its swaps, in words for its page."""

    pool: int
    scouted: int
    slot: str  # the card the scouts replaced, named in the current language
    kept: tuple[str, ...]  # the cards then tried in every slot


def search_method(item: SuggestionSearch) -> Method:
    pruning = item.pruning
    kept = pruning.get("kept", [])
    names = _card_names({pruning["slot"], *kept})
    return Method(
        pool=pruning["pool"],
        scouted=pruning["scouted"],
        slot=names[pruning["slot"]],
        kept=tuple(names[slug] for slug in kept),
    )


def _card_names(slugs: set[str]) -> dict[str, str]:
    """Catalogue cards' names in the current language, by slug (a slug no card has: itself)."""
    cards = cards_by_slug(sorted(slugs))
    return {slug: card_name(cards[slug]) if slug in cards else slug for slug in slugs}


def _rate(codes: str) -> float:
    return sum(search.SCORES[code] for code in codes) / len(codes)
