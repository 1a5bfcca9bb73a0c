"""Actions: every choice of the active player, legal-action generation and ``apply``.

An action is a plain ``(kind, card, arg)`` tuple of ints: hashable, cheap to build in the hot
path, and serialisable. ``card`` and ``arg`` are card ids (a creature in play is named by the card
id of its bottom card); ``arg`` is a lane for :data:`PLAY`. For replays, scenarios and the web UI,
:func:`to_json` / :func:`from_json` give the readable form of the scenario format
(``{"play": "Baron", "line": "top"}``).
"""

from __future__ import annotations

from typing import Any, Final

from engine.rules.abilities.costs import WINDOW, available_count, card_cost
from engine.rules.abilities.on_play import PLACEMENT
from engine.rules.abilities.registry import PRICE_OF_BLOOD, SYMBIOTE
from engine.rules.assault import assault
from engine.rules.champion import summon_cost, summonable
from engine.rules.errors import GameOver, IllegalAction, InputError
from engine.rules.kingdom import hand_of
from engine.rules.modes import HAND
from engine.rules.state import (
    ASSAULT_DONE,
    NO_CARD,
    OVER,
    PLAYER_NAMES,
    SUMMONING,
    Creature,
    GameState,
)
from engine.rules.summoning import CHAMPION_INDEX, play_card
from engine.rules.turn import end_turn

Action = tuple[int, int, int]

ASSAULT: Final = 0
END_TURN: Final = 1
PLAY: Final = 2  # a creature on lane ``arg``
PLAY_ONTO: Final = 3  # a Symbiote on top of creature ``arg``
CAST: Final = 4  # an Incantation on creature ``arg``
KINDS: Final = (ASSAULT, END_TURN, PLAY, PLAY_ONTO, CAST)

ASSAULT_ACTION: Final[Action] = (ASSAULT, -1, -1)
END_TURN_ACTION: Final[Action] = (END_TURN, -1, -1)


def playable_cards(state: GameState) -> list[int]:
    """Hand indexes of the cards the active player may play now: among the available cards
    (4 leftmost, Blackmail) and affordable (Lucidity, or Price of Blood whatever the Mana)."""
    if state.phase != SUMMONING:
        return []
    player = state.active
    kingdom = hand_of(state, player)
    hand = kingdom.hand
    mana = kingdom.mana
    playable = []
    for index in range(available_count(state, player)):
        card = hand[index]
        if _affordable(state, card, card_cost(state, player, index, card), mana):
            playable.append(index)
    return playable


def _affordable(state: GameState, card: int, cost: int, mana: int) -> bool:
    """Whether ``card`` costing ``cost`` can be paid with ``mana`` (rule phase-2-mana-cost), or
    whatever the Mana with Price of Blood, which is paid in hit points (ruling R8): the one
    statement of both rules for the legal actions and for the checks of ``apply``."""
    return cost <= mana or state.setup.mask[card] & PRICE_OF_BLOOD != 0


def symbiote_hosts(state: GameState, player: int) -> list[Creature]:
    """The creatures a Symbiote of ``player`` may be placed on (the placement hook)."""
    hosts: list[Creature] = PLACEMENT.of(state.setup.controllers[player])(state, player)
    return hosts


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action of the active player, ``ASSAULT_ACTION`` first in Phase 2."""
    if state.phase != SUMMONING:
        return [END_TURN_ACTION] if state.phase == ASSAULT_DONE else []
    setup = state.setup
    if setup.controllers[state.active] != HAND:
        # The Solo AI's Phase 2 is over (a scenario stops there): its Phase 3 is next.
        return [ASSAULT_ACTION]
    hand = hand_of(state, state.active).hand
    creature_card = setup.creature
    actions: list[Action] = [ASSAULT_ACTION]
    append = actions.append
    targets: list[int] | None = None
    for index in playable_cards(state):
        card = hand[index]
        if creature_card[card]:
            for lane in setup.lane_ids:
                append((PLAY, card, lane))
            if setup.mask[card] & SYMBIOTE:
                for host in symbiote_hosts(state, state.active):
                    append((PLAY_ONTO, card, host.card))
        else:
            if targets is None:
                targets = []
                for p in state.players:
                    for line in p.lines:
                        for creature in line:
                            targets.append(creature.card)
            for target in targets:
                append((CAST, card, target))
    if setup.any_champion:
        card = summonable_champion(state)
        if card >= 0:
            for lane in setup.lane_ids:
                append((PLAY, card, lane))
            if setup.mask[card] & SYMBIOTE:
                for host in symbiote_hosts(state, state.active):
                    append((PLAY_ONTO, card, host.card))
    return actions


def summonable_champion(state: GameState) -> int:
    """The card id of the active player's Champion if it can be summoned now: outside the
    Kingdoms, ready, and affordable (its reduced cost, or Price of Blood); else NO_CARD.

    It is always among the available cards (rule champion-summoning): Blackmail never locks it.
    """
    player = state.active
    card = summonable(state, player)
    if card < 0 or state.phase != SUMMONING:
        return NO_CARD
    if _affordable(state, card, summon_cost(state, player), state.players[player].mana):
        return card
    return NO_CARD


def apply(state: GameState, action: object) -> GameState:
    """Perform ``action`` (an :data:`Action`) in place and return ``state``.

    Anything else raises :class:`InputError` (``action`` is typed ``object`` because it is
    checked here, not by the compiled engine's argument conversion); an illegal action raises
    :class:`IllegalAction` and leaves the position unchanged: every check happens before anything
    moves.
    """
    # _unpack's checks, in line: this runs for every action of every game.
    if type(action) is not tuple or len(action) != 3:
        raise InputError(f"not an action: {action!r}")
    kind, card, arg = action
    if kind not in KINDS or type(card) is not int or type(arg) is not int:
        raise InputError(f"not an action: {action!r}")
    return _apply(state, kind, card, arg)


def _apply(state: GameState, kind: int, card: int, arg: int) -> GameState:
    if state.phase == OVER:
        raise IllegalAction("game_over")
    try:
        if kind >= PLAY:
            index, lane, host, target = _check_play(state, kind, card, arg)
            play_card(state, state.active, index, lane, host, target)
        elif kind == END_TURN:
            if state.phase == SUMMONING:
                # Phase 3 is not optional: ending the turn from Phase 2 resolves it first.
                assault(state)
            end_turn(state)
        else:
            if state.phase != SUMMONING:
                raise IllegalAction("assault_done")
            assault(state)
    except GameOver:
        pass
    return state


def _unpack(action: Any) -> Action:
    if type(action) is not tuple or len(action) != 3 or action[0] not in KINDS:
        raise InputError(f"not an action: {action!r}")
    if type(action[1]) is not int or type(action[2]) is not int:
        raise InputError(f"not an action: {action!r}")
    return action


def _check_play(
    state: GameState, kind: int, card: int, arg: int
) -> tuple[int, int, Creature | None, Creature | None]:
    """Check a card play; returns (hand index or CHAMPION_INDEX, lane, host, target)."""
    setup = state.setup
    player = state.active
    names = setup.names
    if state.phase != SUMMONING:
        raise IllegalAction("not_summoning")
    if setup.controllers[player] != HAND:
        raise IllegalAction("ai_turn")
    if setup.any_champion and 0 <= card < len(setup.cards) and setup.champion_owner[card] >= 0:
        index = CHAMPION_INDEX
        _check_champion(state, card)
    else:
        index = _check_in_hand(state, card)
    lane, host, target = -1, None, None
    if kind == CAST:
        if setup.creature[card]:
            raise IllegalAction("creature_aimed", names, card=card)
        target = _creature_by_card(state, arg)
        if target is None:
            raise IllegalAction("no_target")
    else:
        if not setup.creature[card]:
            raise IllegalAction("needs_target", names, card=card)
        if kind == PLAY:
            if not 0 <= arg < setup.topology.lanes:
                raise IllegalAction("no_such_line")
            lane = arg
        else:
            if not setup.mask[card] & SYMBIOTE:
                raise IllegalAction("no_symbiote", names, card=card)
            host = _creature_by_card(state, arg)
            if host is None or host not in symbiote_hosts(state, player):
                raise IllegalAction("bad_host")
    return index, lane, host, target


def _check_in_hand(state: GameState, card: int) -> int:
    """The hand index of ``card`` if it is available and affordable (rules phase-2-…)."""
    setup = state.setup
    names = setup.names
    player = state.active
    kingdom = hand_of(state, player)
    try:
        index = kingdom.hand.index(card)
    except ValueError:
        raise IllegalAction("not_in_hand", names, card=card) from None
    # The cards playable_cards lists: the available ones (the 4 leftmost, fewer with
    # Blackmail, which never adds any), affordable.
    if index >= available_count(state, player):
        if index >= WINDOW:
            raise IllegalAction("not_available", names, card=card)
        raise IllegalAction("blackmailed", names, card=card)
    cost = card_cost(state, player, index, card)
    if not _affordable(state, card, cost, kingdom.mana):
        raise IllegalAction("too_expensive", names, card=card, cost=cost, mana=kingdom.mana)
    return index


def _check_champion(state: GameState, card: int) -> None:
    """Whether the active player may summon the Champion ``card`` now (Champion module)."""
    setup = state.setup
    names = setup.names
    player = state.active
    kingdom = state.players[player]
    if setup.champion_owner[card] != player:
        raise IllegalAction("enemy_champion", names, card=card)
    if kingdom.champion != card:
        raise IllegalAction("champion_in_play", names, card=card)
    printed = setup.cost[card]
    if kingdom.champion_exhausted:
        raise IllegalAction("champion_exhausted", names, card=card, printed=printed)
    cost = summon_cost(state, player)
    if not _affordable(state, card, cost, kingdom.mana):
        raise IllegalAction(
            "champion_too_expensive",
            names,
            card=card,
            cost=cost,
            printed=printed,
            mana=kingdom.mana,
        )


def _creature_by_card(state: GameState, card: int) -> Creature | None:
    for pl in state.players:
        for line in pl.lines:
            for creature in line:
                if creature.card == card:
                    return creature
    return None


# ---- readable form (scenario format) -------------------------------------------------------


def to_json(state: GameState, action: Action) -> Any:
    """The scenario-format form of ``action`` in ``state`` (before it is applied).

    Names identify cards; only when a Mercenary brought two cards of the same name together is a
    ``deck`` key ("A"/"B": the deck the card was built into) added to tell them apart.
    """
    kind, card, arg = _unpack(action)
    if kind == ASSAULT:
        return "assault"
    if kind == END_TURN:
        return "end_turn"
    setup = state.setup
    data: dict[str, Any] = {"play": setup.names[card]}
    if _same_name_count(state, _playable_cards_of(state, state.active), card) > 1:
        data["deck"] = PLAYER_NAMES[setup.origin[card]]
    if kind == PLAY:
        data["line"] = setup.topology.lane_names(state.active)[arg]
        return data
    creature = _creature_by_card(state, arg)
    if creature is None:
        raise InputError(f"no creature with card id {arg} in play")
    side = [c.card for line in state.players[creature.owner].lines for c in line]
    ambiguous = _same_name_count(state, side, arg) > 1
    if kind == PLAY_ONTO:
        data["onto"] = setup.names[arg]
        if ambiguous:
            data["onto_deck"] = PLAYER_NAMES[setup.origin[arg]]
    else:
        target = {"player": PLAYER_NAMES[creature.owner], "card": setup.names[arg]}
        if ambiguous:
            target["deck"] = PLAYER_NAMES[setup.origin[arg]]
        data["target"] = target
    return data


def _playable_cards_of(state: GameState, player: int) -> list[int]:
    """The cards a play of ``player`` may name: the hand, and the Champion (Champion module)."""
    hand = hand_of(state, player).hand
    champion_card = state.setup.champion_id[player]
    return [*hand, champion_card] if champion_card >= 0 else hand


def _same_name_count(state: GameState, cards: list[int], card: int) -> int:
    names = state.setup.names
    return sum(names[c] == names[card] for c in cards)


STRONGHOLD_TOKEN: Final = "STRONGHOLD"
PLAY_KEYS: Final = frozenset({"play", "line", "onto", "target", "deck", "onto_deck"})


def from_json(state: GameState, data: Any) -> Action:
    """The action that ``data`` (scenario format) means in ``state``.

    A malformed action raises :class:`InputError`; one naming a card that cannot be played the
    way it says raises :class:`IllegalAction` (the position is not touched either way).
    """
    if data in ("assault", "end_turn"):
        return ASSAULT_ACTION if data == "assault" else END_TURN_ACTION
    if not isinstance(data, dict) or "play" not in data:
        raise InputError(f"expected 'assault', 'end_turn' or a mapping with 'play', not {data!r}")
    for key in data:
        if key not in PLAY_KEYS:
            raise InputError(f"unknown key {key!r} in action")
    name = data["play"]
    if not isinstance(name, str):
        raise InputError("'play' must be a card name")
    choices = [k for k in ("line", "onto", "target") if k in data]
    if len(choices) != 1:
        raise InputError("a play needs exactly one of 'line', 'onto' or 'target'")
    player = state.active
    players = state.setup.topology.players
    card = _find_in_hand(state, player, name, _deck(data.get("deck"), "deck", players))
    if "line" in data:
        line = data["line"]
        lanes = state.setup.topology.lane_names(player)
        if line not in lanes:
            raise InputError(f"'line' must be {' or '.join(map(repr, lanes))}, not {line!r}")
        return (PLAY, card, lanes.index(line))
    if "onto" in data:
        host_name = data["onto"]
        if not isinstance(host_name, str):
            raise InputError("'onto' must be a card name")
        host = _find_on_side(
            state, player, host_name, _deck(data.get("onto_deck"), "onto_deck", players)
        )
        if host is None:
            raise IllegalAction("no_host_named", host=host_name, card=name)
        return (PLAY_ONTO, card, host.card)
    target = data["target"]
    if not isinstance(target, dict):
        raise InputError("'target' must be a mapping {player, card}")
    for key in target:
        if key not in ("player", "card", "deck"):
            raise InputError(f"unknown key {key!r} in target")
    side_name = target.get("player")
    target_name = target.get("card")
    if side_name not in PLAYER_NAMES[:players]:
        raise InputError(f"target player must be one of the players, not {side_name!r}")
    if not isinstance(target_name, str):
        raise InputError("target card must be a card name")
    if target_name == STRONGHOLD_TOKEN:
        raise IllegalAction("stronghold_target")
    side = PLAYER_NAMES.index(side_name)
    deck = _deck(target.get("deck"), "target.deck", players)
    creature = _find_on_side(state, side, target_name, deck)
    if creature is None:
        raise IllegalAction("no_target_named", target=target_name, player=side)
    return (CAST, card, creature.card)


def _deck(value: Any, key: str, players: int) -> int:
    if value is None:
        return -1
    if value not in PLAYER_NAMES[:players]:
        raise InputError(f"{key!r} must be a player letter, one of {PLAYER_NAMES[:players]}")
    return PLAYER_NAMES.index(value)


def _find_in_hand(state: GameState, player: int, name: str, deck: int) -> int:
    """The card of ``player``'s hand named ``name``, else their Champion of that name (wherever
    it is: apply then says why it cannot be summoned)."""
    setup = state.setup
    for card in _playable_cards_of(state, player):
        if setup.names[card] == name and deck in (-1, setup.origin[card]):
            return card
    raise IllegalAction("not_in_hand", card=name)


def _find_on_side(state: GameState, player: int, name: str, deck: int) -> Creature | None:
    """The creature of ``player`` whose card (or Symbiote card) is named ``name``."""
    setup = state.setup
    for line in state.players[player].lines:
        for creature in line:
            for card in (creature.card, creature.symbiote):
                if card >= 0 and setup.names[card] == name and deck in (-1, setup.origin[card]):
                    return creature
    return None
