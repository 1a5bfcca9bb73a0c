from django.urls import path

from decks.api import views

urlpatterns = [
    path("formats/", views.FormatListView.as_view(), name="format-list"),
    path("formats/<slug:slug>/", views.FormatDetailView.as_view(), name="format-detail"),
    path("game-modes/", views.GameModeListView.as_view(), name="game-mode-list"),
    path("decks/", views.DeckListView.as_view(), name="deck-list"),
    path("decks/validate/", views.DeckValidateView.as_view(), name="deck-validate"),
    path("decks/decode/", views.DeckDecodeView.as_view(), name="deck-decode"),
    path("decks/import/", views.DeckImportView.as_view(), name="deck-import"),
    path("decks/<str:share_id>/", views.DeckDetailView.as_view(), name="deck-detail"),
    path("decks/<str:share_id>/fork/", views.DeckForkView.as_view(), name="deck-fork"),
    path("decks/<str:share_id>/export/", views.DeckExportView.as_view(), name="deck-export"),
    path("decks/<str:share_id>/pnp.pdf", views.DeckPnpView.as_view(), name="deck-pnp"),
    path("decks/<str:share_id>/diff/", views.DeckDiffView.as_view(), name="deck-diff"),
    path(
        "decks/<str:share_id>/versions/",
        views.DeckVersionListView.as_view(),
        name="deck-version-list",
    ),
    path(
        "decks/<str:share_id>/versions/<int:number>/",
        views.DeckVersionDetailView.as_view(),
        name="deck-version-detail",
    ),
    path(
        "decks/<str:share_id>/versions/<int:number>/restore/",
        views.DeckVersionRestoreView.as_view(),
        name="deck-version-restore",
    ),
]
