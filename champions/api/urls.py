from django.urls import path

import champions.converters  # noqa: F401  (registers the <champion:…> converter)
from champions.api import views

urlpatterns = [
    path("champions/", views.ChampionListView.as_view(), name="champion-list"),
    path("champions/price/", views.PriceView.as_view(), name="champion-price"),
    path("champions/propose/", views.ProposeView.as_view(), name="champion-propose"),
    path("champions/pnp.pdf", views.ManyPnpView.as_view(), name="champion-pnp-many"),
    path("champions/print-jobs/", views.PrintJobListView.as_view(), name="champion-print-jobs"),
    path(
        "champions/print-jobs/<uuid:job_id>/",
        views.PrintJobDetailView.as_view(),
        name="champion-print-job",
    ),
    path(
        "champions/print-jobs/<uuid:job_id>/download.pdf",
        views.PrintJobDownloadView.as_view(),
        name="champion-print-job-download",
    ),
    path("champions/<champion:uid>/", views.ChampionDetailView.as_view(), name="champion-detail"),
    path("champions/<champion:uid>/fork/", views.ChampionForkView.as_view(), name="champion-fork"),
    path(
        "champions/<champion:uid>/illustration/",
        views.IllustrationView.as_view(),
        name="champion-illustration",
    ),
    path(
        "champions/<champion:uid>/card.png", views.CardPngView.as_view(), name="champion-card-png"
    ),
    path("champions/<champion:uid>/pnp.pdf", views.ChampionPnpView.as_view(), name="champion-pnp"),
]
