from django.urls import path

from decks import views

app_name = "decks"

urlpatterns = [
    path("decks/", views.deck_list, name="list"),
    path("decks/new/", views.deck_new, name="new"),
    path("decks/mine/", views.my_decks, name="mine"),
    path("decks/builder/panel/", views.builder_panel, name="builder_panel"),
    path("decks/builder/search/", views.builder_search, name="builder_search"),
    path("decks/<str:share_id>/", views.deck_detail, name="detail"),
    path("decks/<str:share_id>/edit/", views.deck_edit, name="edit"),
    path("decks/<str:share_id>/fork/", views.deck_fork, name="fork"),
    path("decks/<str:share_id>/delete/", views.deck_delete, name="delete"),
    path("decks/<str:share_id>/diff/", views.deck_diff, name="diff"),
    path(
        "decks/<str:share_id>/versions/<int:number>/restore/",
        views.deck_restore,
        name="restore",
    ),
    path("d/<str:code>", views.deck_from_code, name="code"),
]
