"""Text folding shared by search, lookups and the import: accents and case never matter."""

import re
import unicodedata

from django.utils.text import slugify

_NON_WORD = re.compile(r"[^0-9a-z]+")
# Letters NFKD does not decompose into a base letter and an accent.
_SPECIAL = str.maketrans({"æ": "ae", "œ": "oe", "ø": "o", "ß": "ss", "đ": "d", "ł": "l"})


def fold(text: str) -> str:
    """Lower-case ASCII words separated by single spaces: `Dragon Émeraude!` → `dragon emeraude`."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_SPECIAL))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", stripped).strip()


def card_slug(name_en: str) -> str:
    return slugify(fold(name_en))


def search_text(names: list[str]) -> str:
    """All names of a card, folded, as `| name one | name two |`.

    A bare word is a substring of it, a whole name is `| name |`, and no match spans two names.
    """
    unique = dict.fromkeys(folded for folded in (fold(name) for name in names) if folded)
    return "|" + "|".join(f" {name} " for name in unique) + "|"
