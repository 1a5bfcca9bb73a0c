"""The one rule of who may see a Champion, as a query and for a loaded Champion: one answer."""

import pytest
from django.contrib.auth.models import AnonymousUser

from champions.models import Champion
from champions.selectors import champion_visible_to, champions_visible_to

pytestmark = pytest.mark.django_db

# Who sees a Champion of each visibility: its owner and staff always, anyone else if it is open.
SEES = {
    "owner": {"private": True, "unlisted": True, "public": True},
    "other": {"private": False, "unlisted": True, "public": True},
    "anonymous": {"private": False, "unlisted": True, "public": True},
    "staff": {"private": True, "unlisted": True, "public": True},
}


def test_the_query_and_the_check_agree_for_everyone(
    owner: object, other: object, django_user_model: object
) -> None:
    staff = django_user_model.objects.create_user("sten", password="pw-123456789", is_staff=True)  # type: ignore[attr-defined]
    viewers = {"owner": owner, "other": other, "anonymous": AnonymousUser(), "staff": staff}
    champions = {
        visibility: Champion.objects.create(
            owner=owner, mana=4, attack=3, hp=4, visibility=visibility
        )
        for visibility in ("private", "unlisted", "public")
    }
    for who, viewer in viewers.items():
        listed = set(champions_visible_to(viewer).values_list("uid", flat=True))  # type: ignore[arg-type]
        for visibility, champion in champions.items():
            assert champion_visible_to(champion, viewer) is SEES[who][visibility], (who, visibility)  # type: ignore[arg-type]
            assert (champion.uid in listed) is SEES[who][visibility], (who, visibility)
