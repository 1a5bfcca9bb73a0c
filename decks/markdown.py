"""Deck descriptions: Markdown written by players, rendered to HTML that is safe to show."""

import markdown as markdown_lib
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "blockquote",
    "ul", "ol", "li", "h3", "h4", "h5", "h6", "a", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}}


def render(text: str) -> SafeString:
    """Markdown to HTML, then cleaned by nh3: no script, no style, no raw HTML gets through."""
    # Headings start at <h3>: the page's own <h1> and <h2> come first ("# Plan" is an <h3>).
    html = markdown_lib.markdown(
        text,
        extensions=["tables", "sane_lists", "toc"],
        extension_configs={"toc": {"baselevel": 3}},
        output_format="html",
    )
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer ugc",
    )
    return mark_safe(cleaned)  # cleaned by nh3 just above
