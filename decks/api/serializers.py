"""Shapes of the decks API: parse requests, render answers; the work is in selectors/services."""

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.models import Card
from cards.selectors import card_name
from cod_site.api.limits import BoundedListField
from cod_site.api.strict import StrictInputSerializer
from decks import deck_code
from decks.markdown import render
from decks.models import Deck, DeckVersion, Format, GameMode, PoolKind, Visibility
from decks.selectors.formats import format_description, format_name, mode_name

CARD_LIST_HELP = "Card slugs or names in any language (en, fr, sv), in deck order."
# A draft's pile or a Co-op draft holds up to 64 cards; a whole expansion pair is still far below.
POOL_MAX_CARDS = 400


def card_list(max_length: int = deck_code.MAX_CARDS, **kwargs: Any) -> BoundedListField:
    return BoundedListField(
        child=serializers.CharField(max_length=120, allow_blank=True),
        max_length=max_length,
        help_text=kwargs.pop("help_text", CARD_LIST_HELP),
        **kwargs,
    )


class CardBriefSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    card_type = serializers.CharField()
    mana = serializers.IntegerField(allow_null=True)
    attack = serializers.IntegerField(allow_null=True)
    hp = serializers.IntegerField(allow_null=True)
    expansion = serializers.CharField(source="expansion.code")

    def get_name(self, card: Card) -> str:
        return card_name(card)


class GameModeSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    players = serializers.IntegerField()

    def get_name(self, mode: GameMode) -> str:
        return mode_name(mode)


class FormatSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    description = serializers.SerializerMethodField()
    deck_size = serializers.IntegerField()
    removals = serializers.IntegerField(help_text="Cards the opponent removes (Constructed 2021).")
    allowed_card_types = serializers.ListField(child=serializers.CharField())
    pool_kind = serializers.ChoiceField(choices=PoolKind.choices)
    expansions = serializers.ListField(
        child=serializers.CharField(),
        source="expansion_codes",
        help_text="Expansion codes of the card pool; empty = every expansion.",
    )
    banned_cards = serializers.SerializerMethodField()
    modes = GameModeSerializer(many=True, source="modes.all")

    def get_name(self, fmt: Format) -> str:
        return format_name(fmt)

    def get_description(self, fmt: Format) -> str:
        return format_description(fmt)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_banned_cards(self, fmt: Format) -> list[str]:
        return sorted(Card.objects.filter(banned_in_formats=fmt).values_list("slug", flat=True))


class DeckErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=[
            "unknown_card",
            "deck_size",
            "duplicate_card",
            "card_type_not_allowed",
            "banned_card",
            "card_not_in_pool",
            "pool_required",
            "not_a_preconstructed_deck",
            "removal_count",
            "removed_card_not_in_deck",
            "format_not_allowed_in_mode",
        ]
    )
    message = serializers.CharField(
        help_text="In the request language (?lang= or Accept-Language)."
    )
    cards = serializers.ListField(child=serializers.CharField(), help_text="Slugs concerned.")
    field = serializers.CharField(
        required=False, help_text="unknown_card: where it was listed (cards, pool or removed)."
    )
    input = serializers.CharField(required=False, help_text="unknown_card: the name as given.")
    suggestions = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="unknown_card: closest slugs."
    )


class ValidateRequestSerializer(StrictInputSerializer):
    format = serializers.SlugField(help_text="preconstructed, draft, constructed, mutation, …")
    cards = card_list()
    mode = serializers.SlugField(
        required=False, allow_null=True, help_text="solo, duel, coop, free-for-all or teams."
    )
    pool = card_list(
        POOL_MAX_CARDS,
        required=False,
        allow_null=True,
        help_text="Draft and Mutation: the cards the player drafted (slugs or names).",
    )
    removed = card_list(
        required=False, default=list, help_text="Constructed 2021: the cards the opponent removed."
    )
    champion = serializers.RegexField(
        r"^[A-Za-z0-9_-]{1,16}$",
        required=False,
        allow_null=True,
        help_text="A Champion's share id, carried by the deck code.",
    )


class ValidateResponseSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    # DRF's metaclass moves declared fields off the class: `errors` hides no attribute.
    errors = DeckErrorSerializer(many=True)  # type: ignore[assignment]
    code = serializers.CharField(
        allow_null=True, help_text="The deck code; null while a card is unknown."
    )
    cards = CardBriefSerializer(many=True, help_text="The cards recognised, in deck order.")


class DecodeResponseSerializer(serializers.Serializer):
    code = serializers.CharField()
    format = serializers.CharField(source="format.slug")
    cards = CardBriefSerializer(many=True)
    removed = CardBriefSerializer(many=True)
    champion = serializers.CharField(allow_null=True)
    legal = serializers.BooleanField()
    # DRF's metaclass moves declared fields off the class: `errors` hides no attribute.
    errors = DeckErrorSerializer(many=True)  # type: ignore[assignment]
    url = serializers.CharField(help_text="The page that shows this deck.")


class ImportRequestSerializer(StrictInputSerializer):
    text = serializers.CharField(
        max_length=20_000,
        allow_blank=True,
        trim_whitespace=False,
        help_text="One card per line, any language; `2x Name (00)` — count and set code optional.",
    )


class ImportLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(source="number")
    text = serializers.CharField()
    set_code = serializers.CharField(allow_null=True)
    card = CardBriefSerializer(allow_null=True)
    problem = serializers.ChoiceField(choices=["unknown", "not_in_set"], allow_null=True)
    suggestions = CardBriefSerializer(many=True)


class ImportResponseSerializer(serializers.Serializer):
    lines = ImportLineSerializer(many=True)
    cards = serializers.ListField(child=serializers.CharField(), help_text="Slugs found.")
    unknown = serializers.IntegerField(help_text="Lines that matched no card.")


class DeckCardSerializer(CardBriefSerializer):
    removed = serializers.BooleanField()


class DeckListSerializer(serializers.Serializer):
    share_id = serializers.CharField(read_only=True)
    name = serializers.CharField()
    format = serializers.CharField(source="format.slug")
    visibility = serializers.ChoiceField(choices=Visibility.choices)
    owner = serializers.CharField(source="owner.get_username")
    # DRF's metaclass moves declared fields off the class: `parent` hides no attribute.
    parent = serializers.CharField(source="parent.share_id", allow_null=True, default=None)  # type: ignore[assignment]
    version = serializers.IntegerField()
    card_count = serializers.SerializerMethodField()
    fork_count = serializers.IntegerField(default=0)
    url = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_card_count(self, deck: Deck) -> int:
        return len(deck.deck_cards.all())

    def get_url(self, deck: Deck) -> str:
        request = self.context.get("request")
        path = reverse("decks:detail", args=[deck.share_id])
        return request.build_absolute_uri(path) if request else path


class DeckSerializer(DeckListSerializer):
    description = serializers.CharField(help_text="Markdown source.")
    description_html = serializers.SerializerMethodField(help_text="Sanitised HTML.")
    cards = serializers.SerializerMethodField()
    pool = serializers.SerializerMethodField(help_text="Draft/Mutation: the drafted cards.")
    champion = serializers.SerializerMethodField(
        help_text="The Champion's share id; null without one, or with one you may not see."
    )
    code = serializers.SerializerMethodField()
    legal = serializers.SerializerMethodField()
    # DRF's metaclass moves declared fields off the class: `errors` hides no attribute.
    errors = serializers.SerializerMethodField()  # type: ignore[assignment]

    # The view passes the deck's check for the viewer (selectors.deck_validate) in the context as
    # "check": its Champion and code are those the viewer may see.
    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_champion(self, deck: Deck) -> str | None:
        return self.context["check"].champion

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_code(self, deck: Deck) -> str | None:
        return self.context["check"].code

    def get_legal(self, deck: Deck) -> bool:
        return self.context["check"].legal

    @extend_schema_field(DeckErrorSerializer(many=True))
    def get_errors(self, deck: Deck) -> list[dict[str, Any]]:
        return [error.as_dict() for error in self.context["check"].errors]

    def get_description_html(self, deck: Deck) -> str:
        return str(render(deck.description))

    @extend_schema_field(DeckCardSerializer(many=True))
    def get_cards(self, deck: Deck) -> list[dict[str, Any]]:
        return [
            {**CardBriefSerializer(entry.card).data, "removed": entry.removed}
            for entry in deck.deck_cards.all()
        ]

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_pool(self, deck: Deck) -> list[str] | None:
        if deck.format.pool_kind != PoolKind.SUPPLIED:
            return None
        return sorted(card.slug for card in deck.pool.all())


class DeckWriteSerializer(StrictInputSerializer):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(
        max_length=10_000, allow_blank=True, required=False, trim_whitespace=False
    )
    format = serializers.SlugField()
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    cards = card_list()
    removed = card_list(required=False, help_text="Constructed 2021: cards the opponent removed.")
    pool = card_list(POOL_MAX_CARDS, required=False, help_text="Draft/Mutation: the drafted cards.")
    champion = serializers.RegexField(
        r"^[A-Za-z0-9_-]{1,16}$",
        required=False,
        allow_null=True,
        help_text="A Champion's share id (one you and the deck's owner may see); null removes it.",
    )


class ForkRequestSerializer(StrictInputSerializer):
    name = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="The fork's name; blank or left out: the source's name with “(copy)”.",
    )


class DeckVersionSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.get_username", allow_null=True, default=None)
    format = serializers.CharField(source="format.slug")
    cards = serializers.ListField(child=serializers.CharField())
    removed = serializers.ListField(child=serializers.CharField())
    pool = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = DeckVersion
        fields = [
            "number",
            "kind",
            "source_number",
            "author",
            "name",
            "description",
            "format",
            "cards",
            "removed",
            "pool",
            "champion",
            "code",
            "created_at",
        ]


class ChangeSerializer(serializers.Serializer):
    field = serializers.CharField()
    old = serializers.CharField()
    new = serializers.CharField()


class DiffSerializer(serializers.Serializer):
    old = serializers.IntegerField(source="old.number")
    new = serializers.IntegerField(source="new.number")
    added = serializers.ListField(child=serializers.CharField())
    dropped = serializers.ListField(child=serializers.CharField())
    kept = serializers.ListField(child=serializers.CharField())
    changes = ChangeSerializer(many=True)


class DeckChoiceSerializer(StrictInputSerializer):
    """One deck a test batch or a table plays (`engine.adapters.decks.DeckChoice`): exactly one
    of a saved deck, a deck code or a preconstructed deck."""

    deck = serializers.CharField(
        required=False, max_length=16, help_text="Share id of a deck you own or a public one."
    )
    code = serializers.CharField(required=False, max_length=600, help_text="A deck code.")
    preconstructed = serializers.IntegerField(
        required=False, min_value=1, max_value=4, help_text="A preconstructed deck, 1 to 4."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError(
                "Give exactly one of `deck`, `code` or `preconstructed`."
            )
        return attrs
