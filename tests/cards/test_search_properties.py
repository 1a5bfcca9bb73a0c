"""Property-based tests of the query language (Hypothesis)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from cards.search import And, Not, Or, ParsedQuery, QueryError, Term, parse
from cards.selectors import card_search

KEYS_AND_VALUES = {
    "cost": st.integers(0, 9).map(str),
    "atk": st.integers(0, 9).map(str),
    "hp": st.integers(1, 9).map(str),
    "type": st.sampled_from(["creature", "incantation"]),
    "set": st.sampled_from(["00", "02", "submersion", "felonie", "14"]),
    "ab": st.sampled_from(["splash", "rage", "bondir", "sprint", "protection", "defender"]),
    "aura": st.sampled_from(["rage", "splash", "aerial"]),
    "malus": st.sampled_from(["yes", "no"]),
    "deck": st.sampled_from(["1", "2", "3", "4"]),
    "checked": st.sampled_from(["yes", "no"]),
}
NUMERIC = {"cost", "atk", "hp"}


@st.composite
def terms(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(["grrr", "dragon", "zombie", "emeraude", '"boom"', "ogre"]))
    key = draw(st.sampled_from(sorted(KEYS_AND_VALUES)))
    operators = ["<", "<=", ">", ">=", ":", "=", "!="] if key in NUMERIC else [":", "=", "!="]
    return f"{key}{draw(st.sampled_from(operators))}{draw(KEYS_AND_VALUES[key])}"


def expressions(depth: int = 2) -> st.SearchStrategy[str]:
    base = terms()
    if depth == 0:
        return base
    inner = expressions(depth - 1)
    return st.one_of(
        base,
        inner.map(lambda e: f"-({e})"),
        st.lists(inner, min_size=2, max_size=3).map(
            lambda parts: " ".join(f"({p})" for p in parts)
        ),
        st.lists(inner, min_size=2, max_size=3).map(
            lambda parts: " or ".join(f"({p})" for p in parts)
        ),
    )


def render(node: Term | Not | And | Or) -> str:
    """A query text for a tree: parsing it must give the same tree back."""
    if isinstance(node, Term):
        if node.key is None:
            return f'"{node.value}"' if node.text.startswith('"') else node.value
        value = f'"{node.value}"' if node.text.endswith('"') else node.value
        return f"{node.key}{node.operator}{value}"
    if isinstance(node, Not):
        return f"-({render(node.node)})"
    joiner = " or " if isinstance(node, Or) else " "
    return joiner.join(f"({render(child)})" for child in node.nodes)


def shape(node: object) -> object:
    """The tree without positions and source texts."""
    if isinstance(node, Term):
        return ("term", node.key, node.operator, node.value)
    if isinstance(node, Not):
        return ("not", shape(node.node))
    if isinstance(node, And | Or):
        return (type(node).__name__, tuple(shape(child) for child in node.nodes))
    return node


@given(expressions())
def test_generated_queries_parse(query: str) -> None:
    assert isinstance(parse(query), ParsedQuery)


@given(expressions())
def test_rendering_a_parsed_query_parses_back_to_the_same_tree(query: str) -> None:
    tree = parse(query).node
    assert tree is not None
    assert shape(parse(render(tree)).node) == shape(tree)


@given(st.text(max_size=120))
def test_any_text_parses_or_is_refused_with_a_position(query: str) -> None:
    try:
        parse(query)
    except QueryError as error:
        assert 0 <= error.position <= len(query)
        assert isinstance(error.term, str)
        assert error.message


@given(st.text(alphabet=st.sampled_from('ab:cost<=>!-() or"x19'), max_size=60))
def test_query_shaped_noise_parses_or_is_refused_with_a_position(query: str) -> None:
    try:
        parse(query)
    except QueryError as error:
        assert 0 <= error.position <= len(query)


@given(terms(), st.integers(0, 20))
def test_whitespace_does_not_matter(term: str, spaces: int) -> None:
    padded = " " * spaces + term + " " * spaces
    assert shape(parse(padded).node) == shape(parse(term).node)


DB_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.django_db
@pytest.mark.usefixtures("catalogue")
@DB_SETTINGS
@given(expressions(depth=1))
def test_a_query_and_its_negation_split_the_deckable_cards(query: str) -> None:
    found = set(card_search(query).values_list("pk", flat=True))
    excluded = set(card_search(f"-({query})").values_list("pk", flat=True))
    assert found.isdisjoint(excluded)
    assert found | excluded == set(Card.objects.deckable().values_list("pk", flat=True))


@pytest.mark.django_db
@pytest.mark.usefixtures("catalogue")
@DB_SETTINGS
@given(terms(), terms())
def test_and_is_intersection_and_or_is_union(left: str, right: str) -> None:
    a = set(card_search(left).values_list("pk", flat=True))
    b = set(card_search(right).values_list("pk", flat=True))
    assert set(card_search(f"{left} {right}").values_list("pk", flat=True)) == a & b
    assert set(card_search(f"{left} or {right}").values_list("pk", flat=True)) == a | b
