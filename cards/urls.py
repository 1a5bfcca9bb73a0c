from django.urls import path

from cards import views

app_name = "cards"

urlpatterns = [
    path("cards/", views.card_browser, name="browser"),
    path("cards/<slug:slug>/", views.card_detail, name="card"),
    path("sets/", views.expansion_list, name="expansions"),
    path("sets/<slug:slug>/", views.expansion_detail, name="expansion"),
    path("abilities/", views.ability_list, name="abilities"),
    path("abilities/<slug:code>/", views.ability_detail, name="ability"),
    path("rules/", views.rules_reference, name="rules"),
]
