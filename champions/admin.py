"""Moderation of Champions and print jobs. The ability costs the designer prices with are the
catalogue's `Ability` rows, edited in the cards admin."""

from django.contrib import admin

from champions.models import Champion, ChampionAbility, ChampionTranslation, PrintJob


class ChampionTranslationInline(admin.TabularInline):
    model = ChampionTranslation
    extra = 0


class ChampionAbilityInline(admin.TabularInline):
    model = ChampionAbility
    extra = 0
    autocomplete_fields = ["ability"]


@admin.register(Champion)
class ChampionAdmin(admin.ModelAdmin):
    list_display = ["uid", "owner", "mana", "attack", "hp", "visibility", "updated_at"]
    list_filter = ["visibility"]
    search_fields = ["uid", "translations__name", "owner__username"]
    raw_id_fields = ["owner", "parent"]
    readonly_fields = [
        "uid",
        "illustration_sha256",
        "illustration_width",
        "illustration_height",
        "created_at",
        "updated_at",
    ]
    inlines = [ChampionTranslationInline, ChampionAbilityInline]


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "status", "card_count", "page_count", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["owner"]
    readonly_fields = ["id", "created_at", "finished_at"]
