"""Deck descriptions: Markdown headings keep their meaning below the page's own headings."""

from decks.markdown import render


def test_headings_start_below_the_page_headings() -> None:
    html = render("# Plan\n\n## Early game\n\nAttack **early**.\n\n<script>x()</script>")
    assert html == "<h3>Plan</h3>\n<h4>Early game</h4>\n<p>Attack <strong>early</strong>.</p>\n"
