"""Fixtures for the Mutation tests: the real catalogue, users, and sessions set up quickly."""

from collections.abc import Sequence

import pytest
from django.utils import timezone

from cards.models import Card, Expansion
from mutation import services
from mutation.access import Actor
from mutation.models import DraftCard, MutationSession

# Seat 1's 16 cards in the rule tests (sets 01 Treachery and 06 Resistance): 8 for the deck, 8 for
# the Laboratory, chosen so that every mutation rule can be broken with real cards.
DECK_1 = [
    "sylvan-protector",  # 6 mana 3/5 defender;perforation;splash;berserk;instinct
    "crocosaurus",  # 4 mana 4/5 indestructible;berserk;mercenary
    "lantern-fish",  # 1 mana 2/2, no ability
    "scaredy-cat",  # 4 mana 1/6 aura:vanish
    "destruction",  # incantation
    "eternal-shambler",  # 0 mana 1/3 defender
    "reaper",  # 3 mana 4/2 splash
    "mad-scientist",  # 4 mana 1/5 regeneration;instinct
]
LAB_1 = [
    "titan",  # 7 mana 8/8
    "democular",  # 3 mana 3/1 aura:berserk
    "pacifist-druid",  # 2 mana 1/1 aura:indestructible;indestructible
    "swarmer",  # 1 mana 2/1 indestructible
    "veteran",  # 4 mana 4/4 defender;sharpening
    "rapscallion",  # 0 mana 3/1 mercenary
    "clean-cut",  # incantation 2 mana 1 splash
    "skiwk-skiwk",  # 4 mana 3/2 rage;splash
]


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("orga", password="pw-orga-123456")


@pytest.fixture
def players(django_user_model) -> list:
    return [
        django_user_model.objects.create_user(name, password=f"pw-{name}-123456")
        for name in ("ana", "bo", "cy", "di")
    ]


def card_id(slug: str) -> int:
    return Card.objects.get(slug=slug).pk


def expansion(slug: str) -> Expansion:
    return Expansion.objects.get(slug=slug)


def new_session(organiser, *, a: str = "treachery", b: str = "resistance", seed: int = 2024):
    return services.mutation_session_create(
        organiser=organiser,
        name="Friday session",
        expansion_a=expansion(a),
        expansion_b=expansion(b),
        seed=seed,
        players=["Ana", "Bo", "Cy", "Di"],
    )


def fast_draft(session: MutationSession, pools: dict[int, Sequence[str]]) -> dict[int, list[int]]:
    """Test set-up: give each seat its 16 cards without running the draft (tested on its own).
    Seats without a listed pool get the cards left over, in deal order."""
    wanted = {seat: [card_id(slug) for slug in slugs] for seat, slugs in pools.items()}
    taken = {card for cards in wanted.values() for card in cards}
    rest = [
        row.card_id
        for row in DraftCard.objects.filter(session=session).order_by("dealt_to", "deal_order")
        if row.card_id not in taken
    ]
    for number in (1, 2, 3, 4):
        if number not in wanted:
            wanted[number], rest = rest[:16], rest[16:]
    seats = {seat.number: seat for seat in session.seats.all()}
    for number, cards in wanted.items():
        assert len(cards) == 16
        for pick, card in enumerate(cards):
            DraftCard.objects.filter(session=session, card_id=card).update(
                picked_by=seats[number], pick_number=pick, picked_at=timezone.now()
            )
    MutationSession.objects.filter(pk=session.pk).update(status=MutationSession.Status.DECKBUILDING)
    session.refresh_from_db()
    return wanted


def choose_all_decks(session: MutationSession, pools: dict[int, list[int]]) -> None:
    organiser = Actor(user=session.organiser)
    for number, cards in pools.items():
        services.seat_deck_choose(
            session=session, actor=organiser, seat_number=number, card_ids=cards[:8]
        )


@pytest.fixture
def ready_session(catalogue: None, organiser) -> MutationSession:
    """Decks chosen, games not started; seat 1 holds DECK_1 and LAB_1."""
    session = new_session(organiser)
    pools = fast_draft(session, {1: DECK_1 + LAB_1})
    choose_all_decks(session, pools)
    session.refresh_from_db()
    return session
