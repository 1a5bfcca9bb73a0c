"""The Mutation services against the database with the real catalogue."""

from collections import Counter
from decimal import Decimal

import pytest

from cards.models import Card
from cod_site.errors import DomainError
from mutation import selectors, services
from mutation.access import Actor
from mutation.draft import hand_origin
from mutation.models import CostRule, CoveredBox, DraftCard, Game, Mutation, MutationSession
from tests.mutation.conftest import (
    DECK_1,
    LAB_1,
    card_id,
    choose_all_decks,
    fast_draft,
    new_session,
)

pytestmark = pytest.mark.django_db


def seat_of(session: MutationSession, number: int):
    return session.seats.get(number=number)


def mutate(session, element: str, target: str, source: str, covers=(), actor=None, seat=1):
    return services.mutation_apply(
        session=session,
        actor=actor or Actor(user=session.organiser),
        seat_number=seat,
        target_card_id=card_id(target),
        source_card_id=card_id(source),
        element=element,
        covers=covers,
    )


def record(session, round_number: int, table: int, winner: int, actor=None) -> Game:
    return services.game_result_record(
        session=session,
        actor=actor or Actor(user=session.organiser),
        round_number=round_number,
        table=table,
        winner_seat=winner,
    )


def state_of(session, slug: str):
    seat = seat_of(session, 1)
    return next(c.state for c in selectors.deck_cards(seat) if c.card.slug == slug)


# --- creating a session ---------------------------------------------------------------------------


def test_a_new_session_deals_the_64_cards_of_its_two_expansions(catalogue, organiser) -> None:
    session = new_session(organiser)
    assert session.status == "draft"
    rows = DraftCard.objects.filter(session=session)
    expected = set(
        Card.objects.deckable()
        .filter(expansion__slug__in=["treachery", "resistance"])
        .values_list("pk", flat=True)
    )
    assert set(rows.values_list("card_id", flat=True)) == expected
    assert len(expected) == 64
    assert Counter(rows.values_list("dealt_to", flat=True)) == {1: 16, 2: 16, 3: 16, 4: 16}
    assert [seat.display_name for seat in session.seats.all()] == ["Ana", "Bo", "Cy", "Di"]
    assert len({seat.join_token for seat in session.seats.all()}) == 4
    games = [(g.round, g.table, g.seat_a.number, g.seat_b.number) for g in session.games.all()]
    assert games[:4] == [(1, 1, 1, 2), (1, 2, 3, 4), (2, 1, 1, 3), (2, 2, 2, 4)]
    assert len(games) == 12
    defaults = {(r.key, r.ability_code, r.points) for r in CostRule.objects.filter(session=None)}
    copied = {(r.key, r.ability_code, r.points) for r in session.cost_rules.all()}
    assert copied == defaults


def test_the_same_seed_deals_the_same_hands(catalogue, organiser) -> None:
    def hands(session):
        return [
            (row.dealt_to, row.card_id)
            for row in DraftCard.objects.filter(session=session).order_by("dealt_to", "deal_order")
        ]

    assert hands(new_session(organiser, seed=5)) == hands(new_session(organiser, seed=5))
    assert hands(new_session(organiser, seed=5)) != hands(new_session(organiser, seed=6))


def test_two_different_expansions_are_needed(catalogue, organiser) -> None:
    with pytest.raises(DomainError) as refused:
        new_session(organiser, a="treachery", b="treachery")
    assert refused.value.code == "same_expansion"
    assert MutationSession.objects.count() == 0


def test_the_two_expansions_must_hold_64_cards(catalogue, organiser) -> None:
    Card.objects.get(slug="lantern-fish").delete()
    with pytest.raises(DomainError) as refused:
        new_session(organiser)
    assert refused.value.code == "not_64_cards"
    assert refused.value.message == (
        "treachery and resistance hold 63 creatures and incantations, not 64."
    )


# --- the draft ------------------------------------------------------------------------------------


def test_a_whole_draft_through_the_service(catalogue, organiser) -> None:
    session = new_session(organiser)
    actor = Actor(user=organiser)
    for _round in range(16):
        for number in (1, 2, 3, 4):
            view = selectors.draft_seat_view(session, seat_of(session, number))
            card = view.hand[0].card_id
            services.draft_pick(session=session, actor=actor, seat_number=number, card_id=card)
    session.refresh_from_db()
    assert session.status == "deckbuilding"
    rows = DraftCard.objects.filter(session=session).select_related("picked_by")
    assert all(row.picked_by is not None for row in rows)
    for row in rows:
        # The card travelled from the seat it was dealt to, to the left, one seat per pick.
        assert row.dealt_to == hand_origin(row.picked_by.number, row.pick_number)
    assert Counter(row.picked_by.number for row in rows) == {1: 16, 2: 16, 3: 16, 4: 16}
    with pytest.raises(DomainError) as refused:
        services.draft_pick(session=session, actor=actor, seat_number=1, card_id=card)
    assert refused.value.code == "session_deckbuilding"


def test_a_player_picks_only_for_their_own_seat(catalogue, organiser, players) -> None:
    session = new_session(organiser)
    seat2 = seat_of(session, 2)
    seat2.user = players[1]
    seat2.save()
    hand1 = selectors.draft_seat_view(session, seat_of(session, 1)).hand
    with pytest.raises(DomainError) as refused:
        services.draft_pick(
            session=session, actor=Actor(user=players[1]), seat_number=1, card_id=hand1[0].card_id
        )
    assert (refused.value.code, refused.value.status_code) == ("not_your_seat", 403)
    assert refused.value.message == "Only the player of seat 1 or the organiser may do this."
    assert not DraftCard.objects.filter(session=session, picked_by__isnull=False).exists()
    hand2 = selectors.draft_seat_view(session, seat2).hand
    picked = services.draft_pick(
        session=session, actor=Actor(user=players[1]), seat_number=2, card_id=hand2[3].card_id
    )
    assert (picked.picked_by.number, picked.pick_number) == (2, 0)


def test_a_guest_acts_with_the_seat_link(catalogue, organiser) -> None:
    session = new_session(organiser)
    seat3 = seat_of(session, 3)
    hand = selectors.draft_seat_view(session, seat3).hand
    guest = Actor(user=None, seat_tokens=frozenset({seat3.join_token}))
    services.draft_pick(session=session, actor=guest, seat_number=3, card_id=hand[0].card_id)
    with pytest.raises(DomainError) as refused:
        services.draft_pick(session=session, actor=guest, seat_number=4, card_id=hand[1].card_id)
    assert refused.value.code == "not_your_seat"


def test_joining_a_seat(catalogue, organiser, players) -> None:
    session = new_session(organiser)
    seat = seat_of(session, 2)
    joined = services.seat_join(token=seat.join_token, user=players[0])
    assert (joined.number, joined.user, joined.guest_name) == (2, players[0], "Bo")
    assert services.seat_join(token=seat.join_token, user=players[0]).user == players[0]
    with pytest.raises(DomainError) as taken:
        services.seat_join(token=seat.join_token, user=players[1])
    assert taken.value.code == "seat_taken"
    with pytest.raises(DomainError) as twice:
        services.seat_join(token=seat_of(session, 3).join_token, user=players[0])
    assert (twice.value.code, twice.value.message) == (
        "already_seated",
        "You already hold seat 2 of this session.",
    )
    with pytest.raises(DomainError) as unknown:
        services.seat_join(token="nope", user=None)
    assert (unknown.value.code, unknown.value.status_code) == ("unknown_link", 404)


# --- deckbuilding ---------------------------------------------------------------------------------


def test_choosing_a_deck_splits_the_pool_into_deck_and_laboratory(catalogue, organiser) -> None:
    session = new_session(organiser)
    fast_draft(session, {1: DECK_1 + LAB_1})
    seat = services.seat_deck_choose(
        session=session,
        actor=Actor(user=organiser),
        seat_number=1,
        card_ids=[card_id(slug) for slug in DECK_1],
    )
    assert seat.stronghold.slug == "stronghold-treachery"
    assert sorted(c.card.slug for c in selectors.deck_cards(seat)) == sorted(DECK_1)
    assert sorted(c.card.slug for c in selectors.laboratory(seat)) == sorted(LAB_1)
    again = services.seat_deck_choose(
        session=session,
        actor=Actor(user=organiser),
        seat_number=1,
        card_ids=[card_id(slug) for slug in LAB_1],
        stronghold_id=card_id("stronghold-resistance"),
    )
    assert sorted(c.card.slug for c in selectors.deck_cards(again)) == sorted(LAB_1)
    assert again.stronghold.slug == "stronghold-resistance"


@pytest.mark.parametrize(
    ("cards", "stronghold", "code", "offending"),
    [
        (DECK_1[:7], None, "deck_size", []),
        ([*DECK_1[:7], DECK_1[0]], None, "duplicate_card", ["sylvan-protector"]),
        ([*DECK_1[:7], "naga"], None, "card_not_in_pool", ["naga"]),
        ([*DECK_1[:6], "naga", "titan", "titan"], None, "deck_size", []),
        (DECK_1, "stronghold-initiation", "not_a_stronghold", None),
        (DECK_1, "titan", "not_a_stronghold", None),
    ],
)
def test_an_illegal_deck_is_refused(catalogue, organiser, cards, stronghold, code, offending):
    session = new_session(organiser)
    fast_draft(session, {1: DECK_1 + LAB_1})
    with pytest.raises(DomainError) as refused:
        services.seat_deck_choose(
            session=session,
            actor=Actor(user=organiser),
            seat_number=1,
            card_ids=[card_id(slug) for slug in cards],
            stronghold_id=card_id(stronghold) if stronghold else None,
        )
    assert refused.value.code == code
    if offending is not None:
        assert refused.value.details["cards"] == offending
    seat = seat_of(session, 1)
    assert seat.deck_chosen_at is None
    assert not DraftCard.objects.filter(session=session, in_deck=True).exists()


def test_the_decks_app_lists_every_violation(catalogue, organiser) -> None:
    session = new_session(organiser)
    fast_draft(session, {1: DECK_1 + LAB_1})
    with pytest.raises(DomainError) as refused:
        services.seat_deck_choose(
            session=session,
            actor=Actor(user=organiser),
            seat_number=1,
            card_ids=[card_id(slug) for slug in [*DECK_1[:6], "naga", "titan", "titan"]],
        )
    assert refused.value.message == ("A Mutation deck holds exactly 8 cards; this one holds 9.")
    assert [(e["code"], e["cards"]) for e in refused.value.details["errors"]] == [
        ("deck_size", []),
        ("duplicate_card", ["titan"]),
        ("card_not_in_pool", ["naga"]),
    ]


def test_no_deck_before_the_draft_is_over(catalogue, organiser) -> None:
    session = new_session(organiser)
    with pytest.raises(DomainError) as refused:
        services.seat_deck_choose(
            session=session, actor=Actor(user=organiser), seat_number=1, card_ids=[]
        )
    assert (refused.value.code, refused.value.message) == (
        "session_draft",
        "The draft is not over yet.",
    )


def test_decks_lock_at_the_first_game(ready_session) -> None:
    record(ready_session, 1, 1, 2)
    ready_session.refresh_from_db()
    assert ready_session.status == "playing"
    with pytest.raises(DomainError) as refused:
        services.seat_deck_choose(
            session=ready_session,
            actor=Actor(user=ready_session.organiser),
            seat_number=1,
            card_ids=[card_id(slug) for slug in LAB_1],
        )
    assert refused.value.code == "session_playing"


def test_nothing_is_played_before_every_deck_is_chosen(catalogue, organiser) -> None:
    session = new_session(organiser)
    pools = fast_draft(session, {1: DECK_1 + LAB_1})
    choose_all_decks(session, {1: pools[1], 3: pools[3]})
    with pytest.raises(DomainError) as refused:
        record(session, 1, 1, 1)
    assert refused.value.code == "decks_not_ready"
    assert refused.value.message == (
        "Every player must choose a deck first; still waiting for seat 2, 4."
    )
    with pytest.raises(DomainError) as mutation:
        mutate(session, "hp", "mad-scientist", "titan")
    assert mutation.value.code == "decks_not_ready"
    assert Mutation.objects.count() == 0


# --- mutations ------------------------------------------------------------------------------------


def test_a_mutation_changes_the_card_and_keeps_its_history(ready_session) -> None:
    mutation = mutate(ready_session, "hp", "mad-scientist", "titan")
    assert (mutation.phase, mutation.kind, mutation.value_before, mutation.value_after) == (
        1,
        "hp",
        5,
        8,
    )
    assert mutation.cost == Decimal("1.5")
    state = state_of(ready_session, "mad-scientist")
    assert (state.mana, state.attack, state.hp, state.abilities) == (
        4,
        1,
        8,
        ("regeneration", "instinct"),
    )
    aura = mutate(ready_session, "ability:1", "sylvan-protector", "democular", covers=[2, 3])
    assert (aura.ability_code, aura.covers, aura.covered_abilities, aura.cost) == (
        "aura:berserk",
        [2, 3],
        ["perforation", "splash"],
        Decimal("1.0"),
    )
    sylvan = state_of(ready_session, "sylvan-protector")
    assert sylvan.abilities == ("defender", "aura:berserk", "berserk", "instinct")
    assert set(
        CoveredBox.objects.filter(target__card__slug="sylvan-protector").values_list(
            "box", flat=True
        )
    ) == {"ability:2", "ability:3"}
    budget = selectors.seat_budget(ready_session, seat_of(ready_session, 1))
    assert (budget.phase, budget.spent, budget.remaining) == (1, Decimal("2.5"), Decimal("0"))
    history = list(selectors.seat_mutations(seat_of(ready_session, 1)))
    assert [(m.source.card.slug, m.element, m.phase, m.cost) for m in history] == [
        ("titan", "hp", 1, Decimal("1.5")),
        ("democular", "ability:1", 1, Decimal("1.0")),
    ]
    ready_session.refresh_from_db()
    assert ready_session.status == "playing"


def test_covering_a_malus_costs_its_surcharge(ready_session) -> None:
    mutation = mutate(ready_session, "ability:1", "eternal-shambler", "swarmer", covers=[1])
    assert (mutation.covered_abilities, mutation.cost) == (["defender"], Decimal("2.0"))
    assert state_of(ready_session, "eternal-shambler").abilities == ("indestructible",)


def test_unspent_points_are_lost_and_each_phase_has_a_fresh_budget(ready_session) -> None:
    mutate(ready_session, "hp", "mad-scientist", "titan")  # 1.5 of 2.5 in phase 1
    with pytest.raises(DomainError) as refused:
        mutate(ready_session, "ability:1", "eternal-shambler", "swarmer", covers=[1])
    assert refused.value.code == "over_budget"
    record(ready_session, 1, 1, 1)
    seat = seat_of(ready_session, 1)
    assert selectors.seat_budget(ready_session, seat).remaining == Decimal("2.5")
    mutation = mutate(ready_session, "ability:1", "eternal-shambler", "swarmer", covers=[1])
    assert (mutation.phase, mutation.cost) == (2, Decimal("2.0"))


def test_the_organisers_table_is_the_one_used(ready_session) -> None:
    organiser = Actor(user=ready_session.organiser)
    services.cost_rule_set(
        session=ready_session, actor=organiser, key="hp_point", points=Decimal("0.5")
    )
    services.cost_rule_set(
        session=ready_session,
        actor=organiser,
        key="cover",
        ability_code="defender",
        points=Decimal("0.5"),
    )
    services.cost_rule_set(
        session=ready_session,
        actor=organiser,
        key="ability",
        ability_code="indestructible",
        points=Decimal("1"),
    )
    mutation = mutate(ready_session, "ability:1", "eternal-shambler", "swarmer", covers=[1])
    assert mutation.cost == Decimal("1.5")
    assert CostRule.objects.get(session=None, key="cover", ability_code="defender").points == (
        Decimal("1.5")
    )


@pytest.mark.parametrize(
    ("key", "code", "points", "error"),
    [
        ("budget", "", Decimal("0.3"), "invalid_points"),
        ("budget", "", Decimal("-1"), "invalid_points"),
        ("ability", "", Decimal("1"), "ability_code"),
        ("hp_point", "rage", Decimal("1"), "ability_code"),
        ("discount", "", Decimal("1"), "unknown_cost"),
    ],
)
def test_a_bad_cost_line_is_refused(ready_session, key, code, points, error) -> None:
    with pytest.raises(DomainError) as refused:
        services.cost_rule_set(
            session=ready_session,
            actor=Actor(user=ready_session.organiser),
            key=key,
            ability_code=code,
            points=points,
        )
    assert refused.value.code == error


def test_only_the_organiser_edits_the_table(ready_session, players) -> None:
    seat = seat_of(ready_session, 1)
    seat.user = players[0]
    seat.save()
    with pytest.raises(DomainError) as refused:
        services.cost_rule_set(
            session=ready_session, actor=Actor(user=players[0]), key="budget", points=Decimal(9)
        )
    assert (refused.value.code, refused.value.status_code) == ("not_organiser", 403)
    assert selectors.cost_table(ready_session).budget == Decimal("2.5")


# Every rule: the refusal's code and message, and nothing changed.
RULES = [
    (
        "incantation_cannot_mutate",
        ("hp", "destruction", "titan", ()),
        "Destruction is an incantation: only creatures can mutate.",
    ),
    ("element_missing", ("hp", "reaper", "clean-cut", ()), "Clean-cut has no HP value to cut out."),
    (
        "element_used",
        ("hp", "lantern-fish", "titan", ()),
        "The HP value of Titan has already been cut out: each element of a Laboratory card can "
        "be used once.",
    ),
    (
        "value_not_higher",
        ("attack", "reaper", "rapscallion", ()),
        "The attack value of Reaper can only rise: it is 4, Rapscallion offers 3.",
    ),
    (
        "value_above_max",
        ("attack", "reaper", "titan", ()),
        "A creature cannot exceed 9: Titan offers 10.",
    ),
    (
        "mana_not_lower",
        ("mana", "reaper", "skiwk-skiwk", ()),
        "A mana value can only be lowered: Reaper costs 3, Skiwk-skiwk offers 4.",
    ),
    (
        "covers_mutation",
        ("hp", "mad-scientist", "veteran", ()),
        "The HP value of Mad scientist is already a mutation: a new mutation cannot cover a "
        "previous one.",
    ),
    (
        "ability_must_cover",
        ("ability:1", "lantern-fish", "swarmer", (1,)),
        "Lantern fish has no special ability box number 1 to cover.",
    ),
    (
        "ability_covers_one",
        ("ability:1", "crocosaurus", "skiwk-skiwk", (1, 2)),
        "A special ability covers exactly one special ability box.",
    ),
    (
        "aura_must_cover_two",
        ("ability:1", "crocosaurus", "pacifist-druid", (1,)),
        "An Aura must cover two special ability boxes or another Aura.",
    ),
    (
        "duplicate_ability",
        ("ability:2", "sylvan-protector", "skiwk-skiwk", (5,)),
        "Sylvan protector already has Splash: a creature can only have one instance of a given "
        "special ability.",
    ),
    (
        "second_aura",
        ("ability:1", "sylvan-protector", "pacifist-druid", (4, 5)),
        "Sylvan protector already has an Aura: a creature cannot have more than one Aura.",
    ),
    (
        "malus_not_gainable",
        ("ability:1", "reaper", "veteran", (1,)),
        "Defender is a malus: a creature never gains a malus by mutation.",
    ),
    (
        "over_budget",
        ("mana", "crocosaurus", "swarmer", ()),
        "This mutation costs 3 Mutation Points but only 2.5 of the 2.5 of this Mutation Phase "
        "are left.",
    ),
    (
        "not_in_deck",
        ("hp", "titan", "swarmer", ()),
        "That card is not in the deck of seat 1.",
    ),
    (
        "not_in_laboratory",
        ("hp", "lantern-fish", "mad-scientist", ()),
        "Elements can only be cut from the 8 cards of the Laboratory of seat 1.",
    ),
]


@pytest.mark.parametrize(("code", "attempt", "message"), RULES, ids=[r[0] for r in RULES])
def test_every_rule_refuses_with_its_message_and_changes_nothing(
    ready_session, code, attempt, message
) -> None:
    if code == "value_above_max":
        Card.objects.filter(slug="titan").update(attack=10)  # a card beyond the printed range
    if code in ("element_used", "covers_mutation"):
        mutate(ready_session, "hp", "mad-scientist", "titan")
        record(ready_session, 1, 1, 1)
    if code == "second_aura":
        mutate(ready_session, "ability:1", "sylvan-protector", "democular", covers=[2, 3])
    seat = seat_of(ready_session, 1)
    before = (
        list(Mutation.objects.values_list("id", flat=True)),
        CoveredBox.objects.count(),
        [(c.card.slug, c.state) for c in selectors.deck_cards(seat)],
        selectors.seat_budget(ready_session, seat),
    )
    element, target, source, covers = attempt
    with pytest.raises(DomainError) as refused:
        mutate(ready_session, element, target, source, covers=covers)
    assert refused.value.code == code
    assert refused.value.message == message
    assert refused.value.details["rule"] == code
    after = (
        list(Mutation.objects.values_list("id", flat=True)),
        CoveredBox.objects.count(),
        [(c.card.slug, c.state) for c in selectors.deck_cards(seat)],
        selectors.seat_budget(ready_session, seat),
    )
    assert after == before


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Défenseur est un malus : une créature ne gagne jamais de malus par mutation."),
        # The Swedish edition keeps the English ability names.
        ("sv", "Defender är en nackdel: en varelse får aldrig en nackdel genom mutation."),
    ],
)
def test_the_rules_speak_french_and_swedish(ready_session, language: str, message: str) -> None:
    from django.utils import translation

    with translation.override(language), pytest.raises(DomainError) as refused:
        mutate(ready_session, "ability:1", "reaper", "veteran", covers=[1])
    assert refused.value.message == message
    with translation.override(language), pytest.raises(DomainError) as budget:
        mutate(ready_session, "mana", "crocosaurus", "swarmer")
    assert "2,5" in budget.value.message


def test_no_mutation_after_the_sixth_game(ready_session) -> None:
    for game in ready_session.games.order_by("round", "table"):
        record(ready_session, game.round, game.table, game.seat_a.number)
    ready_session.refresh_from_db()
    assert ready_session.status == "finished"
    with pytest.raises(DomainError) as refused:
        mutate(ready_session, "hp", "mad-scientist", "titan")
    assert refused.value.code == "no_mutation_phase"
    assert refused.value.message == (
        "Seat 1 has played its 6 games: its deck can no longer mutate."
    )


def test_a_player_mutates_only_their_own_deck(ready_session, players) -> None:
    seat2 = seat_of(ready_session, 2)
    seat2.user = players[1]
    seat2.save()
    with pytest.raises(DomainError) as refused:
        mutate(ready_session, "hp", "mad-scientist", "titan", actor=Actor(user=players[1]))
    assert refused.value.code == "not_your_seat"
    assert Mutation.objects.count() == 0


# --- games ----------------------------------------------------------------------------------------


def test_games_are_recorded_in_round_order(ready_session, players) -> None:
    with pytest.raises(DomainError) as refused:
        record(ready_session, 2, 1, 1)
    assert (refused.value.code, refused.value.message) == (
        "earlier_game_pending",
        "Record round 1 first: its players play their games in order.",
    )
    record(ready_session, 1, 1, 2)
    record(ready_session, 1, 2, 3)
    assert record(ready_session, 2, 1, 3).winner.number == 3


def test_only_the_players_record_once_and_the_organiser_corrects(ready_session, players) -> None:
    seat1, seat3 = seat_of(ready_session, 1), seat_of(ready_session, 3)
    seat1.user, seat3.user = players[0], players[2]
    seat1.save()
    seat3.save()
    with pytest.raises(DomainError) as outsider:
        record(ready_session, 1, 1, 1, actor=Actor(user=players[2]))
    assert (outsider.value.code, outsider.value.status_code) == ("not_your_game", 403)
    with pytest.raises(DomainError) as stranger:
        record(ready_session, 1, 1, 4)
    assert stranger.value.code == "winner_not_in_game"
    record(ready_session, 1, 1, 1, actor=Actor(user=players[0]))
    with pytest.raises(DomainError) as again:
        record(ready_session, 1, 1, 2, actor=Actor(user=players[0]))
    assert again.value.code == "result_already_recorded"
    assert record(ready_session, 1, 1, 2).winner.number == 2


def test_standings_after_a_whole_session(ready_session) -> None:
    # Seat 1 wins every game, seat 4 loses every game, 2 and 3 split their two meetings.
    winners = {
        (1, 1): 1, (1, 2): 3, (2, 1): 1, (2, 2): 2, (3, 1): 1, (3, 2): 2,
        (4, 1): 1, (4, 2): 3, (5, 1): 1, (5, 2): 2, (6, 1): 1, (6, 2): 3,
    }  # fmt: skip
    for (round_number, table), winner in winners.items():
        record(ready_session, round_number, table, winner)
    table = [
        (row.seat.number, row.standing.rank, row.standing.wins, row.standing.losses)
        for row in selectors.standings(ready_session)
    ]
    assert table == [(1, 1, 6, 0), (2, 2, 3, 3), (3, 2, 3, 3), (4, 4, 0, 6)]
    grid = selectors.score_grid(ready_session)
    assert [row.wins for row in grid] == [6, 3, 3, 0]
    assert grid[1].cells[2].outcomes == ("W", "L")  # round 3 won, round 6 lost


# --- export ---------------------------------------------------------------------------------------


def test_the_mutated_deck_as_engine_card_definitions(ready_session) -> None:
    mutate(ready_session, "hp", "mad-scientist", "titan")
    mutate(ready_session, "ability:1", "sylvan-protector", "democular", covers=[2, 3])
    definitions = {d["name"]: d for d in selectors.seat_deck_definitions(seat_of(ready_session, 1))}
    assert len(definitions) == 8
    assert definitions["Mad scientist"] == {
        "name": "Mad scientist",
        "type": "creature",
        "cost": 4,
        "attack": 1,
        "hp": 8,
        "abilities": ["regeneration", "instinct"],
        "name_fr": definitions["Mad scientist"]["name_fr"],
    }
    assert definitions["Sylvan protector"]["abilities"] == [
        "defender",
        "aura:berserk",
        "berserk",
        "instinct",
    ]
    assert definitions["Destruction"]["type"] == "incantation"
    assert "hp" not in definitions["Destruction"]
    assert "abilities" not in definitions["Lantern fish"]


def test_a_mutated_deck_is_kept_in_the_decks_app(ready_session, players) -> None:
    from decks.models import Deck

    seat = seat_of(ready_session, 1)
    seat.user = players[0]
    seat.save()
    mutate(ready_session, "hp", "mad-scientist", "titan")
    deck = services.seat_deck_export(
        session=ready_session, actor=Actor(user=players[0]), seat_number=1
    )
    deck = Deck.objects.get(pk=deck.pk)
    assert (deck.owner, deck.format.slug, deck.name) == (
        players[0],
        "mutation",
        "Friday session: mutated deck of Ana",
    )
    assert sorted(deck.deck_cards.values_list("card__slug", flat=True)) == sorted(DECK_1)
    assert sorted(deck.pool.values_list("slug", flat=True)) == sorted(DECK_1 + LAB_1)
    assert deck.description.splitlines() == [
        "Mutated deck of Ana, Mutation session “Friday session”.",
        "",
        "- **Mad scientist** now: 4 mana, 1 attack, 8 HP; Regeneration, Instinct",
        "  - phase 1: HP value of Titan, 1.5 points",
    ]
    ready_session.refresh_from_db()
    for game in ready_session.games.order_by("round", "table"):
        record(ready_session, game.round, game.table, game.seat_a.number)
    again = services.seat_deck_export(
        session=ready_session, actor=Actor(user=players[0]), seat_number=1
    )
    assert again.pk != deck.pk  # still possible once the session is over


def test_a_guest_must_log_in_to_keep_a_deck(ready_session) -> None:
    seat = seat_of(ready_session, 3)
    with pytest.raises(DomainError) as refused:
        services.seat_deck_export(
            session=ready_session,
            actor=Actor(user=None, seat_tokens=frozenset({seat.join_token})),
            seat_number=3,
        )
    assert (refused.value.code, refused.value.status_code) == ("not_authenticated", 403)
