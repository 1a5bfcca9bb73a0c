"""The Duel of Chaos pages: card search, card pages, rules reference; the games never mix."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from engine.chaos.rule_ids import RULES

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


def _count(html: str) -> int:
    match = re.search(r'data-count="(\d+)"', html)
    assert match, html[:500]
    return int(match.group(1))


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("", 33),
        ("kw:plan", 6),
        ("kw:appel", 6),
        ("kw:KALLELSE clan:evine", 6),
        ("cost>=4 clan:evine", 5),
        ("type:emissaire", 6),
        ("react:opponent", 2),
        ("react:sacrificed", 1),
        ("complete:no", 8),
        ("set:example-set -type:domain", 9),
        ("deck:1", 6),
        ("heraut", 2),
        ("eclaireur", 1),
        ("baron", 0),
    ],
)
def test_search(client: Client, query: str, count: int) -> None:
    response = client.get("/chaos/cards/", {"q": query})
    assert response.status_code == 200
    assert _count(response.content.decode()) == count


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "/chaos/cards/?q=ab:splash",
            "Unknown key &#x27;ab&#x27;: use one of clan, complete, cost, deck, dir, kw, order, "
            "react, set, type",
        ),
        (
            "/chaos/cards/?q=type:creature",
            "&#x27;type&#x27; takes emissary, domain, intervention or aid",
        ),
        ("/cards/?q=kw:plan", "Unknown key &#x27;kw&#x27;"),
        (
            "/cards/?q=type:emissary",
            "&#x27;type&#x27; takes creature, incantation, stronghold or bridge",
        ),
    ],
)
def test_each_game_refuses_the_others_keys(client: Client, url: str, message: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_games_never_mix(client: Client) -> None:
    assert _count(client.get("/cards/", {"q": "domania"}).content.decode()) == 0
    assert _count(client.get("/chaos/cards/", {"q": "sylvan protector"}).content.decode()) == 0
    assert client.get("/cards/domania/").status_code == 404
    assert client.get("/chaos/cards/sylvan-protector/").status_code == 404


def test_an_incomplete_card_page(client: Client) -> None:
    html = client.get("/fr/chaos/cards/domania/").content.decode()
    assert "Incomplète :" in html
    assert "<code>discard 1 from hand -&gt; draw 1</code>" in html
    assert "On ne sait pas si elle s'applique pendant le tour adverse." in html


def test_an_example_card_page_in_swedish(client: Client) -> None:
    html = client.get("/sv/chaos/cards/warden/").content.decode()
    assert "Väktare" in html
    assert "Om den kastas (② även under motståndarens tur): dra ett kort." in html
    assert "Den kan avbryta motståndarens tur." in html


def test_the_rules_reference_has_every_engine_rule(client: Client) -> None:
    for language, title in (
        ("", "Duel of Chaos rules"),
        ("/fr", "Règles de Duel of Chaos"),
        ("/sv", "Regler för Duel of Chaos"),
    ):
        html = client.get(f"{language}/chaos/rules/").content.decode()
        assert f"<h1>{title}</h1>" in html
        for rule_id in RULES:
            assert f'id="{rule_id}"' in html
    assert (
        "Révélez les X premières cartes de votre pioche"
        in client.get("/fr/chaos/rules/").content.decode()
    )
