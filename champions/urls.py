"""Champion pages, included inside `i18n_patterns` (so /fr/champions/…, /sv/champions/…)."""

from django.urls import path

import champions.converters  # noqa: F401  (registers the <champion:…> converter)
from champions import views

app_name = "champions"

urlpatterns = [
    path("", views.gallery, name="gallery"),
    path("mine/", views.mine, name="mine"),
    path("new/", views.create, name="create"),
    path("designer/preview/", views.preview, name="preview"),
    path("designer/illustration/", views.draft_illustration, name="draft_illustration"),
    path("print/", views.print_sheets, name="print"),
    path("print/<uuid:job_id>/", views.print_job, name="print_job"),
    path("<champion:uid>/", views.detail, name="detail"),
    path("<champion:uid>/edit/", views.edit, name="edit"),
    path("<champion:uid>/delete/", views.delete, name="delete"),
    path("<champion:uid>/fork/", views.fork, name="fork"),
]
