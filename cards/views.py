"""Catalogue pages: card browser (htmx), card, expansion and ability pages, rules reference; the
Duel of Chaos card browser, card pages and rules reference."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.chaos_search import CHAOS
from cards.chaos_selectors import (
    chaos_card_get,
    chaos_card_search,
    chaos_cards_with_details,
    chaos_keywords,
    chaos_rules,
    chaos_sets,
    chaos_translated,
)
from cards.emblems import emblem_for, emblem_svg
from cards.models import (
    Ability,
    Card,
    CardType,
    ChaosCard,
    ChaosCardType,
    ChaosClan,
    ChaosKeyword,
    ChaosRuleEntry,
    Expansion,
    RuleEntry,
)
from cards.page_cache import PagePart, cached_part, render_part
from cards.search import QueryError, parse
from cards.selectors import (
    Translated,
    abilities_with_counts,
    ability_get,
    card_prefetches,
    card_search,
    cards_with_details,
    expansion_get,
    expansions_with_counts,
    pick_translation,
    rule_entries,
    translated,
)
from cod_site.i18n import current_language

PAGE_SIZE = 24
SORT_CHOICES = [
    ("name", gettext_lazy("Name")),
    ("cost", gettext_lazy("Mana cost")),
    ("atk", gettext_lazy("Attack")),
    ("hp", gettext_lazy("HP")),
    ("set", gettext_lazy("Expansion")),
]
EXAMPLES = [
    ("grrr", gettext_lazy("names in any language, accents and case ignored")),
    ('"dragon emeraude"', gettext_lazy("an exact phrase")),
    ("cost<=3 atk>=4", gettext_lazy("numbers: cost, atk, hp with : = != < <= > >=")),
    ("type:incantation", gettext_lazy("creature or incantation")),
    ("set:submersion", gettext_lazy("an expansion by code, slug or name")),
    ("ab:splash", gettext_lazy("an ability by code or any of its names (ab:bondir = Sprint)")),
    ("aura:rage", gettext_lazy("the ability an Aura grants")),
    ("malus:yes", gettext_lazy("cards with a malus")),
    ("deck:2", gettext_lazy("a preconstructed deck (1 to 4)")),
    ("checked:no", gettext_lazy("values not yet checked against a card image")),
    ("-ab:rage set:00", gettext_lazy("'-' excludes a term")),
    ("(ab:splash or ab:perforation) cost<4", gettext_lazy("'or' and parentheses")),
    ("order:cost dir:desc", gettext_lazy("sorting: name, cost, atk, hp, set")),
]


@dataclass(frozen=True)
class AbilityLine:
    code: str
    name: Translated
    is_aura: bool
    is_malus: bool
    rules_text: Translated
    rule_id: str | None


@dataclass(frozen=True)
class CardFace:
    card: Card
    name: Translated
    type_label: str
    expansion_name: Translated
    abilities: list[AbilityLine]

    @property
    def attack_label(self) -> str:
        """Vulnerability cards print their attack as "X" (the data stores 0)."""
        attack = self.card.attack
        if attack is None:
            return ""
        if attack == 0 and any(line.code == "vulnerability" for line in self.abilities):
            return "X"
        return str(attack)

    @property
    def emblem(self) -> str:
        """The card's generated picture, an inline SVG (no official art is shipped)."""
        return mark_safe(emblem_svg(emblem_for(self.card)))


def card_face(card: Card, language: str) -> CardFace:
    """What a rendered card shows, from a card loaded with `cards_with_details`."""
    lines = []
    for link in card.card_abilities.all():
        row, is_fallback = pick_translation(link.ability.translations.all(), language)
        name = Translated(row.name if row else link.ability.code, language, is_fallback)
        text = Translated(row.rules_text if row else "", language, is_fallback)
        rule = link.ability.rule
        lines.append(
            AbilityLine(
                link.ability.code,
                name,
                link.is_aura,
                link.ability.is_malus,
                text,
                rule.rule_id if rule else None,
            )
        )
    return CardFace(
        card=card,
        name=translated(card, "name", language),
        type_label=str(CardType(card.card_type).label),
        expansion_name=translated(card.expansion, "name", language),
        abilities=lines,
    )


@dataclass(frozen=True)
class Chip:
    label: str
    term: str
    active: bool
    url: str


def _toggle(query: str, term: str) -> str:
    words = query.split()
    if term in words:
        return " ".join(word for word in words if word != term)
    return " ".join([*words, term])


def _chips(path: str, query: str, sort: str) -> list[tuple[str, list[Chip]]]:
    """Filters as clickable chips: each one toggles its term in the query."""
    language = current_language()
    words = query.split()

    def chip(label: str, term: str) -> Chip:
        params = {"q": _toggle(query, term)}
        if sort:
            params["sort"] = sort
        return Chip(label, term, term in words, f"{path}?{urlencode(params)}")

    expansions = Expansion.objects.prefetch_related("translations")
    return [
        (
            _("Type"),
            [
                chip(str(CardType.CREATURE.label), "type:creature"),
                chip(str(CardType.INCANTATION.label), "type:incantation"),
            ],
        ),
        (
            _("Expansion"),
            [
                chip(f"{exp.code} {translated(exp, 'name', language).text}", f"set:{exp.code}")
                for exp in expansions
            ],
        ),
        (
            _("Preconstructed deck"),
            [chip(_("Deck %(number)s") % {"number": n}, f"deck:{n}") for n in range(1, 5)],
        ),
        (
            _("Data"),
            [chip(_("With a malus"), "malus:yes"), chip(_("Values unchecked"), "checked:no")],
        ),
    ]


def card_browser(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:2000]
    sort = request.GET.get("sort", "")
    page_number = request.GET.get("page", "")
    htmx = bool(request.headers.get("HX-Request"))
    # A chip or a page link changed the query: show it in the search box, but never
    # rewrite the box while the user is typing in it.
    refresh_query = request.headers.get("HX-Trigger") != "card-search"
    part = cached_part(
        "browser",
        (request.path, query, sort, page_number, htmx, refresh_query),
        lambda: _browser_part(request.path, query, sort, page_number, htmx, refresh_query),
    )
    if htmx:
        # htmx swaps only 2xx answers; the error is part of the results area.
        return HttpResponse(part.safe_html)
    return render(request, "cards/browser.html", {"part": part}, status=part.status)


def _browser_part(
    path: str, query: str, sort: str, page_number: str, htmx: bool, refresh_query: bool
) -> PagePart:
    language = current_language()
    full_query = query
    if sort and "order:" not in query:
        order, _sep, direction = sort.partition("-")
        full_query = f"{query} order:{order}" + (" dir:desc" if direction == "desc" else "")
    error: QueryError | None = None
    faces: list[CardFace] = []
    page = None
    try:
        cards = card_search(parse(full_query), language=language)
        paginator = Paginator(cards.select_related("expansion"), PAGE_SIZE)
        page = paginator.get_page(page_number or None)
        rows = list(page.object_list)
        prefetch_related_objects(rows, *card_prefetches())
        faces = [card_face(card, language) for card in rows]
    except QueryError as exc:
        error = exc
    base_params = {"q": query, **({"sort": sort} if sort else {})}
    context = {
        "query": query,
        "sort": sort,
        "sort_choices": [
            (f"{key}{suffix}", f"{label}{arrow}")
            for key, label in SORT_CHOICES
            for suffix, arrow in (("", " ↑"), ("-desc", " ↓"))
        ],
        "error": error,
        "faces": faces,
        "page": page,
        "page_query": urlencode(base_params),
        "chips": _chips(path, query, sort),
        "examples": EXAMPLES,
        "refresh_query": refresh_query,
    }
    template = "cards/_partial.html" if htmx else "cards/_browser.html"
    return render_part(template, context, status=400 if error else 200)


def _deck_builder_url(card: Card) -> str | None:
    """The deckbuilder opened on a one-card deck, when the decks app is installed: the catalogue
    only links to it by URL, so it imports nothing from the decks app."""
    try:
        builder = reverse("decks:new")
    except NoReverseMatch:
        return None
    return f"{builder}?{urlencode({'card': card.slug})}"


def _insight_url(slug: str) -> str | None:
    """The test games' figures of the card, a part the engine app serves (the catalogue links to
    it by URL only, and leaves it out of its cached part: they change with every batch)."""
    try:
        return reverse("engine:card_insight", args=[slug])
    except NoReverseMatch:
        return None


def card_detail(request: HttpRequest, slug: str) -> HttpResponse:
    part = cached_part("card", (slug,), lambda: _card_part(slug))
    return render(
        request, "cards/card_detail.html", {"part": part, "insight_url": _insight_url(slug)}
    )


def _card_part(slug: str) -> PagePart:
    language = current_language()
    try:
        card = cards_with_details(Card.objects.filter(slug=slug)).get()
    except Card.DoesNotExist:
        raise Http404(slug) from None
    deck_mates: list[CardFace] = []
    if card.precon_deck:
        mates = cards_with_details(
            Card.objects.filter(expansion=card.expansion, precon_deck=card.precon_deck).exclude(
                pk=card.pk
            )
        ).order_by("mana", "slug")
        deck_mates = [card_face(mate, language) for mate in mates]
    other_names = [
        (row.language_code, row.name)
        for row in card.translations.all()
        if row.language_code != language
    ]
    face = card_face(card, language)
    context = {
        "face": face,
        "deck_mates": deck_mates,
        "other_names": other_names,
        "deck_builder_url": _deck_builder_url(card) if card.is_deckable else None,
    }
    return render_part("cards/_card_detail.html", context, title=face.name.text)


# How long a browser keeps a card's face of a table (card_peek): a table shows the same cards
# again and again, and a catalogue edit may wait this long to show there.
PEEK_SECONDS = 600


def card_peek(request: HttpRequest, slug: str) -> HttpResponse:
    """A card's face with its rules text, alone: what a table shows on hover, focus or a long
    press over a card it draws small (issue 29). Fetched on demand rather than written into
    each board, which the table sends again after every action with the same cards on it: one
    request per distinct card, kept by the browser and by the catalogue's page cache."""
    part = cached_part("card-peek", (slug,), lambda: _card_peek_part(slug))
    response = HttpResponse(part.safe_html)
    patch_cache_control(response, public=True, max_age=PEEK_SECONDS)
    # An address without a language prefix opens in the reader's language (KeptLanguageMiddleware).
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _card_peek_part(slug: str) -> PagePart:
    try:
        card = cards_with_details(Card.objects.filter(slug=slug)).get()
    except Card.DoesNotExist:
        raise Http404(slug) from None
    return render_part("cards/_card_peek.html", {"face": card_face(card, current_language())})


def expansion_list(request: HttpRequest) -> HttpResponse:
    language = current_language()
    rows = [(exp, translated(exp, "name", language)) for exp in expansions_with_counts()]
    return render(request, "cards/expansion_list.html", {"rows": rows})


def expansion_detail(request: HttpRequest, slug: str) -> HttpResponse:
    language = current_language()
    try:
        expansion = expansion_get(slug=slug)
    except Expansion.DoesNotExist:
        raise Http404(slug) from None
    cards = cards_with_details(Card.objects.filter(expansion=expansion)).order_by(
        "collector_number", "mana", "slug"
    )
    faces = [card_face(card, language) for card in cards if card.is_deckable]
    product_cards = [card_face(card, language) for card in cards if not card.is_deckable]
    return render(
        request,
        "cards/expansion_detail.html",
        {
            "expansion": expansion,
            "name": translated(expansion, "name", language),
            "faces": faces,
            "product_cards": product_cards,
            "search_url": f"{reverse('cards:browser')}?{urlencode({'q': f'set:{expansion.code}'})}",
        },
    )


def ability_list(request: HttpRequest) -> HttpResponse:
    language = current_language()
    rows = sorted(
        ((ability, translated(ability, "name", language)) for ability in abilities_with_counts()),
        key=lambda row: row[1].text.casefold(),
    )
    return render(request, "cards/ability_list.html", {"rows": rows})


def ability_detail(request: HttpRequest, code: str) -> HttpResponse:
    language = current_language()
    try:
        ability = ability_get(code=code)
    except Ability.DoesNotExist:
        raise Http404(code) from None
    cards = cards_with_details(Card.objects.filter(card_abilities__ability=ability).distinct())
    bearers, auras = [], []
    for card in cards.order_by("expansion__position", "mana", "slug"):
        face = card_face(card, language)
        links = [link for link in card.card_abilities.all() if link.ability_id == ability.pk]
        if any(not link.is_aura for link in links):
            bearers.append(face)
        if any(link.is_aura for link in links):
            auras.append(face)
    return render(
        request,
        "cards/ability_detail.html",
        {
            "ability": ability,
            "name": translated(ability, "name", language),
            "rules_text": translated(ability, "rules_text", language),
            "other_names": [
                (row.language_code, row.name)
                for row in ability.translations.all()
                if row.language_code != language
            ],
            "aliases": [alias.name for alias in ability.aliases.all()],
            "bearers": bearers,
            "auras": auras,
            "search_url": f"{reverse('cards:browser')}?{urlencode({'q': f'ab:{ability.code}'})}",
        },
    )


@dataclass(frozen=True)
class RuleView:
    entry: RuleEntry
    title: Translated
    paragraphs: list[str]
    depth: int
    ability_code: str | None


def rules_reference(request: HttpRequest) -> HttpResponse:
    language = current_language()
    rules = []
    for entry in rule_entries():
        text = translated(entry, "text", language)
        abilities = list(entry.abilities.all())
        rules.append(
            RuleView(
                entry=entry,
                title=translated(entry, "title", language),
                paragraphs=[line for line in text.text.splitlines() if line.strip()],
                depth=min(entry.number.count("."), 2),
                ability_code=abilities[0].code if abilities else None,
            )
        )
    return render(request, "cards/rules.html", {"rules": rules})


# ---- Duel of Chaos ----------------------------------------------------------------------------

CHAOS_EXAMPLES = [
    ("domania", gettext_lazy("names in any language, accents and case ignored")),
    ("cost<=2", gettext_lazy("the cost, with : = != < <= > >=")),
    ("type:domain", gettext_lazy("emissary, domain, intervention or aid")),
    ("clan:drakon", gettext_lazy("chaos, drakon, evine or none")),
    ("kw:plan", gettext_lazy("a keyword its effects use (kw:appel = CALL)")),
    ("react:opponent", gettext_lazy("a reaction: discarded, sacrificed, or opponent")),
    ("set:EX", gettext_lazy("a set by code, slug or name")),
    ("complete:no", gettext_lazy("cards the rulebook names without printing them")),
    ("order:cost dir:desc", gettext_lazy("sorting: name, cost, set")),
]


@dataclass(frozen=True)
class ChaosKeywordLine:
    code: str
    name: Translated
    rule_id: str | None


@dataclass(frozen=True)
class ChaosCardFace:
    card: ChaosCard
    name: Translated
    type_label: str
    clan_label: str
    set_name: Translated
    play_text: Translated
    reaction_text: Translated
    keywords: list[ChaosKeywordLine]


def chaos_card_face(
    card: ChaosCard, language: str, keywords: dict[str, ChaosKeyword]
) -> ChaosCardFace:
    """What a rendered Duel of Chaos card shows (blank facts are unknown, not zero)."""
    lines = []
    for code in card.keywords.split():
        keyword = keywords.get(code)
        if keyword is not None:
            rule = keyword.rule
            name = chaos_translated(keyword, "name", language)
            lines.append(ChaosKeywordLine(code, name, rule.rule_id if rule else None))
    return ChaosCardFace(
        card=card,
        name=chaos_translated(card, "name", language),
        type_label=str(ChaosCardType(card.card_type).label) if card.card_type else "",
        clan_label=str(ChaosClan(card.clan).label) if card.clan else "",
        set_name=chaos_translated(card.chaos_set, "name", language),
        play_text=chaos_translated(card, "play_text", language),
        reaction_text=chaos_translated(card, "reaction_text", language),
        keywords=lines,
    )


def _keywords_by_code() -> dict[str, ChaosKeyword]:
    return {keyword.code: keyword for keyword in chaos_keywords()}


def chaos_card_browser(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:2000]
    page_number = request.GET.get("page", "")
    part = cached_part(
        "chaos_browser", (query, page_number), lambda: _chaos_browser_part(query, page_number)
    )
    return render(request, "cards/chaos/browser.html", {"part": part}, status=part.status)


def _chaos_browser_part(query: str, page_number: str) -> PagePart:
    language = current_language()
    error: QueryError | None = None
    faces: list[ChaosCardFace] = []
    page = None
    try:
        cards = chaos_card_search(parse(query, CHAOS), language=language)
        page = Paginator(chaos_cards_with_details(cards), PAGE_SIZE).get_page(page_number or None)
        keywords = _keywords_by_code()
        faces = [chaos_card_face(card, language, keywords) for card in page.object_list]
    except QueryError as exc:
        error = exc
    context = {
        "query": query,
        "error": error,
        "faces": faces,
        "page": page,
        "page_query": urlencode({"q": query}),
        "examples": CHAOS_EXAMPLES,
        "sets": [(s, chaos_translated(s, "name", language)) for s in chaos_sets()],
    }
    return render_part("cards/chaos/_browser.html", context, status=400 if error else 200)


def chaos_card_detail(request: HttpRequest, slug: str) -> HttpResponse:
    part = cached_part("chaos_card", (slug,), lambda: _chaos_card_part(slug))
    return render(request, "cards/chaos/card_detail.html", {"part": part})


def _chaos_card_part(slug: str) -> PagePart:
    language = current_language()
    try:
        card = chaos_card_get(slug=slug)
    except ChaosCard.DoesNotExist:
        raise Http404(slug) from None
    face = chaos_card_face(card, language, _keywords_by_code())
    other_names = [
        (row.language_code, row.name)
        for row in card.translations.all()
        if row.language_code != face.name.language
    ]
    context = {"face": face, "other_names": other_names}
    return render_part("cards/chaos/_card_detail.html", context, title=face.name.text)


@dataclass(frozen=True)
class ChaosRuleView:
    entry: ChaosRuleEntry
    title: Translated
    paragraphs: list[str]
    depth: int
    keyword_code: str | None


def chaos_rules_reference(request: HttpRequest) -> HttpResponse:
    language = current_language()
    rules = []
    for entry in chaos_rules():
        text = chaos_translated(entry, "text", language)
        keywords = list(entry.keywords.all())
        rules.append(
            ChaosRuleView(
                entry=entry,
                title=chaos_translated(entry, "title", language),
                paragraphs=[line for line in text.text.splitlines() if line.strip()],
                depth=min(entry.number.count("."), 2),
                keyword_code=keywords[0].code if keywords else None,
            )
        )
    return render(request, "cards/chaos/rules.html", {"rules": rules})
