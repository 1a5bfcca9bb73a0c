from django.urls import path

from engine.api import views

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
]
