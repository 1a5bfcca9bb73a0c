import re

import pytest
from django.test import Client

from tests.cards.conftest import Row

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

FACE = re.compile(r'<article class="card-face card-(\w+)" data-slug="([\w-]+)"')


def faces(html: str) -> list[str]:
    return [slug for _type, slug in FACE.findall(html)]


def test_card_browser_renders_a_face_per_card(client: Client, rows: list[Row]) -> None:
    html = client.get("/cards/", {"q": "ab:splash cost<=4", "sort": "cost"}).content.decode()
    expected = [r for r in rows if "splash" in r.abilities and r.mana <= 4]
    assert f'data-count="{len(expected)}"' in html
    shown = faces(html)
    assert sorted(shown) == sorted(r.slug for r in expected)
    assert 'id="card-query"' in html and "How to search" in html
    assert '<use href="/static/cards/icons.svg#ab-splash"/>' in html


def test_card_browser_pages_through_results(client: Client) -> None:
    first = client.get("/cards/").content.decode()
    assert len(faces(first)) == 24
    assert "Page 1 of 15" in first
    last = client.get("/cards/", {"page": 15}).content.decode()
    assert len(faces(last)) == 352 - 14 * 24


def test_htmx_requests_get_the_results_and_the_chips_only(client: Client) -> None:
    response = client.get("/cards/", {"q": "deck:3"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html
    assert len(faces(html)) == 8
    assert 'hx-swap-oob="true"' in html
    assert 'data-term="deck:3"' in html and "is-active" in html


def test_chips_toggle_their_term(client: Client) -> None:
    html = client.get("/cards/", {"q": "deck:1"}).content.decode()
    # The active chip removes its term, the others add theirs.
    assert 'href="/cards/?q=" hx-get' in html
    assert 'href="/cards/?q=deck%3A1+type%3Acreature"' in html


def test_card_page_in_french(client: Client) -> None:
    html = client.get("/fr/cards/parasite/").content.decode()
    assert '<html lang="fr">' in html
    assert (
        "Perforation" in html
        and "inflige ses Blessures à la Créature ciblée ET à la Créature située derrière elle"
        in html
    )
    assert "Deck pré-construit 3" in html
    assert len(faces(html)) == 1 + 7  # the card and the rest of its deck
    assert 'href="/fr/rules/#ability-rage"' in html


def test_card_page_marks_untranslated_texts_in_swedish(client: Client) -> None:
    html = client.get("/sv/cards/emerald-dragon/").content.decode()
    assert '<html lang="sv">' in html
    assert "inte översatt än" in html
    assert "Dragon émeraude" in html  # other names


def test_card_page_of_an_aura(client: Client) -> None:
    html = client.get("/cards/shaman/").content.decode()
    assert (
        "Aura: the adjacent creatures on the same line gain this ability; this card does not."
        in html
    )


def test_expansion_and_ability_pages(client: Client, rows: list[Row]) -> None:
    html = client.get("/sets/submersion/").content.decode()
    assert (
        len([slug for slug in faces(html) if not slug.startswith(("stronghold-", "bridge-"))]) == 32
    )
    assert "stronghold-submersion" in faces(html)
    html = client.get("/fr/abilities/sprint/").content.decode()
    assert "Bondir" in html
    bearers = [r.slug for r in rows if "sprint" in r.abilities]
    auras = [r.slug for r in rows if "sprint" in r.auras]
    assert sorted(faces(html)) == sorted(bearers + auras)
    listing = client.get("/abilities/").content.decode()
    assert listing.count('href="/abilities/') == 27


def test_missing_pages_are_404(client: Client) -> None:
    assert client.get("/cards/nope/").status_code == 404
    assert client.get("/sets/nope/").status_code == 404
    assert client.get("/abilities/nope/").status_code == 404


def test_language_switch_keeps_the_card_page(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/cards/grrr/?x=1"})
    assert response["Location"] == "/fr/cards/grrr/?x=1"


def test_nav_links_to_the_card_browser(client: Client) -> None:
    html = client.get("/fr/").content.decode()
    assert 'href="/fr/cards/"' in html


def test_build_a_deck_with_this_card_opens_the_builder_with_it(client: Client) -> None:
    html = client.get("/cards/grrr/").content.decode()
    link = re.search(r'<a class="button" href="([^"]+)">Build a deck with this card</a>', html)
    assert link is not None
    # A plain link by URL: the catalogue imports nothing from the decks app.
    assert link.group(1) == "/decks/new/?card=grrr"
    builder = client.get(link.group(1).replace("&amp;", "&"))
    assert builder.status_code == 200
    assert 'value="grrr"' in builder.content.decode()
    assert "Build a deck" not in client.get("/cards/bridge-submersion/").content.decode()


def test_a_face_says_which_set_and_that_its_values_are_unchecked(client: Client) -> None:
    """Not "14 · ?", which read as collector number 14 with a question mark."""
    html = client.get("/cards/frosted-grrr/").content.decode()
    face = html[html.index('<small class="card-set">') :]
    face = face[: face.index("</small>")]
    assert face.startswith('<small class="card-set">set 11 · <abbr title="Values not yet')
    assert face.endswith(">unchecked</abbr>")


def test_a_cards_peek_is_its_face_and_rules_text_alone_kept_by_the_browser(client: Client) -> None:
    response = client.get("/fr/cards/parasite/peek/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=600"
    html = response.content.decode()
    assert "<html" not in html
    assert faces(html) == ["parasite"]
    # The face without its link (a preview); the rules text under it; then the card's page.
    assert '<div class="card-face-link">' in html
    assert "<dt>Perforation</dt>" in html
    assert (
        "inflige ses Blessures à la Créature ciblée ET à la Créature située derrière elle" in html
    )
    assert '<a href="/fr/cards/parasite/">Page de la carte</a>' in html
    aura = client.get("/cards/shaman/peek/").content.decode()
    assert "Aura: the adjacent creatures on the same line gain this ability" in aura
    assert client.get("/cards/no-such-card/peek/").status_code == 404
