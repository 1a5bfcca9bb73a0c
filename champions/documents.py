"""Files made from reads: card faces (PNG/WebP) and Print-and-Play PDFs.

The PDFs that fit in a request (up to three sheets) are built on the spot; larger sets go
through a print job (`services.print_job_create`, a Celery task).
"""

import base64
import io
from collections.abc import Sequence

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import override

from cards.models import Ability, Card
from cards.selectors import catalogue_revision
from champions.designs import ChampionDesign
from champions.faces import CardFace, Illustration
from champions.images import NormalisedImage
from champions.models import Champion
from champions.pnp import CARDS_PER_PAGE, SheetOptions, build_sheets
from champions.pricing import parse_abilities
from champions.rendering import card_png, card_preview_png, render_card
from champions.selectors import catalogue_card_face, champion_face, face_ability
from champions.services import check_copies
from cod_site.errors import DomainError

MAX_SYNC_CARDS = 3 * CARDS_PER_PAGE
PNG_CACHE_SECONDS = 24 * 3600
# Bump when the drawing changes, so cached faces are redrawn.
RENDER_VERSION = 2
DESIGNER_PREVIEW_DPI = 220


def _png_key(champion: Champion, language: str, size: str) -> str:
    stamp = champion.updated_at.timestamp()
    revision = catalogue_revision().number  # ability names and texts come from the catalogue
    return f"champions:png:{RENDER_VERSION}:{champion.uid}:{stamp}:{revision}:{language}:{size}"


def champion_card_png(champion: Champion, language: str, *, preview: bool = False) -> bytes:
    size = "preview" if preview else "full"
    key = _png_key(champion, language, size)
    content = cache.get(key)
    if content is None:
        face = champion_face(champion, language)
        content = card_preview_png(face) if preview else card_png(face)
        cache.set(key, content, PNG_CACHE_SECONDS)
    return content


def _check_size(count: int) -> None:
    if count > MAX_SYNC_CARDS:
        raise DomainError(
            "too_many_cards",
            _(
                "%(count)s cards are too many for a direct download (at most %(max)s): "
                "create a print job instead."
            )
            % {"count": count, "max": MAX_SYNC_CARDS},
            {"field": "copies", "count": count, "max": MAX_SYNC_CARDS},
        )


def check_sheet_copies(copies: Sequence[int]) -> None:
    """Refuse the copies of a direct sheet before any Champion is looked up or drawn."""
    for one in copies:
        check_copies(one)
    _check_size(sum(copies))


def champions_pnp_pdf(
    items: Sequence[tuple[Champion, int]], options: SheetOptions, language: str
) -> bytes:
    """Several Champions, each in its number of copies, on as few sheets as they need."""
    check_sheet_copies([copies for _champion, copies in items])
    faces: list[CardFace] = []
    with override(language):
        for champion, copies in items:
            faces.extend([champion_face(champion, language)] * copies)
        return build_sheets(faces, options)


def deck_pnp_pdf(
    cards: Sequence[Card], champion: Champion | None, options: SheetOptions, language: str
) -> bytes:
    """A deck's cards drawn with our frames from the catalogue's data, then its Champion."""
    with override(language):
        faces = [catalogue_card_face(card, language) for card in cards]
        if champion is not None:
            faces.append(champion_face(champion, language))
        _check_size(len(faces))
        return build_sheets(faces, options)


def design_face(
    design: ChampionDesign, picture: NormalisedImage | Illustration | None, language: str
) -> CardFace:
    """The face of an unsaved design (the designer's live preview); the design is valid."""
    choices = parse_abilities(design.abilities)
    rows = {
        ability.code: ability
        for ability in Ability.objects.filter(code__in=[c.code for c in choices]).prefetch_related(
            "translations"
        )
    }
    name = design.names.get(language) or design.names.get("en", "")
    flavour = design.flavours.get(language) or design.flavours.get("en", "")
    with override(language):
        type_line = _("Champion")
    illustration = None
    if picture is not None:
        content, key = (
            (picture.content, picture.sha256)
            if isinstance(picture, NormalisedImage)
            else (picture.content, picture.key)
        )
        illustration = Illustration(
            content=content,
            key=key,
            x=design.illustration_x,
            y=design.illustration_y,
            zoom=design.illustration_zoom,
        )
    return CardFace(
        kind="champion",
        name=name,
        mana=design.mana,
        attack=design.attack,
        hp=design.hp,
        abilities=tuple(face_ability(rows[c.code], c.aura, language) for c in choices),
        flavour=flavour,
        type_line=type_line,
        illustration=illustration,
    )


def face_data_uri(face: CardFace) -> str:
    """A WebP data URI of the face for the live preview: small to send on every keystroke."""
    out = io.BytesIO()
    render_card(face, dpi=DESIGNER_PREVIEW_DPI).save(out, "WEBP", quality=86, method=2)
    return "data:image/webp;base64," + base64.b64encode(out.getvalue()).decode("ascii")
