from django.urls import path

from play.api import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/open/", views.OpenGamesView.as_view(), name="game-open"),
    path("games/live/", views.LiveGamesView.as_view(), name="game-live"),
    path("games/<str:uid>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<str:uid>/spectate/", views.SpectateView.as_view(), name="game-spectate"),
    path("games/<str:uid>/actions/", views.LegalActionsView.as_view(), name="game-actions"),
    path("games/<str:uid>/join/", views.JoinView.as_view(), name="game-join"),
    path("games/<str:uid>/act/", views.ActView.as_view(), name="game-act"),
    path("games/<str:uid>/pick/", views.PickView.as_view(), name="game-pick"),
    path("games/<str:uid>/concede/", views.ConcedeView.as_view(), name="game-concede"),
    path("games/<str:uid>/claim-time/", views.ClaimTimeView.as_view(), name="game-claim-time"),
    path("games/<str:uid>/replay/", views.ReplayView.as_view(), name="game-replay"),
    path("games/<str:uid>/rematch/", views.RematchView.as_view(), name="game-rematch"),
    path("games/<str:uid>/play-again/", views.PlayAgainView.as_view(), name="game-play-again"),
]
