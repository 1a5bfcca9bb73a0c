"""Writes of Mutation sessions. Every write locks its session row first (`select_for_update`), so
two requests of one session run one after the other: two mutations spending the same budget or
cutting the same Laboratory element cannot both pass their checks. Unique constraints (each card
picked once, each element cut once, each box covered once) back this up in the database."""

import secrets
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import Card, Expansion
from cod_site.errors import DomainError
from cod_site.text import check_visible
from decks.models import Deck
from decks.selectors.checks import deck_check
from decks.selectors.formats import format_get
from decks.services import deck_create
from mutation import draft, schedule, selectors
from mutation.access import Actor, holds_seat, require_may_act_for, require_organiser
from mutation.models import CostRule, CoveredBox, DraftCard, Game, Mutation, MutationSession, Seat

MUTATION_FORMAT = "mutation"  # the decks app's format row
POINT_STEP = Decimal("0.5")


def _locked(session: MutationSession) -> MutationSession:
    """Re-read the session under a row lock (inside the caller's transaction)."""
    return (
        MutationSession.objects.select_for_update()
        .select_related("expansion_a", "expansion_b")
        .get(pk=session.pk)
    )


def _seat(session: MutationSession, number: int) -> Seat:
    seat = Seat.objects.select_related("user", "session").filter(session=session, number=number)
    found = seat.first()
    if found is None:
        raise DomainError(
            "unknown_seat",
            _("There is no seat %(seat)s: seats are numbered 1 to 4.") % {"seat": number},
            {"seat": number},
            status_code=404,
        )
    return found


def _status_error(session: MutationSession) -> DomainError:
    messages: dict[str, str] = {
        MutationSession.Status.DRAFT: _("The draft is not over yet."),
        MutationSession.Status.DECKBUILDING: _("The players are still building their decks."),
        MutationSession.Status.PLAYING: _("The games have started: the decks are locked."),
        MutationSession.Status.FINISHED: _("The session is over."),
    }
    return DomainError(
        f"session_{session.status}", messages[session.status], {"status": session.status}
    )


# --- creating and joining -------------------------------------------------------------------------


def mutation_session_create(
    *,
    organiser: User,
    name: str,
    expansion_a: Expansion,
    expansion_b: Expansion,
    seed: int | None = None,
    players: Sequence[str] = (),
    organiser_seat: int | None = None,
) -> MutationSession:
    """A new session: four seats, the 64 cards of two expansions dealt from `seed`, the 12 games
    of the six rounds, and a copy of the default cost table for its organiser to edit."""
    check_visible(name, field="name")
    for index, player in enumerate(players):
        check_visible(player, field=f"players.{index}")
    if expansion_a.pk == expansion_b.pk:
        raise DomainError(
            "same_expansion",
            _("A Mutation session mixes two different expansions."),
            {"expansions": [expansion_a.slug, expansion_b.slug]},
        )
    card_ids = list(
        Card.objects.deckable()
        .filter(expansion__in=[expansion_a, expansion_b])
        .values_list("pk", flat=True)
    )
    if len(card_ids) != draft.DRAFT_SIZE:
        raise DomainError(
            "not_64_cards",
            _("%(a)s and %(b)s hold %(count)s creatures and incantations, not 64.")
            % {"a": expansion_a.slug, "b": expansion_b.slug, "count": len(card_ids)},
            {"count": len(card_ids)},
        )
    if len(players) > draft.SEATS:
        raise DomainError(
            "too_many_players", _("A Mutation session has four seats."), {"players": len(players)}
        )
    if organiser_seat is not None and organiser_seat not in draft.seat_numbers():
        raise DomainError(
            "unknown_seat",
            _("There is no seat %(seat)s: seats are numbered 1 to 4.") % {"seat": organiser_seat},
            {"seat": organiser_seat},
        )
    seed = secrets.randbelow(2**31) if seed is None else seed
    hands = draft.deal(card_ids, seed=seed)
    with transaction.atomic():
        session = MutationSession.objects.create(
            name=name,
            organiser=organiser,
            expansion_a=expansion_a,
            expansion_b=expansion_b,
            seed=seed,
        )
        names = [*players, *[""] * draft.SEATS]
        seats = {
            number: Seat.objects.create(
                session=session,
                number=number,
                guest_name=names[number - 1].strip()[:60],
                user=organiser if number == organiser_seat else None,
            )
            for number in draft.seat_numbers()
        }
        DraftCard.objects.bulk_create(
            DraftCard(session=session, card_id=card, dealt_to=seat, deal_order=order)
            for seat, hand in hands.items()
            for order, card in enumerate(hand)
        )
        Game.objects.bulk_create(
            Game(
                session=session,
                round=duel.round,
                table=duel.table,
                seat_a=seats[duel.seat_a],
                seat_b=seats[duel.seat_b],
            )
            for duel in schedule.schedule()
        )
        CostRule.objects.bulk_create(
            CostRule(
                session=session, key=rule.key, ability_code=rule.ability_code, points=rule.points
            )
            for rule in selectors.cost_rules(None)
        )
    return session


def seat_join(*, token: str, user: User | AnonymousUser | None, guest_name: str = "") -> Seat:
    """Take a seat by its link. A registered user becomes its player; a guest is recognised by
    the link itself (the page keeps it in the browser session)."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("session").filter(join_token=token)
        found = seat.first()
        if found is None:
            raise DomainError("unknown_link", _("This join link is not valid."), status_code=404)
        if isinstance(user, User):
            if found.user_id not in (None, user.pk):
                raise DomainError(
                    "seat_taken",
                    _("Seat %(seat)s already has a player.") % {"seat": found.number},
                    {"seat": found.number},
                )
            other = Seat.objects.filter(session=found.session, user=user).exclude(pk=found.pk)
            if other.exists():
                raise DomainError(
                    "already_seated",
                    _("You already hold seat %(seat)s of this session.")
                    % {"seat": other.get().number},
                    {"seat": other.get().number},
                )
            found.user = user
        check_visible(guest_name, field="name")
        if guest_name.strip():
            found.guest_name = guest_name.strip()[:60]
        found.save(update_fields=["user", "guest_name"])
    return found


# --- the draft ------------------------------------------------------------------------------------


def draft_pick(
    *, session: MutationSession, actor: Actor, seat_number: int, card_id: int
) -> DraftCard:
    """Seat `seat_number` picks `card_id` from the hand in front of it and passes the rest left;
    the last pick of the draft opens deckbuilding."""
    with transaction.atomic():
        session = _locked(session)
        seat = _seat(session, seat_number)
        require_may_act_for(actor, seat, session)
        if session.status != MutationSession.Status.DRAFT:
            raise _status_error(session)
        dealt, picks = selectors.draft_state(session)
        pick_number = draft.check_pick(dealt, picks, seat_number, card_id)
        row = DraftCard.objects.get(session=session, card_id=card_id)
        row.picked_by = seat
        row.pick_number = pick_number
        row.picked_at = timezone.now()
        row.save(update_fields=["picked_by", "pick_number", "picked_at"])
        picks[seat_number].append(card_id)
        if draft.draft_complete(picks):
            session.status = MutationSession.Status.DECKBUILDING
            session.save(update_fields=["status", "updated_at"])
    return row


# --- deckbuilding ---------------------------------------------------------------------------------


def seat_deck_choose(
    *,
    session: MutationSession,
    actor: Actor,
    seat_number: int,
    card_ids: Sequence[int],
    stronghold_id: int | None = None,
) -> Seat:
    """Keep 8 distinct cards of the seat's 16 as its deck, plus a Stronghold of the session's
    expansions; the other 8 become its Laboratory. Possible until the first game or mutation."""
    with transaction.atomic():
        session = _locked(session)
        seat = _seat(session, seat_number)
        require_may_act_for(actor, seat, session)
        if session.status != MutationSession.Status.DECKBUILDING:
            raise _status_error(session)
        pool = set(
            DraftCard.objects.filter(session=session, picked_by=seat).values_list(
                "card_id", flat=True
            )
        )
        _check_deck(card_ids, pool)
        stronghold = _stronghold(session, stronghold_id)
        seat_cards = DraftCard.objects.filter(session=session, picked_by=seat)
        seat_cards.exclude(card_id__in=list(card_ids)).update(in_deck=False)
        seat_cards.filter(card_id__in=list(card_ids)).update(in_deck=True)
        seat.stronghold = stronghold
        seat.deck_chosen_at = timezone.now()
        seat.save(update_fields=["stronghold", "deck_chosen_at"])
    return seat


def _check_deck(card_ids: Sequence[int], pool: set[int]) -> None:
    """The Mutation format of the decks app: 8 distinct cards from the player's 16-card draft.
    Refused with the first violation's code; `details.errors` lists every violation."""
    cards = {card.pk: card for card in Card.objects.filter(pk__in=[*card_ids, *pool])}
    check = deck_check(
        format=MUTATION_FORMAT,
        cards=[cards.get(card, str(card)) for card in card_ids],
        pool=[cards[card] for card in pool],
    )
    if not check.legal:
        first = check.errors[0]
        raise DomainError(
            first.code,
            first.message,
            {"cards": list(first.cards), "errors": [error.as_dict() for error in check.errors]},
        )


def _stronghold(session: MutationSession, stronghold_id: int | None) -> Card | None:
    available = selectors.strongholds(session)
    if stronghold_id is None:
        return available.first()
    stronghold = available.filter(pk=stronghold_id).first()
    if stronghold is None:
        raise DomainError(
            "not_a_stronghold",
            _("Choose a Stronghold card of one of the session's two expansions."),
            {"card": stronghold_id},
        )
    return stronghold


def _start_games(session: MutationSession) -> None:
    """Lock the decks at the first game or mutation, once every player has chosen one."""
    if session.status == MutationSession.Status.PLAYING:
        return
    if session.status != MutationSession.Status.DECKBUILDING:
        raise _status_error(session)
    waiting = list(
        session.seats.filter(deck_chosen_at__isnull=True).values_list("number", flat=True)
    )
    if waiting:
        raise DomainError(
            "decks_not_ready",
            _("Every player must choose a deck first; still waiting for seat %(seats)s.")
            % {"seats": ", ".join(str(number) for number in waiting)},
            {"seats": waiting},
        )
    session.status = MutationSession.Status.PLAYING
    session.save(update_fields=["status", "updated_at"])


# --- mutations ------------------------------------------------------------------------------------


def mutation_apply(
    *,
    session: MutationSession,
    actor: Actor,
    seat_number: int,
    target_card_id: int,
    source_card_id: int,
    element: str,
    covers: Sequence[int] = (),
) -> Mutation:
    """Cut `element` out of a Laboratory card and glue it on a deck creature, in the seat's
    current Mutation Phase (the one before its next game), within that phase's budget."""
    with transaction.atomic():
        session = _locked(session)
        seat = _seat(session, seat_number)
        require_may_act_for(actor, seat, session)
        phase = selectors.current_phase(session, seat)
        if session.status == MutationSession.Status.FINISHED or phase is None:
            raise DomainError(
                "no_mutation_phase",
                _("Seat %(seat)s has played its 6 games: its deck can no longer mutate.")
                % {"seat": seat_number},
                {"rule": "no_mutation_phase", "seat": seat_number},
            )
        _start_games(session)
        plan = selectors.mutation_quote(
            session=session,
            seat=seat,
            target_card_id=target_card_id,
            source_card_id=source_card_id,
            element=element,
            covers=covers,
        )
        target, source = selectors.workshop_cards(session, seat, target_card_id, source_card_id)
        try:
            with transaction.atomic():
                mutation = Mutation.objects.create(
                    seat=seat,
                    phase=phase,
                    target=target,
                    source=source,
                    element=plan.element,
                    kind=plan.kind,
                    value_before=plan.value_before,
                    value_after=plan.value_after,
                    ability_code=plan.ability or "",
                    covers=list(plan.covers),
                    covered_abilities=list(plan.covered_abilities),
                    cost=plan.cost,
                    created_by=actor.registered_user,
                )
                CoveredBox.objects.bulk_create(
                    CoveredBox(target=target, box=box, mutation=mutation) for box in plan.boxes
                )
        except IntegrityError:
            # Only reachable if the session lock was bypassed: the constraints still hold.
            raise DomainError(
                "element_used",
                _("This element or this box has just been used by another mutation."),
                {"rule": "element_used"},
                status_code=409,
            ) from None
    return mutation


# --- games ----------------------------------------------------------------------------------------


def game_result_record(
    *, session: MutationSession, actor: Actor, round_number: int, table: int, winner_seat: int
) -> Game:
    """Record who won a game. Either of its players may record it once; the organiser may also
    correct it. A game waits for both players' games of the earlier rounds."""
    with transaction.atomic():
        session = _locked(session)
        game = (
            Game.objects.select_related("seat_a", "seat_b")
            .filter(session=session, round=round_number, table=table)
            .first()
        )
        if game is None:
            raise DomainError(
                "unknown_game",
                _("There is no game at table %(table)s of round %(round)s.")
                % {"table": table, "round": round_number},
                {"round": round_number, "table": table},
                status_code=404,
            )
        organiser = actor.user_id is not None and actor.user_id == session.organiser_id
        if not organiser:
            players = [seat for seat in (game.seat_a, game.seat_b) if holds_seat(actor, seat)]
            if not players:
                raise DomainError(
                    "not_your_game",
                    _("Only the two players of this game or the organiser may record it."),
                    {"round": round_number, "table": table},
                    status_code=403,
                )
            if game.winner_id is not None:
                raise DomainError(
                    "result_already_recorded",
                    _("This game's result is recorded; only the organiser may correct it."),
                    {"round": round_number, "table": table},
                )
        if winner_seat not in (game.seat_a.number, game.seat_b.number):
            raise DomainError(
                "winner_not_in_game",
                _("Seat %(seat)s does not play in this game.") % {"seat": winner_seat},
                {"seat": winner_seat},
            )
        pending = (
            Game.objects.filter(session=session, round__lt=round_number, winner__isnull=True)
            .filter(
                Q(seat_a__in=[game.seat_a, game.seat_b]) | Q(seat_b__in=[game.seat_a, game.seat_b])
            )
            .order_by("round", "table")
            .first()
        )
        if pending is not None:
            raise DomainError(
                "earlier_game_pending",
                _("Record round %(round)s first: its players play their games in order.")
                % {"round": pending.round},
                {"round": pending.round, "table": pending.table},
            )
        if session.status != MutationSession.Status.FINISHED:
            _start_games(session)
        game.winner = game.seat_a if game.seat_a.number == winner_seat else game.seat_b
        game.recorded_at = timezone.now()
        game.recorded_by = actor.registered_user
        game.save(update_fields=["winner", "recorded_at", "recorded_by"])
        if not Game.objects.filter(session=session, winner__isnull=True).exists():
            session.status = MutationSession.Status.FINISHED
            session.save(update_fields=["status", "updated_at"])
    return game


# --- the cost table -------------------------------------------------------------------------------


def cost_rule_set(
    *,
    session: MutationSession,
    actor: Actor,
    key: str,
    points: Decimal,
    ability_code: str = "",
) -> CostRule:
    """The organiser sets one line of the session's cost table (the rulebook's table is lost)."""
    with transaction.atomic():
        session = _locked(session)
        require_organiser(actor, session)
        if session.status == MutationSession.Status.FINISHED:
            raise _status_error(session)
        if key not in CostRule.Key.values:
            raise DomainError(
                "unknown_cost", _("Unknown cost table line %(key)s.") % {"key": key}, {"key": key}
            )
        per_ability = key in (CostRule.Key.ABILITY, CostRule.Key.COVER)
        if per_ability != bool(ability_code):
            raise DomainError(
                "ability_code",
                _("Give an ability code for ability lines, and only for them."),
                {"key": key, "ability_code": ability_code},
            )
        if points < 0 or points % POINT_STEP != 0 or points >= 100:
            raise DomainError(
                "invalid_points",
                _("Mutation Points come in steps of 0.5 (0, 0.5, 1, 1.5 …)."),
                {"points": str(points)},
            )
        rule, _created = CostRule.objects.update_or_create(
            session=session, key=key, ability_code=ability_code, defaults={"points": points}
        )
    return rule


# --- export ---------------------------------------------------------------------------------------


def seat_deck_export(*, session: MutationSession, actor: Actor, seat_number: int) -> Deck:
    """Save a seat's deck in the decks app (Mutation format, its 16 drafted cards as the pool),
    owned by the registered user exporting it, to keep after the session.

    A saved deck holds catalogue cards only, not per-card values: its description records every
    mutation, and `selectors.seat_deck_definitions` gives the mutated values the engine plays."""
    seat = _seat(session, seat_number)
    require_may_act_for(actor, seat, session)
    if actor.registered_user is None:
        raise DomainError(
            "not_authenticated", _("Log in to keep this deck in your decks."), status_code=403
        )
    if seat.deck_chosen_at is None:
        raise DomainError(
            "no_deck",
            _("Seat %(seat)s has not chosen its deck yet.") % {"seat": seat_number},
            {"seat": seat_number},
        )
    deck = selectors.deck_cards(seat)
    pool = [row.card for row in selectors.seat_pool(seat)]
    return deck_create(
        owner=actor.registered_user,
        name=_("%(session)s: mutated deck of %(player)s")
        % {"session": session.name, "player": seat.display_name},
        format=format_get(slug=MUTATION_FORMAT),
        cards=[deck_card.card for deck_card in deck],
        pool=pool,
        description=selectors.mutated_deck_markdown(session, seat, deck),
    )
