"""Admin: the default Mutation Points table (rows without a session) and the sessions."""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from mutation.models import CostRule, DraftCard, Game, Mutation, MutationSession, Seat


@admin.register(CostRule)
class CostRuleAdmin(admin.ModelAdmin):
    """The rulebook's cost picture is lost: these rows are the defaults each new session copies."""

    list_display = ["key", "ability_code", "points", "session"]
    list_editable = ["points"]
    list_filter = ["key", ("session", admin.EmptyFieldListFilter)]
    search_fields = ["ability_code"]
    ordering = ["session", "key", "ability_code"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[CostRule]:
        return super().get_queryset(request).select_related("session")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "user", "guest_name", "stronghold", "deck_chosen_at"]
    readonly_fields = ["deck_chosen_at"]
    raw_id_fields = ["user", "stronghold"]


# Shown and read-only: games are recorded through the session pages and API only.
GAME_FIELDS = ("round", "table", "seat_a", "seat_b", "winner", "recorded_at")


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = GAME_FIELDS
    readonly_fields = GAME_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(MutationSession)
class MutationSessionAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "status", "expansion_a", "expansion_b", "created_at"]
    list_filter = ["status"]
    search_fields = ["name", "organiser__username"]
    readonly_fields = ["seed", "created_at", "updated_at"]
    raw_id_fields = ["organiser"]
    inlines = [SeatInline, GameInline]


@admin.register(Mutation)
class MutationAdmin(admin.ModelAdmin):
    list_display = ["seat", "phase", "target", "source", "element", "kind", "cost", "created_at"]
    list_filter = ["kind", "phase"]
    raw_id_fields = ["seat", "target", "source", "created_by"]
    readonly_fields = ["created_at"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Mutation]:
        return (
            super()
            .get_queryset(request)
            .select_related("seat__session", "target__card", "source__card")
        )


@admin.register(DraftCard)
class DraftCardAdmin(admin.ModelAdmin):
    list_display = ["session", "card", "dealt_to", "picked_by", "pick_number", "in_deck"]
    list_filter = ["in_deck"]
    raw_id_fields = ["session", "card", "picked_by"]


CostRuleAdmin.__doc__ = str(_("Mutation Points table"))
