"""The forms of the play pages: a new table, and a seat taken by the share link."""

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.adapters.decks import PRECONSTRUCTED_NUMBERS, DeckChoice
from play.models import Agent, Format
from play.services import SeatRequest

OPPONENTS = [(f"agent:{value}", label) for value, label in Agent.choices] + [
    ("invite", _("A friend (share link)"))
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

    def deck_choice(self, format: str) -> DeckChoice:
        data = self.cleaned_data
        if format == Format.PRECONSTRUCTED:
            return DeckChoice(preconstructed=data["preconstructed"])
        return DeckChoice(deck=data["deck"] or None, code=data["code"] or None)


class NewTableForm(DeckFields):
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial="preconstructed")
    opponent = forms.ChoiceField(label=_("Opponent"), choices=OPPONENTS, initial="agent:greedy")
    exhaustion = forms.BooleanField(label=_("Exhaustion module"), required=False)
    listed = forms.BooleanField(label=_("List in the open tables"), required=False)

    def seat_requests(self) -> list[SeatRequest]:
        format = self.cleaned_data["format"]
        me = SeatRequest(kind="me", deck=self.deck_choice(format))
        opponent = self.cleaned_data["opponent"]
        if opponent == "invite":
            return [me, SeatRequest(kind="invite")]
        agent = opponent.removeprefix("agent:")
        if format == Format.PRECONSTRUCTED:
            return [me, SeatRequest(kind="agent", agent=agent)]
        # A Constructed table's computer player plays a preconstructed deck: it has no saved
        # decks of its own.
        return [me, SeatRequest(kind="agent", agent=agent, deck=None)]


class JoinForm(DeckFields):
    guest_name = forms.CharField(label=_("Your name (as a guest)"), max_length=40, required=False)
