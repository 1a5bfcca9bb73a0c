"""Stable ids of the Duel of Chaos rules, with a short English and French title.

The ids are cited by the refusals and events (``events``), by ``docs/chaos/rulings.md`` and by the
scenario files (their ``rules`` key); the catalogue's Duel of Chaos rules reference
(``data/chaos/rules_reference.yaml``) publishes an entry under each of them, so an id is never
renamed once released. Keyword rules start with ``keyword-``. ``site-turn-limit`` is a rule of this
site, not of the rulebook (a game must end for the computer players and the test batches).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_RULES: Final[dict[str, tuple[str, str]]] = {
    "golden-rule": ("A card's effect prevails over the rules", "L'effet d'une carte prévaut"),
    "setup-domain": ("Set-up: the Domain", "Mise en place : le Domaine"),
    "domain-refill": ("An empty Domain slot is refilled at once", "Compléter le Domaine"),
    "intervention-reveal": (
        "An Intervention at the top of the pile goes beside the Domain",
        "Une Intervention au sommet de la pile est placée près du Domaine",
    ),
    "intervention-effects": (
        "Interventions: effects usable in your turn",
        "Effets des Interventions",
    ),
    "setup-players": (
        "Set-up: Emissary decks, 5 cards, player 1 begins",
        "Mise en place des joueurs",
    ),
    "turn-structure": ("A turn in four phases", "Un tour en quatre phases"),
    "combo": ("Phase 1: Combo, play every card of the hand", "Phase 1 : Combo"),
    "play-effect": ("Play effects: optional, resolved as fully as possible", "Effet de jeu"),
    "reaction": ("Reaction effects and their conditions", "Effet de réaction"),
    "reaction-opponent-turn": (
        "A reaction in the opponent's turn interrupts it",
        "Une réaction pendant le tour adverse l'interrompt",
    ),
    "simultaneous-effects": (
        "Simultaneous effects: the player chooses the order",
        "Effets simultanés : le joueur choisit l'ordre",
    ),
    "verification": ("Phase 2: Verification, an empty deck wins", "Phase 2 : Vérification"),
    "recruitment": ("Phase 3: Recruitment", "Phase 3 : Recrutement"),
    "end-of-turn": ("Phase 4: End of turn", "Phase 4 : Fin de tour"),
    "hidden-information": (
        "Hands are secret, decks counted not seen, discards and the Void public",
        "Mains secrètes, pioches comptées, défausses et Néant publics",
    ),
    "keyword-plan": ("PLAN X", "PLAN X"),
    "keyword-call": ("CALL X", "APPEL X"),
    "keyword-awakening": ("Awakening", "Éveil"),
    "keyword-discard": ("Discard", "Défausser"),
    "keyword-sacrifice": ("Sacrifice", "Sacrifier"),
    "keyword-cover": ("Cover", "Recouvrir"),
    "prologue": ("The Prologue: empty your deck in one turn", "Le Prologue"),
    "site-turn-limit": ("Site rule: the turn limit", "Règle du site : la limite de tours"),
}

RULES: Final[MappingProxyType[str, tuple[str, str]]] = MappingProxyType(_RULES)

# The rules every keyword of the effect language belongs to (engine.chaos.effects).
KEYWORD_RULES: Final = (
    "keyword-plan",
    "keyword-call",
    "keyword-awakening",
    "keyword-discard",
    "keyword-sacrifice",
    "keyword-cover",
)


def title(rule_id: str, language: str = "en") -> str:
    """The short title of a rule in ``language`` ("en" or "fr")."""
    en, fr = RULES[rule_id]
    return fr if language == "fr" else en
