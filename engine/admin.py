from django.contrib import admin
from django.http import HttpRequest

from engine.models import SimulationBatch, SimulationChunk


class SimulationChunkInline(admin.TabularInline):
    model = SimulationChunk
    extra = 0
    fields = ["index", "first_game", "games", "engine_seconds", "worker", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(SimulationBatch)
class SimulationBatchAdmin(admin.ModelAdmin):
    """Batches are written by the services only: the admin looks, and may delete."""

    list_display = [
        "id", "requested_by", "deck_a_name", "deck_b_name", "games", "games_done", "status",
        "created_at",
    ]  # fmt: skip
    list_filter = ["status", "agent_a", "agent_b"]
    search_fields = ["requested_by__username", "deck_a_name", "deck_b_name"]
    raw_id_fields = ["requested_by", "deck_a", "deck_b"]
    inlines = [SimulationChunkInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
