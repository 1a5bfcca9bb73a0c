from django.urls import path

from engine.api import views
from engine.metagame.api import views as metagame
from engine.suggestions.api import views as suggestions

urlpatterns = [
    path("simulations/", views.SimulationListView.as_view(), name="simulation-list"),
    path("simulations/curves/", views.CurveListView.as_view(), name="simulation-curve-list"),
    path(
        "simulations/curves/<int:curve_id>/",
        views.CurveDetailView.as_view(),
        name="simulation-curve-detail",
    ),
    path(
        "simulations/<int:batch_id>/",
        views.SimulationDetailView.as_view(),
        name="simulation-detail",
    ),
    path(
        "simulations/<int:batch_id>/cancel/",
        views.SimulationCancelView.as_view(),
        name="simulation-cancel",
    ),
    path(
        "simulations/<int:batch_id>/games/<int:index>/replay/",
        views.SimulationReplayView.as_view(),
        name="simulation-replay",
    ),
    path(
        "simulations/chaos/<int:batch_id>/games/<int:index>/replay/",
        views.ChaosReplayView.as_view(),
        name="simulation-chaos-replay",
    ),
    path(
        "decks/<str:share_id>/suggestions/",
        suggestions.SuggestionListView.as_view(),
        name="deck-suggestion-list",
    ),
    path(
        "decks/<str:share_id>/suggestions/<int:search_id>/",
        suggestions.SuggestionDetailView.as_view(),
        name="deck-suggestion-detail",
    ),
    path(
        "decks/<str:share_id>/suggestions/<int:search_id>/cancel/",
        suggestions.SuggestionCancelView.as_view(),
        name="deck-suggestion-cancel",
    ),
    path("metagame/", metagame.MetagameView.as_view(), name="metagame"),
    path(
        "metagame/decks/<str:share_id>/", metagame.MetagameDeckView.as_view(), name="metagame-deck"
    ),
]
