from typing import Any

from rest_framework.authtoken.models import Token

from cod_site.accounts import selectors, services


def test_an_account_is_made_with_a_hashed_password(db: None) -> None:
    user = services.account_create(
        username="nina", password="a-long-pass-phrase", email="n@example.org"
    )
    assert user.check_password("a-long-pass-phrase")
    assert user.password != "a-long-pass-phrase"
    assert (user.get_username(), user.email) == ("nina", "n@example.org")


def test_a_new_token_replaces_the_old_one(owner: Any, other: Any) -> None:
    assert selectors.api_token_get(user=owner) is None
    first = services.api_token_create(user=owner)
    others = services.api_token_create(user=other)
    assert selectors.api_token_get(user=owner) == first
    second = services.api_token_create(user=owner)
    assert second.key != first.key
    assert list(Token.objects.filter(user=owner).values_list("key", flat=True)) == [second.key]
    assert selectors.api_token_get(user=other) == others


def test_revoking_deletes_the_token_once(owner: Any, other: Any) -> None:
    services.api_token_create(user=owner)
    kept = services.api_token_create(user=other)
    assert services.api_token_revoke(user=owner) is True
    assert selectors.api_token_get(user=owner) is None
    assert services.api_token_revoke(user=owner) is False
    assert list(Token.objects.values_list("key", flat=True)) == [kept.key]
