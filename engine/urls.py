from django.urls import path

from engine import views

app_name = "engine"

urlpatterns = [
    path("", views.batch_list, name="list"),
    path("new/", views.batch_new, name="new"),
    path("<int:batch_id>/", views.batch_detail, name="batch"),
    path("<int:batch_id>/progress/", views.batch_progress, name="progress"),
    path("<int:batch_id>/cancel/", views.batch_cancel, name="cancel"),
    path("<int:batch_id>/games/", views.game_pick, name="replay_pick"),
    path("<int:batch_id>/games/<int:index>/", views.game_replay, name="replay"),
]
