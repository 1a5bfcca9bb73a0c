from django.urls import path

from cards import views

app_name = "cards"

urlpatterns = [
    path("cards/", views.card_browser, name="browser"),
    path("cards/<slug:slug>/", views.card_detail, name="card"),
    path("cards/<slug:slug>/peek/", views.card_peek, name="card_peek"),
    path("sets/", views.expansion_list, name="expansions"),
    path("sets/<slug:slug>/", views.expansion_detail, name="expansion"),
    path("abilities/", views.ability_list, name="abilities"),
    path("abilities/<slug:code>/", views.ability_detail, name="ability"),
    path("rules/", views.rules_reference, name="rules"),
    # Duel of Chaos, the second game: its own pages, never mixed with Clash of Decks'.
    path("chaos/cards/", views.chaos_card_browser, name="chaos_browser"),
    path("chaos/cards/<slug:slug>/", views.chaos_card_detail, name="chaos_card"),
    path("chaos/rules/", views.chaos_rules_reference, name="chaos_rules"),
]
