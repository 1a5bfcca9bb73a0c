"""Names that show what they hold (issue 25, fault 5): one check for every name people choose.

A name may hold the letters, marks, digits, punctuation, symbols and spaces of every script,
emoji included. It may not hold a character that changes how the rest shows without showing
itself: the bidirectional controls (U+202E turns "gpj.exe" around), zero-width characters,
control characters, line and paragraph separators. Unicode puts these in the categories Cc
(controls), Cf (format), Zl and Zp; all of them are refused, with two exceptions that emoji need:

- ZERO WIDTH JOINER (U+200D) between two emoji (👩‍💻, 👨‍👩‍👧): it joins them into one picture.
  Anywhere else (between letters, at an end) it only hides, so it is refused there.
- TAG characters (U+E0020–U+E007E, ended by U+E007F) right after the black flag U+1F3F4: the
  flags of England, Scotland and Wales. Anywhere else they are invisible, so refused.
"""

import unicodedata

from django.utils.translation import gettext as _

from cod_site.errors import DomainError

ZWJ = "\u200d"
BLACK_FLAG = "\U0001f3f4"
CANCEL_TAG = "\U000e007f"
TAGS = range(0xE0020, 0xE0080)
REFUSED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp"}
# What may stand between an emoji and a joiner: the emoji presentation selector and skin tones.
EMOJI_TAIL = {"\ufe0f"} | {chr(code) for code in range(0x1F3FB, 0x1F400)}


def _emoji(character: str) -> bool:
    # Emoji are symbols (So); the regional and keycap parts do not join with U+200D.
    return unicodedata.category(character) == "So"


def _joins_emoji(text: str, index: int) -> bool:
    before = index - 1
    while before >= 0 and text[before] in EMOJI_TAIL:
        before -= 1
    after = index + 1
    return before >= 0 and after < len(text) and _emoji(text[before]) and _emoji(text[after])


def _flag_tag(text: str, index: int) -> bool:
    start = index
    while start > 0 and ord(text[start - 1]) in TAGS:
        start -= 1
    end = index
    while end < len(text) and ord(text[end]) in TAGS and text[end] != CANCEL_TAG:
        end += 1
    return start > 0 and text[start - 1] == BLACK_FLAG and end < len(text)


def hidden_character(text: str) -> str | None:
    """The first character of `text` that hides itself or changes how the rest shows, or None."""
    for index, character in enumerate(text):
        if unicodedata.category(character) not in REFUSED_CATEGORIES:
            continue
        if character == ZWJ and _joins_emoji(text, index):
            continue
        if ord(character) in TAGS and _flag_tag(text, index):
            continue
        return character
    return None


def check_visible(text: str, *, field: str, **details: object) -> None:
    """A 400 `invisible_character` naming `field` and the character when `text` hides one."""
    character = hidden_character(text)
    if character is not None:
        code_point = f"U+{ord(character):04X}"
        raise DomainError(
            "invisible_character",
            _("`%(field)s` holds an invisible or control character (%(character)s).")
            % {"field": field, "character": code_point},
            {"field": field, "character": code_point, **details},
        )
