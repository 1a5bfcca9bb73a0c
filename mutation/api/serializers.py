"""Input parsing and output shapes of the Mutation session API (no rules here: see services)."""

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.models import Card, Expansion
from cards.selectors import card_name
from cod_site.api.limits import BoundedListField
from cod_site.api.strict import StrictInputSerializer
from engine.adapters.definitions import card_ability_codes
from mutation import draft, rules, selectors
from mutation.models import CostRule, Game, MutationSession, Seat

# --- input ----------------------------------------------------------------------------------------


class CardSlugField(serializers.SlugRelatedField):
    """A catalogue card by its slug."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="slug", queryset=Card.objects.all(), **kwargs)


class MutationSessionCreateSerializer(StrictInputSerializer):
    name = serializers.CharField(max_length=100)
    expansion_a = serializers.SlugRelatedField(slug_field="slug", queryset=Expansion.objects.all())
    expansion_b = serializers.SlugRelatedField(slug_field="slug", queryset=Expansion.objects.all())
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**62, help_text=_("Same seed, same deal.")
    )
    players = BoundedListField(
        child=serializers.CharField(max_length=60, allow_blank=True),
        required=False,
        max_length=draft.SEATS,
        help_text=_("Guest names of seats 1-4, in order."),
    )
    organiser_seat = serializers.IntegerField(
        required=False, min_value=1, max_value=draft.SEATS, help_text=_("Seat the organiser takes.")
    )


class MutationJoinSerializer(StrictInputSerializer):
    token = serializers.CharField(max_length=64)
    name = serializers.CharField(max_length=60, required=False, allow_blank=True)


class MutationSeatInputSerializer(StrictInputSerializer):
    seat = serializers.IntegerField(min_value=1, max_value=draft.SEATS)


class MutationPickSerializer(MutationSeatInputSerializer):
    card = CardSlugField()


class MutationDeckChoiceSerializer(MutationSeatInputSerializer):
    cards = BoundedListField(child=CardSlugField(), max_length=16)
    stronghold = CardSlugField(required=False, allow_null=True)


class MutationInputSerializer(MutationSeatInputSerializer):
    target = CardSlugField(help_text=_("The deck creature to mutate."))
    # DRF's metaclass moves declared fields off the class: `source` hides no attribute.
    source = CardSlugField(help_text=_("The Laboratory card the element is cut from."))  # type: ignore[assignment]
    element = serializers.RegexField(
        r"^(attack|hp|mana|ability:[1-9][0-9]?)$",
        help_text=_("`attack`, `hp`, `mana`, or `ability:N` (the source's N-th ability box)."),
    )
    covers = BoundedListField(
        child=serializers.IntegerField(min_value=1, max_value=99),
        required=False,
        default=list,
        max_length=2,
        help_text=_("For an ability: the target's ability boxes it covers (numbered from 1)."),
    )


class MutationResultInputSerializer(StrictInputSerializer):
    round = serializers.IntegerField(min_value=1, max_value=6)
    table = serializers.IntegerField(min_value=1, max_value=2)
    winner = serializers.IntegerField(min_value=1, max_value=draft.SEATS, help_text=_("Seat."))


class MutationCostInputSerializer(StrictInputSerializer):
    key = serializers.ChoiceField(choices=CostRule.Key.choices)
    ability_code = serializers.CharField(
        max_length=40, required=False, default="", allow_blank=True
    )
    points = serializers.DecimalField(max_digits=4, decimal_places=1, min_value=Decimal(0))


# --- output ---------------------------------------------------------------------------------------


class MutationCardSerializer(serializers.Serializer):
    """A card as printed."""

    slug = serializers.CharField()
    name = serializers.SerializerMethodField()
    type = serializers.CharField(source="card_type")
    mana = serializers.IntegerField(allow_null=True)
    attack = serializers.IntegerField(allow_null=True)
    hp = serializers.IntegerField(allow_null=True)
    abilities = serializers.SerializerMethodField()

    def get_name(self, card: Card) -> str:
        return card_name(card)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_abilities(self, card: Card) -> list[str]:
        return card_ability_codes(card)


class MutationSeatSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField(source="display_name")
    registered = serializers.SerializerMethodField()
    deck_chosen = serializers.SerializerMethodField()
    picks = serializers.SerializerMethodField()
    join_token = serializers.SerializerMethodField(
        help_text=_("Only shown to the organiser and to the seat's own player.")
    )

    def get_registered(self, seat: Seat) -> bool:
        return seat.user_id is not None

    def get_deck_chosen(self, seat: Seat) -> bool:
        return seat.deck_chosen_at is not None

    def get_picks(self, seat: Seat) -> int:
        return self.context.get("pick_counts", {}).get(seat.number, 0)

    @extend_schema_field(OpenApiTypes.STR)
    def get_join_token(self, seat: Seat) -> str | None:
        visible = self.context.get("visible_seats", set())
        return seat.join_token if seat.number in visible else None


class MutationGameSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    seat_a = serializers.IntegerField(source="seat_a.number")
    seat_b = serializers.IntegerField(source="seat_b.number")
    winner = serializers.SerializerMethodField()

    @extend_schema_field(OpenApiTypes.INT)
    def get_winner(self, game: Game) -> int | None:
        return game.winner.number if game.winner is not None else None


class MutationSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=MutationSession.Status.choices)
    organiser = serializers.CharField(source="organiser.get_username")
    expansion_a = serializers.CharField(source="expansion_a.slug")
    expansion_b = serializers.CharField(source="expansion_b.slug")
    seed = serializers.IntegerField()
    seats = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    @extend_schema_field(MutationSeatSerializer(many=True))
    def get_seats(self, session: MutationSession) -> list[dict[str, Any]]:
        seats = MutationSeatSerializer(session.seats.all(), many=True, context=self.context)
        # many=True makes a ListSerializer, whose data is a list; the stubs type the class's own.
        return seats.data  # type: ignore[return-value]


class MutationSessionDetailSerializer(MutationSessionSerializer):
    games = serializers.SerializerMethodField()

    @extend_schema_field(MutationGameSerializer(many=True))
    def get_games(self, session: MutationSession) -> list[dict[str, Any]]:
        games = MutationGameSerializer(selectors.games(session), many=True)
        # many=True makes a ListSerializer, whose data is a list; the stubs type the class's own.
        return games.data  # type: ignore[return-value]


class MutationDraftCardSerializer(serializers.Serializer):
    card = MutationCardSerializer()
    pick_number = serializers.IntegerField(allow_null=True)


class MutationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(source="seat.number")
    phase = serializers.IntegerField()
    target = serializers.CharField(source="target.card.slug")
    # DRF's metaclass moves declared fields off the class: `source` hides no attribute.
    source = serializers.CharField(source="source.card.slug")  # type: ignore[assignment]
    element = serializers.CharField()
    kind = serializers.CharField()
    value_before = serializers.IntegerField(allow_null=True)
    value_after = serializers.IntegerField(allow_null=True)
    ability = serializers.CharField(source="ability_code")
    covers = serializers.ListField(child=serializers.IntegerField())
    covered_abilities = serializers.ListField(child=serializers.CharField())
    cost = serializers.DecimalField(max_digits=4, decimal_places=1)
    created_at = serializers.DateTimeField()


class MutationQuoteSerializer(serializers.Serializer):
    kind = serializers.CharField()
    value_before = serializers.IntegerField(allow_null=True)
    value_after = serializers.IntegerField(allow_null=True)
    ability = serializers.CharField(allow_null=True)
    covers = serializers.ListField(child=serializers.IntegerField())
    covered_abilities = serializers.ListField(child=serializers.CharField())
    cost = serializers.DecimalField(max_digits=4, decimal_places=1)
    remaining_after = serializers.DecimalField(max_digits=4, decimal_places=1)


class MutationCardStateSerializer(serializers.Serializer):
    mana = serializers.IntegerField()
    attack = serializers.IntegerField()
    hp = serializers.IntegerField(allow_null=True)
    abilities = serializers.ListField(child=serializers.CharField())
    mutated = serializers.ListField(
        child=serializers.CharField(), help_text=_("Boxes under a mutation: attack, ability:2…")
    )


class MutationDeckCardSerializer(serializers.Serializer):
    card = MutationCardSerializer(source="draft_card.card")
    now = serializers.SerializerMethodField()
    mutations = MutationSerializer(source="history", many=True)

    @extend_schema_field(MutationCardStateSerializer)
    def get_now(self, deck_card: selectors.DeckCard) -> dict[str, Any]:
        state: rules.CardState = deck_card.state
        return {
            "mana": state.mana,
            "attack": state.attack,
            "hp": state.hp,
            "abilities": list(state.abilities),
            "mutated": sorted(state.covered),
        }


class MutationLabElementSerializer(serializers.Serializer):
    element = serializers.CharField()
    # DRF's metaclass moves declared fields off the class: `label` hides no attribute.
    label = serializers.CharField()  # type: ignore[assignment]
    value = serializers.IntegerField(allow_null=True)
    ability = serializers.CharField(allow_null=True)
    used = serializers.BooleanField()


class MutationLabCardSerializer(serializers.Serializer):
    card = MutationCardSerializer(source="draft_card.card")
    elements = MutationLabElementSerializer(many=True)


class MutationBudgetSerializer(serializers.Serializer):
    phase = serializers.IntegerField(allow_null=True)
    budget = serializers.DecimalField(max_digits=4, decimal_places=1)
    spent = serializers.DecimalField(max_digits=4, decimal_places=1)
    remaining = serializers.DecimalField(max_digits=4, decimal_places=1)


class MutationSeatPrivateSerializer(serializers.Serializer):
    """What the player of a seat (or the organiser) sees of it."""

    number = serializers.IntegerField(source="seat.number")
    name = serializers.CharField(source="seat.display_name")
    hand = MutationCardSerializer(
        many=True, allow_null=True, help_text=_("null: the hand is on its way.")
    )
    waiting_for = serializers.IntegerField(allow_null=True)
    picks = MutationCardSerializer(many=True)
    stronghold = serializers.CharField(allow_null=True)
    deck = MutationDeckCardSerializer(many=True)
    laboratory = MutationLabCardSerializer(many=True)
    budget = MutationBudgetSerializer()


class MutationStandingSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="seat.number")
    name = serializers.CharField(source="seat.display_name")
    rank = serializers.IntegerField(source="standing.rank")
    wins = serializers.IntegerField(source="standing.wins")
    losses = serializers.IntegerField(source="standing.losses")
    played = serializers.IntegerField(source="standing.played")
    tied = serializers.BooleanField(source="standing.tied")


class MutationGridCellSerializer(serializers.Serializer):
    opponent = serializers.IntegerField()
    outcomes = serializers.ListField(child=serializers.CharField(allow_null=True))


class MutationGridRowSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    cells = serializers.ListField(child=MutationGridCellSerializer(allow_null=True))
    wins = serializers.IntegerField()


class MutationStandingsSerializer(serializers.Serializer):
    standings = MutationStandingSerializer(many=True)
    grid = MutationGridRowSerializer(many=True)


class MutationCostRuleSerializer(serializers.Serializer):
    key = serializers.CharField()
    ability_code = serializers.CharField()
    points = serializers.DecimalField(max_digits=4, decimal_places=1)


class MutationEngineCardSerializer(serializers.Serializer):
    """A card definition in the rules engine's JSON form, with the mutated values."""

    name = serializers.CharField()
    type = serializers.CharField()
    cost = serializers.IntegerField()
    attack = serializers.IntegerField()
    hp = serializers.IntegerField(required=False)
    abilities = serializers.ListField(child=serializers.CharField(), required=False)
    name_fr = serializers.CharField(required=False)


class MutationExportSerializer(serializers.Serializer):
    """The deck saved in the decks app."""

    share_id = serializers.CharField()
    name = serializers.CharField()
    format = serializers.CharField(source="format.slug")


def mutation_plan_data(plan: rules.MutationPlan, remaining: Decimal) -> dict[str, Any]:
    return {
        "kind": plan.kind,
        "value_before": plan.value_before,
        "value_after": plan.value_after,
        "ability": plan.ability,
        "covers": list(plan.covers),
        "covered_abilities": list(plan.covered_abilities),
        "cost": plan.cost,
        "remaining_after": remaining - plan.cost,
    }


def seat_private_data(session: MutationSession, seat: Seat) -> dict[str, Any]:
    view = selectors.draft_seat_view(session, seat)
    return {
        "seat": seat,
        "hand": None if view.hand is None else [row.card for row in view.hand],
        "waiting_for": view.waiting_for,
        "picks": [row.card for row in view.picks],
        "stronghold": seat.stronghold.slug if seat.stronghold is not None else None,
        "deck": selectors.deck_cards(seat),
        "laboratory": selectors.laboratory(seat),
        "budget": selectors.seat_budget(session, seat),
    }
