"""Issue 29: the language a reader chose once (the switch's cookie) or that their browser asks
for (Accept-Language) is kept on links without a /fr/ or /sv/ prefix."""

from django.test import Client


def test_an_unprefixed_link_opens_in_the_chosen_language(client: Client, db: None) -> None:
    french = client.get("/decks/?page=2", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    assert (french.status_code, french["Location"]) == (302, "/fr/decks/?page=2")
    assert "Accept-Language" in french["Vary"] and "Cookie" in french["Vary"]
    # The switch's cookie wins over the browser's header, both ways.
    switched = client.post("/i18n/setlang/", {"language": "sv", "next": "/"})
    assert switched.cookies["django_language"].value == "sv"
    assert client.get("/grimoire/", HTTP_ACCEPT_LANGUAGE="fr")["Location"] == "/sv/grimoire/"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="fr")["Location"] == "/sv/"
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = client.get("/decks/", HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == 200
    assert '<html lang="en"' in english.content.decode()


def test_what_is_not_a_page_link_stays_where_it_is(client: Client, db: None) -> None:
    client.cookies["django_language"] = "fr"
    # An English reader, a prefixed page, a form sent, htmx, the API and unknown paths.
    assert Client().get("/decks/", HTTP_ACCEPT_LANGUAGE="en-GB").status_code == 200
    assert client.get("/fr/decks/").status_code == 200
    assert client.get("/sv/decks/").status_code == 200
    assert client.post("/decks/builder/panel/", {"format": "constructed"}).status_code == 200
    assert client.get("/decks/builder/search/", HTTP_HX_REQUEST="true").status_code == 200
    assert client.get("/api/v1/formats/").status_code == 200
    assert client.get("/healthz").status_code in (200, 503)
    assert client.get("/no-such-page/").status_code == 404
