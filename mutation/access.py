"""Who may see a session and act for a seat: its organiser (for any seat), a registered player for
their own seat, or a guest holding their seat's join link (kept in their browser session, or sent
to the API as the `X-Seat-Token` header)."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from cod_site.errors import DomainError
from mutation.models import MutationSession, Seat


@dataclass(frozen=True)
class Actor:
    user: User | AnonymousUser | None = None  # None or AnonymousUser: a guest
    seat_tokens: frozenset[str] = field(default_factory=frozenset)

    @property
    def registered_user(self) -> User | None:
        return self.user if isinstance(self.user, User) else None

    @property
    def user_id(self) -> int | None:
        user = self.registered_user
        return None if user is None else user.pk


def is_organiser(actor: Actor, session: MutationSession) -> bool:
    return actor.user_id is not None and actor.user_id == session.organiser_id


def holds_seat(actor: Actor, seat: Seat) -> bool:
    return (actor.user_id is not None and seat.user_id == actor.user_id) or (
        seat.join_token in actor.seat_tokens
    )


def may_act_for(actor: Actor, seat: Seat, session: MutationSession) -> bool:
    return is_organiser(actor, session) or holds_seat(actor, seat)


def own_seats(actor: Actor, seats: Iterable[Seat]) -> list[Seat]:
    return [seat for seat in seats if holds_seat(actor, seat)]


def may_view(actor: Actor, session: MutationSession, seats: Iterable[Seat]) -> bool:
    return is_organiser(actor, session) or bool(own_seats(actor, seats))


def require_may_act_for(actor: Actor, seat: Seat, session: MutationSession) -> None:
    if not may_act_for(actor, seat, session):
        raise DomainError(
            "not_your_seat",
            _("Only the player of seat %(seat)s or the organiser may do this.")
            % {"seat": seat.number},
            {"seat": seat.number},
            status_code=403,
        )


def require_organiser(actor: Actor, session: MutationSession) -> None:
    if not is_organiser(actor, session):
        raise DomainError(
            "not_organiser", _("Only the organiser of this session may do this."), status_code=403
        )
