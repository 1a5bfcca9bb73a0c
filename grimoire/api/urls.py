from django.urls import path

from grimoire.api import views

urlpatterns = [
    path("puzzles/", views.PuzzleListView.as_view(), name="puzzle-list"),
    path("puzzles/import/", views.PuzzleImportView.as_view(), name="puzzle-import"),
    path("puzzles/<str:uid>/", views.PuzzleDetailView.as_view(), name="puzzle-detail"),
    path("puzzles/<str:uid>/export/", views.PuzzleExportView.as_view(), name="puzzle-export"),
    path("puzzles/<str:uid>/solve/", views.PuzzleSolveView.as_view(), name="puzzle-solve"),
    path("puzzles/<str:uid>/publish/", views.PuzzlePublishView.as_view(), name="puzzle-publish"),
    path("puzzles/<str:uid>/attempts/", views.PuzzleAttemptView.as_view(), name="puzzle-attempts"),
    path("puzzles/<str:uid>/give-up/", views.PuzzleGiveUpView.as_view(), name="puzzle-give-up"),
    path("puzzles/<str:uid>/jobs/<str:job_id>/", views.PuzzleJobView.as_view(), name="puzzle-job"),
]
