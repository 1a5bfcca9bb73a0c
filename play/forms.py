"""The forms of the play pages: a new table, and a seat taken by the share link."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cod_site.errors import DomainError
from engine.adapters.play import PRECONSTRUCTED_NUMBERS, DeckChoice
from play.models import ChaosAgent, Format, Mode, TurnTime
from play.selectors import agent_choices
from play.table_services import SeatRequest

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


def opponents() -> list[tuple[str, str]]:
    """A seat's choices: the computer players strongest first, or an invited friend (by the
    share link, or by username: the seat's `<seat>_username` field)."""
    return [(f"agent:{value}", label) for value, label in agent_choices()] + [
        ("invite", str(_("A friend (share link or username)")))
    ]


class DeckSelect(forms.Select):
    """My decks, each option saying whether it can feed the Co-op AI (`data-coop="no"`: the
    page's script disables it at a Co-op table)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.coop_ready: set[str] | None = None

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(*args, **kwargs)
        if (
            self.coop_ready is not None
            and option["value"]
            and (option["value"] not in self.coop_ready)
        ):
            option["attrs"]["data-coop"] = "no"
        return option


class DeckFields(forms.Form):
    """A deck: a preconstructed one, or (Constructed) a saved deck's share id or a deck code."""

    preconstructed = forms.TypedChoiceField(
        label=_("Preconstructed deck"),
        choices=[(n, _("Deck %(number)d") % {"number": n}) for n in PRECONSTRUCTED_NUMBERS],
        coerce=int,
        required=False,
        initial=1,
    )
    # Chosen, not typed (issue 29): one of my decks, or a public deck found by its name. Both
    # selects send a share id (the API takes it as it is); a public deck's select is filled by
    # the search (`play:deck_search`), so any share id is read and checked by the service.
    deck = forms.CharField(
        label=_("Or one of my decks"), max_length=16, required=False, widget=DeckSelect
    )
    deck_search = forms.CharField(
        label=_("Or find a public deck by its name"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
    public_deck = forms.CharField(
        label=_("Public deck"), max_length=16, required=False, widget=forms.Select
    )
    code = forms.CharField(label=_("Or a deck code"), max_length=600, required=False)
    mutation_session = forms.TypedChoiceField(
        label=_("Mutation session"),
        choices=[],
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("Mutation decks only: the session whose deck you chose you play."),
    )

    def __init__(
        self,
        *args: Any,
        sessions: Sequence[tuple[int, str]] = (),
        decks: Sequence[tuple[str, str]] = (),
        search_url: str = "",
        coop_ready: set[str] | None = None,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        field = self.fields["mutation_session"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—"), *sessions]
        mine = self.fields["deck"].widget
        assert isinstance(mine, DeckSelect)
        mine.choices = [("", "—"), *decks]
        mine.coop_ready = coop_ready
        if not decks:
            self.fields["deck"].help_text = _("Your saved decks show here once you log in.")
        found = self.fields["public_deck"].widget
        assert isinstance(found, forms.Select)
        chosen = self.data.get("public_deck", "") if self.is_bound else ""
        # The deck a search found stays chosen when the form comes back with an error.
        found.choices = [("", "—"), *([(chosen, chosen)] if chosen else [])]
        search = self.fields["deck_search"].widget
        search.attrs.update(
            {
                "hx-get": search_url,
                "hx-trigger": "input changed delay:300ms, search",
                "hx-target": "#id_public_deck",
                "hx-swap": "innerHTML",
            }
        )

    def deck_choice(self, format: str) -> DeckChoice | None:
        """The deck chosen for a table of `format` (none at a Draft table, which drafts them,
        nor at a Mutation table: its session is `mutation_session`)."""
        data = self.cleaned_data
        if format in (Format.DRAFT, Format.MUTATION):
            return None
        if format == Format.PRECONSTRUCTED:
            return DeckChoice(preconstructed=data["preconstructed"])
        return DeckChoice(
            deck=data["deck"] or data["public_deck"] or None, code=data["code"] or None
        )


def _seat_field(label: "_StrPromise", help_text: "_StrPromise") -> forms.ChoiceField:
    # Not required: the seats a mode does not have stay unread.
    return forms.ChoiceField(
        label=label, choices=opponents, initial="agent:greedy", required=False, help_text=help_text
    )


def _username_field(label: "_StrPromise") -> forms.CharField:
    # Read only with the seat's choice "invite" (the page's script shows it only then).
    return forms.CharField(
        label=label,
        max_length=150,
        required=False,
        help_text=_(
            "Optional: only this player can take the seat, and the invitation shows in their "
            "header. Empty: whoever has the share link."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )


# The seat fields of the form by the letter of the seat they fill, in each mode (Co-op's
# partner is seat C: B and D are the AI's).
SEAT_FIELDS = {"b": "opponent", "c": "seat_c", "d": "seat_d"}
COOP_SEAT_FIELDS = {"c": "opponent"}


class NewTableForm(DeckFields):
    # Not required: without one, a Duel (the table of the first release, before the modes).
    mode = forms.ChoiceField(
        label=_("Game mode"),
        choices=Mode.choices,
        initial=Mode.DUEL,
        required=False,
        # Says why before the table is refused (issue 29: Co-op with the defaults failed).
        help_text=_(
            "Co-op: the AI plays 48 cards of the players' expansions that neither deck holds. "
            "The preconstructed decks leave too few: play Co-op as a Draft (two expansions), or "
            "with one of your decks whose expansions hold enough (the others are disabled)."
        ),
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial="preconstructed")
    # Ticked from the list of expansions, not typed as codes (issue 29).
    pool = forms.MultipleChoiceField(
        label=_("Draft pool"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Draft only: the expansions to draft from (one, or two for Co-op's 64 cards). Your "
            "deck is then drafted at the table."
        ),
    )
    opponent = _seat_field(
        _("Seat B (Co-op: your partner, seat C)"),
        _("Not in Solo, where the AI plays the other side."),
    )
    opponent_username = _username_field(_("Seat B: their username (Co-op: your partner's)"))
    seat_c = _seat_field(
        _("Seat C"), _("Free-For-All and Team Play only (your partner in Team Play).")
    )
    seat_c_username = _username_field(_("Seat C: their username"))
    seat_d = _seat_field(_("Seat D"), _("Free-For-All and Team Play only."))
    seat_d_username = _username_field(_("Seat D: their username"))
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

    def __init__(
        self, *args: Any, expansions: Sequence[tuple[str, str]] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        pool = self.fields["pool"]
        assert isinstance(pool, forms.MultipleChoiceField)
        pool.choices = list(expansions)

    def clean_pool(self) -> str:
        """The ticked expansions as the service reads a pool: slugs separated by commas."""
        return ",".join(self.cleaned_data["pool"])

    def clean_mode(self) -> str:
        mode: str = self.cleaned_data["mode"] or Mode.DUEL
        return mode

    def seat_requests(self) -> list[SeatRequest]:
        """The players' seats of the chosen mode (`play.table_services.game_create`)."""
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
        return [
            me,
            *(
                _other_seat(self.cleaned_data[name], self.cleaned_data[f"{name}_username"])
                for name in others
            ),
        ]

    def refusal_shown(self, error: DomainError) -> bool:
        """Whether the service's refusal `error` names one of the seats' usernames: shown at
        that field, not above the form."""
        side = error.details.get("side")
        if error.details.get("field") != "username" or not isinstance(side, str):
            return False
        seats = COOP_SEAT_FIELDS if self.cleaned_data["mode"] == Mode.COOP else SEAT_FIELDS
        if side not in seats:
            return False
        self.add_error(f"{seats[side]}_username", error.message)
        return True

    def chosen_level(self) -> int | None:
        if self.cleaned_data["mode"] in (Mode.SOLO, Mode.COOP):
            level: int | None = self.cleaned_data["ai_level"]
            return level
        return None


def _other_seat(choice: str, username: str) -> SeatRequest:
    """An invited player (by `username`, if given), or a computer player (at a Constructed
    table too, it plays a preconstructed deck: it has no saved decks of its own)."""
    if choice == "invite":
        return SeatRequest(kind="invite", username=username.strip())
    return SeatRequest(kind="agent", agent=choice.removeprefix("agent:"))


class JoinForm(DeckFields):
    guest_name = forms.CharField(label=_("Your name (as a guest)"), max_length=40, required=False)

    def __init__(self, *args: Any, signed_in: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if signed_in:
            # A signed-in player joins as themselves (issue 29): no guest name to give.
            del self.fields["guest_name"]


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
