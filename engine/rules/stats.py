"""Per-game statistics, collected while the game is played (``Options(stats=True)``).

Off by default: ``state.stats`` is then None and the rules pay one ``is None`` test at each place
below. Like the event log it is a record of the game, not part of the position: two games that
differ only by it are equal, and ``state.copy()`` copies it only when it is on.

Counts are flat lists indexed by card id, so each copy of a card (the same card in both decks of a
mirror match) has its own row; ``setup.origin[card]`` is the deck the card was built into.

What counts (the reading ``engine.simulation`` reports):

- **played**: how many times the card left a hand (or, a Champion, the place outside the
  Kingdoms) to be played: Phase 2 plays, Symbiotes, Incantations, Reinforcement's free plays. A card
  whose payment ended the game first (Price of Blood) was not played.
- **first turn played**: the number of the turn of the player who played it (their 1st, 2nd...
  turn, not the game's turn counter) when it was first played; 0 while it never was. The
  simulations' "played early / late" reads it.
- **damage dealt**: the damage a card's damage instances actually marked on a creature (after
  Protection and Indestructible, and not capped at the hit points it had left) or took off a
  Stronghold (the amount of the instance, even past the last hit point), counted only when the
  creature or Stronghold is another player's than the one controlling the card: an Incantation
  splashing one's own creature, Sharpening on one's own Stronghold or Price of Blood deal nothing.
  The card is the source of the damage instance: the attacker (a Symbiote stack: its bottom card)
  for its attack, its Splash/Perforation and Sharpening; the card being played for an Incantation
  or a Backlash; the Immolation bearer (its bottom card) for the 1 damage a player suffers playing
  on its line. A card played by the other player (Mercenary) still counts for its own card id.
"""

from __future__ import annotations


class GameStats:
    """Counters of one game, indexed by card id."""

    __slots__ = ("creature_damage", "first_turn", "played", "stronghold_damage")

    def __init__(self, cards: int) -> None:
        self.played = [0] * cards
        self.first_turn = [0] * cards
        self.creature_damage = [0] * cards
        self.stronghold_damage = [0] * cards

    def damage(self, card: int) -> int:
        """All the damage ``card`` dealt: to creatures and to Strongholds."""
        return self.creature_damage[card] + self.stronghold_damage[card]

    def copy(self) -> GameStats:
        stats = GameStats(0)
        stats.played = self.played[:]
        stats.first_turn = self.first_turn[:]
        stats.creature_damage = self.creature_damage[:]
        stats.stronghold_damage = self.stronghold_damage[:]
        return stats
