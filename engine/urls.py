from django.urls import path

from engine import views
from engine.metagame import views as metagame
from engine.suggestions import views as suggestions

app_name = "engine"

urlpatterns = [
    path("", views.batch_list, name="list"),
    path("new/", views.batch_new, name="new"),
    path("curves/new/", views.curve_start, name="curve_start"),
    path("curves/deck/<str:share_id>/", views.curve_panel, name="curve_panel"),
    path("<int:batch_id>/", views.batch_detail, name="batch"),
    path("<int:batch_id>/progress/", views.batch_progress, name="progress"),
    path("<int:batch_id>/cancel/", views.batch_cancel, name="cancel"),
    path("<int:batch_id>/games/<int:index>/", views.game_replay, name="replay"),
    path("cards/<slug:slug>/", views.card_insight, name="card_insight"),
    path("chaos/", views.chaos_batch_list, name="chaos_batches"),
    path("suggestions/deck/<str:share_id>/", suggestions.deck_suggestions, name="suggestions_deck"),
    path("suggestions/<int:search_id>/", suggestions.search_detail, name="suggestions"),
    path(
        "suggestions/<int:search_id>/progress/",
        suggestions.search_progress,
        name="suggestions_progress",
    ),
    path(
        "suggestions/<int:search_id>/cancel/", suggestions.search_cancel, name="suggestions_cancel"
    ),
    path("metagame/", metagame.metagame, name="metagame"),
    path("metagame/deck/<str:share_id>/", metagame.deck_place, name="metagame_place"),
    path("chaos/<int:batch_id>/", views.chaos_batch_detail, name="chaos_batch"),
    path("chaos/<int:batch_id>/games/", views.chaos_game_pick, name="chaos_game_pick"),
    path("chaos/<int:batch_id>/games/<int:index>/", views.chaos_game_replay, name="chaos_replay"),
]
