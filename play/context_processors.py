"""What every page's header shows of Play: how many games wait for the visitor's move, so that a
game that waits days between turns is not forgotten, and the tables they are invited to."""

from typing import Any

from django.http import HttpRequest

from play.selectors import games_to_play, invitations_of


def turns(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"play_turns": games_to_play(user), "play_invitations": invitations_of(user)}
