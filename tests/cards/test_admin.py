import pytest
from django.test import Client

from cards.models import Card, CardTranslation, CatalogueRevision
from cards.selectors import card_lookup_by_name, card_search
from cards.services import card_search_text_refresh

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def admin_client(client: Client, django_user_model: object) -> Client:
    user = django_user_model.objects.create_superuser("editor", "e@example.org", "pw-123456789")  # type: ignore[attr-defined]
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/admin/cards/card/",
        "/admin/cards/card/?q=dragon",
        "/admin/cards/ability/",
        "/admin/cards/expansion/",
        "/admin/cards/ruleentry/",
        "/admin/cards/cataloguerevision/",
    ],
)
def test_admin_pages_open(admin_client: Client, path: str) -> None:
    assert admin_client.get(path).status_code == 200


def test_card_change_page_shows_its_translations_and_abilities(admin_client: Client) -> None:
    card = Card.objects.get(slug="parasite")
    html = admin_client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    assert 'value="Parasite"' in html
    assert html.count('name="card_abilities-') > 4 * 3


def test_a_swedish_name_added_by_an_editor_is_searchable() -> None:
    card = Card.objects.get(slug="emerald-dragon")
    revisions = CatalogueRevision.objects.count()
    CardTranslation.objects.create(card=card, language_code="sv", name="Smaragddraken")
    assert not card_search("smaragddraken").exists()
    card_search_text_refresh(card=card)
    assert [c.slug for c in card_search("smaragddraken")] == ["emerald-dragon"]
    assert card_lookup_by_name("SMARAGDDRAKEN", "sv") == card
    assert CatalogueRevision.objects.count() == revisions + 1
