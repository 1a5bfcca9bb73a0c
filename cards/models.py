"""The card catalogue: games, expansions, cards, abilities, rules reference, their translations.

Catalogue models for other apps
-------------------------------
- `Game` (`code`: "clash-of-decks"; a second game, e.g. Duel of Chaos, is just another row).
- `Expansion` (`game`, `code` "00".."14", `slug`, `season`, `card_count`, `position`);
  names in `ExpansionTranslation` (`expansion.translations`).
- `Card` (`expansion`, `collector_number` or None, `slug` unique and stable, `card_type`
  (`CardType.CREATURE`/`INCANTATION`/`STRONGHOLD`/`BRIDGE`), `mana`, `attack`, `hp` (None for
  incantations, Strongholds and Bridges), `precon_deck` 1-4 or None, `checked_against_card_image`,
  `note`, `copies` (how many of this card one product holds: 1, or 2 for Stronghold/Bridge)).
  `Card.objects.deckable()` = creatures and incantations (the 352 deckable cards).
  Names in `CardTranslation` (`card.translations`, one row per language code).
- `Ability` (`code` unique, e.g. "splash"; `is_malus`, `creature_cost`/`incantation_cost` Decimal or
  None, `can_be_aura`, `cost_source`, `rule` → `RuleEntry` or None); names and rules text in
  `AbilityTranslation`; older/alternative names in `AbilityAlias` (2020 edition names included).
- `CardAbility` (`card`, `ability`, `position` from 1 in printed order, `is_aura`: an Aura
  grants the ability to the adjacent creatures, not to the bearer): `card.card_abilities`.
- `RuleEntry` (`rule_id` unique and stable, e.g. "phase.attack", `number` "5.3", `position`);
  titles and texts in `RuleEntryTranslation`. The engine's error messages cite `rule_id`.
- `CatalogueRevision`: one row per change of the catalogue (ETag/Last-Modified of the API).

Duel of Chaos, the second game (`Game` code "duel-of-chaos"), has tables of its own: its cards
share nothing with a Clash of Decks card (no Mana, attack or HP; a clan, effects as data), and every
reader of `Card`, `Expansion`, `Ability` and `RuleEntry` in the other apps (decks, Mutation, the
engine's adapters, the API) means Clash of Decks, so the two games cannot mix:
- `ChaosSet` (`game`, `code` "DOC" the box, "EX" the site's example set, `slug`, `kind`,
  `card_count`, `position`); names in `ChaosSetTranslation`.
- `ChaosCard` (`chaos_set`, `identifier`, `slug`, `card_type` (`ChaosCardType`, blank: unknown),
  `clan` (`ChaosClan`, blank: unknown), `cost`, `deck` (Emissaries: "1", "2", "both"), `copies`,
  `play_effect`, `reaction_on`, `reaction_opponent_turn` (None: unknown), `reaction_effect` (the
  effect language of `engine.chaos.effects`, canonical text), `depth` (Interventions), `complete`,
  `note`; derived `keywords` and `search_text`); names and printed texts in `ChaosCardTranslation`.
- `ChaosKeyword` (`code`: plan, call, awakening, discard, sacrifice, cover; `clan`; `rule`);
  names in `ChaosKeywordTranslation`.
- `ChaosRuleEntry` (`rule_id` as `engine.chaos.rule_ids`, `number`, `position`); titles and texts
  in `ChaosRuleEntryTranslation`.

Reads go through `cards.selectors`: `card_lookup_by_name(name, language=None)` (accents, case and
language ignored; a slug works too), `card_suggestions(name, limit=5)` ("did you mean"),
`card_name(card, language=None)`, `translated(obj, "name", language)` (a `Translated` with
`is_fallback`), `cards_with_details(queryset)` (the prefetches to show cards) and
`card_search(query)` (the search language of `cards.search`). Writes go through `cards.services`
(`catalogue_load(data_dir=...)`, which `manage.py load_catalogue` runs). Pages: `cards:card`
(slug), `cards:ability` (code), `cards:expansion` (slug), and a rule at
`reverse("cards:rules") + "#" + rule_id`.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

LANGUAGE_CHOICES = settings.LANGUAGES


class Game(models.Model):
    code = models.SlugField(_("code"), max_length=40, unique=True)
    # A game's name is a trademark: printed the same in every language.
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        ordering = ["name"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.name


class Expansion(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="expansions")
    code = models.CharField(_("code"), max_length=10)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    season = models.PositiveSmallIntegerField(_("season"), null=True, blank=True)
    card_count = models.PositiveSmallIntegerField(_("card count"))
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["game", "position", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="expansion_unique_code_per_game")
        ]
        verbose_name = _("expansion")
        verbose_name_plural = _("expansions")

    def __str__(self) -> str:
        return f"{self.code} {self.slug}"


class ExpansionTranslation(models.Model):
    expansion = models.ForeignKey(Expansion, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["expansion", "language_code"], name="expansion_translation_unique"
            )
        ]
        verbose_name = _("expansion translation")
        verbose_name_plural = _("expansion translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class CardType(models.TextChoices):
    CREATURE = "creature", _("Creature")
    INCANTATION = "incantation", _("Incantation")
    STRONGHOLD = "stronghold", _("Stronghold")
    BRIDGE = "bridge", _("Bridge")


DECKABLE_TYPES: tuple[str, ...] = (CardType.CREATURE, CardType.INCANTATION)


class CardQuerySet(models.QuerySet["Card"]):
    def deckable(self) -> "CardQuerySet":
        return self.filter(card_type__in=DECKABLE_TYPES)


class Card(models.Model):
    expansion = models.ForeignKey(Expansion, on_delete=models.PROTECT, related_name="cards")
    collector_number = models.PositiveSmallIntegerField(
        _("collector number"), null=True, blank=True
    )
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    card_type = models.CharField(_("type"), max_length=20, choices=CardType.choices)
    mana = models.SmallIntegerField(_("mana"), null=True, blank=True)
    attack = models.SmallIntegerField(_("attack"), null=True, blank=True)
    hp = models.SmallIntegerField(_("HP"), null=True, blank=True)
    precon_deck = models.PositiveSmallIntegerField(
        _("preconstructed deck"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
    )
    checked_against_card_image = models.BooleanField(_("checked against a card image"))
    note = models.TextField(_("note"), blank=True)
    copies = models.PositiveSmallIntegerField(_("copies in the product"), default=1)
    # Every name of the card in every language, accent-stripped and casefolded, " | "-separated:
    # bare-word search is one indexed-free LIKE on a few hundred rows. Maintained by the services.
    search_text = models.TextField(editable=False, blank=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ["expansion__position", "collector_number", "slug"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(precon_deck__isnull=True)
                | models.Q(precon_deck__gte=1, precon_deck__lte=4),
                name="card_precon_deck_1_to_4",
            )
        ]
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    def __str__(self) -> str:
        return self.slug

    @property
    def is_deckable(self) -> bool:
        return self.card_type in DECKABLE_TYPES


class CardTranslation(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=120)
    rules_text = models.TextField(_("rules text"), blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["card", "language_code"], name="card_translation_unique"
            )
        ]
        verbose_name = _("card translation")
        verbose_name_plural = _("card translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class RuleEntry(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rule_entries")
    rule_id = models.CharField(_("rule id"), max_length=80, unique=True)
    number = models.CharField(_("number"), max_length=20)
    position = models.PositiveIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("rule entry")
        verbose_name_plural = _("rule entries")

    def __str__(self) -> str:
        return f"{self.number} {self.rule_id}"


class RuleEntryTranslation(models.Model):
    entry = models.ForeignKey(RuleEntry, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    title = models.CharField(_("title"), max_length=200)
    text = models.TextField(_("text"))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "language_code"], name="rule_entry_translation_unique"
            )
        ]
        verbose_name = _("rule entry translation")
        verbose_name_plural = _("rule entry translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.title}"


class CostSource(models.TextChoices):
    GENERATOR = "generator", _("community card generator")
    FITTED = "fitted", _("fitted on the season-3 cards")
    MANUAL = "manual", _("set by an editor")


class Ability(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="abilities")
    code = models.SlugField(_("code"), max_length=40, unique=True)
    is_malus = models.BooleanField(_("malus"), default=False)
    creature_cost = models.DecimalField(
        _("creature cost"), max_digits=4, decimal_places=1, null=True, blank=True
    )
    incantation_cost = models.DecimalField(
        _("incantation cost"), max_digits=4, decimal_places=1, null=True, blank=True
    )
    can_be_aura = models.BooleanField(_("can be an Aura"), default=False)
    cost_source = models.CharField(
        _("cost source"), max_length=20, choices=CostSource.choices, blank=True
    )
    note = models.TextField(_("note"), blank=True)
    rule = models.ForeignKey(
        RuleEntry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="abilities",
        verbose_name=_("rule entry"),
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = _("ability")
        verbose_name_plural = _("abilities")

    def __str__(self) -> str:
        return self.code


class AbilityTranslation(models.Model):
    ability = models.ForeignKey(Ability, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=120)
    rules_text = models.TextField(_("rules text"), blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["ability", "language_code"], name="ability_translation_unique"
            )
        ]
        verbose_name = _("ability translation")
        verbose_name_plural = _("ability translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class AbilityAlias(models.Model):
    """Another name of an ability: an older edition's, or another rulebook's."""

    ability = models.ForeignKey(Ability, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(_("name"), max_length=120)
    # Blank when the language is unknown or the name is used in several.
    language_code = models.CharField(
        _("language"), max_length=8, choices=LANGUAGE_CHOICES, blank=True
    )
    edition = models.CharField(_("edition"), max_length=40, blank=True)

    class Meta:
        ordering = ["ability", "name"]
        constraints = [
            models.UniqueConstraint(fields=["ability", "name"], name="ability_alias_unique")
        ]
        verbose_name = _("ability alias")
        verbose_name_plural = _("ability aliases")

    def __str__(self) -> str:
        return self.name


class CardAbility(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="card_abilities")
    ability = models.ForeignKey(Ability, on_delete=models.PROTECT, related_name="card_abilities")
    position = models.PositiveSmallIntegerField(_("position"))
    is_aura = models.BooleanField(_("Aura"), default=False)

    class Meta:
        ordering = ["card", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "position"], name="card_ability_unique_position"
            )
        ]
        verbose_name = _("card ability")
        verbose_name_plural = _("card abilities")

    def __str__(self) -> str:
        return f"{self.card.slug} #{self.position}: {'aura:' if self.is_aura else ''}{self.ability}"


class CatalogueRevision(models.Model):
    """A change of the catalogue; the latest one is the API's ETag and Last-Modified."""

    created_at = models.DateTimeField(auto_now_add=True)
    summary = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = _("catalogue revision")
        verbose_name_plural = _("catalogue revisions")

    def __str__(self) -> str:
        return f"#{self.pk} {self.created_at:%Y-%m-%d %H:%M}"


# ---- Duel of Chaos --------------------------------------------------------------------------


class ChaosSetKind(models.TextChoices):
    PUBLISHED = "published", _("published box")
    EXAMPLE = "example", _("example set written for this site")


class ChaosSet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="chaos_sets")
    code = models.CharField(_("code"), max_length=10)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    kind = models.CharField(_("kind"), max_length=20, choices=ChaosSetKind.choices)
    card_count = models.PositiveSmallIntegerField(_("card count"))
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="chaos_set_unique_code_per_game")
        ]
        verbose_name = _("Duel of Chaos set")
        verbose_name_plural = _("Duel of Chaos sets")

    def __str__(self) -> str:
        return f"{self.code} {self.slug}"


class ChaosSetTranslation(models.Model):
    chaos_set = models.ForeignKey(ChaosSet, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["chaos_set", "language_code"], name="chaos_set_translation_unique"
            )
        ]
        verbose_name = _("Duel of Chaos set translation")
        verbose_name_plural = _("Duel of Chaos set translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class ChaosCardType(models.TextChoices):
    EMISSARY = "emissary", _("Emissary")
    DOMAIN = "domain", _("Domain card")
    INTERVENTION = "intervention", _("Intervention")
    AID = "aid", _("Player aid")


class ChaosClan(models.TextChoices):
    # Clan names are the game's own words: printed alike in every language.
    CHAOS = "chaos", "Chaos"
    DRAKON = "drakon", "Drakon"
    EVINE = "evine", "Evine"
    NONE = "none", _("No clan")


class ChaosDeck(models.TextChoices):
    FIRST = "1", _("Emissaries 1")
    SECOND = "2", _("Emissaries 2")
    BOTH = "both", _("Emissaries 1 and 2")


class ChaosReaction(models.TextChoices):
    DISCARDED = "discarded", _("If discarded")
    SACRIFICED = "sacrificed", _("If sacrificed")


class ChaosCard(models.Model):
    chaos_set = models.ForeignKey(ChaosSet, on_delete=models.PROTECT, related_name="cards")
    # The identifier printed on the card; blank where the rulebook does not give it.
    identifier = models.CharField(_("identifier"), max_length=20, blank=True)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    # Blank values are facts the rulebook does not give (the card is then incomplete).
    card_type = models.CharField(
        _("type"), max_length=20, choices=ChaosCardType.choices, blank=True
    )
    clan = models.CharField(_("clan"), max_length=10, choices=ChaosClan.choices, blank=True)
    cost = models.SmallIntegerField(_("cost"), null=True, blank=True)
    deck = models.CharField(_("starting deck"), max_length=4, choices=ChaosDeck.choices, blank=True)
    copies = models.PositiveSmallIntegerField(_("copies"), default=1)
    play_effect = models.TextField(_("play effect"), blank=True)
    reaction_on = models.CharField(
        _("reaction condition"), max_length=12, choices=ChaosReaction.choices, blank=True
    )
    reaction_opponent_turn = models.BooleanField(
        _("reaction in the opponent's turn"), null=True, blank=True
    )
    reaction_effect = models.TextField(_("reaction effect"), blank=True)
    depth = models.PositiveSmallIntegerField(_("place in the Domain pile"), null=True, blank=True)
    complete = models.BooleanField(_("complete"), default=True)
    note = models.TextField(_("note"), blank=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    # Derived by the services: the keywords its effects use (" plan call "), and every name of
    # the card folded (" | "-separated) for bare-word search.
    keywords = models.CharField(max_length=200, editable=False, blank=True)
    search_text = models.TextField(editable=False, blank=True)

    class Meta:
        ordering = ["chaos_set__position", "position", "slug"]
        verbose_name = _("Duel of Chaos card")
        verbose_name_plural = _("Duel of Chaos cards")

    def __str__(self) -> str:
        return self.slug


class ChaosCardTranslation(models.Model):
    card = models.ForeignKey(ChaosCard, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=120)
    # The printed texts (white and black), where known.
    play_text = models.TextField(_("play text"), blank=True)
    reaction_text = models.TextField(_("reaction text"), blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["card", "language_code"], name="chaos_card_translation_unique"
            )
        ]
        verbose_name = _("Duel of Chaos card translation")
        verbose_name_plural = _("Duel of Chaos card translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"


class ChaosRuleEntry(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="chaos_rule_entries")
    rule_id = models.CharField(_("rule id"), max_length=80)
    number = models.CharField(_("number"), max_length=20)
    position = models.PositiveIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "rule_id"], name="chaos_rule_unique_id")
        ]
        verbose_name = _("Duel of Chaos rule entry")
        verbose_name_plural = _("Duel of Chaos rule entries")

    def __str__(self) -> str:
        return f"{self.number} {self.rule_id}"


class ChaosRuleEntryTranslation(models.Model):
    entry = models.ForeignKey(ChaosRuleEntry, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    title = models.CharField(_("title"), max_length=200)
    text = models.TextField(_("text"))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "language_code"], name="chaos_rule_translation_unique"
            )
        ]
        verbose_name = _("Duel of Chaos rule translation")
        verbose_name_plural = _("Duel of Chaos rule translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.title}"


class ChaosKeyword(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="chaos_keywords")
    code = models.SlugField(_("code"), max_length=40)
    # The clan whose keyword it is (PLAN: Drakon, CALL: Evine); blank for the others.
    clan = models.CharField(_("clan"), max_length=10, choices=ChaosClan.choices, blank=True)
    rule = models.ForeignKey(
        ChaosRuleEntry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="keywords",
        verbose_name=_("rule entry"),
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "code"]
        constraints = [
            models.UniqueConstraint(fields=["game", "code"], name="chaos_keyword_unique_code")
        ]
        verbose_name = _("Duel of Chaos keyword")
        verbose_name_plural = _("Duel of Chaos keywords")

    def __str__(self) -> str:
        return self.code


class ChaosKeywordTranslation(models.Model):
    keyword = models.ForeignKey(ChaosKeyword, on_delete=models.CASCADE, related_name="translations")
    language_code = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=120)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["keyword", "language_code"], name="chaos_keyword_translation_unique"
            )
        ]
        verbose_name = _("Duel of Chaos keyword translation")
        verbose_name_plural = _("Duel of Chaos keyword translations")

    def __str__(self) -> str:
        return f"{self.language_code}: {self.name}"
