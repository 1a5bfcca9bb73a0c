"""Catalogue pages rendered once per catalogue revision, language and query.

A card page or a search's results are the same for every visitor until the catalogue changes, and
rendering them (a dozen queries, hundreds of template nodes) is most of a request's cost. The
catalogue-only part of such a page is kept in Django's cache (Redis with REDIS_URL, so every
worker shares it; else each process's memory) under a key that holds the current catalogue
revision: `load_catalogue` and every admin edit record a new revision, so the next request
misses and renders the changed catalogue at once, in every process; the old entries are never
read again and expire. The key holds the digest of the app's code, templates and translations
too: workers of a new deployment sharing the Redis of the old one render their own pages.

The part is rendered without the request, so it cannot show who is asking (user, CSRF token,
messages): those stay in the page around it (`base.html`), rendered for each request.
"""

import hashlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from cards.selectors import catalogue_revision
from cod_site.i18n import current_language

# Only bounds the memory that entries of old revisions (and one-off queries) hold.
CACHE_SECONDS = 600
CODE_SUFFIXES = (".py", ".html", ".mo")


def code_digest(root: Path) -> str:
    """Digest of the files under `root` that decide how a page renders (names and contents)."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(root.rglob("*")):
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


# The project-wide translations (LOCALE_PATHS) word some of the parts' strings too.
CODE_VERSION = "-".join(
    code_digest(Path(root)) for root in [Path(__file__).resolve().parent, *settings.LOCALE_PATHS]
)


@dataclass(frozen=True)
class PagePart:
    """The catalogue-only part of a page: its HTML, the page's title and its HTTP status."""

    html: str
    title: str = ""
    status: int = 200

    @property
    def safe_html(self) -> SafeString:
        # Rendered by the template engine, which escaped every value in it.
        return mark_safe(self.html)


def render_part(
    template: str, context: Mapping[str, object], *, title: str = "", status: int = 200
) -> PagePart:
    """Render `template` with `context` only: no request, so nothing about the visitor."""
    html = render_to_string(template, {**context, "LANGUAGE_CODE": current_language()})
    return PagePart(html=html, title=title, status=status)


def cached_part(page: str, params: tuple[Hashable, ...], build: Callable[[], PagePart]) -> PagePart:
    """The part of page `page` for `params`, from the cache or built (and kept) now.

    `params` must hold everything the part depends on besides the catalogue and the language.
    An exception raised by `build` (a 404) passes through and nothing is kept.
    """
    revision = catalogue_revision().number
    digest = hashlib.blake2b(
        repr((CODE_VERSION, revision, current_language(), page, params)).encode(), digest_size=16
    ).hexdigest()
    key = f"cards:page:{digest}"
    part = cache.get(key)
    if part is None:
        part = build()
        cache.set(key, part, CACHE_SECONDS)
    return part
