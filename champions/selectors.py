"""Reads: the ability cost table, Champions each user may see, and card faces to draw."""

import uuid

from django.contrib.auth.models import AnonymousUser, User
from django.core.files.storage import default_storage
from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import override

from cards.emblems import emblem_for, emblem_png
from cards.models import Ability, AbilityTranslation, Card, CardType
from cards.selectors import pick_translation, translated
from champions.faces import CardFace, FaceAbility, Illustration
from champions.models import Champion, ChampionAbility, PrintJob, Visibility
from champions.pricing import AbilityChoice, AbilityCost, Price, price_champion
from cod_site.errors import DomainError
from cod_site.i18n import current_language

Viewer = User | AnonymousUser


def abilities_for_champions() -> QuerySet[Ability]:
    """Abilities a creature can carry (those with a creature cost), with their translations."""
    return Ability.objects.filter(creature_cost__isnull=False).prefetch_related("translations")


def ability_costs(language: str | None = None) -> dict[str, AbilityCost]:
    """The admin-editable cost table, keyed by ability code, names in `language`."""
    return {
        ability.code: AbilityCost(
            code=ability.code,
            name=translated(ability, "name", language).text or ability.code,
            creature_cost=ability.creature_cost,
            can_be_aura=ability.can_be_aura,
            is_malus=ability.is_malus,
        )
        for ability in abilities_for_champions()
        # Always true (the query keeps these only): it tells the type checker the cost is there.
        if ability.creature_cost is not None
    }


def champions_with_details(queryset: QuerySet[Champion] | None = None) -> QuerySet[Champion]:
    queryset = Champion.objects.all() if queryset is None else queryset
    return queryset.select_related("owner", "parent").prefetch_related(
        "translations",
        Prefetch(
            "abilities",
            queryset=ChampionAbility.objects.select_related("ability").prefetch_related(
                Prefetch("ability__translations", queryset=AbilityTranslation.objects.all())
            ),
        ),
    )


# Who may see a Champion, the one rule every route applies (a deck's Champion included): its
# owner and staff always; anyone else only a public or unlisted one. `champions_visible_to` is
# the rule as a query, `champion_visible_to` the same rule for a Champion already loaded.
OPEN_VISIBILITIES = (Visibility.PUBLIC, Visibility.UNLISTED)


def champions_visible_to(user: Viewer) -> QuerySet[Champion]:
    """Everything `user` may open: public and unlisted ones (by link), and their own."""
    if user.is_authenticated and user.is_staff:
        return Champion.objects.all()
    visible = Q(visibility__in=OPEN_VISIBILITIES)
    if user.is_authenticated:
        visible |= Q(owner=user)
    return Champion.objects.filter(visible)


def champion_visible_to(champion: Champion, user: Viewer) -> bool:
    """Whether `user` may see `champion`: `champions_visible_to` without a query."""
    if user.is_authenticated and (user.is_staff or champion.owner_id == user.pk):
        return True
    return champion.visibility in OPEN_VISIBILITIES


def champions_listed_for(
    user: Viewer, *, mine: bool = False, query: str = ""
) -> QuerySet[Champion]:
    """A list: the public gallery (unlisted ones never appear), or the user's own Champions."""
    if mine:
        queryset = (
            Champion.objects.filter(owner=user)
            if user.is_authenticated
            else Champion.objects.none()
        )
    else:
        queryset = Champion.objects.filter(visibility=Visibility.PUBLIC)
    if query:
        queryset = queryset.filter(translations__name__icontains=query.strip()).distinct()
    return champions_with_details(queryset)


def champion_get(*, uid: str, user: Viewer) -> Champion:
    """A Champion `user` may see; a private one of someone else is "not found", not forbidden."""
    champion = champions_with_details(champions_visible_to(user).filter(uid=uid)).first()
    if champion is None:
        raise DomainError(
            "not_found", _("No Champion %(uid)s.") % {"uid": uid}, {"uid": uid}, status_code=404
        )
    return champion


def champion_get_for_edit(*, uid: str, user: Viewer) -> Champion:
    champion = champion_get(uid=uid, user=user)
    if not can_edit(champion, user):
        raise DomainError(
            "permission_denied",
            _("Only its owner can change this Champion."),
            {"uid": uid},
            status_code=403,
        )
    return champion


def can_edit(champion: Champion, user: Viewer) -> bool:
    return user.is_authenticated and (champion.owner_id == user.pk or user.is_staff)


def champion_name(champion: Champion, language: str | None = None) -> str:
    row, _fallback = pick_translation(champion.translations.all(), language)
    return row.name if row else champion.uid


def champion_texts(champion: Champion) -> dict[str, dict[str, str]]:
    """{"en": {"name": …, "flavour": …}, "fr": …} for the languages that have a translation."""
    return {
        row.language_code: {"name": row.name, "flavour": row.flavour}
        for row in champion.translations.all()
    }


def champion_flavour(champion: Champion, language: str | None = None) -> str:
    row, _fallback = pick_translation(champion.translations.all(), language)
    return row.flavour if row else ""


def champion_choices(champion: Champion) -> list[AbilityChoice]:
    return [
        AbilityChoice(code=row.ability.code, aura=row.is_aura) for row in champion.abilities.all()
    ]


def champion_price(champion: Champion, costs: dict[str, AbilityCost] | None = None) -> Price | None:
    """The price with today's ability costs; None if an admin edit made the design impossible
    (e.g. an ability that can no longer be an Aura): the owner sees it when editing."""
    try:
        return price_champion(
            attack=champion.attack,
            hp=champion.hp,
            abilities=champion_choices(champion),
            costs=costs if costs is not None else ability_costs(),
        )
    except DomainError:
        return None


def face_ability(ability: Ability, aura: bool, language: str) -> FaceAbility:
    name = translated(ability, "name", language).text or ability.code
    rules = translated(ability, "rules_text", language).text
    if not aura:
        return FaceAbility(code=ability.code, name=name, text=rules)
    with override(language):
        label = _("Aura: %(ability)s") % {"ability": name}
        text = _("Adjacent Creatures on the same line have %(ability)s.") % {"ability": name}
    return FaceAbility(code=ability.code, name=label, text=text, aura=True)


def champion_illustration(champion: Champion) -> Illustration | None:
    stored = champion.illustration.name
    if not stored:
        return None
    with default_storage.open(stored, "rb") as handle:
        content = handle.read()
    return Illustration(
        content=content,
        key=champion.illustration_sha256,
        x=champion.illustration_x,
        y=champion.illustration_y,
        zoom=champion.illustration_zoom,
    )


def champion_face(champion: Champion, language: str | None = None) -> CardFace:
    language = language or current_language()
    with override(language):
        type_line = _("Champion")
    return CardFace(
        kind="champion",
        name=champion_name(champion, language),
        mana=champion.mana,
        attack=champion.attack,
        hp=champion.hp,
        abilities=tuple(
            face_ability(row.ability, row.is_aura, language) for row in champion.abilities.all()
        ),
        flavour=champion_flavour(champion, language),
        type_line=type_line,
        illustration=champion_illustration(champion),
    )


def catalogue_card_face(card: Card, language: str | None = None) -> CardFace:
    """A catalogue card drawn with our frame (no official art); needs `card_prefetches()`."""
    language = language or current_language()
    with override(language):
        kind_label = str(CardType(card.card_type).label)
    expansion = translated(card.expansion, "name", language).text
    return CardFace(
        kind=card.card_type,
        name=translated(card, "name", language).text or card.slug,
        mana=card.mana or 0,
        attack=card.attack,
        hp=card.hp,
        abilities=tuple(
            face_ability(row.ability, row.is_aura, language) for row in card.card_abilities.all()
        ),
        type_line=f"{kind_label} · {expansion}" if expansion else kind_label,
        illustration=_emblem_picture(card),
    )


def _emblem_picture(card: Card) -> Illustration:
    """The card's generated emblem, the picture its page shows, as the face's illustration."""
    emblem = emblem_for(card)
    return Illustration(content=emblem_png(emblem), key=f"emblem:{emblem.key}")


def print_job_get(*, job_id: str, user: Viewer) -> PrintJob:
    job = PrintJob.objects.filter(pk=job_id).first() if _is_uuid(job_id) else None
    if job is None or not (user.is_authenticated and (job.owner_id == user.pk or user.is_staff)):
        raise DomainError(
            "not_found",
            _("No print job %(id)s.") % {"id": job_id},
            {"id": job_id},
            status_code=404,
        )
    return job


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True
