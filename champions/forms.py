"""The designer's form: it parses what the browser sends; the services decide what is valid."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from champions.designs import ChampionDesign
from champions.models import FLAVOUR_MAX_LENGTH, NAME_MAX_LENGTH, Visibility
from champions.pricing import (
    ATTACK_MAX,
    ATTACK_MIN,
    HP_MAX,
    HP_MIN,
    MANA_MAX,
    MANA_MIN,
    MAX_ABILITIES,
    AbilityCost,
)
from champions.proposals import PROPOSAL_MANA_MAX, PROPOSAL_MANA_MIN
from cod_site.i18n import LANGUAGE_CODES

ABILITY_FIELDS = [f"ability_{index}" for index in range(1, MAX_ABILITIES + 1)]
LANGUAGE_LABELS = {"en": _("English"), "fr": _("French"), "sv": _("Swedish")}


def ability_choices(costs: dict[str, AbilityCost]) -> list[Any]:
    rows = sorted(costs.values(), key=lambda row: row.name.casefold())
    return [
        ("", "—"),
        (_("Abilities"), [(row.code, row.name) for row in rows]),
        (
            _("Auras (grant the ability to adjacent Creatures)"),
            [
                (f"aura:{row.code}", _("Aura: %(ability)s") % {"ability": row.name})
                for row in rows
                if row.can_be_aura
            ],
        ),
    ]


class ChampionForm(forms.Form):
    name_en = forms.CharField(label=_("Name (English)"), max_length=NAME_MAX_LENGTH)
    name_fr = forms.CharField(label=_("Name (French)"), max_length=NAME_MAX_LENGTH, required=False)
    name_sv = forms.CharField(label=_("Name (Swedish)"), max_length=NAME_MAX_LENGTH, required=False)
    flavour_en = forms.CharField(
        label=_("Flavour text (English)"),
        max_length=FLAVOUR_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    flavour_fr = forms.CharField(
        label=_("Flavour text (French)"),
        max_length=FLAVOUR_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    flavour_sv = forms.CharField(
        label=_("Flavour text (Swedish)"),
        max_length=FLAVOUR_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    mana = forms.IntegerField(
        label=_("Mana cost"), widget=forms.NumberInput(attrs={"min": MANA_MIN, "max": MANA_MAX})
    )
    attack = forms.IntegerField(
        label=_("Attack"), widget=forms.NumberInput(attrs={"min": ATTACK_MIN, "max": ATTACK_MAX})
    )
    hp = forms.IntegerField(
        label=_("HP"), widget=forms.NumberInput(attrs={"min": HP_MIN, "max": HP_MAX})
    )
    visibility = forms.ChoiceField(
        label=_("Visibility"), choices=Visibility.choices, initial=Visibility.PRIVATE
    )
    illustration = forms.FileField(
        label=_("Illustration (PNG, JPEG or WebP, up to 10 MB)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp"}),
    )
    draft_illustration = forms.CharField(required=False, widget=forms.HiddenInput)
    remove_illustration = forms.BooleanField(label=_("Remove the illustration"), required=False)
    illustration_x = forms.IntegerField(
        label=_("Horizontal position"),
        initial=50,
        widget=forms.NumberInput(attrs={"type": "range", "min": 0, "max": 100}),
    )
    illustration_y = forms.IntegerField(
        label=_("Vertical position"),
        initial=50,
        widget=forms.NumberInput(attrs={"type": "range", "min": 0, "max": 100}),
    )
    illustration_zoom = forms.IntegerField(
        label=_("Zoom (%)"),
        initial=100,
        widget=forms.NumberInput(attrs={"type": "range", "min": 100, "max": 400, "step": 5}),
    )
    preview_language = forms.ChoiceField(
        label=_("Preview language"),
        choices=[(code, LANGUAGE_LABELS[code]) for code in LANGUAGE_CODES],
        required=False,
    )

    def __init__(self, *args: Any, costs: dict[str, AbilityCost], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = ability_choices(costs)
        for index, name in enumerate(ABILITY_FIELDS, start=1):
            self.fields[name] = forms.ChoiceField(
                label=_("Ability %(number)s") % {"number": index},
                choices=choices,
                required=False,
            )

    @property
    def ability_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ABILITY_FIELDS]

    @property
    def text_fields(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [(code, self[f"name_{code}"], self[f"flavour_{code}"]) for code in LANGUAGE_CODES]

    def design(self) -> ChampionDesign:
        data = self.cleaned_data
        return ChampionDesign(
            names={code: data.get(f"name_{code}") or "" for code in LANGUAGE_CODES},
            flavours={code: data.get(f"flavour_{code}") or "" for code in LANGUAGE_CODES},
            mana=data["mana"],
            attack=data["attack"],
            hp=data["hp"],
            abilities=[data[name] for name in ABILITY_FIELDS if data.get(name)],
            visibility=data["visibility"],
            illustration_x=data["illustration_x"] / 100,
            illustration_y=data["illustration_y"] / 100,
            illustration_zoom=data["illustration_zoom"] / 100,
        )


def initial_from(design: ChampionDesign) -> dict[str, Any]:
    initial: dict[str, Any] = {
        "mana": design.mana,
        "attack": design.attack,
        "hp": design.hp,
        "visibility": design.visibility,
        "illustration_x": round(design.illustration_x * 100),
        "illustration_y": round(design.illustration_y * 100),
        "illustration_zoom": round(design.illustration_zoom * 100),
    }
    for code in LANGUAGE_CODES:
        initial[f"name_{code}"] = design.names.get(code, "")
        initial[f"flavour_{code}"] = design.flavours.get(code, "")
    for name, token in zip(ABILITY_FIELDS, design.abilities, strict=False):
        initial[name] = token
    return initial


class ProposeForm(forms.Form):
    propose = forms.TypedChoiceField(
        label=_("Mana cost"),
        coerce=int,
        choices=[(value, value) for value in range(PROPOSAL_MANA_MIN, PROPOSAL_MANA_MAX + 1)],
        initial=4,
    )
    require = forms.CharField(
        label=_("Required abilities (optional)"),
        required=False,
        max_length=200,
        help_text=_("Codes separated by commas, e.g. splash, aura:rage"),
    )
    seed = forms.CharField(label=_("Seed"), required=False, max_length=32)


class PrintForm(forms.Form):
    paper = forms.ChoiceField(
        label=_("Paper"), choices=[("a4", "A4"), ("letter", _("US Letter"))], initial="a4"
    )
    bleed = forms.BooleanField(label=_("3 mm bleed around the grid"), required=False)
    backs = forms.BooleanField(
        label=_("Add a backs page (mirrored for long-edge duplex)"), required=False
    )
    back_offset_x = forms.FloatField(
        label=_("Backs offset, horizontal (mm)"), initial=0.0, required=False
    )
    back_offset_y = forms.FloatField(
        label=_("Backs offset, vertical (mm)"), initial=0.0, required=False
    )
