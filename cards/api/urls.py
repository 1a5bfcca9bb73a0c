from django.urls import path

from cards.api import views

urlpatterns = [
    path("cards/", views.CardListView.as_view(), name="card-list"),
    path("cards/export.json", views.ExportJsonView.as_view(), name="card-export-json"),
    path("cards/export.csv", views.ExportCsvView.as_view(), name="card-export-csv"),
    path("cards/<slug:slug>/", views.CardDetailView.as_view(), name="card-detail"),
    path("expansions/", views.ExpansionListView.as_view(), name="expansion-list"),
    path("abilities/", views.AbilityListView.as_view(), name="ability-list"),
    path("rules/", views.RuleListView.as_view(), name="rule-list"),
]
