"""The effect language: a card's effects as data, built from the rulebook's primitives.

A card's play effect, its reaction effect and an Intervention's effect are each one text in this
language (the catalogue stores it, a CSV or YAML file holds it, the admin edits it). The engine
parses it once per card into a small tree and runs the tree (``engine.chaos.resolve``). The full
reference with examples is ``docs/chaos/effect-language.md``; in short::

    effect  := then (";" then)*                   steps in order
    then    := step ("->" step)*                  "A -> B": B only if A was done in full
    step    := "(" effect ")"
             | "may" "(" effect ")"               the player may apply it, or not
             | "choose" "(" effect ("|" effect)+ ")"   the player picks one
             | "if" cond "(" effect ")"
             | ["opponent"] action                 the opponent performs it (and chooses)
             | "awaken"                            Interventions only: the Awakening
    action  := "draw" N | "discard" N "from" (hand|deck) | "sacrifice" N "from"
               (hand|deck|discard|play) | "sacrifice" "this" | "plan" N | "call" N | "cover"
             | "resources" "+" N | "recruit" N
    cond    := ["opponent"] (deck|hand|discard|played [clan]) ("<="|">="|"=") N

``N`` is a whole number from 1 to 9 (``cond`` takes 0 to 99). ``deck`` as a zone is the top of the
deck. Words are case-insensitive; :func:`to_text` gives the canonical spelling (lower case, single
spaces), which is what the catalogue stores, so parsing the stored text gives the same tree.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Final

# Clans (the rulebook's three; a card may belong to none): bits, so an announced set is a mask.
CLANS: Final = ("chaos", "drakon", "evine")
CLAN_BITS: Final = {name: 1 << index for index, name in enumerate(CLANS)}
ALL_CLANS: Final = (1 << len(CLANS)) - 1

# Action verbs.
DRAW: Final = 0
DISCARD: Final = 1
SACRIFICE: Final = 2
SACRIFICE_THIS: Final = 3
PLAN: Final = 4
CALL: Final = 5
COVER: Final = 6
RESOURCES: Final = 7
RECRUIT: Final = 8
AWAKEN: Final = 9
VERBS: Final = (
    "draw",
    "discard",
    "sacrifice",
    "sacrifice this",
    "plan",
    "call",
    "cover",
    "resources",
    "recruit",
    "awaken",
)

# Zones an action takes its cards from (DECK: the top of the deck).
HAND: Final = 0
DECK: Final = 1
DISCARD_PILE: Final = 2
PLAY_ZONE: Final = 3
ZONES: Final = ("hand", "deck", "discard", "play")
# The zones each verb may take from; the opponent's hand and deck only.
_VERB_ZONES: Final = {DISCARD: (HAND, DECK), SACRIFICE: (HAND, DECK, DISCARD_PILE, PLAY_ZONE)}
_OPPONENT_VERBS: Final = (DRAW, DISCARD, SACRIFICE)

# Condition subjects and operators.
SUBJECTS: Final = ("deck", "hand", "discard", "played")
OPERATORS: Final = ("<=", ">=", "=")

# The keyword (and its rule id, engine.chaos.rule_ids) each verb uses.
VERB_KEYWORDS: Final = {
    DISCARD: "discard",
    SACRIFICE: "sacrifice",
    SACRIFICE_THIS: "sacrifice",
    PLAN: "plan",
    CALL: "call",
    COVER: "cover",
    AWAKEN: "awakening",
}
KEYWORDS: Final = ("plan", "call", "awakening", "discard", "sacrifice", "cover")

MAX_AMOUNT: Final = 9
MAX_COUNT: Final = 99
MAX_DEPTH: Final = 6
MAX_LENGTH: Final = 500


@dataclass(frozen=True, slots=True)
class Act:
    verb: int
    amount: int = 1
    zone: int = HAND
    opponent: bool = False


@dataclass(frozen=True, slots=True)
class Cond:
    subject: int
    clan: int  # a clan bit, 0: any card (``played`` only)
    operator: int
    number: int
    opponent: bool = False


@dataclass(frozen=True, slots=True)
class Seq:
    steps: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Then:
    first: Node
    rest: Node


@dataclass(frozen=True, slots=True)
class May:
    body: Node


@dataclass(frozen=True, slots=True)
class Choose:
    options: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class If:
    cond: Cond
    body: Node


Node = Act | Seq | Then | May | Choose | If


class EffectError(ValueError):
    """A text that is not a valid effect: ``column`` (1-based) is where the problem starts."""

    def __init__(self, message: str, column: int) -> None:
        self.message = message
        self.column = column
        super().__init__(f"{message} (column {column})")


_TOKEN: Final = re.compile(r"\s*(?:(->|<=|>=|[()|;=+<>])|(\d+)|([a-z_]+)|(\S))")


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    kind: str  # "op", "number", "word"
    column: int


def _tokens(text: str) -> list[_Token]:
    tokens = []
    position = 0
    lowered = text.lower()
    while position < len(lowered):
        match = _TOKEN.match(lowered, position)
        if match is None:  # only trailing spaces are left
            break
        op, number, word, other = match.groups()
        column = match.start(match.lastindex or 0) + 1
        if other is not None:
            raise EffectError(f"unexpected character {other!r}", column)
        if op is not None:
            tokens.append(_Token(op, "op", column))
        elif number is not None:
            tokens.append(_Token(number, "number", column))
        else:
            tokens.append(_Token(word, "word", column))
        position = match.end()
    return tokens


_STEP_WORDS: Final = (
    "draw",
    "discard",
    "sacrifice",
    "plan",
    "call",
    "cover",
    "resources",
    "recruit",
    "awaken",
    "may",
    "choose",
    "if",
    "opponent",
)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.index = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def end_column(self) -> int:
        return len(self.text.rstrip()) + 1

    def take(self) -> _Token:
        token = self.peek()
        if token is None:
            raise EffectError("the effect ends too early", self.end_column())
        self.index += 1
        return token

    def expect(self, text: str) -> _Token:
        token = self.peek()
        if token is None or token.text != text:
            found = "the end" if token is None else repr(token.text)
            column = self.end_column() if token is None else token.column
            raise EffectError(f"expected {text!r}, found {found}", column)
        self.index += 1
        return token

    def number(self, low: int, high: int, what: str) -> int:
        token = self.take()
        if token.kind != "number":
            raise EffectError(f"{what} must be a whole number, not {token.text!r}", token.column)
        value = int(token.text)
        if not low <= value <= high:
            raise EffectError(f"{what} must be from {low} to {high}, not {value}", token.column)
        return value

    def effect(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            token = self.peek()
            raise EffectError("too deeply nested", token.column if token else self.end_column())
        steps = [self.then(depth)]
        while (token := self.peek()) is not None and token.text == ";":
            self.index += 1
            steps.append(self.then(depth))
        return steps[0] if len(steps) == 1 else Seq(tuple(steps))

    def then(self, depth: int) -> Node:
        first = self.step(depth)
        token = self.peek()
        if token is not None and token.text == "->":
            self.index += 1
            return Then(first, self.then(depth))
        return first

    def group(self, depth: int) -> Node:
        self.expect("(")
        body = self.effect(depth + 1)
        self.expect(")")
        return body

    def step(self, depth: int) -> Node:
        token = self.take()
        word = token.text
        if word == "(":
            self.index -= 1
            return self.group(depth)
        if token.kind != "word":
            raise EffectError(f"expected a step, found {word!r}", token.column)
        if word == "may":
            return May(self.group(depth))
        if word == "choose":
            self.expect("(")
            options = [self.effect(depth + 1)]
            while (bar := self.peek()) is not None and bar.text == "|":
                self.index += 1
                options.append(self.effect(depth + 1))
            self.expect(")")
            if len(options) < 2:
                raise EffectError(
                    "'choose' needs at least two options separated by '|'", token.column
                )
            return Choose(tuple(options))
        if word == "if":
            cond = self.cond()
            return If(cond, self.group(depth))
        opponent = word == "opponent"
        if opponent:
            token = self.take()
            word = token.text
        act = self.action(token, word)
        if opponent:
            if act.verb not in _OPPONENT_VERBS or act.zone not in (HAND, DECK):
                raise EffectError(
                    "'opponent' goes with draw, discard or sacrifice from hand or deck",
                    token.column,
                )
            return Act(act.verb, act.amount, act.zone, True)
        return act

    def action(self, token: _Token, word: str) -> Act:
        if word in ("draw", "plan", "call", "recruit"):
            verb = {"draw": DRAW, "plan": PLAN, "call": CALL, "recruit": RECRUIT}[word]
            return Act(verb, self.number(1, MAX_AMOUNT, f"the number after {word!r}"))
        if word == "cover":
            return Act(COVER)
        if word == "awaken":
            return Act(AWAKEN)
        if word == "resources":
            self.expect("+")
            return Act(RESOURCES, self.number(1, MAX_AMOUNT, "the resources gained"))
        if word in ("discard", "sacrifice"):
            nxt = self.peek()
            if word == "sacrifice" and nxt is not None and nxt.text == "this":
                self.index += 1
                return Act(SACRIFICE_THIS)
            verb = DISCARD if word == "discard" else SACRIFICE
            amount = self.number(1, MAX_AMOUNT, f"the number after {word!r}")
            self.expect("from")
            zone_token = self.take()
            allowed = _VERB_ZONES[verb]
            names = [ZONES[zone] for zone in allowed]
            if zone_token.text not in names:
                raise EffectError(
                    f"{word!r} takes from {' or '.join(names)}, not {zone_token.text!r}",
                    zone_token.column,
                )
            return Act(verb, amount, ZONES.index(zone_token.text))
        close = difflib.get_close_matches(word, _STEP_WORDS, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(_STEP_WORDS)})"
        raise EffectError(f"unknown step {word!r}{hint}", token.column)

    def cond(self) -> Cond:
        token = self.take()
        opponent = token.text == "opponent"
        if opponent:
            token = self.take()
        if token.text not in SUBJECTS:
            raise EffectError(
                f"a condition counts {', '.join(SUBJECTS)}, not {token.text!r}", token.column
            )
        subject = SUBJECTS.index(token.text)
        clan = 0
        nxt = self.peek()
        if nxt is not None and nxt.text in CLANS:
            if token.text != "played":
                raise EffectError("only 'played' counts the cards of a clan", nxt.column)
            clan = CLAN_BITS[nxt.text]
            self.index += 1
        op = self.take()
        if op.text not in OPERATORS:
            raise EffectError(
                f"expected one of {', '.join(OPERATORS)}, found {op.text!r}", op.column
            )
        return Cond(
            subject,
            clan,
            OPERATORS.index(op.text),
            self.number(0, MAX_COUNT, "the count"),
            opponent,
        )


def parse(text: str) -> Node | None:
    """The tree of an effect text; None for an empty text (no effect). Raises EffectError."""
    if len(text) > MAX_LENGTH:
        raise EffectError(f"an effect is at most {MAX_LENGTH} characters", MAX_LENGTH + 1)
    parser = _Parser(text)
    if not parser.tokens:
        return None
    node = parser.effect(0)
    leftover = parser.peek()
    if leftover is not None:
        raise EffectError(f"unexpected {leftover.text!r}", leftover.column)
    return node


def to_text(node: Node | None) -> str:
    """The canonical text of ``node`` (``parse(to_text(node)) == node``)."""
    if node is None:
        return ""
    return _text(node)


def _text(node: Node) -> str:
    if isinstance(node, Act):
        who = "opponent " if node.opponent else ""
        if node.verb in (DISCARD, SACRIFICE):
            return f"{who}{VERBS[node.verb]} {node.amount} from {ZONES[node.zone]}"
        if node.verb == RESOURCES:
            return f"resources +{node.amount}"
        if node.verb in (SACRIFICE_THIS, COVER, AWAKEN):
            return VERBS[node.verb]
        return f"{who}{VERBS[node.verb]} {node.amount}"
    if isinstance(node, Seq):
        return "; ".join(_text(step) for step in node.steps)
    if isinstance(node, Then):
        # "->" groups to the right: only a chain on its left, or a sequence, needs parentheses.
        first = _text(node.first)
        if isinstance(node.first, Seq | Then):
            first = f"({first})"
        rest = f"({_text(node.rest)})" if isinstance(node.rest, Seq) else _text(node.rest)
        return f"{first} -> {rest}"
    if isinstance(node, May):
        return f"may({_text(node.body)})"
    if isinstance(node, Choose):
        return f"choose({' | '.join(_text(option) for option in node.options)})"
    cond = node.cond
    who = "opponent " if cond.opponent else ""
    clan = f" {CLANS[cond.clan.bit_length() - 1]}" if cond.clan else ""
    return (
        f"if {who}{SUBJECTS[cond.subject]}{clan} {OPERATORS[cond.operator]} {cond.number} "
        f"({_text(node.body)})"
    )


def walk(node: Node | None) -> list[Act]:
    """Every action of ``node``, in reading order."""
    if node is None:
        return []
    if isinstance(node, Act):
        return [node]
    if isinstance(node, Seq):
        return [act for step in node.steps for act in walk(step)]
    if isinstance(node, Then):
        return walk(node.first) + walk(node.rest)
    if isinstance(node, May | If):
        return walk(node.body)
    return [act for option in node.options for act in walk(option)]


def keywords_of(node: Node | None) -> list[str]:
    """The keywords an effect uses (codes of :data:`KEYWORDS`), in :data:`KEYWORDS` order."""
    used = {VERB_KEYWORDS[act.verb] for act in walk(node) if act.verb in VERB_KEYWORDS}
    return [keyword for keyword in KEYWORDS if keyword in used]


def is_awakening(node: Node | None) -> bool:
    """Whether an Intervention's effect is the Awakening (a lasting effect, not one to use)."""
    return isinstance(node, Act) and node.verb == AWAKEN
