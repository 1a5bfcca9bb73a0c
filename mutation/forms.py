"""Forms of the Mutation pages: they parse input only; the rules live in the services."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cards.models import Expansion
from cards.selectors import translated
from mutation import draft


class ExpansionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Expansion) -> str:
        return f"{obj.code} · {translated(obj, 'name').text}"


class SessionCreateForm(forms.Form):
    name = forms.CharField(label=_("Session name"), max_length=100)
    expansion_a = ExpansionChoiceField(
        label=_("First expansion"),
        queryset=Expansion.objects.prefetch_related("translations"),
    )
    expansion_b = ExpansionChoiceField(
        label=_("Second expansion"),
        queryset=Expansion.objects.prefetch_related("translations"),
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_("Leave empty for a random deal; the same seed deals the same hands."),
    )
    player_1 = forms.CharField(label=_("Seat 1"), max_length=60, required=False)
    player_2 = forms.CharField(label=_("Seat 2"), max_length=60, required=False)
    player_3 = forms.CharField(label=_("Seat 3"), max_length=60, required=False)
    player_4 = forms.CharField(label=_("Seat 4"), max_length=60, required=False)
    organiser_seat = forms.TypedChoiceField(
        label=_("I play at"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[("", _("no seat (I only organise)"))]
        + [(n, _("Seat %(number)s") % {"number": n}) for n in draft.seat_numbers()],
    )

    def players(self) -> list[str]:
        return [self.cleaned_data[f"player_{n}"] for n in draft.seat_numbers()]


class JoinForm(forms.Form):
    name = forms.CharField(label=_("Your name at the table"), max_length=60, required=False)


class PickForm(forms.Form):
    seat = forms.IntegerField(min_value=1, max_value=draft.SEATS)
    card = forms.IntegerField(min_value=1)


class DeckForm(forms.Form):
    cards = forms.TypedMultipleChoiceField(coerce=int, label=_("Deck"))
    stronghold = forms.TypedChoiceField(coerce=int, label=_("Stronghold"))

    def __init__(
        self,
        *args: Any,
        pool: list[tuple[int, str]],
        strongholds: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for name, choices in (("cards", pool), ("stronghold", strongholds)):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices


class MutationForm(forms.Form):
    target = forms.IntegerField(label=_("Deck creature"), required=False)
    # "<source card id>:<element>", e.g. "412:ability:1".
    element = forms.RegexField(
        regex=r"^[0-9]+:(attack|hp|mana|ability:[0-9]+)$", label=_("Element"), required=False
    )
    covers = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        choices=[(n, str(n)) for n in range(1, 10)],
        label=_("Ability boxes it covers"),
    )

    def source_and_element(self) -> tuple[int, str] | None:
        value = self.cleaned_data.get("element")
        if not value:
            return None
        source, element = value.split(":", 1)
        return int(source), element


class ResultForm(forms.Form):
    round = forms.IntegerField(min_value=1, max_value=6)
    table = forms.IntegerField(min_value=1, max_value=2)
    winner = forms.IntegerField(min_value=1, max_value=draft.SEATS)
