"""The Duel of Chaos card search: the catalogue's one grammar (``cards.search``) with this game's
keys, so a query never mixes the games.

    domania                 bare words: card names in any language, accents and case ignored
    cost<=2 cost:0          the cost, with : = != < <= > >=
    type:domain             emissary, domain, intervention, aid (French and Swedish words too)
    clan:drakon             chaos, drakon, evine, none
    set:EX set:example-set  a set by code, slug or any name
    kw:plan kw:appel        a keyword its effects use, by code or any name
    react:discarded         a reaction: discarded, sacrificed, or opponent (it may interrupt)
    deck:1 complete:no      an Emissary deck (1 or 2); cards the rulebook leaves incomplete
    order:cost dir:desc     sorting by name, cost or set
"""

from django.db.models import Q
from django.utils.translation import gettext as _

from cards.models import (
    ChaosCardType,
    ChaosClan,
    ChaosKeyword,
    ChaosKeywordTranslation,
    ChaosSet,
    ChaosSetTranslation,
)
from cards.search import YES_NO, And, Node, Not, QueryError, Term, Vocabulary, name_lookup
from cards.text import fold

TYPE_NAMES: dict[str, str] = {
    "emissary": ChaosCardType.EMISSARY,
    "emissaries": ChaosCardType.EMISSARY,
    "emissaire": ChaosCardType.EMISSARY,
    "sandebud": ChaosCardType.EMISSARY,
    "domain": ChaosCardType.DOMAIN,
    "domaine": ChaosCardType.DOMAIN,
    "doman": ChaosCardType.DOMAIN,
    "intervention": ChaosCardType.INTERVENTION,
    "interventions": ChaosCardType.INTERVENTION,
    "aid": ChaosCardType.AID,
    "aide": ChaosCardType.AID,
    "spelhjalp": ChaosCardType.AID,
}
REACTIONS = ("discarded", "sacrificed", "opponent")
ORDERS = ("name", "cost", "set")


def _check(term: Term) -> None:
    key, value = term.key, fold(term.value)
    if key == "type" and value not in TYPE_NAMES:
        raise QueryError(
            _("'type' takes emissary, domain, intervention or aid"), term.text, term.position
        )
    if key == "clan" and value not in ChaosClan.values:
        raise QueryError(_("'clan' takes chaos, drakon, evine or none"), term.text, term.position)
    if key == "deck" and value not in ("1", "2"):
        raise QueryError(_("'deck' takes 1 or 2"), term.text, term.position)
    if key == "complete" and value not in YES_NO:
        raise QueryError(_("'complete' takes yes or no"), term.text, term.position)
    if key == "react" and value not in REACTIONS:
        raise QueryError(
            _("'react' takes discarded, sacrificed or opponent"), term.text, term.position
        )


CHAOS = Vocabulary(
    frozenset({"cost"}),
    frozenset({"type", "clan", "set", "kw", "react", "deck", "complete"}),
    ORDERS,
    _check,
)


def _index(names: list[tuple[int, str]]) -> dict[str, set[int]]:
    index: dict[str, set[int]] = {}
    for pk, name in names:
        folded = fold(name)
        if folded:
            index.setdefault(folded, set()).add(pk)
    return index


def _lookup(index: dict[str, set[int]], term: Term, missing: str) -> set[int]:
    return name_lookup(index, fold(term.value), term, missing % {"name": term.value})


def _set_ids(term: Term) -> set[int]:
    names = [
        *ChaosSet.objects.values_list("id", "code"),
        *ChaosSet.objects.values_list("id", "slug"),
    ]
    names += list(ChaosSetTranslation.objects.values_list("chaos_set_id", "name"))
    return _lookup(_index(names), term, _("No Duel of Chaos set called '%(name)s'."))


def _keyword_codes(term: Term) -> set[str]:
    codes = dict(ChaosKeyword.objects.values_list("id", "code"))
    names = [*codes.items(), *ChaosKeywordTranslation.objects.values_list("keyword_id", "name")]
    ids = _lookup(_index(names), term, _("No Duel of Chaos keyword called '%(name)s'."))
    return {codes[pk] for pk in ids}


def _term_q(term: Term) -> Q:
    key, op = term.key, term.operator
    if key is None:
        folded = fold(term.value)
        if not folded:
            raise QueryError(_("A search word needs letters or digits"), term.text, term.position)
        return Q(search_text__contains=folded)
    if key == "cost":
        number = int(term.value)
        if op == "!=":
            return Q(cost__isnull=False) & ~Q(cost=number)
        lookup = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}[op]
        return Q(**{f"cost__{lookup}": number})
    value = fold(term.value)
    if key == "type":
        q = Q(card_type=TYPE_NAMES[value])
    elif key == "clan":
        q = Q(clan=value)
    elif key == "set":
        q = Q(chaos_set_id__in=_set_ids(term))
    elif key == "kw":
        q = Q()
        for code in _keyword_codes(term):
            q |= Q(keywords__contains=f" {code} ")
    elif key == "react":
        q = Q(reaction_opponent_turn=True) if value == "opponent" else Q(reaction_on=value)
    elif key == "deck":
        q = Q(deck__in=[value, "both"])
    else:  # complete
        q = Q(complete=YES_NO[value])
    return ~q if op == "!=" else q


def node_q(node: Node) -> Q:
    if isinstance(node, Term):
        return _term_q(node)
    if isinstance(node, Not):
        return ~node_q(node.node)
    combined = Q()
    for child in node.nodes:
        child_q = node_q(child)
        combined = (
            (combined | child_q) if not isinstance(node, And) and combined else combined & child_q
        )
    return combined
