from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from cards.models import (
    Ability,
    AbilityAlias,
    AbilityTranslation,
    Card,
    CardAbility,
    CardTranslation,
    CatalogueRevision,
    ChaosCard,
    ChaosCardTranslation,
    ChaosKeyword,
    ChaosKeywordTranslation,
    ChaosRuleEntry,
    ChaosRuleEntryTranslation,
    ChaosSet,
    ChaosSetTranslation,
    Expansion,
    ExpansionTranslation,
    Game,
    RuleEntry,
    RuleEntryTranslation,
)
from cards.services import (
    card_search_text_refresh,
    catalogue_revision_record,
    chaos_card_derived_refresh,
)
from engine.chaos.cards import card_problems
from engine.chaos.effects import parse, to_text


class RevisionAdmin(admin.ModelAdmin):
    """Every admin edit of the catalogue records a revision: new ETag/Last-Modified for the API,
    and the pages kept per revision (cards/page_cache.py) are rendered again."""

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: Any, change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        catalogue_revision_record(
            summary=f"admin: {form.instance._meta.model_name} {form.instance}"
        )

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        super().delete_model(request, obj)
        catalogue_revision_record(summary=f"admin: deleted {obj._meta.model_name} {obj}")

    # The list's "delete selected" action deletes without delete_model.
    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        names = ", ".join(str(obj) for obj in queryset)
        super().delete_queryset(request, queryset)
        catalogue_revision_record(
            summary=f"admin: deleted {queryset.model._meta.model_name} {names}"
        )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["code", "name"]


class ExpansionTranslationInline(admin.TabularInline):
    model = ExpansionTranslation
    extra = 0


@admin.register(Expansion)
class ExpansionAdmin(RevisionAdmin):
    list_display = ["code", "slug", "game", "season", "card_count", "position"]
    list_filter = ["game", "season"]
    inlines = [ExpansionTranslationInline]


class CardTranslationInline(admin.TabularInline):
    model = CardTranslation
    extra = 0


class CardAbilityInline(admin.TabularInline):
    model = CardAbility
    extra = 0
    autocomplete_fields = ["ability"]


@admin.register(Card)
class CardAdmin(RevisionAdmin):
    list_display = [
        "slug",
        "expansion",
        "collector_number",
        "card_type",
        "mana",
        "attack",
        "hp",
        "precon_deck",
        "checked_against_card_image",
    ]
    list_filter = ["expansion", "card_type", "precon_deck", "checked_against_card_image"]
    search_fields = ["slug", "translations__name"]
    inlines = [CardTranslationInline, CardAbilityInline]

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: Any, change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        card_search_text_refresh(card=form.instance)


class AbilityTranslationInline(admin.StackedInline):
    model = AbilityTranslation
    extra = 0


class AbilityAliasInline(admin.TabularInline):
    model = AbilityAlias
    extra = 0


@admin.register(Ability)
class AbilityAdmin(RevisionAdmin):
    list_display = [
        "code",
        "is_malus",
        "creature_cost",
        "incantation_cost",
        "can_be_aura",
        "cost_source",
        "rule",
    ]
    list_filter = ["game", "is_malus", "can_be_aura", "cost_source"]
    search_fields = ["code", "translations__name", "aliases__name"]
    inlines = [AbilityTranslationInline, AbilityAliasInline]


class RuleEntryTranslationInline(admin.StackedInline):
    model = RuleEntryTranslation
    extra = 0


@admin.register(RuleEntry)
class RuleEntryAdmin(RevisionAdmin):
    list_display = ["number", "rule_id", "game", "position"]
    list_filter = ["game"]
    search_fields = ["rule_id", "translations__title"]
    inlines = [RuleEntryTranslationInline]


# ---- Duel of Chaos --------------------------------------------------------------------------

# The card validator's field names (engine.chaos.cards.FIELDS) as the model's.
_CHAOS_FIELDS = {"type": "card_type", "play": "play_effect", "reaction": "reaction_effect"}


def _yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


class ChaosCardForm(ModelForm):
    """Checked by the engine's card validator, as the import is: one message per problem, on
    its field; the effects are kept in their canonical text."""

    class Meta:
        model = ChaosCard
        exclude: list[str] = []

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        if data is None or self.errors:
            return data

        def text(name: str) -> str:
            value = data.get(name)
            return "" if value is None else str(value)

        fields = {
            "name": text("slug"),
            "type": text("card_type"),
            "clan": text("clan"),
            "cost": text("cost"),
            "deck": text("deck"),
            "copies": text("copies"),
            "play": text("play_effect"),
            "reaction_on": text("reaction_on"),
            "reaction_opponent_turn": _yes_no(data.get("reaction_opponent_turn")),
            "reaction": text("reaction_effect"),
            "depth": text("depth"),
            "complete": _yes_no(data.get("complete")),
        }
        for name, message in card_problems(fields):
            self.add_error(_CHAOS_FIELDS.get(name, name), message)
        if not self.errors:
            for name in ("play_effect", "reaction_effect"):
                data[name] = to_text(parse(text(name)))
        return data


class ChaosCardTranslationInline(admin.StackedInline):
    model = ChaosCardTranslation
    extra = 0


@admin.register(ChaosCard)
class ChaosCardAdmin(RevisionAdmin):
    form = ChaosCardForm
    list_display = ["slug", "chaos_set", "identifier", "card_type", "clan", "cost", "complete"]
    list_filter = ["chaos_set", "card_type", "clan", "complete"]
    search_fields = ["slug", "translations__name"]
    inlines = [ChaosCardTranslationInline]

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: Any, change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        chaos_card_derived_refresh(card=form.instance)


class ChaosSetTranslationInline(admin.TabularInline):
    model = ChaosSetTranslation
    extra = 0


@admin.register(ChaosSet)
class ChaosSetAdmin(RevisionAdmin):
    list_display = ["code", "slug", "kind", "card_count", "position"]
    inlines = [ChaosSetTranslationInline]


class ChaosKeywordTranslationInline(admin.TabularInline):
    model = ChaosKeywordTranslation
    extra = 0


@admin.register(ChaosKeyword)
class ChaosKeywordAdmin(RevisionAdmin):
    list_display = ["code", "clan", "rule", "position"]
    inlines = [ChaosKeywordTranslationInline]


class ChaosRuleEntryTranslationInline(admin.StackedInline):
    model = ChaosRuleEntryTranslation
    extra = 0


@admin.register(ChaosRuleEntry)
class ChaosRuleEntryAdmin(RevisionAdmin):
    list_display = ["number", "rule_id", "position"]
    search_fields = ["rule_id", "translations__title"]
    inlines = [ChaosRuleEntryTranslationInline]


@admin.register(CatalogueRevision)
class CatalogueRevisionAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at", "summary"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
