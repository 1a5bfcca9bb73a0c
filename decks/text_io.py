"""Decks as plain text: one card per line, in any language, with an optional set code.

Accepted lines: `Grrr`, `1 Grrr`, `1x Grrr`, `Grrr (00)`, `Grrr [00]`, `2x Dragon émeraude (03)`.
Blank lines and lines starting with `#` or `//` are comments; every other line is a card request,
so nothing is silently dropped: `decks.selectors.text.deck_import_text` answers for each of them.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

# A line may ask for several copies ("2x Grrr"): they are kept, so the duplicate is reported.
MAX_COPIES_PER_LINE = 9
MAX_LINES = 200
_QUANTITY = re.compile(r"^(\d+)\s*[xX×]?\s+(?=\S)")
_SET_CODE = re.compile(r"\s*[(\[]\s*([0-9A-Za-z-]{1,10})\s*[)\]]\s*$")


@dataclass(frozen=True)
class TextLine:
    number: int  # 1-based line number in the text
    text: str  # the line as written, stripped
    name: str
    set_code: str | None
    copies: int


def parse(text: str) -> list[TextLine]:
    lines = []
    for number, raw in enumerate(text.splitlines()[:MAX_LINES], start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        rest, copies = line, 1
        quantity = _QUANTITY.match(rest)
        if quantity:
            copies = max(1, min(int(quantity.group(1)), MAX_COPIES_PER_LINE))
            rest = rest[quantity.end() :]
        set_code = None
        code = _SET_CODE.search(rest)
        if code and code.start() > 0:
            set_code = code.group(1)
            rest = rest[: code.start()]
        lines.append(TextLine(number, line, rest.strip(), set_code, copies))
    return lines


def export(
    *,
    title: str,
    header: Sequence[str],
    lines: Sequence[tuple[str, str]],
    footer: Sequence[str] = (),
) -> str:
    """`lines` are (card name, set code); header/footer lines become `#` comments."""
    out = [f"# {title}", *(f"# {line}" for line in header)]
    out += [f"{name} ({set_code})" for name, set_code in lines]
    out += [f"# {line}" for line in footer]
    return "\n".join(out) + "\n"
