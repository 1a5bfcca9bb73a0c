"""Generated card faces: one distinct emblem per card, the same on its page and in its PDF."""

import io
import re

import pytest
from django.test import Client
from PIL import Image

from cards.emblems import card_emblem, emblem_for, emblem_png, emblem_svg, expansion_hue
from cards.selectors import cards_with_details

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

EMBLEM = re.compile(r'<svg class="card-emblem".*?</svg>', re.S)


def test_every_card_has_an_emblem_of_its_own() -> None:
    cards = list(cards_with_details())
    assert len(cards) == 374  # the 352 deckable cards and the products' Strongholds and Bridges
    assert len({emblem_svg(emblem_for(card)) for card in cards}) == 374


def test_the_expansion_picks_the_colours_and_the_cost_the_ring() -> None:
    def emblem(slug: str, code: str, mana: int) -> object:
        return card_emblem(
            slug=slug,
            expansion_code=code,
            card_type="creature",
            mana=mana,
            attack=2,
            hp=3,
            abilities=("splash", "aura:rage"),
        )

    one, two, other_set = emblem("a", "03", 4), emblem("b", "03", 4), emblem("a", "04", 4)
    assert one.background == two.background != other_set.background
    assert one.polygons[0].fill == two.polygons[0].fill != other_set.polygons[0].fill
    assert len(one.polygons[1].points) == 7  # a 4-Mana card: a ring of 4 + 3 sides
    assert len(emblem("a", "03", 0).polygons[1].points) == 3
    assert one.polygons[3] != two.polygons[3]  # the slug turns the star
    # Two abilities, the Aura in its halo: a star, 2 satellites and 1 halo, then the core.
    assert len(one.polygons) == 3 + 1 + 3 + 1
    assert emblem("a", "03", 4) == one
    assert round(expansion_hue("00"), 3) == 20.0
    assert round(expansion_hue("01"), 3) == 157.508


def test_the_card_page_and_the_pdf_show_the_same_emblem(client: Client) -> None:
    card = cards_with_details().get(slug="sylvan-protector")
    html = client.get("/cards/sylvan-protector/").content.decode()
    svg = emblem_svg(emblem_for(card))
    assert EMBLEM.findall(html)[0] == svg
    picture = Image.open(io.BytesIO(emblem_png(emblem_for(card), size=100)))
    assert picture.size == (100, 100)
    # The corner shows the background, the centre the core, in the colours the SVG names.
    corner, centre = picture.getpixel((1, 1)), picture.getpixel((50, 50))
    assert "#{:02x}{:02x}{:02x}".format(*corner) == emblem_for(card).background
    assert "#{:02x}{:02x}{:02x}".format(*centre) == emblem_for(card).polygons[-1].fill
