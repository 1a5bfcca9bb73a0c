"""The card search language: one grammar, one parser, for the card browser and the API.

    grrr                    bare words: card names in any language, accents and case ignored
    "dragon emeraude"       a phrase
    cost<=3 atk>=4 hp:2     numbers with : = != < <= > >=
    type:creature           creature, incantation (stronghold, bridge widen the search to them)
    set:02 set:submersion   an expansion by code, slug or any name
    ab:splash ab:bondir     an ability the card bears, by code or any name/alias in any language
    aura:rage               the ability an Aura of the card grants
    malus:yes deck:1 checked:no
    -term   a or b   (grouping)   terms are AND-ed by default
    order:cost dir:desc     sorting by name, cost, atk, hp or set

`parse()` turns the text into a small tree (`Term`, `Not`, `And`, `Or`) and `Sorting`; any problem
raises `QueryError` naming the term and its position (0-based offset in the query). The keys a
query may use are a `Vocabulary`: Clash of Decks' (`CLASH`, the default) or another game's
(`cards.chaos_search`), so one grammar serves both and a query of one game means nothing in the
other.
"""

import difflib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.exceptions import VisitError

MAX_QUERY_LENGTH = 500
MAX_TERMS = 40

GRAMMAR = r"""
?start: expr?

?expr: or_expr
?or_expr: and_expr (_OR and_expr)*
?and_expr: unary+
?unary: NEG unary -> negation
      | atom
?atom: "(" expr ")"
     | FIELD value -> field
     | WORD -> word
     | PHRASE -> phrase
?value: VALUE | PHRASE

_OR.3: /or(?=[\s()]|$)/i
FIELD.2: /[A-Za-z_]+(!=|<=|>=|:|=|<|>)/
NEG: "-"
WORD: /[^\s()"\-][^\s()"]*/
VALUE: /[^\s()"]+/
PHRASE: /"[^"]*"/

%import common.WS
%ignore WS
"""

_PARSER = Lark(GRAMMAR, parser="lalr", lexer="contextual", propagate_positions=True)

NUMERIC_KEYS = {"cost": "mana", "mana": "mana", "atk": "attack", "attack": "attack", "hp": "hp"}
TEXT_KEYS = {"type", "set", "ab", "aura", "malus", "deck", "checked"}
SORT_KEYS = {"order", "dir"}
OPERATORS = ("!=", "<=", ">=", ":", "=", "<", ">")
ORDERS = ("name", "cost", "atk", "hp", "set")
DIRECTIONS = ("asc", "desc")
YES_NO = {
    "yes": True,
    "y": True,
    "true": True,
    "1": True,
    "no": False,
    "n": False,
    "false": False,
    "0": False,
}


@dataclass(frozen=True)
class QueryError(Exception):
    """A query the parser refuses: `term` is the offending text, `position` its 0-based offset."""

    message: str
    term: str
    position: int

    def __str__(self) -> str:
        return f"{self.message} (term {self.term!r} at position {self.position})"


@dataclass(frozen=True)
class Term:
    """One condition: `key` is None for a bare word or phrase (then `value` is the text)."""

    key: str | None
    operator: str
    value: str
    text: str
    position: int


@dataclass(frozen=True)
class Not:
    node: "Node"


@dataclass(frozen=True)
class And:
    nodes: tuple["Node", ...]


@dataclass(frozen=True)
class Or:
    nodes: tuple["Node", ...]


Node = Term | Not | And | Or


@dataclass(frozen=True)
class Sorting:
    order: str = "name"
    descending: bool = False


@dataclass(frozen=True)
class ParsedQuery:
    node: Node | None
    sorting: Sorting = field(default_factory=Sorting)


def _unquote(token: Token) -> str:
    text = str(token)
    return text[1:-1] if text.startswith('"') else text


class _ToTree(Transformer):
    def __init__(self, query: str) -> None:
        super().__init__()
        self.query = query

    def word(self, children: list[Token]) -> Term:
        (token,) = children
        if str(token).lower() == "or":
            # The lexer only reads `or` as the operator between two terms.
            raise QueryError(_("'or' needs a term on each side"), str(token), token.start_pos or 0)
        return Term(None, ":", str(token), str(token), token.start_pos or 0)

    def phrase(self, children: list[Token]) -> Term:
        (token,) = children
        return Term(None, ":", _unquote(token), str(token), token.start_pos or 0)

    def field(self, children: list[Token]) -> Term:
        field_token, value_token = children
        raw = str(field_token)
        operator = next(op for op in OPERATORS if raw.endswith(op))
        key = raw[: -len(operator)].lower()
        start = field_token.start_pos or 0
        end = value_token.end_pos or start + len(raw)
        return Term(key, operator, _unquote(value_token), self.query[start:end], start)

    def negation(self, children: list[object]) -> Not:
        return Not(children[1])  # type: ignore[arg-type]

    def and_expr(self, children: list[Node]) -> And:
        return And(tuple(children))

    def or_expr(self, children: list[Node]) -> Or:
        return Or(tuple(children))

    def start(self, children: list[Node]) -> Node | None:
        return children[0] if children else None


def _bad_input(query: str, exc: UnexpectedInput) -> QueryError:
    token = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END"):
        words = query.split()
        last = words[-1] if words else query
        return QueryError(
            _("The query ends too early: a value, a term after 'or' or '-', or a ')' is missing"),
            last,
            query.rstrip().rfind(last) if words else 0,
        )
    position = exc.pos_in_stream if exc.pos_in_stream is not None else 0
    rest = query[position:]
    term = rest.split()[0] if rest.split() else rest
    if isinstance(exc, UnexpectedCharacters) and rest.startswith('"'):
        return QueryError(_("Unclosed quote"), term, position)
    if token is not None and str(token) == ")":
        return QueryError(_("Unmatched closing parenthesis"), ")", position)
    if token is not None and token.type == "_OR":
        return QueryError(_("'or' needs a term on each side"), str(token), position)
    if rest.startswith("-"):
        return QueryError(_("'-' must be followed by a term"), term, position)
    return QueryError(_("Unexpected text"), term, position)


@dataclass(frozen=True)
class Vocabulary:
    """The keys of one game's search: numbers, texts, the sort orders, and the check of the
    values a text key takes (run after the grammar's own checks)."""

    numeric: frozenset[str]
    text: frozenset[str]
    orders: tuple[str, ...]
    check_value: Callable[[Term], None]

    @property
    def keys(self) -> list[str]:
        return sorted({*self.numeric, *self.text, *SORT_KEYS})


def _check_clash_value(term: Term) -> None:
    key, value = term.key, term.value.lower()
    if key in ("malus", "checked") and value not in YES_NO:
        raise QueryError(_("'%(key)s' takes yes or no") % {"key": key}, term.text, term.position)
    if key == "deck" and value not in ("1", "2", "3", "4"):
        raise QueryError(_("'deck' takes 1, 2, 3 or 4"), term.text, term.position)


CLASH = Vocabulary(frozenset(NUMERIC_KEYS), frozenset(TEXT_KEYS), ORDERS, _check_clash_value)


def _check_term(term: Term, vocabulary: Vocabulary) -> None:
    key = term.key
    if key is None:
        return
    keys = vocabulary.keys
    if key not in keys:
        raise QueryError(
            _("Unknown key '%(key)s': use one of %(keys)s") % {"key": key, "keys": ", ".join(keys)},
            term.text,
            term.position,
        )
    if not term.value.strip():
        raise QueryError(_("'%(key)s' needs a value") % {"key": key}, term.text, term.position)
    if key in vocabulary.numeric:
        try:
            number = int(term.value)
        except ValueError:
            raise QueryError(
                _("'%(key)s' needs a whole number") % {"key": key}, term.text, term.position
            ) from None
        if not -99 <= number <= 99:
            raise QueryError(
                _("'%(key)s' must be between -99 and 99") % {"key": key}, term.text, term.position
            )
        return
    if term.operator not in (":", "=", "!="):
        raise QueryError(
            _("'%(key)s' takes ':', '=' or '!=', not '%(operator)s'")
            % {"key": key, "operator": term.operator},
            term.text,
            term.position,
        )
    value = term.value.lower()
    vocabulary.check_value(term)
    if key == "order" and value not in vocabulary.orders:
        raise QueryError(
            _("'order' takes one of %(orders)s") % {"orders": ", ".join(vocabulary.orders)},
            term.text,
            term.position,
        )
    if key == "dir" and value not in DIRECTIONS:
        raise QueryError(_("'dir' takes asc or desc"), term.text, term.position)


def _walk(
    node: Node,
    sorting: list[Term],
    vocabulary: Vocabulary,
    *,
    top: bool,
    depth: int,
    count: list[int],
) -> Node | None:
    """Validate every term, take the sort terms out (top level only) and drop empty groups."""
    if depth > 20:
        raise QueryError(_("Too deeply nested"), "(", 0)
    if isinstance(node, Term):
        count[0] += 1
        if count[0] > MAX_TERMS:
            raise QueryError(
                _("Too many terms (at most %(max)d)") % {"max": MAX_TERMS}, node.text, node.position
            )
        _check_term(node, vocabulary)
        if node.key in SORT_KEYS:
            if not top or node.operator == "!=":
                raise QueryError(
                    _("'%(key)s' cannot be negated or combined with 'or'") % {"key": node.key},
                    node.text,
                    node.position,
                )
            sorting.append(node)
            return None
        return node
    if isinstance(node, Not):
        inner = _walk(node.node, sorting, vocabulary, top=False, depth=depth + 1, count=count)
        return Not(inner) if inner is not None else None
    children = [
        _walk(
            child,
            sorting,
            vocabulary,
            top=top and isinstance(node, And),
            depth=depth + 1,
            count=count,
        )
        for child in node.nodes
    ]
    kept = tuple(child for child in children if child is not None)
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0]
    return type(node)(kept)


def parse(query: str, vocabulary: Vocabulary = CLASH) -> ParsedQuery:
    """Parse a search query with the keys of `vocabulary`; raises QueryError for anything
    malformed."""
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(
            _("The query is too long (%(length)d characters, at most %(max)d)")
            % {"length": len(query), "max": MAX_QUERY_LENGTH},
            query[:20],
            MAX_QUERY_LENGTH,
        )
    try:
        tree = _PARSER.parse(query)
    except UnexpectedInput as exc:
        raise _bad_input(query, exc) from None
    try:
        root = _ToTree(query).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, QueryError):
            raise exc.orig_exc from None
        raise
    if root is None:
        return ParsedQuery(None)
    sort_terms: list[Term] = []
    node = _walk(root, sort_terms, vocabulary, top=True, depth=0, count=[0])
    order, descending = "name", False
    for term in sort_terms:
        if term.key == "order":
            order = term.value.lower()
        else:
            descending = term.value.lower() == "desc"
    return ParsedQuery(node, Sorting(order, descending))


def name_lookup(
    names: Mapping[str, Collection[int]], folded: str, term: Term, missing: str
) -> set[int]:
    """The ids of a folded name among ``names`` (folded name → ids): the exact name, else a
    unique prefix ("ab:perfo"), else a QueryError saying ``missing`` with the closest names."""
    if folded in names:
        return set(names[folded])
    prefixed = {pk for name, ids in names.items() if name.startswith(folded) for pk in ids}
    if folded and len(prefixed) == 1:
        return prefixed
    close = difflib.get_close_matches(folded, list(names), n=3, cutoff=0.6)
    hint = " " + _("Did you mean %(names)s?") % {"names": ", ".join(close)} if close else ""
    raise QueryError(missing + hint, term.text, term.position)
