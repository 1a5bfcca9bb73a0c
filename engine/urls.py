from django.urls import path

from engine import views

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
    path("chaos/<int:batch_id>/", views.chaos_batch_detail, name="chaos_batch"),
]
