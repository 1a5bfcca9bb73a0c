"""Grimoire pages, included inside `i18n_patterns` (so /fr/grimoire/…, /sv/grimoire/…)."""

from django.urls import path

from grimoire import views

app_name = "grimoire"

urlpatterns = [
    path("", views.gallery, name="gallery"),
    path("today/", views.today, name="today"),
    path("mine/", views.mine, name="mine"),
    path("learn/", views.learn, name="learn"),
    path("learn/<int:number>/", views.learn_step, name="learn_step"),
    path("new/", views.editor_new, name="new"),
    path("<str:uid>/", views.detail, name="detail"),
    path("<str:uid>/attempt/", views.attempt, name="attempt"),
    path("<str:uid>/solve/", views.solve, name="solve"),
    path("<str:uid>/give-up/", views.give_up, name="give_up"),
    path("<str:uid>/jobs/<str:job_id>/", views.job, name="job"),
    path("<str:uid>/image.png", views.image, name="image"),
    path("<str:uid>/edit/", views.editor_edit, name="edit"),
    path("<str:uid>/prove/", views.prove, name="prove"),
    path("<str:uid>/proof/", views.proof, name="proof"),
    path("<str:uid>/publish/", views.publish, name="publish"),
]
