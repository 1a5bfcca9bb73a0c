"""The "Test this deck" form: which deck, against what, which AI, how many games."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.adapters.decks import MODE, PRECONSTRUCTED_NUMBERS, SOLO_MODE, DeckChoice
from engine.models import CHAOS_MAX_GAMES, MAX_GAMES, MAX_LEVEL, MIN_LEVEL, Agent, ChaosAgent
from engine.selectors import DeckOption, SeatChoice, SoloAiChoice

DEFAULT_GAMES = 1000


class OpponentKind:
    MINE = "mine"
    PUBLIC = "public"
    CODE = "code"
    PRECONSTRUCTED = "preconstructed"
    # Solo: the rulebook's AI, at a level of the difficulty table (0: Quick Play).
    SOLO = "solo"
    CHOICES = [
        (MINE, _("One of my decks")),
        (PUBLIC, _("A public deck")),
        (CODE, _("A deck code")),
        (PRECONSTRUCTED, _("A preconstructed deck")),
        (SOLO, _("The Solo AI")),
    ]


QUICK_PLAY = 0


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
    opponent_solo = forms.TypedChoiceField(
        label=_("Solo AI level"),
        choices=[
            (QUICK_PLAY, _("Quick Play")),
            *((n, _("Level %(level)d") % {"level": n}) for n in range(MIN_LEVEL, MAX_LEVEL + 1)),
        ],
        coerce=int,
        required=False,
        initial=QUICK_PLAY,
    )
    # Blank: the strongest AI of the mode at any number of games (services.agent_for).
    agent = forms.ChoiceField(
        label=_("AI level"),
        choices=[("", _("The strongest (a large batch takes minutes)")), *Agent.choices],
        initial="",
        required=False,
    )
    games = forms.IntegerField(
        label=_("Number of games"), min_value=1, max_value=MAX_GAMES, initial=DEFAULT_GAMES
    )
    exhaustion = forms.BooleanField(label=_("Exhaustion module"), required=False)
    champions = forms.BooleanField(
        label=_("Champion module (saved decks play with their Champion)"), required=False
    )
    control = forms.BooleanField(
        label=_("Check the verdict with a small batch played by another AI"),
        required=False,
        initial=True,
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
        if kind and data.get(field) in (None, ""):
            self.add_error(field, _("Choose the opponent's deck."))
        return data

    def seats(self) -> list[SeatChoice]:
        """The deck to test (deck A) and its opponent (deck B), both played by the chosen AI;
        against the Solo AI, the deck alone."""
        agent = self.cleaned_data["agent"] or None
        tested = SeatChoice(DeckChoice(deck=self.cleaned_data["deck"]), agent)
        if self.cleaned_data["opponent"] == OpponentKind.SOLO:
            return [tested]
        return [tested, self._opponent(agent)]

    def mode(self) -> str:
        return SOLO_MODE if self.cleaned_data["opponent"] == OpponentKind.SOLO else MODE

    def solo_ai(self) -> SoloAiChoice | None:
        """The Solo AI's level (None: a Duel, or Quick Play's AI)."""
        level = self.cleaned_data.get("opponent_solo")
        if self.cleaned_data["opponent"] != OpponentKind.SOLO or level == QUICK_PLAY:
            return None
        return SoloAiChoice(level=level)

    def _opponent(self, agent: str | None) -> SeatChoice:
        kind = self.cleaned_data["opponent"]
        value = self.cleaned_data[f"opponent_{kind}"]
        if kind == OpponentKind.CODE:
            return SeatChoice(DeckChoice(code=value), agent)
        if kind == OpponentKind.PRECONSTRUCTED:
            return SeatChoice(DeckChoice(preconstructed=value), agent)
        return SeatChoice(DeckChoice(deck=value), agent)


class ChaosBatchForm(forms.Form):
    """A Duel of Chaos test batch: a set of the catalogue, an AI per seat, how many games."""

    set_code = forms.ChoiceField(label=_("Set"))
    agent_a = forms.ChoiceField(
        label=_("AI of seat A"), choices=ChaosAgent.choices, initial=ChaosAgent.GREEDY
    )
    agent_b = forms.ChoiceField(
        label=_("AI of seat B"), choices=ChaosAgent.choices, initial=ChaosAgent.RANDOM
    )
    games = forms.IntegerField(
        label=_("Games"),
        min_value=1,
        max_value=max(CHAOS_MAX_GAMES.values()),
        initial=500,
        help_text=_("Up to 20,000 with the fast AIs, 120 with the search AI."),
    )

    def __init__(self, *args: Any, sets: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["set_code"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = sets
