"""Parse and serialise only: every check of a Champion's design lives in the services."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from champions.documents import MAX_SYNC_CARDS
from champions.models import Champion, PrintJob, Visibility
from champions.pnp import MAX_BACK_OFFSET_MM, PAPERS, SheetOptions
from champions.pricing import (
    ATTACK_MAX,
    ATTACK_MIN,
    HP_MAX,
    HP_MIN,
    MANA_MAX,
    MANA_MIN,
    Price,
)
from champions.proposals import PROPOSAL_MANA_MAX, PROPOSAL_MANA_MIN, SEED_MAX_LENGTH
from champions.selectors import (
    champion_flavour,
    champion_name,
    champion_price,
    champion_texts,
)
from champions.services import MAX_COPIES, MAX_PRINT_JOB_CARDS
from cod_site.api.limits import BoundedListField, BoundedListSerializer, bounded_list
from cod_site.api.schema import UploadField, documented_float_range, documented_range
from cod_site.api.strict import StrictInputSerializer
from cod_site.i18n import LANGUAGE_CODES

# The ranges are the rules' (champions.pricing, champions.proposals): stated in the schema,
# checked by the domain with its own codes.
AttackField = documented_range(ATTACK_MIN, ATTACK_MAX)
HpField = documented_range(HP_MIN, HP_MAX)
ManaField = documented_range(MANA_MIN, MANA_MAX)
ProposalManaField = documented_range(PROPOSAL_MANA_MIN, PROPOSAL_MANA_MAX)


class PriceLineSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["body", "ability", "aura"])
    code = serializers.CharField(help_text="`body`, an ability code, or `aura:CODE`.")
    # DRF's metaclass moves declared fields off the class: `label` hides no attribute.
    label = serializers.CharField()  # type: ignore[assignment]
    cost = serializers.FloatField(help_text="Mana this line adds (may be negative or .5).")
    text = serializers.CharField(help_text='Ready to show, e.g. "4/4 body: 3" or "Splash: +1".')


class PriceSerializer(serializers.Serializer):
    suggested_cost = serializers.IntegerField()
    exact_cost = serializers.FloatField(help_text="The model's unrounded value.")
    breakdown = PriceLineSerializer(many=True)
    mana = serializers.IntegerField(allow_null=True, help_text="The chosen cost, if given.")
    warning = serializers.CharField(
        allow_null=True, help_text="Set when the chosen cost is more than 1 from the suggestion."
    )


def price_data(price: Price, chosen: int | None) -> dict[str, Any]:
    return {
        "suggested_cost": price.suggested_cost,
        "exact_cost": float(price.exact),
        "breakdown": [
            {
                "kind": line.kind,
                "code": line.code,
                "label": line.label,
                "cost": float(line.cost),
                "text": line.display,
            }
            for line in price.lines
        ],
        "mana": chosen,
        "warning": price.warning(chosen),
    }


class PriceRequestSerializer(StrictInputSerializer):
    attack = AttackField()
    hp = HpField()
    abilities = BoundedListField(
        child=serializers.CharField(max_length=60),
        required=False,
        default=list,
        max_length=20,
        help_text='Ability codes; `aura:CODE` for an Aura, e.g. ["splash", "aura:rage"].',
    )
    # Only compared with the suggestion (no rule checks it): the serializer bounds it.
    mana = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=MANA_MIN,
        max_value=MANA_MAX,
        help_text="The chosen cost, to get a warning.",
    )


class ProposeRequestSerializer(StrictInputSerializer):
    mana = ProposalManaField()
    abilities = BoundedListField(
        child=serializers.CharField(max_length=60), required=False, default=list, max_length=5
    )
    seed = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=SEED_MAX_LENGTH,
        help_text="Same seed, same proposal; blank or omitted: a new one.",
    )


class ProposalSerializer(serializers.Serializer):
    seed = serializers.CharField()
    mana = serializers.IntegerField()
    name = serializers.CharField()
    attack = serializers.IntegerField()
    hp = serializers.IntegerField()
    abilities = serializers.ListField(child=serializers.CharField())
    price = PriceSerializer()
    designer_url = serializers.CharField(help_text="Opens this proposal in the designer.")


class TextsField(serializers.DictField):
    """{"en": "…", "fr": "…", "sv": "…"}: only our three languages."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.CharField(allow_blank=True, max_length=400), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, str]:
        if isinstance(data, dict):  # refused by its size before each text is parsed
            field = self.field_name or "texts"  # None only on an unbound field
            bounded_list(list(data), limit=len(LANGUAGE_CODES), field=field)
        value = super().to_internal_value(data)
        unknown = sorted(set(value) - set(LANGUAGE_CODES))
        if unknown:
            raise serializers.ValidationError(
                f"Unknown language {unknown[0]!r}: use {', '.join(LANGUAGE_CODES)}."
            )
        return value


class ChampionWriteSerializer(StrictInputSerializer):
    names = TextsField(help_text='{"en": "…", "fr": "…", "sv": "…"}; English is required.')
    flavours = TextsField(required=False, default=dict)
    mana = ManaField()
    attack = AttackField()
    hp = HpField()
    abilities = BoundedListField(
        child=serializers.CharField(max_length=60), required=False, default=list, max_length=20
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)
    illustration_x = serializers.FloatField(required=False, default=0.5)
    illustration_y = serializers.FloatField(required=False, default=0.5)
    illustration_zoom = serializers.FloatField(required=False, default=1.0)


class IllustrationUploadSerializer(serializers.Serializer):
    file = UploadField(help_text="PNG, JPEG or WebP (checked by content), ≤ 10 MB.")


class ChampionAbilitySerializer(serializers.Serializer):
    code = serializers.CharField()
    aura = serializers.BooleanField()
    token = serializers.CharField(help_text="`code`, or `aura:code` for an Aura.")
    name = serializers.CharField()


class ChampionSerializer(serializers.Serializer):
    """A Champion as read; `price` is computed with the current ability costs."""

    id = serializers.CharField(source="uid")
    owner = serializers.CharField(source="owner.get_username")
    name = serializers.SerializerMethodField()
    flavour = serializers.SerializerMethodField()
    names = serializers.SerializerMethodField()
    flavours = serializers.SerializerMethodField()
    mana = ManaField()
    attack = AttackField()
    hp = HpField()
    abilities = serializers.SerializerMethodField()
    visibility = serializers.CharField()
    # DRF's metaclass moves declared fields off the class: `parent` hides no attribute.
    parent = serializers.SerializerMethodField()  # type: ignore[assignment]
    price = serializers.SerializerMethodField()
    illustration = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_name(self, champion: Champion) -> str:
        return champion_name(champion)

    def get_flavour(self, champion: Champion) -> str:
        return champion_flavour(champion)

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_names(self, champion: Champion) -> dict[str, str]:
        return {lang: texts["name"] for lang, texts in champion_texts(champion).items()}

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_flavours(self, champion: Champion) -> dict[str, str]:
        return {
            lang: texts["flavour"]
            for lang, texts in champion_texts(champion).items()
            if texts["flavour"]
        }

    @extend_schema_field(ChampionAbilitySerializer(many=True))
    def get_abilities(self, champion: Champion) -> list[dict[str, Any]]:
        costs = self.context["costs"]
        return [
            {
                "code": row.ability.code,
                "aura": row.is_aura,
                "token": f"aura:{row.ability.code}" if row.is_aura else row.ability.code,
                "name": costs[row.ability.code].name
                if row.ability.code in costs
                else row.ability.code,
            }
            for row in champion.abilities.all()
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_parent(self, champion: Champion) -> str | None:
        return champion.parent.uid if champion.parent else None

    @extend_schema_field(PriceSerializer(allow_null=True))
    def get_price(self, champion: Champion) -> dict[str, Any] | None:
        price = champion_price(champion, self.context["costs"])
        return price_data(price, champion.mana) if price else None

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_illustration(self, champion: Champion) -> dict[str, Any] | None:
        if not champion.illustration:
            return None
        return {
            "url": self._absolute(reverse("api:champion-illustration", args=[champion.uid])),
            "width": champion.illustration_width,
            "height": champion.illustration_height,
            "x": champion.illustration_x,
            "y": champion.illustration_y,
            "zoom": champion.illustration_zoom,
        }

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_links(self, champion: Champion) -> dict[str, str]:
        return {
            "self": self._absolute(reverse("api:champion-detail", args=[champion.uid])),
            "page": self._absolute(reverse("champions:detail", args=[champion.uid])),
            "card_png": self._absolute(reverse("api:champion-card-png", args=[champion.uid])),
            "preview_png": self._absolute(
                reverse("api:champion-card-png", args=[champion.uid]) + "?size=preview"
            ),
            "pnp_pdf": self._absolute(reverse("api:champion-pnp", args=[champion.uid])),
        }

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class PaperField(serializers.ChoiceField):
    """A blank `paper=` in a query string is refused, as the schema's `minLength: 1` says: DRF
    reads a blank query value of an optional field as absent (the default, a4)."""

    def get_value(self, dictionary: Any) -> Any:
        if hasattr(dictionary, "getlist") and dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)


class SheetOptionsSerializer(StrictInputSerializer):
    paper = PaperField(choices=sorted(PAPERS), default="a4")
    bleed = serializers.BooleanField(default=False, help_text="Add a 3 mm bleed around the grid.")
    backs = serializers.BooleanField(
        default=False, help_text="Add a page of backs, mirrored for long-edge duplex."
    )
    # The bounds are checked by SheetOptions (`invalid_back_offset`); the schema states them.
    back_offset_x = documented_float_range(-MAX_BACK_OFFSET_MM, MAX_BACK_OFFSET_MM)(
        default=0.0, help_text="Shift the backs right (mm)."
    )
    back_offset_y = documented_float_range(-MAX_BACK_OFFSET_MM, MAX_BACK_OFFSET_MM)(
        default=0.0, help_text="Shift the backs down (mm)."
    )

    def options(self) -> SheetOptions:
        data = self.validated_data
        return SheetOptions(
            paper=data["paper"],
            bleed=data["bleed"],
            backs=data["backs"],
            back_offset_x_mm=data["back_offset_x"],
            back_offset_y_mm=data["back_offset_y"],
        )


class ChampionPnpQuerySerializer(SheetOptionsSerializer):
    copies = documented_range(1, MAX_SYNC_CARDS)(
        default=9, help_text="How many copies (1 to 27 here)."
    )


class DeckPnpQuerySerializer(SheetOptionsSerializer):
    champion = serializers.CharField(
        required=False, help_text="Id of the Champion to print after the deck's cards."
    )


class ManyPnpQuerySerializer(SheetOptionsSerializer):
    champions = serializers.CharField(
        help_text="Comma-separated Champion ids, each optionally `id*copies`: `aB3…*3,Zx9…`."
    )


class PrintJobItemSerializer(StrictInputSerializer):
    champion = serializers.CharField()
    copies = documented_range(1, MAX_COPIES)(default=1)


class PrintJobRequestSerializer(SheetOptionsSerializer):
    # Each item is at least one card.
    items = BoundedListSerializer(child=PrintJobItemSerializer(), max_length=MAX_PRINT_JOB_CARDS)


class PrintJobSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField()
    card_count = serializers.IntegerField()
    page_count = serializers.IntegerField(allow_null=True)
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    download_url = serializers.SerializerMethodField()
    status_url = serializers.SerializerMethodField()

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_download_url(self, job: PrintJob) -> str | None:
        if not job.file:
            return None
        return self._absolute(reverse("api:champion-print-job-download", args=[job.pk]))

    def get_status_url(self, job: PrintJob) -> str:
        return self._absolute(reverse("api:champion-print-job", args=[job.pk]))

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path
