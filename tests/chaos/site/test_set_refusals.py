"""A Duel of Chaos set that cannot be played is refused alike by a test batch (the engine app)
and a table (Play): one check, in the engine's adapter, with one code, message and details."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from cod_site.errors import DomainError
from engine import chaos_services as batch_services
from engine.models import ChaosBatch
from play import chaos_services as table_services
from play.models import ChaosTable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

ROOT = Path(__file__).resolve().parents[3]
INCOMPLETE = "'Domania' is incomplete"


def _batch(user: User, set_code: str) -> None:
    batch_services.chaos_batch_create(
        requested_by=user, set_code=set_code, agent_a="greedy", agent_b="greedy", games=1
    )


def _table(user: User, set_code: str) -> None:
    table_services.chaos_table_create(creator=user, opponent="agent", set_code=set_code)


def _refusal(create: Callable[[User, str], None], set_code: str, language: str) -> DomainError:
    user, _created = User.objects.get_or_create(username="tester")
    with translation.override(language), pytest.raises(DomainError) as caught:
        create(user, set_code)
    return caught.value


@pytest.mark.parametrize(
    ("set_code", "language", "code", "message"),
    [
        ("ZZ", "en", "unknown_set", "There is no Duel of Chaos set ZZ."),
        ("ZZ", "fr", "unknown_set", "Il n'y a pas de jeu de cartes Duel of Chaos ZZ."),
        ("ZZ", "sv", "unknown_set", "Det finns ingen Duel of Chaos-sats ZZ."),
        ("DOC", "en", "set_not_playable", "This set cannot be played yet: "),
        ("DOC", "fr", "set_not_playable", "Ce jeu de cartes ne peut pas encore être joué : "),
        ("DOC", "sv", "set_not_playable", "Den här satsen kan inte spelas ännu: "),
    ],
)
def test_a_batch_and_a_table_refuse_a_set_alike(
    set_code: str, language: str, code: str, message: str
) -> None:
    batch = _refusal(_batch, set_code, language)
    table = _refusal(_table, set_code, language)
    assert (batch.code, batch.message, batch.details, batch.status_code) == (
        table.code,
        table.message,
        table.details,
        table.status_code,
    )
    assert (batch.code, batch.details, batch.status_code) == (code, {"set_code": set_code}, 400)
    if code == "unknown_set":
        assert batch.message == message
    else:
        # The engine's reason follows: the first incomplete card of the rulebook's set.
        assert batch.message.startswith(message)
        assert INCOMPLETE in batch.message
    assert ChaosBatch.objects.count() == ChaosTable.objects.count() == 0


def test_the_set_check_is_written_once() -> None:
    """The services call the adapter's check (`engine.adapters.chaos.chaos_set_resolve`);
    neither states the refusals itself."""
    for path in ("engine/chaos_services.py", "play/chaos_services.py"):
        tree = ast.parse((ROOT / path).read_text())
        texts = {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        called = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not texts & {"unknown_set", "set_not_playable"}, path
        assert "chaos_set_resolve" in called, path
