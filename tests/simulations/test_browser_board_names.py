"""Card names on the game board at 390 px: words are never cut in two ("Annihilatio n"), nor cut
short: a card is as wide as its name's longest word (issue 29)."""

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from engine.display.faces import CardFace

pytestmark = [pytest.mark.browser]

NAMES = ["Brute", "Emerald dragon", "Annihilation", "Abyssal grrr", "Incomprehensibilities"]

# For each name: its words' line counts, whether the name is clipped, and its font size in px.
MEASURE = """() => [...document.querySelectorAll('.board-card-name')].map(name => {
  const text = name.firstChild, words = [];
  for (const match of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    words.push(new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size);
  }
  return [name.title, words, name.scrollWidth > name.clientWidth,
          getComputedStyle(name).fontSize];
})"""


def test_long_names_shrink_and_widen_their_card_but_never_break(
    page: Any, live_server: Any
) -> None:
    faces = [
        render_to_string(
            "engine/_board_face.html",
            {"face": CardFace(name, SafeString(""), cost=3, attack=2, hp=4)},
        )
        for name in NAMES
    ]
    static = f"{live_server.url}/static"
    page.set_viewport_size({"width": 390, "height": 844})
    page.set_content(
        f'<!doctype html><html lang="en"><head>'
        f'<link rel="stylesheet" href="{static}/cod_site/site.css">'
        f'<link rel="stylesheet" href="{static}/engine/board.css"></head><body>'
        f'<ul class="board-hand">{"".join(f"<li class=board-card>{face}</li>" for face in faces)}'
        "</ul></body></html>",
        wait_until="load",
    )
    assert page.evaluate(MEASURE) == [
        ["Brute", [1], False, "10.64px"],
        ["Emerald dragon", [1, 1], False, "10.64px"],
        ["Annihilation", [1], False, "8.96px"],
        ["Abyssal grrr", [1, 1], False, "10.64px"],
        ["Incomprehensibilities", [1], False, "8.96px"],
    ]
    widths = page.evaluate(
        "[...document.querySelectorAll('.board-card')].map(card => card.offsetWidth)"
    )
    # 4.8rem at 16px; the longest word's card its width (Chromium, DejaVu Sans).
    assert widths == [77, 77, 77, 77, 112]
    # A word wider than the window would still end in an ellipsis.
    ellipsis = page.locator(".board-card-name.is-long").last
    assert ellipsis.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
    assert page.evaluate("document.documentElement.scrollWidth") == 390
