from django.urls import path

from mutation import views

app_name = "mutation"

urlpatterns = [
    path("", views.session_list, name="list"),
    path("new/", views.session_create, name="create"),
    path("join/<str:token>/", views.seat_join, name="join"),
    path("forget-seats/", views.forget_seats, name="forget_seats"),
    path("<int:pk>/", views.session_detail, name="detail"),
    path("<int:pk>/draft/", views.draft_table, name="draft"),
    path("<int:pk>/deck/", views.deckbuilding, name="deck"),
    path("<int:pk>/workshop/", views.workshop, name="workshop"),
    path("<int:pk>/costs/", views.cost_table, name="costs"),
    path("<int:pk>/schedule/", views.schedule_page, name="schedule"),
    path("<int:pk>/standings/", views.standings_page, name="standings"),
    path("<int:pk>/seats/<int:number>/export/", views.export_deck, name="export"),
    path("<int:pk>/seats/<int:number>/engine-deck.json", views.engine_deck, name="engine_deck"),
]
