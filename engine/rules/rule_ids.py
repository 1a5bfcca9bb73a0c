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
    "champion": ("Champion module", "Module Champion"),
    "champion-setup": ("Champion setup", "Mise en place du Champion"),
    "champion-summoning": ("Summoning a Champion", "Invoquer un Champion"),
    "champion-resummoning": ("Re-summoning a Champion", "Ré-invoquer un Champion"),
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
}

RULES: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(_RULES)


def ability_rule_id(code: str) -> str:
    """The rule id of a special ability code (``price_of_blood`` -> ``ability-price-of-blood``)."""
    return "ability-" + code.replace("_", "-")


def title(rule_id: str, language: str = "en") -> str:
    """The short title of a rule in ``language`` ("en" or "fr")."""
    en, fr = RULES[rule_id]
    return fr if language == "fr" else en
