"""Malformed queries: a 400 naming the term and its position, never a 500, never ignored."""

from html import unescape

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

MALFORMED = [
    # (query, offending term, its 0-based position)
    ("colour:red", "colour:red", 0),
    ("grrr foo:bar", "foo:bar", 5),
    ("cost<=x", "cost<=x", 0),
    ("atk>=four hp:2", "atk>=four", 0),
    ("hp:1.5", "hp:1.5", 0),
    ("cost=999", "cost=999", 0),
    ("type:dragon", "type:dragon", 0),
    ("type<2", "type<2", 0),
    ("set:zz", "set:zz", 0),
    ("ab:flying cost:2", "ab:flying", 0),
    ("cost:2 aura:nothing", "aura:nothing", 7),
    ("malus:maybe", "malus:maybe", 0),
    ("deck:5", "deck:5", 0),
    ("checked:perhaps", "checked:perhaps", 0),
    ("order:colour", "order:colour", 0),
    ("dir:up", "dir:up", 0),
    ("-order:cost", "order:cost", 1),
    ("grrr (ab:rage", "(ab:rage", 5),
    ("grrr) ab:rage", ")", 4),
    ('"dragon emeraude', '"dragon', 0),
    ("ab:splash or", "or", 10),
    ("or grrr", "or", 0),
    ("grrr -", "-", 5),
    ("cost:", "cost:", 0),
    ("!!!", "!!!", 0),
]


@pytest.mark.parametrize(("query", "term", "position"), MALFORMED)
def test_malformed_query_is_a_400_naming_the_term(
    client: Client, query: str, term: str, position: int
) -> None:
    response = client.get("/api/v1/cards/", {"q": query})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_query"
    assert body["details"]["term"] == term
    assert body["details"]["position"] == position
    assert query[position:].startswith(term)
    assert repr(term) in body["message"]
    assert "ETag" not in response.headers


def test_at_least_twenty_malformed_queries() -> None:
    assert len(MALFORMED) >= 20


def test_unknown_ability_suggests_close_names(client: Client) -> None:
    body = client.get("/api/v1/cards/", {"q": "ab:splsh"}).json()
    assert "Did you mean splash?" in body["message"]


def test_a_query_of_five_kilobytes_is_refused_cleanly(client: Client) -> None:
    response = client.get("/api/v1/cards/", {"q": "grrr " * 1024})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_query"
    assert "too long (5120 characters, at most 500)" in body["message"]


def test_a_query_past_the_request_line_limit_is_a_414(client: Client) -> None:
    response = client.get("/api/v1/cards/", {"q": "grrr " * 2048})
    assert response.status_code == 414
    assert response.json()["code"] == "request_line_too_long"


def test_the_card_browser_shows_the_error_in_the_page(client: Client) -> None:
    response = client.get("/cards/", {"q": "grrr foo:bar"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Unknown key &#x27;foo&#x27;" in html
    assert "<code>foo:bar</code> at position 5" in html


def test_the_htmx_partial_swaps_the_error_in(client: Client) -> None:
    response = client.get("/cards/", {"q": "cost<=x"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "<html" not in response.content.decode()


@pytest.mark.parametrize("language", ["fr", "sv"])
def test_every_refusal_is_worded_in_the_page_language(client: Client, language: str) -> None:
    for query, _term, _position in MALFORMED:
        english = client.get("/api/v1/cards/", {"q": query, "lang": "en"}).json()["message"]
        worded = client.get("/api/v1/cards/", {"q": query, "lang": language}).json()["message"]
        assert worded != english, (query, worded)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/fr/cards/", "'cost' demande un nombre entier"),
        ("/sv/cards/", "'cost' behöver ett heltal"),
        ("/fr/decks/builder/search/", "'cost' demande un nombre entier"),
        ("/sv/decks/builder/search/", "'cost' behöver ett heltal"),
    ],
)
def test_pages_word_the_refusal_in_their_language(client: Client, path: str, message: str) -> None:
    html = client.get(path, {"q": "cost<=x"}).content.decode()
    assert message in unescape(html)


def test_a_suggestion_in_french(client: Client) -> None:
    body = client.get("/api/v1/cards/", {"q": "ab:splsh", "lang": "fr"}).json()
    assert body["message"].startswith("Aucune capacité ne s'appelle 'splsh'. Vouliez-vous dire ")
