from django.urls import path

from play import chaos_views, views

app_name = "play"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="new"),
    path("chaos/new/", chaos_views.chaos_new, name="chaos_new"),
    path("chaos/<str:uid>/", chaos_views.chaos_table, name="chaos_table"),
    path("chaos/<str:uid>/board/", chaos_views.chaos_board, name="chaos_board"),
    path("chaos/<str:uid>/act/", chaos_views.chaos_act, name="chaos_act"),
    path("chaos/<str:uid>/replay/", chaos_views.chaos_replay, name="chaos_replay"),
    path("chaos/<str:uid>/stream/", chaos_views.chaos_stream, name="chaos_stream"),
    path("chaos/<str:uid>/join/<str:code>/", chaos_views.chaos_join, name="chaos_join"),
    path("chaos/<str:uid>/watch/<str:code>/", chaos_views.chaos_watch, name="chaos_watch"),
    path(
        "chaos/<str:uid>/watch/<str:code>/board/",
        chaos_views.chaos_watch_board,
        name="chaos_watch_board",
    ),
    path(
        "chaos/<str:uid>/watch/<str:code>/replay/",
        chaos_views.chaos_watch_replay,
        name="chaos_watch_replay",
    ),
    path(
        "chaos/<str:uid>/watch/<str:code>/stream/",
        chaos_views.chaos_watch_stream,
        name="chaos_watch_stream",
    ),
    path("decks/", views.deck_search, name="deck_search"),
    path("<str:uid>/", views.table, name="table"),
    path("<str:uid>/board/", views.table_board, name="board"),
    path("<str:uid>/replay/", views.table_replay, name="replay"),
    path("<str:uid>/act/", views.table_act, name="act"),
    path("<str:uid>/rematch/", views.table_rematch, name="rematch"),
    path("<str:uid>/again/", views.table_play_again, name="play_again"),
    path("<str:uid>/stream/", views.table_stream, name="stream"),
    path("<str:uid>/join/<str:code>/", views.table_join, name="join"),
    path("<str:uid>/invitation/", views.table_invitation, name="invitation"),
    path("<str:uid>/watch/<str:code>/", views.watch, name="watch"),
    path("<str:uid>/watch/<str:code>/board/", views.watch_board, name="watch_board"),
    path("<str:uid>/watch/<str:code>/replay/", views.watch_replay, name="watch_replay"),
    path("<str:uid>/watch/<str:code>/stream/", views.watch_stream, name="watch_stream"),
]
