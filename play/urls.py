from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="new"),
    path("decks/", views.deck_search, name="deck_search"),
    path("<str:uid>/", views.table, name="table"),
    path("<str:uid>/board/", views.table_board, name="board"),
    path("<str:uid>/replay/", views.table_replay, name="replay"),
    path("<str:uid>/act/", views.table_act, name="act"),
    path("<str:uid>/stream/", views.table_stream, name="stream"),
    path("<str:uid>/join/<str:code>/", views.table_join, name="join"),
    path("<str:uid>/watch/<str:code>/", views.watch, name="watch"),
    path("<str:uid>/watch/<str:code>/board/", views.watch_board, name="watch_board"),
    path("<str:uid>/watch/<str:code>/replay/", views.watch_replay, name="watch_replay"),
    path("<str:uid>/watch/<str:code>/stream/", views.watch_stream, name="watch_stream"),
]
