from django.contrib import admin

from play.models import Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    fk_name = "game"
    extra = 0
    fields = ["index", "kind", "user", "guest_name", "agent", "deck_name", "conceded"]
    readonly_fields = ["index", "kind", "user", "guest_name", "agent", "deck_name", "conceded"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["uid", "status", "format", "turn", "action_count", "updated_at"]
    list_filter = ["status", "format"]
    search_fields = ["uid"]
    readonly_fields = ["uid", "seed", "engine_digest", "rules_version", "replay"]
    inlines = [SeatInline]
