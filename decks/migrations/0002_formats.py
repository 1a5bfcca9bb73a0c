"""Ship the game modes and formats of the rulebooks (seeds 001/000, and 002 for the 2021 rule).

Modes (001 "Setup"): Solo 1 player, Duel 2, Co-op 2 (+2 AI), Free-For-All 4, Team Play 2 vs 2.
Formats:
- preconstructed: one of the 4 preconstructed decks of the Initiation Pack; every mode.
- draft: 8 distinct creatures/incantations from a drafted pool; every mode (the rulebook has
  draft rules for Solo, Duel, Co-op and the 4-player modes).
- constructed: 8 distinct creatures/incantations from the whole catalogue; "For a Solo game, you
  cannot choose the Constructed format" — every mode but Solo.
- mutation: 8 distinct cards from the player's 16-card Mutation draft; "played with 4 players, in
  Duel Mode".
- constructed-2021 (Swedish Starter Kit rules, 002): 10 cards "from all available" — the Starter
  Kit's cards, i.e. the Initiation Pack (set 00) — of which the opponent removes 2, leaving 8. That
  edition had only Solo and Duel, and no Constructed in Solo: Duel only.
No format of the rulebooks bans a card; the banned list is there for the admin.
"""

from django.db import migrations

MODES = [
    # slug, players, {language: name}
    ("solo", 1, {"en": "Solo", "fr": "Solo", "sv": "Ensamvariant"}),
    ("duel", 2, {"en": "Duel", "fr": "Duel", "sv": "Duell"}),
    ("coop", 2, {"en": "Co-op", "fr": "Coopératif", "sv": "Samarbete"}),
    ("free-for-all", 4, {"en": "Free-For-All", "fr": "Chacun pour soi", "sv": "Alla-mot-alla"}),
    (
        "teams",
        4,
        {"en": "Team Play (2 vs 2)", "fr": "Par équipe (2 contre 2)", "sv": "Två-mot-två"},
    ),
]

DECKABLE = ["creature", "incantation"]

FORMATS = [
    {
        "slug": "preconstructed",
        "deck_size": 8,
        "removals": 0,
        "pool_kind": "preconstructed",
        "expansion_codes": ["00"],
        "modes": ["solo", "duel", "coop", "free-for-all", "teams"],
        "text": {
            "en": (
                "Preconstructed",
                "Beginner level. The deck is exactly one of the four preconstructed decks of the "
                "Initiation Pack.",
            ),
            "fr": (
                "Pré-construit",
                "Niveau débutant. Le Deck est exactement l'un des 4 Decks pré-construits du Pack "
                "d'initiation.",
            ),
            "sv": (
                "Förkonstruerat",
                "Nybörjarnivå. Leken är exakt en av de fyra förkonstruerade lekarna i Starter Kit.",
            ),
        },
    },
    {
        "slug": "draft",
        "deck_size": 8,
        "removals": 0,
        "pool_kind": "supplied",
        "expansion_codes": [],
        "modes": ["solo", "duel", "coop", "free-for-all", "teams"],
        "text": {
            "en": (
                "Draft",
                "Intermediate level. 8 different Creature or Incantation cards picked from a "
                "shared pile during a draft; the deck is checked against the cards of that draft.",
            ),
            "fr": (
                "Draft",
                "Niveau intermédiaire. 8 cartes Créature ou Incantation différentes choisies dans "
                "une pioche commune pendant un draft ; le Deck est vérifié avec les cartes de ce "
                "draft.",
            ),
            "sv": (
                "Drag",
                "Mellannivå. 8 olika varelse- eller Incantation-kort valda ur en gemensam draglek; "
                "leken kontrolleras mot korten i draget.",
            ),
        },
    },
    {
        "slug": "constructed",
        "deck_size": 8,
        "removals": 0,
        "pool_kind": "catalogue",
        "expansion_codes": [],
        "modes": ["duel", "coop", "free-for-all", "teams"],
        "text": {
            "en": (
                "Constructed",
                "Expert level. 8 different Creature or Incantation cards chosen among all the "
                "cards of the game. Not allowed in Solo mode.",
            ),
            "fr": (
                "Construit",
                "Niveau expert. 8 cartes Créature ou Incantation différentes choisies parmi "
                "toutes les cartes du jeu. Interdit en mode Solo.",
            ),
            "sv": (
                "Konstruerat",
                "Expertnivå. 8 olika varelse- eller Incantation-kort valda bland alla spelets "
                "kort. Inte tillåtet i ensamvarianten.",
            ),
        },
    },
    {
        "slug": "mutation",
        "deck_size": 8,
        "removals": 0,
        "pool_kind": "supplied",
        "expansion_codes": [],
        "modes": ["duel"],
        "text": {
            "en": (
                "Mutation",
                "8 different cards chosen from your 16-card Mutation draft; a session is played "
                "by 4 players in Duel mode.",
            ),
            "fr": (
                "Mutation",
                "8 cartes différentes choisies parmi les 16 cartes de votre draft Mutation ; une "
                "session se joue à 4 joueurs en mode Duel.",
            ),
            "sv": (
                "Mutation",
                "8 olika kort valda bland de 16 korten från ditt Mutation-drag; en session spelas "
                "av 4 spelare i duellvarianten.",
            ),
        },
    },
    {
        "slug": "constructed-2021",
        "deck_size": 10,
        "removals": 2,
        "pool_kind": "catalogue",
        "expansion_codes": ["00"],
        "modes": ["duel"],
        "text": {
            "en": (
                "Constructed 2021 (legacy)",
                "The Starter Kit rules of 2021: each player builds a deck of 10 different cards "
                "from the Starter Kit and the opponent removes 2 of them, leaving 8. Record the "
                "removed cards.",
            ),
            "fr": (
                "Construit 2021 (ancienne règle)",
                "Les règles du Starter Kit de 2021 : chaque joueur construit un Deck de 10 cartes "
                "différentes du Starter Kit et l'adversaire en retire 2, il en reste 8. Notez les "
                "cartes retirées.",
            ),
            "sv": (
                "Konstruerat 2021 (äldre regel)",
                "Starter Kit-reglerna från 2021: varje spelare bygger en lek med 10 olika kort ur "
                "Starter Kit och motståndaren tar bort 2 av dem så att 8 återstår. Anteckna de "
                "borttagna korten.",
            ),
        },
    },
]


def ship(apps, schema_editor):
    GameMode = apps.get_model("decks", "GameMode")
    GameModeTranslation = apps.get_model("decks", "GameModeTranslation")
    Format = apps.get_model("decks", "Format")
    FormatTranslation = apps.get_model("decks", "FormatTranslation")
    modes = {}
    for position, (slug, players, names) in enumerate(MODES, start=1):
        mode, _ = GameMode.objects.update_or_create(
            slug=slug, defaults={"players": players, "position": position}
        )
        modes[slug] = mode
        for language, name in names.items():
            GameModeTranslation.objects.update_or_create(
                mode=mode, language_code=language, defaults={"name": name}
            )
    for position, spec in enumerate(FORMATS, start=1):
        format_, _ = Format.objects.update_or_create(
            slug=spec["slug"],
            defaults={
                "deck_size": spec["deck_size"],
                "removals": spec["removals"],
                "allowed_card_types": DECKABLE,
                "pool_kind": spec["pool_kind"],
                "expansion_codes": spec["expansion_codes"],
                "position": position,
            },
        )
        format_.modes.set([modes[slug] for slug in spec["modes"]])
        for language, (name, description) in spec["text"].items():
            FormatTranslation.objects.update_or_create(
                format=format_,
                language_code=language,
                defaults={"name": name, "description": description},
            )


def unship(apps, schema_editor):
    # Refused (PROTECT) while decks use these formats: their decks would lose their rules.
    apps.get_model("decks", "Format").objects.filter(
        slug__in=[spec["slug"] for spec in FORMATS]
    ).delete()
    apps.get_model("decks", "GameMode").objects.filter(slug__in=[m[0] for m in MODES]).delete()


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_initial")]

    operations = [migrations.RunPython(ship, unship)]
