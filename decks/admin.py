from django.contrib import admin
from django.http import HttpRequest

from decks.models import (
    Deck,
    DeckCard,
    DeckVersion,
    Format,
    FormatTranslation,
    GameMode,
    GameModeTranslation,
)


class GameModeTranslationInline(admin.TabularInline):
    model = GameModeTranslation
    extra = 0


@admin.register(GameMode)
class GameModeAdmin(admin.ModelAdmin):
    list_display = ["slug", "players", "position"]
    inlines = [GameModeTranslationInline]


class FormatTranslationInline(admin.StackedInline):
    model = FormatTranslation
    extra = 0


@admin.register(Format)
class FormatAdmin(admin.ModelAdmin):
    list_display = ["slug", "deck_size", "removals", "pool_kind", "expansion_codes", "position"]
    filter_horizontal = ["modes"]
    autocomplete_fields = ["banned_cards"]
    inlines = [FormatTranslationInline]


class DeckCardInline(admin.TabularInline):
    model = DeckCard
    extra = 0
    autocomplete_fields = ["card"]
    # Cards change through the deck services, which also record a version.
    readonly_fields = ["card", "position", "removed"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "share_id", "owner", "format", "visibility", "version", "updated_at"]
    list_filter = ["visibility", "format"]
    search_fields = ["name", "share_id", "owner__username"]
    # Content changes go through the deck services (a new version each time); the admin
    # moderates visibility and deletes.
    readonly_fields = [
        "share_id", "owner", "name", "description", "format", "pool", "parent", "version",
        "created_at", "updated_at",
    ]  # fmt: skip
    inlines = [DeckCardInline]


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    """Versions are history: readable, never edited."""

    list_display = ["deck", "number", "kind", "author", "created_at"]
    search_fields = ["deck__name", "deck__share_id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
