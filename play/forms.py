"""The forms of the play pages: a new table, and a seat taken by the share link."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.adapters.decks import PRECONSTRUCTED_NUMBERS, DeckChoice
from play.models import ChaosAgent, Format, Mode, TurnTime
from play.selectors import agent_choices
from play.services import SeatRequest

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


def opponents() -> list[tuple[str, str]]:
    """A seat's choices: the computer players strongest first, or an invited friend."""
    return [(f"agent:{value}", label) for value, label in agent_choices()] + [
        ("invite", str(_("A friend (share link)")))
    ]


class DeckFields(forms.Form):
    """A deck: a preconstructed one, or (Constructed) a saved deck's share id or a deck code."""

    preconstructed = forms.TypedChoiceField(
        label=_("Preconstructed deck"),
        choices=[(n, _("Deck %(number)d") % {"number": n}) for n in PRECONSTRUCTED_NUMBERS],
        coerce=int,
        required=False,
        initial=1,
    )
    deck = forms.CharField(label=_("Or a saved deck (its share id)"), max_length=16, required=False)
    code = forms.CharField(label=_("Or a deck code"), max_length=600, required=False)
    mutation_session = forms.TypedChoiceField(
        label=_("Mutation session"),
        choices=[],
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("Mutation decks only: the session whose deck you chose you play."),
    )

    def __init__(self, *args: Any, sessions: Sequence[tuple[int, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        field = self.fields["mutation_session"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—"), *sessions]

    def deck_choice(self, format: str) -> DeckChoice | None:
        """The deck chosen for a table of `format` (none at a Draft table, which drafts them,
        nor at a Mutation table: its session is `mutation_session`)."""
        data = self.cleaned_data
        if format in (Format.DRAFT, Format.MUTATION):
            return None
        if format == Format.PRECONSTRUCTED:
            return DeckChoice(preconstructed=data["preconstructed"])
        return DeckChoice(deck=data["deck"] or None, code=data["code"] or None)


def _seat_field(label: "_StrPromise", help_text: "_StrPromise") -> forms.ChoiceField:
    # Not required: the seats a mode does not have stay unread.
    return forms.ChoiceField(
        label=label, choices=opponents, initial="agent:greedy", required=False, help_text=help_text
    )


class NewTableForm(DeckFields):
    # Not required: without one, a Duel (the table of the first release, before the modes).
    mode = forms.ChoiceField(
        label=_("Game mode"), choices=Mode.choices, initial=Mode.DUEL, required=False
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial="preconstructed")
    pool = forms.CharField(
        label=_("Draft pool"),
        max_length=200,
        required=False,
        help_text=_(
            "Draft only: the expansions to draft from, separated by commas (initiation, or "
            "01,02 for Co-op's 64 cards). Your deck is then drafted at the table."
        ),
    )
    opponent = _seat_field(
        _("Seat B (Co-op: your partner, seat C)"),
        _("Not in Solo, where the AI plays the other side."),
    )
    seat_c = _seat_field(
        _("Seat C"), _("Free-For-All and Team Play only (your partner in Team Play).")
    )
    seat_d = _seat_field(_("Seat D"), _("Free-For-All and Team Play only."))
    ai_level = forms.TypedChoiceField(
        label=_("AI level"),
        choices=[(level, str(level)) for level in range(1, 11)],
        coerce=int,
        initial=1,
        required=False,
        empty_value=None,
        help_text=_("Solo and Co-op: the level of the difficulty table the AI plays at."),
    )
    exhaustion = forms.BooleanField(label=_("Exhaustion module"), required=False)
    listed = forms.BooleanField(label=_("List in the open tables"), required=False)
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"),
        choices=[("", _("No limit")), *TurnTime.choices],
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("A player whose time runs out loses the game on time."),
    )

    def clean_mode(self) -> str:
        mode: str = self.cleaned_data["mode"] or Mode.DUEL
        return mode

    def seat_requests(self) -> list[SeatRequest]:
        """The players' seats of the chosen mode (`play.services.game_create`)."""
        mode = self.cleaned_data["mode"]
        me = SeatRequest(
            kind="me",
            deck=self.deck_choice(self.cleaned_data["format"]),
            mutation_session=self.cleaned_data["mutation_session"],
        )
        if mode == Mode.SOLO:
            return [me]
        others = ["opponent"]
        if mode in (Mode.FREE_FOR_ALL, Mode.TEAMS):
            others += ["seat_c", "seat_d"]
        return [me, *(_other_seat(self.cleaned_data[name]) for name in others)]

    def chosen_level(self) -> int | None:
        if self.cleaned_data["mode"] in (Mode.SOLO, Mode.COOP):
            level: int | None = self.cleaned_data["ai_level"]
            return level
        return None


def _other_seat(choice: str) -> SeatRequest:
    """An invited player, or a computer player (at a Constructed table too, it plays a
    preconstructed deck: it has no saved decks of its own)."""
    if choice == "invite":
        return SeatRequest(kind="invite")
    return SeatRequest(kind="agent", agent=choice.removeprefix("agent:"))


class JoinForm(DeckFields):
    guest_name = forms.CharField(label=_("Your name (as a guest)"), max_length=40, required=False)


def chaos_opponents() -> list[tuple[str, str]]:
    """A Duel of Chaos table's other seat: the computer players strongest first, or a friend."""
    agents = [ChaosAgent.SEARCH, ChaosAgent.GREEDY, ChaosAgent.RANDOM]
    return [(f"agent:{agent.value}", str(agent.label)) for agent in agents] + [
        ("invite", str(_("A friend (share link)")))
    ]


class ChaosNewForm(forms.Form):
    opponent = forms.ChoiceField(label=_("Opponent"), choices=chaos_opponents)

    def opponent_kind(self) -> tuple[str, str]:
        """("agent", its name) or ("invite", "")."""
        value = self.cleaned_data["opponent"]
        if value.startswith("agent:"):
            return "agent", value.removeprefix("agent:")
        return "invite", ""


class ChaosJoinForm(forms.Form):
    guest_name = forms.CharField(label=_("Your name (as a guest)"), max_length=40, required=False)
