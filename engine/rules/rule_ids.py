"""Stable ids of the rules, with a short English and French title.

The ids are cited by illegal-action errors, by ``docs/rulings.md`` and by the scenario files; the
catalogue's rules reference publishes the same ids, so an id is never renamed once released.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_RULES: Final[dict[str, tuple[str, str]]] = {
    "setup": ("Set-up", "Mise en place"),
    "deck-construction": ("Deck: 8 different cards", "Deck : 8 cartes différentes"),
    "golden-rule": ("Golden rule: abilities prevail", "Règle d'or : les capacités prévalent"),
    "turn-structure": ("A turn in three phases", "Un tour en trois phases"),
    "phase-1-mana": ("Phase 1: Mana Regeneration", "Phase 1 : Régénération du Mana"),
    "phase-2-summoning": ("Phase 2: Summoning", "Phase 2 : Invocation"),
    "phase-2-available-cards": (
        "Only the 4 leftmost cards can be played",
        "Seules les 4 cartes les plus à gauche peuvent être jouées",
    ),
    "phase-2-mana-cost": ("Paying the Mana cost", "Payer le coût en Mana"),
    "creature-placement": ("Placing a Creature on a line", "Poser une Créature sur une ligne"),
    "incantation": ("Incantations", "Incantations"),
    "phase-3-assault": ("Phase 3: Assault", "Phase 3 : Assaut"),
    "attacking-a-creature": ("Attacking a Creature", "Attaquer une Créature"),
    "destruction-order": (
        "Several Creatures destroyed at once",
        "Plusieurs Créatures détruites en même temps",
    ),
    "end-of-turn": ("End of turn: Creatures heal", "Fin du tour : les Créatures guérissent"),
    "stronghold": ("The Stronghold: Bastion and Fort", "La Forteresse : Bastion et Fort"),
    "game-end": ("Game end", "Fin de partie"),
    "exhaustion": ("Exhaustion module", "Module Épuisement"),
    "multiplayer": (
        "Free-For-All and Team Play (4 players)",
        "Chacun pour soi et Par équipe (4 joueurs)",
    ),
    "multiplayer-mana-and-end": (
        "4-player first turns and game end",
        "Premiers tours et fin de partie à 4",
    ),
    "champion": ("Champion module", "Module Champion"),
    "champion-setup": ("Champion setup", "Mise en place du Champion"),
    "champion-summoning": ("Summoning a Champion", "Invoquer un Champion"),
    "champion-resummoning": ("Re-summoning a Champion", "Ré-invoquer un Champion"),
    "solo-rules-prevail": (
        "Solo: a Solo Mode rule prevails over the rules",
        "Solo : une règle du Mode Solo prévaut sur les règles",
    ),
    "solo-setup": ("Solo set-up and Solo Draft", "Mise en place Solo et Draft Solo"),
    "solo-custom-play": (
        "Solo: Custom Play parameters",
        "Solo : paramètres de la Partie personnalisée",
    ),
    "solo-mana": ("Solo: the AI's Mana Regeneration", "Solo : Régénération du Mana de l'IA"),
    "solo-summoning": ("Solo: the AI's Summoning", "Solo : Invocation de l'IA"),
    "solo-incantation": ("Solo: the AI's Incantations", "Solo : Incantations de l'IA"),
    "solo-discard": ("Solo: the AI's discard pile", "Solo : la défausse de l'IA"),
    "solo-stronghold": (
        "Solo: damage to the AI's deck pile, Bastion and Fort",
        "Solo : Blessures à la pioche de l'IA, Bastion et Fort",
    ),
    "solo-game-end": ("Solo: game end", "Solo : fin de partie"),
    "solo-resistance": ("Solo: the AI's resistance", "Solo : résistance de l'IA"),
    "solo-given-abilities": (
        "Solo: abilities of all the AI's Creatures",
        "Solo : capacités de toutes les Créatures de l'IA",
    ),
    "solo-champion": ("Solo: the Champion module", "Solo : le module Champion"),
    "solo-blackmail": ("Solo: Blackmail of the AI", "Solo : Chantage de l'IA"),
    "solo-counter-order": ("Solo: Counter-order of the AI", "Solo : Contre-ordre de l'IA"),
    "solo-cursed": ("Solo: Cursed of the AI", "Solo : Maudit de l'IA"),
    "solo-enchain": ("Solo: Enchain and the AI", "Solo : Enchaîner et l'IA"),
    "solo-mercenary": ("Solo: Mercenary and the AI", "Solo : Mercenaire et l'IA"),
    "solo-price-of-blood": ("Solo: Price of Blood of the AI", "Solo : Prix du sang de l'IA"),
    "solo-regeneration": ("Solo: Regeneration of the AI", "Solo : Régénération de l'IA"),
    "solo-reinforcement": ("Solo: Reinforcement of the AI", "Solo : Renfort de l'IA"),
    "solo-symbiote": ("Solo: Symbiote of the AI", "Solo : Symbiote de l'IA"),
    "solo-vulnerability": (
        "Solo: Vulnerability against the AI",
        "Solo : Vulnérabilité contre l'IA",
    ),
    "activation-order-assault": (
        "Activation order during the Assault",
        "Ordre d'activation pendant l'Assaut",
    ),
    "activation-order-summoning": (
        "Activation order during the Summoning",
        "Ordre d'activation pendant l'Invocation",
    ),
    "simultaneous-triggers": (
        "Several Creatures trigger at once",
        "Plusieurs Créatures se déclenchent en même temps",
    ),
    "ability-aura": ("Aura", "Aura"),
    "ability-aerial": ("Aerial", "Aérienne"),
    "ability-aquatic": ("Aquatic", "Aquatique"),
    "ability-backlash": ("Backlash", "Retour de flammes"),
    "ability-berserk": ("Berserk", "Berserk"),
    "ability-blackmail": ("Blackmail", "Chantage"),
    "ability-catalyst": ("Catalyst", "Catalyseur"),
    "ability-counter-order": ("Counter-order", "Contre-ordre"),
    "ability-cursed": ("Cursed", "Maudit"),
    "ability-defender": ("Defender", "Défenseur"),
    "ability-enchain": ("Enchain", "Enchaîner"),
    "ability-immolation": ("Immolation", "Immolation"),
    "ability-indestructible": ("Indestructible", "Indestructible"),
    "ability-instinct": ("Instinct", "Instinct"),
    "ability-lucidity": ("Lucidity", "Lucidité"),
    "ability-mercenary": ("Mercenary", "Mercenaire"),
    "ability-perforation": ("Perforation", "Perforation"),
    "ability-price-of-blood": ("Price of Blood", "Prix du sang"),
    "ability-protection": ("Protection", "Protection"),
    "ability-rage": ("Rage", "Rage"),
    "ability-regeneration": ("Regeneration", "Régénération"),
    "ability-reinforcement": ("Reinforcement", "Renfort"),
    "ability-sharpening": ("Sharpening", "Affûtage"),
    "ability-splash": ("Splash", "Splash"),
    "ability-sprint": ("Sprint", "Sprint"),
    "ability-symbiote": ("Symbiote", "Symbiote"),
    "ability-vanish": ("Vanish", "Dérobade"),
    "ability-vulnerability": ("Vulnerability", "Vulnérabilité"),
    # The Draft procedures (engine.rules.drafts).
    "format-draft": ("Draft format", "Format Draft"),
    "multiplayer-draft": ("4-player Draft", "Draft à 4 joueurs"),
    "coop": ("Co-op mode and its Draft", "Mode Coopératif et son Draft"),
    "mutation": ("Mutation format", "Format Mutation"),
}

RULES: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(_RULES)


def ability_rule_id(code: str) -> str:
    """The rule id of a special ability code (``price_of_blood`` -> ``ability-price-of-blood``)."""
    return "ability-" + code.replace("_", "-")


def title(rule_id: str, language: str = "en") -> str:
    """The short title of a rule in ``language`` ("en" or "fr")."""
    en, fr = RULES[rule_id]
    return fr if language == "fr" else en
