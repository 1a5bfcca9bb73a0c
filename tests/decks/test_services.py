"""Deck writes: versions on every save, restores, forks, and what a save refuses."""

import pytest
from django.contrib.auth.models import AbstractBaseUser

from cards.models import Card
from cod_site.errors import DomainError
from decks import services
from decks.models import Deck, DeckVersion
from decks.selectors.access import deck_get
from decks.selectors.codes import deck_code_of
from decks.selectors.formats import format_get
from decks.selectors.lookup import cards_require
from decks.selectors.versions import deck_version_diff
from tests.decks.conftest import CONSTRUCTED, PRECON

pytestmark = pytest.mark.usefixtures("cards_db")


def _cards(slugs: list[str]) -> list[Card]:
    return cards_require(slugs, "cards")


def _new(owner: AbstractBaseUser, **extra: object) -> Deck:
    values = {
        "name": "Teeth",
        "format": format_get(slug="constructed"),
        "cards": _cards(CONSTRUCTED),
    }
    return services.deck_create(owner=owner, **{**values, **extra})  # type: ignore[arg-type]


def test_create_records_version_one(owner: AbstractBaseUser) -> None:
    deck = _new(owner, description="A *fast* deck")
    version = DeckVersion.objects.get(deck=deck)
    assert (deck.version, version.number, version.kind, version.author) == (1, 1, "created", owner)
    assert version.cards == CONSTRUCTED
    assert (version.name, version.description, version.format.slug) == (
        "Teeth",
        "A *fast* deck",
        "constructed",
    )
    assert version.code == deck_code_of(
        deck_get(share_id=deck.share_id, viewer=owner), viewer=owner
    )
    assert len(deck.share_id) == 11


def test_every_save_adds_a_version_and_old_ones_never_change(owner: AbstractBaseUser) -> None:
    deck = _new(owner)
    services.deck_update(deck=deck, actor=owner, name="Teeth II")
    services.deck_update(
        deck=deck, actor=owner, cards=_cards(PRECON[1]), format=format_get(slug="preconstructed")
    )
    services.deck_update(deck=deck, actor=owner, visibility="public")
    rows = list(
        DeckVersion.objects.filter(deck=deck)
        .order_by("number")
        .values_list("number", "name", "format__slug", "cards")
    )
    assert rows == [
        (1, "Teeth", "constructed", CONSTRUCTED),
        (2, "Teeth II", "constructed", CONSTRUCTED),
        (3, "Teeth II", "preconstructed", PRECON[1]),
        (4, "Teeth II", "preconstructed", PRECON[1]),
    ]
    deck.refresh_from_db()
    assert (deck.version, deck.visibility) == (4, "public")
    assert [row.card.slug for row in deck.deck_cards.order_by("position")] == PRECON[1]


def test_restore_brings_an_old_version_back_as_the_newest(owner: AbstractBaseUser) -> None:
    deck = _new(owner)
    services.deck_update(
        deck=deck, actor=owner, name="Other", description="d", cards=_cards(PRECON[2])
    )
    services.deck_version_restore(deck=deck, actor=owner, number=1)
    deck.refresh_from_db()
    assert (deck.version, deck.name, deck.description) == (3, "Teeth", "")
    assert [row.card.slug for row in deck.deck_cards.order_by("position")] == CONSTRUCTED
    latest = DeckVersion.objects.get(deck=deck, number=3)
    assert (latest.kind, latest.source_number, latest.cards) == ("restored", 1, CONSTRUCTED)
    diff = deck_version_diff(deck, 2, 3, viewer=owner)
    assert diff.added == CONSTRUCTED
    assert diff.dropped == PRECON[2]
    assert diff.kept == []
    assert [(c.field, c.old, c.new) for c in diff.changes] == [
        ("name", "Other", "Teeth"),
        ("description", "d", ""),
    ]


def test_diff_counts_copies(owner: AbstractBaseUser) -> None:
    deck = _new(owner, cards=_cards(["grrr", "baron"]))
    services.deck_update(deck=deck, actor=owner, cards=_cards(["grrr", "grrr", "troll"]))
    diff = deck_version_diff(deck, 1, 2, viewer=owner)
    assert (diff.added, diff.dropped, diff.kept) == (["grrr", "troll"], ["baron"], ["grrr"])


def test_update_with_new_cards_forgets_old_removals(owner: AbstractBaseUser) -> None:
    legacy = format_get(slug="constructed-2021")
    ten = _cards([*PRECON[1], "alpha", "ogre"])
    deck = _new(owner, format=legacy, cards=ten, removed=_cards(["troll", "ogre"]))
    assert list(deck.deck_cards.filter(removed=True).values_list("card__slug", flat=True)) == [
        "troll",
        "ogre",
    ]
    services.deck_update(deck=deck, actor=owner, name="Renamed")
    assert deck.deck_cards.filter(removed=True).count() == 2
    services.deck_update(deck=deck, actor=owner, cards=ten)
    assert deck.deck_cards.filter(removed=True).count() == 0
    assert DeckVersion.objects.get(deck=deck, number=2).removed == ["troll", "ogre"]


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"name": "   "}, "invalid_name"),
        ({"name": "x" * 101}, "invalid_name"),
        ({"description": "x" * 10_001}, "invalid_description"),
        ({"visibility": "secret"}, "invalid_visibility"),
        ({"removed": "grrr"}, "removed_card_not_in_deck"),
    ],
)
def test_create_refuses(owner: AbstractBaseUser, extra: dict, code: str) -> None:
    if "removed" in extra:
        extra = {"cards": _cards(["baron"]), "removed": _cards([extra["removed"]])}
    with pytest.raises(DomainError) as error:
        _new(owner, **extra)
    assert error.value.code == code
    assert Deck.objects.count() == 0


def test_too_many_cards(owner: AbstractBaseUser) -> None:
    with pytest.raises(DomainError) as error:
        _new(owner, cards=_cards(["grrr"]) * 65)
    assert (error.value.code, error.value.message) == (
        "too_many_cards",
        "A deck holds at most 64 cards.",
    )


def test_others_cannot_write_and_nothing_changes(
    owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    public = _new(owner, visibility="public")
    private = _new(owner)
    for deck, status in ((public, 403), (private, 404)):
        for write in (
            lambda d: services.deck_update(deck=d, actor=other, name="Mine now"),
            lambda d: services.deck_delete(deck=d, actor=other),
            lambda d: services.deck_version_restore(deck=d, actor=other, number=1),
        ):
            with pytest.raises(DomainError) as error:
                write(deck)
            assert error.value.status_code == status
    assert sorted(Deck.objects.values_list("name", "version")) == [("Teeth", 1), ("Teeth", 1)]
    with pytest.raises(DomainError) as error:
        services.deck_fork(deck=private, owner=other)
    assert error.value.status_code == 404


def test_staff_moderate(owner: AbstractBaseUser, staff: AbstractBaseUser) -> None:
    deck = _new(owner, visibility="public")
    services.deck_update(deck=deck, actor=staff, visibility="private")
    version = DeckVersion.objects.get(deck=deck, number=2)
    assert version.author == staff
    services.deck_delete(deck=deck, actor=staff)
    assert not Deck.objects.exists()


def test_fork_of_a_fork_keeps_the_lineage(owner: AbstractBaseUser, other: AbstractBaseUser) -> None:
    original = _new(owner, visibility="public")
    services.deck_update(deck=original, actor=owner, name="Teeth v2")
    first = services.deck_fork(deck=original, owner=other)
    second = services.deck_fork(deck=first, owner=other, name="Mine")
    assert (first.parent, first.name, first.owner) == (original, "Teeth v2 (copy)", other)
    assert (second.parent, second.name) == (first, "Mine")
    assert DeckVersion.objects.get(deck=first).source_number == 2
    services.deck_delete(deck=original, actor=owner)
    first.refresh_from_db()
    assert first.parent is None
