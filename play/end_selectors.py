"""Reads of a finished table's result screen (issue 29, "An end"): who won from the viewer's
side and how the game ended, from what the engine records of the end (`GameState.outcome`: the
seat whose Stronghold fell and how) and what the table records outside the rules (a seat that
conceded or ran out of time)."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from engine.rules import MODES
from play.models import Game, Mode, Seat, SeatKind, Status
from play.position_selectors import game_state, started
from play.selectors import index_letter, rematch_get, seat_label


@dataclass(frozen=True)
class GameResult:
    """The result screen's words: `outcome` "won", "lost", "draw" (a player's) or "watched"
    (a spectator's), its `headline` and how the game ended (`how`, one sentence a line)."""

    outcome: str
    headline: str
    how: tuple[str, ...]


def _name(seat: Seat) -> str:
    return f"{seat_label(seat)} ({index_letter(seat.index)})"


def _headline(game: Game, seat: Seat | None, team_play: bool) -> tuple[str, str]:
    winners = game.winners
    seats = {other.index: other for other in game.seats.all()}
    if seat is not None:
        if not winners:
            return "draw", _("A draw")
        won = seat.index in winners
        if team_play:
            return ("won", _("Your team won")) if won else ("lost", _("Your team lost"))
        return ("won", _("You won")) if won else ("lost", _("You lost"))
    if not winners:
        return "watched", _("A draw")
    names = [_name(seats[index]) for index in winners]
    if team_play:
        return "watched", _("The team %(seats)s won") % {"seats": " + ".join(names)}
    return "watched", _("%(seats)s won") % {"seats": ", ".join(names)}


def _ended_by(game: Game, seat: Seat | None) -> list[str]:
    """How the game ended: a seat that left it (conceded, its time ran out), else the engine's
    end (a Stronghold fallen, the AI's deck pile emptied), else the turn limit."""
    lines = []
    for other in game.seats.all():
        yours = seat is not None and other.pk == seat.pk
        if other.conceded:
            lines.append(
                _("You conceded.") if yours else _("%(name)s conceded.") % {"name": _name(other)}
            )
        if other.timed_out:
            lines.append(
                _("Your time ran out.")
                if yours
                else _("The time of %(name)s ran out.") % {"name": _name(other)}
            )
    if lines:
        return lines
    if not started(game):
        return [_("The table closed before the game began.")]
    outcome = game_state(game).outcome
    if outcome is None:
        turns = MODES[game.mode].turn_limit
        return [_("The game reached its turn limit (%(turns)s turns): a draw.") % {"turns": turns}]
    loser = next(other for other in game.seats.all() if other.index == outcome.loser)
    yours = seat is not None and loser.pk == seat.pk
    name = {"name": _name(loser)}
    if outcome.reason == "lost_pile":
        line = (
            _("Your deck pile ran out with its Fort revealed.")
            if yours
            else _("The deck pile of %(name)s ran out with its Fort revealed.") % name
        )
    elif outcome.reason == "lost_empty_hand":
        line = (
            _("Your Stronghold was destroyed: only the Stronghold was left in your hand.")
            if yours
            else _(
                "The Stronghold of %(name)s was destroyed: only the Stronghold was left in hand."
            )
            % name
        )
    else:
        line = (
            _("Your Stronghold was destroyed: the Fort reached the rightmost place of your hand.")
            if yours
            else _(
                "The Stronghold of %(name)s was destroyed: the Fort reached the rightmost place "
                "of the hand."
            )
            % name
        )
    lines = [line]
    if game.mode == Mode.FREE_FOR_ALL:
        lines.append(
            _("Free-For-All: the player whose card destroyed the Fort wins.")
            if len(outcome.winners()) == 1
            else _("Free-For-All: no other player's card destroyed it, so every other player wins.")
        )
    elif game.mode == Mode.TEAMS:
        lines.append(_("Team Play: partners win together."))
    return lines


def game_result(*, game: Game, seat: Seat | None) -> GameResult | None:
    """The result of finished `game` as `seat` sees it (None: a spectator); None while the game
    is not over."""
    if game.status != Status.FINISHED:
        return None
    mode = MODES[game.mode]
    team_play = len({row.team for row in mode.seats}) < len(mode.seats)
    outcome, headline = _headline(game, seat, team_play)
    return GameResult(outcome=outcome, headline=headline, how=tuple(_ended_by(game, seat)))


@dataclass(frozen=True)
class RematchOffer:
    """The rematch of a finished game as one of its players sees it: the table, who made it,
    and whether they sit there already (else their seat is kept for them, or was taken)."""

    game: Game
    by: str
    seated: bool
    kept: bool


def rematch_offer(*, game: Game, seat: Seat) -> RematchOffer | None:
    """The rematch of `game` (None: none made yet) for its player at `seat`."""
    rematch = rematch_get(game=game)
    if rematch is None:
        return None
    mine = next(other for other in rematch.seats.all() if other.index == seat.index)
    if seat.user_id is not None:
        seated = mine.user_id == seat.user_id
    else:
        seated = bool(seat.token_hash) and mine.token_hash == seat.token_hash
    seated_others = [
        seat_label(other)
        for other in rematch.seats.all()
        if other.kind == SeatKind.PLAYER and other.taken and other.index != seat.index
    ]
    return RematchOffer(
        game=rematch,
        by=", ".join(seated_others),
        seated=seated,
        kept=not seated and not mine.taken and rematch.status == Status.WAITING,
    )
