from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from engine.models import SimulationBatch, SimulationChunk, SimulationSeat

# Shown and read-only: a batch's seats and chunks are written by the services only.
SEAT_FIELDS = (
    "index", "source", "deck", "code", "name", "preconstructed", "agent", "cards", "slugs",
    "champion",
)  # fmt: skip
CHUNK_FIELDS = ("index", "first_game", "games", "engine_seconds", "worker", "created_at")


class SimulationSeatInline(admin.StackedInline):
    model = SimulationSeat
    extra = 0
    fields = SEAT_FIELDS
    readonly_fields = SEAT_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SimulationChunkInline(admin.TabularInline):
    model = SimulationChunk
    extra = 0
    fields = CHUNK_FIELDS
    readonly_fields = CHUNK_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(SimulationBatch)
class SimulationBatchAdmin(admin.ModelAdmin):
    """Batches are written by the services only: the admin looks, and may delete."""

    list_display = [
        "id", "requested_by", "decks", "mode", "games", "games_done", "status", "created_at",
    ]  # fmt: skip
    list_filter = ["status", "mode", "seats__agent"]
    search_fields = ["requested_by__username", "seats__name"]
    raw_id_fields = ["requested_by"]
    inlines = [SimulationSeatInline, SimulationChunkInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[SimulationBatch]:
        return super().get_queryset(request).prefetch_related("seats")

    @admin.display(description=_("decks"))
    def decks(self, batch: SimulationBatch) -> str:
        return " / ".join(seat.name for seat in batch.seats.all())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
