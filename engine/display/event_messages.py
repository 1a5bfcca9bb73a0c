"""The rules engine's event and refusal templates and its line words, as the gettext
messages `makemessages` reads (engine.display.event_text words the events with them).

Generated from engine.rules.events by `manage.py event_messages`: do not edit.
"""

from django.utils.translation import pgettext_lazy

MESSAGES = (
    # Translators: event setup, rule setup. {player} a seat letter.
    pgettext_lazy("engine event", "Set-up: {player} plays first."),
    # Translators: event turn, rule turn-structure. {turn} a number; {player} a seat letter; {turns}
    # a number.
    pgettext_lazy("engine event", "Turn {turn}: {player} (their turn {turns})."),
    # Translators: event exhaustion, rule exhaustion. {card} a card name.
    pgettext_lazy("engine event", "Exhaustion: {card} is removed from the game."),
    # Translators: event mana, rule phase-1-mana. {player} a seat letter; {mana} a number.
    pgettext_lazy("engine event", "Phase 1: {player} has {mana} Mana."),
    # Translators: event play_line, rule creature-placement. {player} a seat letter; {card} a card
    # name; {line} a line's word (context “engine line”).
    pgettext_lazy("engine event", "{player} plays {card} on the {line} line."),
    # Translators: event play_onto, rule ability-symbiote. {player} a seat letter; {card} a card
    # name; {host} a card name.
    pgettext_lazy("engine event", "{player} plays {card} onto {host}."),
    # Translators: event cast, rule incantation. {player} a seat letter; {card} a card name;
    # {target} a card name; {owner} a seat letter.
    pgettext_lazy("engine event", "{player} casts {card} on {target} ({owner})."),
    # Translators: event assault, rule phase-3-assault. {player} a seat letter.
    pgettext_lazy("engine event", "{player} assaults."),
    # Translators: event attack_stronghold, rule phase-3-assault. {card} a card name; {player} a
    # seat letter.
    pgettext_lazy("engine event", "{card} ({player}) attacks the Stronghold."),
    # Translators: event attack, rule attacking-a-creature. {card} a card name; {player} a seat
    # letter; {target} a card name.
    pgettext_lazy("engine event", "{card} ({player}) attacks {target}."),
    # Translators: event damage, rule attacking-a-creature. {card} a card name; {player} a seat
    # letter; {amount} a number; {damage} a number; {hp} a number.
    pgettext_lazy("engine event", "{card} ({player}) takes {amount} damage ({damage}/{hp})."),
    # Translators: event destroyed, rule attacking-a-creature. {card} a card name; {player} a seat
    # letter.
    pgettext_lazy("engine event", "{card} ({player}) is destroyed."),
    # Translators: event returns_right, rule attacking-a-creature. {card} a card name; {player} a
    # seat letter.
    pgettext_lazy("engine event", "{card} returns to the right of {player}'s hand."),
    # Translators: event returns_left, rule ability-cursed. {card} a card name; {player} a seat
    # letter.
    pgettext_lazy("engine event", "{card} returns to the left of {player}'s hand."),
    # Translators: event returns_discard, rule stronghold. {card} a card name; {player} a seat
    # letter.
    pgettext_lazy("engine event", "{card} goes to {player}'s discard pile."),
    # Translators: event returns_pile, rule solo-stronghold. {card} a card name; {player} a seat
    # letter.
    pgettext_lazy("engine event", "{card} goes on top of {player}'s deck pile."),
    # Translators: event reveal, rule solo-summoning. {player} a seat letter; {card} a card name;
    # {line} a line's word (context “engine line”).
    pgettext_lazy("engine event", "{player} reveals {card} for the {line} line."),
    # Translators: event ai_discards, rule solo-summoning. {card} a card name; {player} a seat
    # letter.
    pgettext_lazy(
        "engine event",
        "{card} has no host or no target: it goes to {player}'s discard pile.",
    ),
    # Translators: event ai_counter_order, rule solo-counter-order. {target} a card name; {card} a
    # card name; {player} a seat letter.
    pgettext_lazy(
        "engine event",
        "Counter-order: {target} costs more than {card}; it is put into play and {card} goes to "
        "{player}'s discard pile.",
    ),
    # Translators: event ai_price_of_blood, rule solo-price-of-blood. {card} a card name; {amount} a
    # number.
    pgettext_lazy(
        "engine event",
        "Price of Blood: {card} costs the AI no Mana; it discards {amount} cards.",
    ),
    # Translators: event stronghold_damage, rule stronghold. {player} a seat letter; {amount} a
    # number; {hp} a number.
    pgettext_lazy("engine event", "{player}'s Stronghold takes {amount} damage ({hp} HP left)."),
    # Translators: event bastion_destroyed, rule stronghold. {player} a seat letter.
    pgettext_lazy("engine event", "{player}'s Bastion is destroyed: the Fort is up."),
    # Translators: event pile_reshuffled, rule stronghold. {player} a seat letter; {hp} a number.
    pgettext_lazy(
        "engine event",
        "{player}'s Bastion is revealed: the Fort is up and the discard pile, shuffled, is the new "
        "deck pile ({hp} cards).",
    ),
    # Translators: event regenerates, rule ability-regeneration. {player} a seat letter; {hp} a
    # number.
    pgettext_lazy("engine event", "{player}'s Stronghold regenerates ({hp} HP)."),
    # Translators: event lost_empty_hand, rule game-end. {loser} a seat letter; {winner} a seat
    # letter.
    pgettext_lazy(
        "engine event",
        "{loser} loses: only the Stronghold is left in hand. {winner} wins.",
    ),
    # Translators: event lost_fort, rule game-end. {loser} a seat letter; {winner} a seat letter.
    pgettext_lazy(
        "engine event",
        "{loser} loses: the Fort reached the rightmost position of the hand. {winner} wins.",
    ),
    # Translators: event lost_pile, rule game-end. {loser} a seat letter; {winner} a seat letter.
    pgettext_lazy(
        "engine event",
        "{loser} loses: the deck pile is empty with the Fort revealed. {winner} wins.",
    ),
    # Translators: event champion_exhausted, rule champion-resummoning. {card} a card name; {player}
    # a seat letter.
    pgettext_lazy("engine event", "{card}, {player}'s Champion, is exhausted."),
    # Translators: event champion_readied, rule champion-resummoning. {card} a card name; {player} a
    # seat letter.
    pgettext_lazy("engine event", "{card}, {player}'s Champion, is readied."),
    # Translators: event instinct, rule ability-instinct. {card} a card name.
    pgettext_lazy("engine event", "Instinct: {card} strikes back."),
    # Translators: event reinforcement, rule ability-reinforcement. {player} a seat letter.
    pgettext_lazy("engine event", "Reinforcement of {player}:"),
    # Translators: event released, rule ability-enchain. {card} a card name; {player} a seat letter.
    pgettext_lazy("engine event", "{card} is released to {player}'s hand."),
    # Translators: event enchain, rule ability-enchain. {card} a card name; {player} a seat letter.
    pgettext_lazy("engine event", "Enchain: {card} is taken from {player}'s hand."),
    # Translators: event sharpening, rule ability-sharpening. {amount} a number.
    pgettext_lazy("engine event", "Sharpening: {amount} excess damage to the Stronghold."),
    # Translators: event protection, rule ability-protection. {card} a card name; {amount} a number.
    pgettext_lazy("engine event", "{card}'s Protection absorbs {amount} damage."),
    # Translators: event price_of_blood, rule ability-price-of-blood. {amount} a number.
    pgettext_lazy(
        "engine event",
        "Price of Blood: {amount} missing Mana paid with the Stronghold.",
    ),
    # Translators: event immolation, rule ability-immolation. {card} a card name.
    pgettext_lazy("engine event", "Immolation of {card}."),
    # Translators: event backlash, rule ability-backlash. {card} a card name; {amount} a number.
    pgettext_lazy("engine event", "Backlash of {card}: {amount} damage."),
    # Translators: event counter_order, rule ability-counter-order. {card} a card name; {player} a
    # seat letter.
    pgettext_lazy("engine event", "Counter-order: {card} moves to the right of {player}'s hand."),
    # Translators: refusal game_over, rule game-end.
    pgettext_lazy("engine refusal", "The game is over."),
    # Translators: refusal ai_turn, rule solo-summoning.
    pgettext_lazy("engine refusal", "The AI plays its Phase 2 by itself."),
    # Translators: refusal assault_done, rule turn-structure.
    pgettext_lazy(
        "engine refusal",
        "The Assault was already resolved this turn; only the end of turn is left.",
    ),
    # Translators: refusal not_summoning, rule phase-2-summoning.
    pgettext_lazy("engine refusal", "Cards are played only during Phase 2: Summoning."),
    # Translators: refusal not_in_hand, rule phase-2-summoning. {card} a card name.
    pgettext_lazy("engine refusal", "{card} is not in your hand."),
    # Translators: refusal not_available, rule phase-2-available-cards. {card} a card name.
    pgettext_lazy("engine refusal", "{card} is not among the 4 leftmost cards of your hand."),
    # Translators: refusal blackmailed, rule ability-blackmail. {card} a card name.
    pgettext_lazy(
        "engine refusal",
        "Blackmail: {card} is the rightmost available card and cannot be played.",
    ),
    # Translators: refusal too_expensive, rule phase-2-mana-cost. {card} a card name; {cost} a
    # number; {mana} a number.
    pgettext_lazy("engine refusal", "{card} costs {cost} Mana and you have {mana} left."),
    # Translators: refusal creature_aimed, rule creature-placement. {card} a card name.
    pgettext_lazy(
        "engine refusal",
        "{card} is a creature: it is placed on a line, not aimed at a target.",
    ),
    # Translators: refusal no_such_line, rule creature-placement.
    pgettext_lazy("engine refusal", "A creature is placed on one of your lines: top or bottom."),
    # Translators: refusal no_target, rule incantation.
    pgettext_lazy(
        "engine refusal",
        "An Incantation targets a creature in play (never a Stronghold).",
    ),
    # Translators: refusal needs_target, rule incantation. {card} a card name.
    pgettext_lazy("engine refusal", "{card} is an Incantation: it needs a target creature."),
    # Translators: refusal stronghold_target, rule incantation.
    pgettext_lazy("engine refusal", "An Incantation can never target a Stronghold."),
    # Translators: refusal no_target_named, rule incantation. {target} a card name; {player} a seat
    # letter.
    pgettext_lazy("engine refusal", "There is no creature {target} in play on {player}'s side."),
    # Translators: refusal no_symbiote, rule ability-symbiote. {card} a card name.
    pgettext_lazy(
        "engine refusal",
        "{card} has no Symbiote: it cannot be placed on another creature.",
    ),
    # Translators: refusal bad_host, rule ability-symbiote.
    pgettext_lazy(
        "engine refusal",
        "A Symbiote goes on a creature of your Kingdom that has no Symbiote.",
    ),
    # Translators: refusal no_host_named, rule ability-symbiote. {host} a card name; {card} a card
    # name.
    pgettext_lazy(
        "engine refusal",
        "There is no creature {host} in your Kingdom to place {card} on.",
    ),
    # Translators: refusal enemy_champion, rule champion-setup. {card} a card name.
    pgettext_lazy("engine refusal", "{card} is your opponent's Champion."),
    # Translators: refusal champion_in_play, rule champion-summoning. {card} a card name.
    pgettext_lazy("engine refusal", "{card}, your Champion, is already in play."),
    # Translators: refusal champion_exhausted, rule champion-resummoning. {card} a card name;
    # {printed} a number.
    pgettext_lazy(
        "engine refusal",
        "{card} is exhausted: it cannot be summoned until a card costing exactly {printed} Mana is "
        "played.",
    ),
    # Translators: refusal champion_too_expensive, rule champion-summoning. {card} a card name;
    # {cost} a number; {printed} a number; {mana} a number.
    pgettext_lazy(
        "engine refusal",
        "{card} costs {cost} Mana ({printed} minus 1 per creature costing {printed} in play) and "
        "you have {mana} left.",
    ),
    # Translators: refusal draft_over, rule format-draft.
    pgettext_lazy("engine refusal", "The Draft is over: every player has their cards."),
    # Translators: refusal draft_not_your_pick, rule format-draft. {expected} a seat letter;
    # {player} a seat letter.
    pgettext_lazy("engine refusal", "It is {expected}'s pick, not {player}'s."),
    # Translators: refusal draft_wrong_count, rule format-draft. {count} a number; {given} a number.
    pgettext_lazy("engine refusal", "Choose {count} card(s) here, not {given}."),
    # Translators: refusal draft_not_revealed, rule format-draft. {card} a card name.
    pgettext_lazy("engine refusal", "{card} is not among the revealed cards."),
    # Translators: refusal draft_same_card, rule format-draft. {card} a card name.
    pgettext_lazy("engine refusal", "{card} is chosen twice."),
    # Translators: refusal draft_seat_done, rule format-draft. {player} a seat letter.
    pgettext_lazy("engine refusal", "{player} has taken all their cards."),
    # Translators: refusal draft_hand_not_passed, rule format-draft. {player} a seat letter;
    # {expected} a seat letter.
    pgettext_lazy(
        "engine refusal",
        "{player} waits for the hand {expected} has not passed on yet.",
    ),
    # Translators: the top line, as {line} shows it in events.
    pgettext_lazy("engine line", "top"),
    # Translators: the bottom line, as {line} shows it in events.
    pgettext_lazy("engine line", "bottom"),
)
