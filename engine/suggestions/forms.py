"""The "Improve this deck" form: against what, how many games at most, which seed."""

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.adapters.decks import DeckChoice
from engine.models import Agent, SuggestionField
from engine.suggestions.selectors import MAX_FIELD_DECKS
from engine.suggestions.services import DEFAULT_GAMES, MAX_GAMES

# A line of the decks box this long or shorter is a share id; a longer one, a deck code.
SHARE_ID_MAX = 16


class SuggestionForm(forms.Form):
    field = forms.ChoiceField(
        label=_("Play it against"),
        choices=SuggestionField.choices,
        initial=SuggestionField.PRECONSTRUCTED,
        widget=forms.RadioSelect,
    )
    decks = forms.CharField(
        label=_("Decks to play against"),
        help_text=_("One per line: a deck's share id (from its link) or a deck code."),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "aria-describedby": "decks-help"}),
    )
    games = forms.IntegerField(
        label=_("Most games to play"), min_value=1, max_value=MAX_GAMES, initial=DEFAULT_GAMES
    )
    seed = forms.IntegerField(label=_("Seed (optional)"), min_value=0, required=False)
    # Blank: the strongest AI whose games of the whole budget are affordable (search_agent_for).
    agent = forms.ChoiceField(
        label=_("AI level"),
        choices=[("", _("The strongest that fits the number of games")), *Agent.choices],
        initial="",
        required=False,
    )

    def clean_decks(self) -> list[DeckChoice]:
        lines = [line.strip() for line in self.cleaned_data["decks"].splitlines() if line.strip()]
        if len(lines) > MAX_FIELD_DECKS:
            raise forms.ValidationError(
                _("At most %(max)d decks.") % {"max": MAX_FIELD_DECKS}, code="too_many"
            )
        return [
            DeckChoice(deck=line) if len(line) <= SHARE_ID_MAX else DeckChoice(code=line)
            for line in lines
        ]
