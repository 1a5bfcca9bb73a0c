"""The "Test this deck" form: which deck, against what, which AI, how many games."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.adapters.decks import PRECONSTRUCTED_NUMBERS, DeckChoice
from engine.models import MAX_GAMES, Agent
from engine.selectors import DeckOption, SeatChoice

DEFAULT_GAMES = 1000


class OpponentKind:
    MINE = "mine"
    PUBLIC = "public"
    CODE = "code"
    PRECONSTRUCTED = "preconstructed"
    CHOICES = [
        (MINE, _("One of my decks")),
        (PUBLIC, _("A public deck")),
        (CODE, _("A deck code")),
        (PRECONSTRUCTED, _("A preconstructed deck")),
    ]


def _deck_choices(options: list[DeckOption], with_owner: bool) -> list[tuple[str, str]]:
    return [
        (one.share_id, f"{one.name} ({one.owner})" if with_owner else one.name) for one in options
    ]


class TestDeckForm(forms.Form):
    deck = forms.ChoiceField(label=_("Deck to test"))
    opponent = forms.ChoiceField(
        label=_("Opponent"),
        choices=OpponentKind.CHOICES,
        initial=OpponentKind.PRECONSTRUCTED,
        widget=forms.RadioSelect,
    )
    opponent_mine = forms.ChoiceField(label=_("My deck"), required=False)
    opponent_public = forms.ChoiceField(label=_("Public deck"), required=False)
    opponent_code = forms.CharField(label=_("Deck code"), required=False, max_length=600)
    opponent_preconstructed = forms.TypedChoiceField(
        label=_("Preconstructed deck"),
        choices=[(n, _("Deck %(number)d") % {"number": n}) for n in PRECONSTRUCTED_NUMBERS],
        coerce=int,
        required=False,
        initial=1,
    )
    agent = forms.ChoiceField(label=_("AI level"), choices=Agent.choices, initial=Agent.GREEDY)
    games = forms.IntegerField(
        label=_("Number of games"), min_value=1, max_value=MAX_GAMES, initial=DEFAULT_GAMES
    )
    exhaustion = forms.BooleanField(label=_("Exhaustion module"), required=False)
    champions = forms.BooleanField(
        label=_("Champion module (saved decks play with their Champion)"), required=False
    )

    def __init__(
        self,
        *args: Any,
        decks: list[DeckOption],
        mine: list[DeckOption],
        public: list[DeckOption],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for name, options, with_owner in (
            ("deck", decks, True),
            ("opponent_mine", mine, False),
            ("opponent_public", public, True),
        ):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = _deck_choices(options, with_owner=with_owner)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        kind = data.get("opponent")
        field = f"opponent_{kind}"
        if kind and not data.get(field):
            self.add_error(field, _("Choose the opponent's deck."))
        return data

    def seats(self) -> list[SeatChoice]:
        """The deck to test (deck A) and its opponent (deck B), both played by the chosen AI."""
        agent = self.cleaned_data["agent"]
        return [
            SeatChoice(DeckChoice(deck=self.cleaned_data["deck"]), agent),
            self._opponent(agent),
        ]

    def _opponent(self, agent: str) -> SeatChoice:
        kind = self.cleaned_data["opponent"]
        value = self.cleaned_data[f"opponent_{kind}"]
        if kind == OpponentKind.CODE:
            return SeatChoice(DeckChoice(code=value), agent)
        if kind == OpponentKind.PRECONSTRUCTED:
            return SeatChoice(DeckChoice(preconstructed=value), agent)
        return SeatChoice(DeckChoice(deck=value), agent)
