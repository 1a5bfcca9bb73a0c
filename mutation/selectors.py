"""Reads of Mutation sessions: what a seat may see, each deck card now and its history, the cost
table, the schedule and the standings, and a seat's mutated deck as engine card definitions."""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch, Q, QuerySet, Sum
from django.utils.translation import gettext as _

from cards.models import Ability, AbilityTranslation, Card, CardAbility, CardType
from cards.selectors import card_name, translated
from cod_site.errors import DomainError
from engine.adapters.definitions import card_ability_codes, engine_card_definition
from mutation import draft, rules, schedule
from mutation.access import Actor, is_organiser, may_view, own_seats
from mutation.models import CostRule, DraftCard, Game, Mutation, MutationSession, Seat

# --- sessions ---------------------------------------------------------------------------------


def sessions_for(actor: Actor) -> QuerySet[MutationSession]:
    """The sessions `actor` organises or holds a seat in."""
    query = Q(seats__join_token__in=list(actor.seat_tokens))
    if actor.user_id is not None:
        query |= Q(organiser_id=actor.user_id) | Q(seats__user_id=actor.user_id)
    return (
        MutationSession.objects.filter(query)
        .distinct()
        .select_related("organiser")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    )


def session_get(*, actor: Actor, pk: int) -> MutationSession:
    """A session its organiser or one of its players may see; anyone else gets a 404."""
    session = (
        MutationSession.objects.filter(pk=pk)
        .select_related("organiser", "expansion_a", "expansion_b")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user", "stronghold"))
        )
        .first()
    )
    if session is None or not may_view(actor, session, session.seats.all()):
        raise DomainError(
            "not_found", _("No Mutation session %(id)s.") % {"id": pk}, status_code=404
        )
    return session


def seat_get(session: MutationSession, number: int) -> Seat:
    for seat in session.seats.all():
        if seat.number == number:
            return seat
    raise DomainError(
        "unknown_seat",
        _("There is no seat %(seat)s: seats are numbered 1 to 4.") % {"seat": number},
        {"seat": number},
        status_code=404,
    )


def seat_by_token(token: str) -> Seat | None:
    return Seat.objects.select_related("session", "user").filter(join_token=token).first()


def viewer_seats(actor: Actor, session: MutationSession) -> list[Seat]:
    """The seats whose private cards `actor` may see: all for the organiser, else their own."""
    seats = list(session.seats.all())
    return seats if is_organiser(actor, session) else own_seats(actor, seats)


# --- cards as plain values ----------------------------------------------------------------------


def card_queryset() -> QuerySet[Card]:
    return Card.objects.select_related("expansion").prefetch_related(
        "translations",
        Prefetch(
            "card_abilities",
            queryset=CardAbility.objects.select_related("ability").order_by("position"),
        ),
    )


def draft_cards(session: MutationSession) -> QuerySet[DraftCard]:
    return DraftCard.objects.filter(session=session).prefetch_related(
        Prefetch("card", queryset=card_queryset())
    )


def card_values(card: Card, language: str | None = None) -> rules.CardValues:
    return rules.CardValues(
        name=card_name(card, language) or card.slug,
        type=card.card_type,
        mana=card.mana or 0,
        attack=card.attack or 0,
        hp=card.hp,
        abilities=tuple(card_ability_codes(card)),
    )


def ability_names(language: str | None = None) -> dict[str, str]:
    abilities = Ability.objects.prefetch_related(
        Prefetch("translations", queryset=AbilityTranslation.objects.all())
    )
    return {ability.code: translated(ability, "name", language).text for ability in abilities}


def malus_codes() -> set[str]:
    return set(Ability.objects.filter(is_malus=True).values_list("code", flat=True))


# --- the cost table -----------------------------------------------------------------------------


def cost_rules(session: MutationSession | None) -> QuerySet[CostRule]:
    return CostRule.objects.filter(session=session).order_by("key", "ability_code")


def cost_table(session: MutationSession) -> rules.CostTable:
    """The session's table; an ability it does not price costs its catalogue creature cost."""
    values: dict[str, Decimal] = {}
    ability: dict[str, Decimal] = {
        code: cost
        for code, cost in Ability.objects.filter(is_malus=False).values_list(
            "code", "creature_cost"
        )
        if cost is not None
    }
    cover: dict[str, Decimal] = {}
    for rule in cost_rules(session):
        if rule.key == CostRule.Key.ABILITY:
            ability[rule.ability_code] = rule.points
        elif rule.key == CostRule.Key.COVER:
            cover[rule.ability_code] = rule.points
        else:
            values[rule.key] = rule.points
    return rules.CostTable(
        budget=values.get(CostRule.Key.BUDGET, Decimal("2.5")),
        attack_point=values.get(CostRule.Key.ATTACK_POINT, Decimal("0.5")),
        hp_point=values.get(CostRule.Key.HP_POINT, Decimal("0.5")),
        mana_point=values.get(CostRule.Key.MANA_POINT, Decimal("1")),
        aura_extra=values.get(CostRule.Key.AURA_EXTRA, Decimal("0")),
        ability=ability,
        cover=cover,
    )


# --- the draft ----------------------------------------------------------------------------------


def draft_state(session: MutationSession) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """(dealt, picks): card ids dealt to each seat in deal order, and each seat's picks in order."""
    dealt: dict[int, list[int]] = {number: [] for number in draft.seat_numbers()}
    picked: dict[int, list[tuple[int, int]]] = {number: [] for number in draft.seat_numbers()}
    rows = (
        DraftCard.objects.filter(session=session)
        .order_by("dealt_to", "deal_order")
        .values_list("card_id", "dealt_to", "picked_by__number", "pick_number")
    )
    for card_id, dealt_to, seat_number, pick_number in rows:
        dealt[dealt_to].append(card_id)
        # A picked card always has its pick number (the mutation_pick_has_number constraint).
        if seat_number is not None and pick_number is not None:
            picked[seat_number].append((pick_number, card_id))
    picks = {number: [card for _, card in sorted(made)] for number, made in picked.items()}
    return dealt, picks


@dataclass(frozen=True)
class DraftSeatView:
    seat: Seat
    hand: list[DraftCard] | None  # None: waiting for the hand from the right
    picks: list[DraftCard]
    waiting_for: int | None


def draft_seat_view(session: MutationSession, seat: Seat) -> DraftSeatView:
    """What the player of `seat` may see of the draft: the hand in front of them and their picks."""
    dealt, picks = draft_state(session)
    hand_ids = draft.hand_in_front(dealt, picks, seat.number)
    wanted = set(hand_ids or ()) | set(picks[seat.number])
    cards = {row.card_id: row for row in draft_cards(session).filter(card_id__in=wanted)}
    return DraftSeatView(
        seat=seat,
        hand=None if hand_ids is None else [cards[card] for card in hand_ids],
        picks=[cards[card] for card in picks[seat.number]],
        waiting_for=draft.right_of(seat.number) if hand_ids is None else None,
    )


def pick_counts(session: MutationSession) -> dict[int, int]:
    _dealt, picks = draft_state(session)
    return {number: len(cards) for number, cards in picks.items()}


# --- decks, Laboratories and mutations ------------------------------------------------------------


def applied(mutations: Iterable[Mutation]) -> list[rules.AppliedMutation]:
    return [
        rules.AppliedMutation(
            element=mutation.kind,
            value=mutation.value_after,
            ability=mutation.ability_code or None,
            covers=tuple(mutation.covers),
        )
        for mutation in mutations
    ]


@dataclass(frozen=True)
class DeckCard:
    """A deck card now: printed values, current values and the mutations that made it so."""

    draft_card: DraftCard
    printed: rules.CardValues
    state: rules.CardState
    history: list[Mutation]

    @property
    def card(self) -> Card:
        return self.draft_card.card

    @property
    def is_creature(self) -> bool:
        return self.printed.type == rules.CREATURE

    @property
    def mutated(self) -> frozenset[str]:
        return self.state.covered


def seat_pool(seat: Seat) -> QuerySet[DraftCard]:
    return draft_cards(seat.session).filter(picked_by=seat).order_by("pick_number")


def seat_mutations(seat: Seat) -> QuerySet[Mutation]:
    return (
        Mutation.objects.filter(seat=seat)
        .select_related("target__card", "source__card", "created_by")
        .order_by("phase", "created_at", "id")
    )


def deck_cards(seat: Seat, language: str | None = None) -> list[DeckCard]:
    history: dict[int, list[Mutation]] = defaultdict(list)
    for mutation in seat_mutations(seat):
        history[mutation.target_id].append(mutation)
    result = []
    for row in seat_pool(seat).filter(in_deck=True):
        printed = card_values(row.card, language)
        result.append(
            DeckCard(
                row, printed, rules.card_state(printed, applied(history[row.pk])), history[row.pk]
            )
        )
    return result


@dataclass(frozen=True)
class LabElement:
    element: str
    label: str
    value: int | None
    ability: str | None
    used: bool


@dataclass(frozen=True)
class LabCard:
    draft_card: DraftCard
    printed: rules.CardValues
    elements: list[LabElement]

    @property
    def card(self) -> Card:
        return self.draft_card.card


def laboratory(seat: Seat, language: str | None = None) -> list[LabCard]:
    names = ability_names(language)
    used = set(Mutation.objects.filter(seat=seat).values_list("source_id", "element"))
    result = []
    for row in seat_pool(seat).filter(in_deck=False):
        printed = card_values(row.card, language)
        elements = []
        for element in printed.elements():
            value = getattr(printed, element) if element in rules.STAT_ELEMENTS else None
            ability = None
            if element not in rules.STAT_ELEMENTS:
                ability = printed.abilities[int(element.split(":")[1]) - 1]
            elements.append(
                LabElement(
                    element=element,
                    label=rules.element_label(printed, element, names),
                    value=value,
                    ability=ability,
                    used=(row.pk, element) in used,
                )
            )
        result.append(LabCard(row, printed, elements))
    return result


def current_phase(session: MutationSession, seat: Seat) -> int | None:
    """The seat's Mutation Phase now: the one before its next game; None after its 6th game."""
    played = Game.objects.filter(
        Q(seat_a=seat) | Q(seat_b=seat), session=session, winner__isnull=False
    ).count()
    return played + 1 if played < schedule.ROUNDS else None


def phase_spent(seat: Seat, phase: int) -> Decimal:
    total = Mutation.objects.filter(seat=seat, phase=phase).aggregate(total=Sum("cost"))["total"]
    return total or Decimal(0)


@dataclass(frozen=True)
class Budget:
    phase: int | None
    budget: Decimal
    spent: Decimal

    @property
    def remaining(self) -> Decimal:
        return self.budget - self.spent if self.phase is not None else Decimal(0)


def seat_budget(session: MutationSession, seat: Seat) -> Budget:
    phase = current_phase(session, seat)
    table = cost_table(session)
    spent = phase_spent(seat, phase) if phase is not None else Decimal(0)
    return Budget(phase=phase, budget=table.budget, spent=spent)


def mutation_quote(
    *,
    session: MutationSession,
    seat: Seat,
    target_card_id: int,
    source_card_id: int,
    element: str,
    covers: Sequence[int] = (),
    language: str | None = None,
) -> rules.MutationPlan:
    """What a mutation would do and cost now, without doing it (the workshop's preview); raises
    the same refusals as applying it."""
    target, source = workshop_cards(session, seat, target_card_id, source_card_id)
    phase = current_phase(session, seat)
    return rules.plan_mutation(
        target=card_values(target.card, language),
        target_mutations=applied(target.mutations.order_by("created_at", "id")),
        source=card_values(source.card, language),
        element=element,
        covers=covers,
        used_elements=set(source.elements_used.values_list("element", flat=True)),
        spent=phase_spent(seat, phase) if phase is not None else Decimal(0),
        table=cost_table(session),
        malus=malus_codes(),
        names=ability_names(language),
    )


def workshop_cards(
    session: MutationSession, seat: Seat, target_card_id: int, source_card_id: int
) -> tuple[DraftCard, DraftCard]:
    """The deck card to mutate and the Laboratory card to cut, both from `seat`'s own pool."""
    pool = {row.card_id: row for row in draft_cards(session).filter(picked_by=seat)}
    target = pool.get(target_card_id)
    if target is None or not target.in_deck:
        raise DomainError(
            "not_in_deck",
            _("That card is not in the deck of seat %(seat)s.") % {"seat": seat.number},
            {"rule": "not_in_deck", "card": target_card_id},
        )
    source = pool.get(source_card_id)
    if source is None or source.in_deck:
        raise DomainError(
            "not_in_laboratory",
            _("Elements can only be cut from the 8 cards of the Laboratory of seat %(seat)s.")
            % {"seat": seat.number},
            {"rule": "not_in_laboratory", "card": source_card_id},
        )
    return target, source


# --- export ---------------------------------------------------------------------------------------


def seat_deck_definitions(seat: Seat) -> list[dict[str, Any]]:
    """The seat's deck as the rules engine plays it: mutated values, Auras as `aura:CODE`.

    Plain dicts in the engine's card JSON form (`engine.rules.cards.CardDef.from_json`).
    """
    return _definitions(deck_cards(seat, language="en"))


def _definitions(deck: Sequence[DeckCard]) -> list[dict[str, Any]]:
    return [
        engine_card_definition(
            name=deck_card.state.name,
            type=deck_card.state.type,
            cost=deck_card.state.mana,
            attack=deck_card.state.attack,
            hp=deck_card.state.hp,
            abilities=deck_card.state.abilities,
            name_fr=card_name(deck_card.card, "fr"),
        )
        for deck_card in deck
    ]


@dataclass(frozen=True)
class PlayableDeck:
    """A player's Mutation deck for a game outside the session (a table of the play app)."""

    name: str
    cards: list[dict[str, Any]]  # engine card JSON, mutated values
    slugs: list[str]  # the catalogue slug of each card


def playable_sessions(actor: Actor) -> QuerySet[MutationSession]:
    """The sessions where `actor`'s account chose a deck (`playable_deck`), newest first."""
    if actor.user_id is None:
        return MutationSession.objects.none()
    return MutationSession.objects.filter(
        seats__user_id=actor.user_id, seats__deck_chosen_at__isnull=False
    ).distinct()


def playable_deck(*, actor: Actor, pk: int) -> PlayableDeck:
    """The deck `actor` chose in session `pk`, as the rules engine plays it (its mutations
    applied). Only a player's own seat: the organiser may see every deck but play none of
    them. 400 `unknown_mutation_session` when `actor` holds no seat in such a session (one
    answer whether it exists or not), `mutation_deck_not_ready` before the player chose
    the deck; `details.field` is `mutation_session`."""
    session = MutationSession.objects.filter(pk=pk).prefetch_related("seats__user").first()
    seats = own_seats(actor, session.seats.all()) if session is not None else []
    if session is None or not seats:
        raise DomainError(
            "unknown_mutation_session",
            _("You have no seat in a Mutation session %(id)s.") % {"id": pk},
            {"field": "mutation_session", "mutation_session": pk},
        )
    if seats[0].deck_chosen_at is None:
        raise DomainError(
            "mutation_deck_not_ready",
            _("Choose your deck in this Mutation session first."),
            {"field": "mutation_session", "mutation_session": pk},
        )
    deck = deck_cards(seats[0], language="en")
    return PlayableDeck(
        name=_("Mutation: %(session)s") % {"session": session.name},
        cards=_definitions(deck),
        slugs=[deck_card.card.slug for deck_card in deck],
    )


def mutated_deck_markdown(
    session: MutationSession, seat: Seat, deck: Sequence[DeckCard], language: str | None = None
) -> str:
    """A saved deck's description: what each card has become and how (the deck itself can only
    hold catalogue cards)."""
    names = ability_names(language)
    lines = [
        _("Mutated deck of %(player)s, Mutation session “%(session)s”.")
        % {"player": seat.display_name, "session": session.name},
        "",
    ]
    for deck_card in deck:
        if not deck_card.history:
            continue
        state = deck_card.state
        abilities = ", ".join(rules.ability_label(names, code) for code in state.abilities)
        lines.append(
            _("- **%(card)s** now: %(mana)s mana, %(attack)s attack, %(hp)s HP; %(abilities)s")
            % {
                "card": state.name,
                "mana": state.mana,
                "attack": state.attack,
                "hp": state.hp,
                "abilities": abilities or "—",
            }
        )
        for mutation in deck_card.history:
            lines.append(
                "  - "
                + _("phase %(phase)s: %(element)s of %(source)s, %(cost)s points")
                % {
                    "phase": mutation.phase,
                    "element": rules.element_label(
                        card_values(mutation.source.card, language), mutation.element, names
                    ),
                    "source": card_name(mutation.source.card, language),
                    "cost": rules.format_points(mutation.cost),
                }
            )
    return "\n".join(lines)


def strongholds(session: MutationSession) -> QuerySet[Card]:
    return card_queryset().filter(
        card_type=CardType.STRONGHOLD,
        expansion_id__in=[session.expansion_a_id, session.expansion_b_id],
    )


# --- schedule and standings -----------------------------------------------------------------------


def games(session: MutationSession) -> QuerySet[Game]:
    return Game.objects.filter(session=session).select_related(
        "seat_a__user", "seat_b__user", "winner"
    )


def results(session: MutationSession) -> list[schedule.Result]:
    return [
        schedule.Result(
            winner=game.winner.number,
            loser=(game.seat_b if game.winner_id == game.seat_a_id else game.seat_a).number,
        )
        for game in games(session)
        if game.winner is not None
    ]


@dataclass(frozen=True)
class StandingRow:
    seat: Seat
    standing: schedule.Standing


def standings(session: MutationSession) -> list[StandingRow]:
    seats = {seat.number: seat for seat in session.seats.all()}
    return [StandingRow(seats[row.seat], row) for row in schedule.standings(results(session))]


def score_grid(session: MutationSession) -> list[schedule.GridRow]:
    winners = {
        (game.round, game.table): game.winner.number
        for game in games(session)
        if game.winner is not None
    }
    return schedule.score_grid(schedule.schedule(), winners)
