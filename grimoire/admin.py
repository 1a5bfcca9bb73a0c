from django.contrib import admin

from grimoire.models import Puzzle, PuzzleTranslation


class PuzzleTranslationInline(admin.TabularInline):
    model = PuzzleTranslation
    extra = 0


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = (
        "uid",
        "author",
        "difficulty",
        "visibility",
        "proof_status",
        "attempts",
        "solved",
    )
    list_filter = ("visibility", "proof_status", "difficulty")
    search_fields = ("uid", "translations__title")
    # The proof and the visibility change through the services (a proof must exist to share).
    readonly_fields = ("report", "proof_status", "visibility", "attempts", "solved")
    inlines = [PuzzleTranslationInline]
