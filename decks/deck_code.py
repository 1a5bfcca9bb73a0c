"""Deck codes: a short, URL-safe, versioned and checksummed text that carries a whole deck.

Pure Python (no Django): the apps map card slugs and format slugs to the numbers used here.

Layout of version 1, bytes, big-endian, then base64url without padding:

    version        1 byte   (1)
    format         2 bytes  format_identity(format slug)
    flags          1 byte   bit 0: a Champion follows; bit 1: removals follow; other bits 0
    card count n   1 byte
    cards          n × 3 bytes, card_identity(slug), ascending (repeats kept: an illegal deck
                   with a duplicate can be shared too, so its error can be shown)
    [removals]     count r (1 byte), r × 3 bytes ascending: the cards the opponent removed
                   (Constructed 2021), each one of the deck's cards
    [Champion]     length L (1 byte, 1-16), L ASCII bytes: the Champion's share id
    checksum       4 bytes, CRC-32 of everything before it

Why these choices:
- Identities are hashes of the stable slugs, not database ids or positions, so a code made on one
  installation opens on every other one and stays valid when cards are added to the catalogue.
  24 bits keep collisions unlikely (the tests check the shipped catalogue has none).
- The game shuffles the deck before play, so a deck is the set of its cards: sorting them makes the
  code canonical (the same cards in any order give the same code).
- CRC-32 detects every single mistyped character and every swap of two neighbours (bursts up to
  32 bits), and anything else but one time in four billion.
- Decoding re-encodes what it read and insists on the same text: a code has exactly one spelling
  (no unsorted lists, stray bits in the last character or trailing bytes).
"""

import base64
import binascii
import hashlib
import re
import zlib
from dataclasses import dataclass, field

VERSION = 1
CARD_ID_BYTES = 3
FORMAT_ID_BYTES = 2
CHECKSUM_BYTES = 4
# A deck holds 8 or 10 cards; the builder may hold a few too many while the player edits.
MAX_CARDS = 64
CHAMPION_MAX_LENGTH = 16
# The longest code (64 cards, 64 removals, a Champion) is 548 characters.
MAX_CODE_LENGTH = 600
# The shortest code of a deck (8 cards) is 44 characters; no word of a card's name has 20.
CODE_LOOKING_LENGTH = 20

_FLAG_CHAMPION = 0b01
_FLAG_REMOVALS = 0b10
_KNOWN_FLAGS = _FLAG_CHAMPION | _FLAG_REMOVALS
_CODE_ALPHABET = re.compile(r"[A-Za-z0-9_-]+")
CHAMPION_ALPHABET = re.compile(rf"[A-Za-z0-9_-]{{1,{CHAMPION_MAX_LENGTH}}}")


class DeckCodeError(ValueError):
    """A text that is not a deck code; `reason` is a stable word for the API's details."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def card_identity(slug: str) -> int:
    """The 24-bit number that stands for a card in deck codes."""
    digest = hashlib.blake2b(slug.encode(), digest_size=CARD_ID_BYTES, person=b"cod-card")
    return int.from_bytes(digest.digest(), "big")


def format_identity(slug: str) -> int:
    """The 16-bit number that stands for a format in deck codes."""
    digest = hashlib.blake2b(slug.encode(), digest_size=FORMAT_ID_BYTES, person=b"cod-format")
    return int.from_bytes(digest.digest(), "big")


@dataclass(frozen=True)
class DeckCodeContent:
    """What a code carries. `encode` sorts the lists; `decode` returns them sorted."""

    format_id: int
    card_ids: tuple[int, ...]
    removed_ids: tuple[int, ...] = field(default=())
    champion: str | None = None

    def canonical(self) -> "DeckCodeContent":
        return DeckCodeContent(
            self.format_id,
            tuple(sorted(self.card_ids)),
            tuple(sorted(self.removed_ids)),
            self.champion or None,
        )


def _check_content(content: DeckCodeContent) -> None:
    if not 0 <= content.format_id < 1 << (8 * FORMAT_ID_BYTES):
        raise ValueError(f"format id {content.format_id} out of range")
    for ids in (content.card_ids, content.removed_ids):
        if len(ids) > MAX_CARDS:
            raise ValueError(f"at most {MAX_CARDS} cards fit in a deck code")
        for one in ids:
            if not 0 <= one < 1 << (8 * CARD_ID_BYTES):
                raise ValueError(f"card id {one} out of range")
    remaining = list(content.card_ids)
    for one in content.removed_ids:
        if one not in remaining:
            raise ValueError(f"removed card id {one} is not one of the deck's cards")
        remaining.remove(one)
    if content.champion is not None and not CHAMPION_ALPHABET.fullmatch(content.champion):
        raise ValueError(f"Champion share id {content.champion!r} is not 1-16 URL-safe characters")


def encode(content: DeckCodeContent) -> str:
    content = content.canonical()
    _check_content(content)
    flags = (_FLAG_CHAMPION if content.champion else 0) | (
        _FLAG_REMOVALS if content.removed_ids else 0
    )
    body = bytearray([VERSION])
    body += content.format_id.to_bytes(FORMAT_ID_BYTES, "big")
    body.append(flags)
    body.append(len(content.card_ids))
    for one in content.card_ids:
        body += one.to_bytes(CARD_ID_BYTES, "big")
    if content.removed_ids:
        body.append(len(content.removed_ids))
        for one in content.removed_ids:
            body += one.to_bytes(CARD_ID_BYTES, "big")
    if content.champion:
        champion = content.champion.encode("ascii")
        body.append(len(champion))
        body += champion
    body += checksum(bytes(body))
    return base64.urlsafe_b64encode(bytes(body)).decode("ascii").rstrip("=")


def checksum(body: bytes) -> bytes:
    return zlib.crc32(body).to_bytes(CHECKSUM_BYTES, "big")


def code_bytes(code: str) -> bytes:
    """The bytes behind a code's text (base64url without padding); raises DeckCodeError."""
    if not code:
        raise DeckCodeError("empty", "The deck code is empty.")
    if len(code) > MAX_CODE_LENGTH:
        raise DeckCodeError("too_long", "This is too long to be a deck code.")
    if not _CODE_ALPHABET.fullmatch(code):
        raise DeckCodeError("bad_character", "A deck code holds only letters, digits, “-” and “_”.")
    try:
        return base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError) as error:
        raise DeckCodeError(
            "bad_length", "This deck code has a character too many or too few."
        ) from error


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.offset = 0

    def take(self, size: int) -> bytes:
        if self.offset + size > len(self.data):
            raise DeckCodeError("truncated", "This deck code is cut short.")
        chunk = self.data[self.offset : self.offset + size]
        self.offset += size
        return chunk

    def number(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big")


def decode(code: str) -> DeckCodeContent:
    """Read a code; raises DeckCodeError for anything that is not exactly a code we write."""
    code = code.strip()
    data = code_bytes(code)
    if len(data) < 1 + CHECKSUM_BYTES:
        raise DeckCodeError("truncated", "This deck code is cut short.")
    body, stored = data[:-CHECKSUM_BYTES], data[-CHECKSUM_BYTES:]
    if checksum(body) != stored:
        raise DeckCodeError("checksum", "This deck code is mistyped: its checksum does not match.")
    if body[0] != VERSION:
        raise DeckCodeError(
            "unsupported_version", f"Deck codes of version {body[0]} are not supported."
        )
    reader = _Reader(body[1:])
    format_id = reader.number(FORMAT_ID_BYTES)
    flags = reader.number(1)
    if flags & ~_KNOWN_FLAGS:
        raise DeckCodeError("not_canonical", "This deck code uses flags we do not know.")
    card_ids = tuple(reader.number(CARD_ID_BYTES) for _ in range(reader.number(1)))
    removed_ids: tuple[int, ...] = ()
    if flags & _FLAG_REMOVALS:
        removed_ids = tuple(reader.number(CARD_ID_BYTES) for _ in range(reader.number(1)))
    champion = None
    if flags & _FLAG_CHAMPION:
        try:
            champion = reader.take(reader.number(1)).decode("ascii")
        except UnicodeDecodeError as error:
            raise DeckCodeError("not_canonical", "This deck code's Champion is garbled.") from error
    if reader.offset != len(reader.data):
        raise DeckCodeError("not_canonical", "This deck code has bytes after its end.")
    content = DeckCodeContent(format_id, card_ids, removed_ids, champion)
    try:
        again = encode(content)
    except ValueError as error:
        raise DeckCodeError("not_canonical", f"This deck code is malformed: {error}.") from error
    if again != code:
        raise DeckCodeError("not_canonical", "This deck code is not written the way we write it.")
    return content


def code_in_paste(text: str) -> str | None:
    """The deck code in what was pasted into the import box, if it is one: a share link
    (…/d/CODE) or a single word that reads as a code. Anything else is a card list ("Grrr" is
    one word but no code)."""
    words = text.split()
    if len(words) != 1:
        return None
    word = words[0]
    if "/d/" in word:
        return word.rsplit("/d/", 1)[1].split("?")[0].strip("/")
    try:
        decode(word)
    except DeckCodeError:
        # A long word of the code's alphabet is a mistyped or cut code, not a card name (none
        # has a word half as long): read as a card list it answered "did you mean Gargoyle?".
        return word if len(word) >= CODE_LOOKING_LENGTH and _CODE_ALPHABET.fullmatch(word) else None
    return word
