import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "lang", "phrase"),
    [
        ("/", "en", "Look cards up"),
        ("/fr/", "fr", "Consultez les cartes"),
        ("/sv/", "sv", "Slå upp kort"),
    ],
)
def test_home_page_in_each_language(client: Client, path: str, lang: str, phrase: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    assert phrase in html


@pytest.mark.parametrize(
    ("language", "next_url", "target"),
    [
        ("fr", "/sv/", "/fr/"),
        ("en", "/fr/accounts/login/", "/accounts/login/"),
        ("sv", "/accounts/login/?next=/fr/", "/sv/accounts/login/?next=/fr/"),
        ("xx", "/fr/", "/fr/"),
        ("fr", "https://evil.example/", "/fr/"),
    ],
)
def test_language_switch_keeps_the_page(
    client: Client, language: str, next_url: str, target: str
) -> None:
    response = client.post("/i18n/setlang/", {"language": language, "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == target


def test_header_offers_login_to_visitors(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/?next=/"' in html
    assert 'name="language"' in html


def test_header_offers_logout_to_members(client: Client, django_user_model) -> None:
    user = django_user_model.objects.create_user("ana", password="pw-123456789")
    client.force_login(user)
    html = client.get("/").content.decode()
    assert 'action="/accounts/logout/"' in html
    assert "ana" in html


def test_static_files_are_served_by_whitenoise(client: Client) -> None:
    response = client.get("/static/vendor/htmx.min.js")
    assert response.status_code == 200
    assert b"htmx" in b"".join(response.streaming_content)


def test_the_favicon_is_named_by_every_page_and_found_at_the_root(client: Client) -> None:
    icon = (settings.BASE_DIR / "cod_site/static/cod_site/favicon.ico").read_bytes()
    assert icon[:4] == b"\x00\x00\x01\x00"  # an ICO file
    for page in ("/", "/fr/cards/", "/accounts/login/"):
        html = client.get(page).content.decode()
        assert '<link rel="icon" href="/static/cod_site/favicon.ico"' in html, page
    # Browsers also ask for /favicon.ico by themselves: it was a 404 in every server log.
    answer = client.get("/favicon.ico")
    assert (answer.status_code, answer["Location"]) == (302, "/static/cod_site/favicon.ico")
    assert answer["Cache-Control"] == "max-age=86400, public"
    served = client.get(answer["Location"])
    assert served["Content-Type"] == "image/x-icon"
    assert b"".join(served.streaming_content) == icon


def test_api_docs_are_served_offline(client: Client) -> None:
    html = client.get("/api/v1/docs/").content.decode()
    assert "swagger-ui" in html
    assert "cdn." not in html and "unpkg" not in html and "jsdelivr" not in html
    assert client.get("/api/v1/schema/").status_code == 200


@pytest.mark.parametrize(
    ("path", "search_action", "tiles"),
    [
        (
            "/",
            "/cards/",
            [
                "/play/",
                "/grimoire/",
                "/cards/",
                "/decks/",
                "/champions/",
                "/mutation/",
                "/simulations/",
                "/rules/",
            ],
        ),
        (
            "/fr/",
            "/fr/cards/",
            ["/fr/play/", "/fr/grimoire/", "/fr/cards/", "/fr/decks/", "/fr/champions/"],
        ),
    ],
)
def test_home_page_searches_the_cards_and_leads_to_each_section(
    client: Client, path: str, search_action: str, tiles: list[str]
) -> None:
    html = client.get(path).content.decode()
    assert f'<form class="home-search" action="{search_action}" method="get"' in html
    assert 'name="q"' in html
    for href in tiles:
        assert f'<li><a href="{href}">' in html
    # Play and the Grimoire come first, on the home page and in the menu (issue 29).
    nav = html[html.index('<nav class="site-nav"') : html.index("</nav>")]
    assert [nav.index(f'href="{href}"') for href in tiles[:2]] == sorted(
        nav.index(f'href="{href}"') for href in tiles[:2]
    )
    assert html.index(f'<li><a href="{tiles[0]}">') < html.index(f'<li><a href="{tiles[2]}">')
