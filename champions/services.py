"""Writes: create, change, fork and delete Champions; store illustrations; run print jobs.

Every input is checked completely before anything is written, and a file is only left on disk
when the database rows that point to it were committed: a refused request stores nothing.
"""

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import IO

from celery import current_app
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from cards.models import Ability
from champions import images
from champions.designs import ChampionDesign
from champions.images import NormalisedImage, normalise_image
from champions.models import (
    FLAVOUR_MAX_LENGTH,
    NAME_MAX_LENGTH,
    ZOOM_MAX,
    ZOOM_MIN,
    Champion,
    ChampionAbility,
    ChampionTranslation,
    PrintJob,
    PrintJobStatus,
    Visibility,
    new_uid,
)
from champions.pnp import CARDS_PER_PAGE, SheetOptions, build_sheets
from champions.pricing import (
    parse_abilities,
    validate_abilities,
    validate_mana,
    validate_stats,
)
from champions.selectors import ability_costs, champion_face, champion_get
from cod_site.errors import DomainError
from cod_site.i18n import LANGUAGE_CODES
from cod_site.text import check_visible

logger = logging.getLogger(__name__)

DRAFT_TTL_SECONDS = 3600
DRAFT_PREFIX = "champions:draft:"
ILLUSTRATION_DIR = "champions/illustrations"
PRINT_JOB_DIR = "champions/print-jobs"
MAX_COPIES = 90
MAX_PRINT_JOB_CARDS = 900  # 100 sheets
# The task that draws a print job, by its registered name: `champions.tasks` imports this module,
# so this one reaches the task through Celery's registry (`ChampionsConfig.ready` registers it).
RENDER_PRINT_JOB_TASK = "champions.render_print_job"


Upload = IO[bytes] | NormalisedImage


@dataclass(frozen=True)
class _Checked:
    texts: dict[str, tuple[str, str]]  # language → (name, flavour)
    abilities: list[tuple[Ability, bool]]


def _field_error(code: str, message: str, field_name: str, **details: object) -> DomainError:
    return DomainError(code, message, {"field": field_name, **details})


def _check_texts(design: ChampionDesign) -> dict[str, tuple[str, str]]:
    unknown = sorted((set(design.names) | set(design.flavours)) - set(LANGUAGE_CODES))
    if unknown:
        raise _field_error(
            "unknown_language",
            _("Unknown language %(language)r: use en, fr or sv.") % {"language": unknown[0]},
            "names",
            language=unknown[0],
        )
    names = {lang: " ".join(text.split()) for lang, text in design.names.items()}
    flavours = {lang: " ".join(text.split()) for lang, text in design.flavours.items()}
    if not names.get("en"):
        raise _field_error("name_required", _("Give the Champion an English name."), "name_en")
    texts: dict[str, tuple[str, str]] = {}
    for language in LANGUAGE_CODES:
        name, flavour = names.get(language, ""), flavours.get(language, "")
        if len(name) > NAME_MAX_LENGTH:
            raise _field_error(
                "name_too_long",
                _("A name has at most %(max)s characters.") % {"max": NAME_MAX_LENGTH},
                f"name_{language}",
            )
        check_visible(name, field=f"name_{language}")
        if len(flavour) > FLAVOUR_MAX_LENGTH:
            raise _field_error(
                "flavour_too_long",
                _("A flavour text has at most %(max)s characters.") % {"max": FLAVOUR_MAX_LENGTH},
                f"flavour_{language}",
            )
        if flavour and not name:
            # A flavour needs a name row to live in: the English name stands in.
            name = names["en"]
        if name:
            texts[language] = (name, flavour)
    return texts


def _check(design: ChampionDesign) -> _Checked:
    texts = _check_texts(design)
    validate_mana(design.mana)
    validate_stats(attack=design.attack, hp=design.hp)
    choices = parse_abilities(design.abilities)
    validate_abilities(choices, ability_costs())
    if design.visibility not in Visibility.values:
        raise _field_error(
            "invalid_visibility",
            _("Visibility is private, unlisted or public."),
            "visibility",
            value=design.visibility,
        )
    for name, value in (
        ("illustration_x", design.illustration_x),
        ("illustration_y", design.illustration_y),
    ):
        if not 0.0 <= value <= 1.0:
            raise _field_error(
                "invalid_position",
                _("The illustration position is between 0 and 1."),
                name,
                value=value,
            )
    if not ZOOM_MIN <= design.illustration_zoom <= ZOOM_MAX:
        raise _field_error(
            "invalid_zoom",
            _("The zoom is between %(low)s and %(high)s.") % {"low": ZOOM_MIN, "high": ZOOM_MAX},
            "illustration_zoom",
            value=design.illustration_zoom,
        )
    rows = {
        ability.code: ability
        for ability in Ability.objects.filter(code__in=[c.code for c in choices])
    }
    return _Checked(texts=texts, abilities=[(rows[c.code], c.aura) for c in choices])


def _normalised(illustration: Upload) -> NormalisedImage:
    if isinstance(illustration, NormalisedImage):
        return illustration
    size = getattr(illustration, "size", None)
    if size is not None:
        images.refuse_oversized(size)
    # Never read more than the limit, whatever the client claimed.
    return normalise_image(illustration.read(images.MAX_UPLOAD_BYTES + 1))


def _store_file(uid: str, image: NormalisedImage) -> str:
    name = f"{ILLUSTRATION_DIR}/{uid}-{image.sha256[:16]}.{image.extension}"
    return default_storage.save(name, ContentFile(image.content))


def _delete_file_later(name: str | None) -> None:
    if name:
        transaction.on_commit(lambda: default_storage.delete(name))


def _write_children(champion: Champion, checked: _Checked) -> None:
    champion.translations.all().delete()
    champion.abilities.all().delete()
    ChampionTranslation.objects.bulk_create(
        ChampionTranslation(champion=champion, language_code=lang, name=name, flavour=flavour)
        for lang, (name, flavour) in checked.texts.items()
    )
    ChampionAbility.objects.bulk_create(
        ChampionAbility(champion=champion, ability=ability, position=index, is_aura=aura)
        for index, (ability, aura) in enumerate(checked.abilities, start=1)
    )


def _apply_illustration(champion: Champion, image: NormalisedImage, stored_name: str) -> None:
    champion.illustration.name = stored_name
    champion.illustration_sha256 = image.sha256
    champion.illustration_width = image.width
    champion.illustration_height = image.height


def champion_create(
    *,
    owner: User,
    design: ChampionDesign,
    illustration: Upload | None = None,
    parent: Champion | None = None,
) -> Champion:
    checked = _check(design)
    image = _normalised(illustration) if illustration is not None else None
    uid = new_uid()
    stored = _store_file(uid, image) if image is not None else ""
    try:
        with transaction.atomic():
            champion = Champion(
                uid=uid,
                owner=owner,
                mana=design.mana,
                attack=design.attack,
                hp=design.hp,
                visibility=design.visibility,
                parent=parent,
                illustration_x=design.illustration_x,
                illustration_y=design.illustration_y,
                illustration_zoom=design.illustration_zoom,
            )
            if image is not None:
                _apply_illustration(champion, image, stored)
            champion.save()
            _write_children(champion, checked)
    except BaseException:
        if stored:
            default_storage.delete(stored)
        raise
    return champion


def champion_update(
    *,
    champion: Champion,
    actor: User,
    design: ChampionDesign,
    illustration: Upload | None = None,
    remove_illustration: bool = False,
) -> Champion:
    _require_editor(champion, actor)
    checked = _check(design)
    image = _normalised(illustration) if illustration is not None else None
    stored = _store_file(champion.uid, image) if image is not None else ""
    try:
        with transaction.atomic():
            locked = Champion.objects.select_for_update().get(pk=champion.pk)
            old_file = locked.illustration.name
            locked.mana, locked.attack, locked.hp = design.mana, design.attack, design.hp
            locked.visibility = design.visibility
            locked.illustration_x = design.illustration_x
            locked.illustration_y = design.illustration_y
            locked.illustration_zoom = design.illustration_zoom
            if image is not None:
                _apply_illustration(locked, image, stored)
            elif remove_illustration:
                locked.illustration.name = ""
                locked.illustration_sha256 = ""
                locked.illustration_width = locked.illustration_height = None
            locked.save()
            _write_children(locked, checked)
            if old_file and old_file != locked.illustration.name:
                _delete_file_later(old_file)
    except BaseException:
        if stored:
            default_storage.delete(stored)
        raise
    return locked


def champion_set_illustration(*, champion: Champion, actor: User, illustration: Upload) -> Champion:
    """Replace only the picture (the API's upload endpoint)."""
    _require_editor(champion, actor)
    image = _normalised(illustration)
    stored = _store_file(champion.uid, image)
    try:
        with transaction.atomic():
            locked = Champion.objects.select_for_update().get(pk=champion.pk)
            old_file = locked.illustration.name
            _apply_illustration(locked, image, stored)
            locked.save()
            if old_file and old_file != stored:
                _delete_file_later(old_file)
    except BaseException:
        default_storage.delete(stored)
        raise
    return locked


def champion_clear_illustration(*, champion: Champion, actor: User) -> Champion:
    _require_editor(champion, actor)
    with transaction.atomic():
        locked = Champion.objects.select_for_update().get(pk=champion.pk)
        _delete_file_later(locked.illustration.name)
        locked.illustration.name = ""
        locked.illustration_sha256 = ""
        locked.illustration_width = locked.illustration_height = None
        locked.save()
    return locked


def champion_delete(*, champion: Champion, actor: User) -> None:
    _require_editor(champion, actor)
    with transaction.atomic():
        locked = Champion.objects.select_for_update().get(pk=champion.pk)
        _delete_file_later(locked.illustration.name)
        locked.delete()


def champion_fork(*, champion: Champion, owner: User) -> Champion:
    """A private copy owned by `owner` that remembers where it came from."""
    design = replace(ChampionDesign.of(champion), visibility=Visibility.PRIVATE)
    image = None
    stored = champion.illustration.name
    if stored:
        with default_storage.open(stored, "rb") as handle:
            content = handle.read()
        image = NormalisedImage(
            content=content,
            extension=stored.rsplit(".", 1)[-1],
            width=champion.illustration_width or 0,
            height=champion.illustration_height or 0,
            sha256=champion.illustration_sha256,
        )
    return champion_create(owner=owner, design=design, illustration=image, parent=champion)


def _require_editor(champion: Champion, actor: User) -> None:
    if not (actor.is_authenticated and (champion.owner_id == actor.pk or actor.is_staff)):
        raise DomainError(
            "permission_denied",
            _("Only its owner can change this Champion."),
            {"uid": champion.uid},
            status_code=403,
        )


# --- Designer drafts: an uploaded picture shown in the live preview before the first save -----


def champion_draft_illustration(*, illustration: Upload) -> str:
    """Check and normalise a picture, keep it in the cache for an hour, return its token.

    Nothing is written to the database or the media folder until the Champion is saved.
    """
    image = _normalised(illustration)
    token = secrets.token_urlsafe(16)
    cache.set(f"{DRAFT_PREFIX}{token}", image, DRAFT_TTL_SECONDS)
    return token


def draft_illustration(token: str) -> NormalisedImage:
    image = cache.get(f"{DRAFT_PREFIX}{token}") if token else None
    if not isinstance(image, NormalisedImage):
        raise _field_error(
            "draft_expired",
            _("The uploaded picture is no longer available: choose it again."),
            "illustration",
        )
    return image


# --- Print jobs ------------------------------------------------------------------------------


def print_job_create(
    *,
    owner: User,
    items: Sequence[tuple[str, int]],
    options: SheetOptions,
    language: str,
) -> PrintJob:
    """Check the request now, generate the PDF in a Celery task (in-process without Redis)."""
    options.validate()
    if not items:
        raise _field_error("no_cards", _("Choose at least one Champion to print."), "items")
    # The counts first: a request for too many cards is refused before any Champion is looked up.
    for _uid, copies in items:
        check_copies(copies)
    total = sum(copies for _uid, copies in items)
    if total > MAX_PRINT_JOB_CARDS:
        raise _field_error(
            "too_many_cards",
            _("A print job holds at most %(max)s cards; %(count)s were asked.")
            % {"max": MAX_PRINT_JOB_CARDS, "count": total},
            "items",
        )
    for uid, _copies in items:
        champion_get(uid=uid, user=owner)
    job = PrintJob.objects.create(
        owner=owner,
        spec={
            "items": [{"champion": uid, "copies": copies} for uid, copies in items],
            "paper": options.paper,
            "bleed": options.bleed,
            "backs": options.backs,
            "back_offset_x_mm": options.back_offset_x_mm,
            "back_offset_y_mm": options.back_offset_y_mm,
            "language": language if language in LANGUAGE_CODES else "en",
        },
        card_count=total,
    )
    transaction.on_commit(lambda: current_app.tasks[RENDER_PRINT_JOB_TASK].delay(str(job.pk)))
    return job


def check_copies(copies: int) -> None:
    if not 1 <= copies <= MAX_COPIES:
        raise _field_error(
            "invalid_copies",
            _("Copies go from 1 to %(max)s.") % {"max": MAX_COPIES},
            "copies",
            value=copies,
        )


def print_job_run(*, job_id: str) -> PrintJob:
    """Generate the job's PDF. A refusal (a Champion deleted or hidden since) fails the job with
    its message; an unexpected error fails it too, and is raised for the task's log."""
    job = PrintJob.objects.select_related("owner").get(pk=job_id)
    if job.status == PrintJobStatus.DONE:
        return job
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJobStatus.RUNNING)
    spec = job.spec
    try:
        with override(spec["language"]):
            faces = []
            for item in spec["items"]:
                champion = champion_get(uid=item["champion"], user=job.owner)
                faces.extend([champion_face(champion, spec["language"])] * item["copies"])
            options = SheetOptions(
                paper=spec["paper"],
                bleed=spec["bleed"],
                backs=spec["backs"],
                back_offset_x_mm=spec["back_offset_x_mm"],
                back_offset_y_mm=spec["back_offset_y_mm"],
            )
            pdf = build_sheets(faces, options)
    except DomainError as error:
        return _print_job_failed(job, error.message)
    except Exception:
        _print_job_failed(job, _("The PDF could not be generated."))
        raise
    name = default_storage.save(f"{PRINT_JOB_DIR}/{job.pk}.pdf", ContentFile(pdf))
    sheets = -(-len(faces) // CARDS_PER_PAGE)
    job.file.name = name
    job.page_count = sheets * (2 if options.backs else 1)
    job.status = PrintJobStatus.DONE
    job.finished_at = timezone.now()
    job.save(update_fields=["file", "page_count", "status", "finished_at"])
    return job


def _print_job_failed(job: PrintJob, message: str) -> PrintJob:
    job.status, job.error = PrintJobStatus.FAILED, message
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error", "finished_at"])
    logger.warning("print job %s failed: %s", job.pk, message)
    return job
