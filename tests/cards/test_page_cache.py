"""Card pages and searches kept per catalogue revision (cards/page_cache.py): what must show.

Every test starts with an empty cache (tests/conftest.py), then asks a page once to fill it, so
the second answer is the cached one.
"""

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from cards import page_cache
from cards.models import Card
from cards.services import catalogue_load
from tests.cards.conftest import DATA_DIR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

SEARCH = {"q": "ab:perforation cost>=4"}
COUNT = re.compile(r'data-count="(\d+)"')


def count(html: str) -> int:
    found = COUNT.search(html)
    assert found is not None
    return int(found.group(1))


class _FormFields(HTMLParser):
    """The values a browser would post from the page's form with id `form_id`."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = values.get("id") == self.form_id
        if not self.inside or ("name" not in values and tag != "option"):
            return
        if tag == "input" and values.get("type") not in ("submit", "button", "file"):
            if values.get("type") != "checkbox" or "checked" in values:
                self.data[values["name"]] = values.get("value", "on")
        elif tag == "select":
            self._select = values["name"]
            self.data.setdefault(self._select, "")
        elif tag == "option" and self._select and "selected" in values:
            self.data[self._select] = values.get("value", "")
        elif tag == "textarea":
            self._textarea = values["name"]
            self.data[self._textarea] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data


def change_form(client: Client, url: str, form_id: str) -> dict[str, str]:
    parser = _FormFields(form_id)
    parser.feed(client.get(url).content.decode())
    return parser.data


@pytest.fixture
def editor(django_user_model: object) -> object:
    return django_user_model.objects.create_superuser("editor", "e@example.org", "pw-123456789")  # type: ignore[attr-defined]


def test_an_admin_edit_of_a_card_shows_at_once(client: Client, editor: object) -> None:
    card = Card.objects.get(slug="parasite")
    page = client.get("/cards/parasite/").content.decode()
    assert "<title>Parasite · cod_site</title>" in page
    assert "Parasitoid" not in client.get("/cards/", SEARCH).content.decode()

    client.force_login(editor)
    url = f"/admin/cards/card/{card.pk}/change/"
    data = change_form(client, url, "card_form")
    english = next(k for k, v in data.items() if k.endswith("-language_code") and v == "en")
    data[english.replace("-language_code", "-name")] = "Parasitoid"
    data["mana"] = "9"
    assert client.post(url, data).status_code == 302
    client.logout()

    page = client.get("/cards/parasite/").content.decode()
    assert "<title>Parasitoid · cod_site</title>" in page
    assert '<dd class="stat-mana">9</dd>' in page
    results = client.get("/cards/", SEARCH).content.decode()
    assert 'data-slug="parasite"' in results and ">Parasitoid</h3>" in results


def test_cards_deleted_in_the_admin_list_leave_the_pages_at_once(
    client: Client, editor: object
) -> None:
    before = count(client.get("/cards/", SEARCH).content.decode())
    assert client.get("/cards/parasite/").status_code == 200

    client.force_login(editor)
    parasite = Card.objects.get(slug="parasite")
    answer = client.post(
        "/admin/cards/card/",
        {"action": "delete_selected", "_selected_action": [parasite.pk], "post": "yes"},
    )
    assert answer.status_code == 302 and not Card.objects.filter(slug="parasite").exists()
    client.logout()

    assert client.get("/cards/parasite/").status_code == 404
    assert count(client.get("/cards/", SEARCH).content.decode()) == before - 1


def test_load_catalogue_changes_show_at_once(client: Client, tmp_path: Path) -> None:
    assert '<dd class="stat-mana">4</dd>' in client.get("/cards/parasite/").content.decode()
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    cards_csv = data / "cards.csv"
    text = cards_csv.read_text(encoding="utf-8")
    row = "00,1,Parasite,Parasite,creature,"
    cards_csv.write_text(text.replace(f"{row}4,", f"{row}7,", 1), encoding="utf-8")

    assert catalogue_load(data_dir=data).updated["card"] == 1

    assert '<dd class="stat-mana">7</dd>' in client.get("/cards/parasite/").content.decode()


def test_each_language_has_its_own_page(client: Client) -> None:
    assert '<html lang="en">' in client.get("/cards/parasite/").content.decode()
    french = client.get("/fr/cards/parasite/").content.decode()
    assert '<html lang="fr">' in french and "Deck pré-construit 3" in french
    english_results = client.get("/cards/", SEARCH).content.decode()
    french_results = client.get("/fr/cards/", SEARCH).content.decode()
    assert 'href="/cards/?q=' in english_results and 'href="/cards/?q=' not in french_results
    assert 'href="/fr/cards/?q=' in french_results


def test_the_visitor_parts_of_a_cached_page_are_each_visitors_own(
    client: Client, django_user_model: object
) -> None:
    assert "Log in" in client.get("/cards/parasite/").content.decode()
    for name in ("alice", "bob"):
        user = django_user_model.objects.create_user(name, f"{name}@example.org", "pw-123456789")  # type: ignore[attr-defined]
        client.force_login(user)
        page = client.get("/cards/parasite/").content.decode()
        assert f'class="whoami" href="/accounts/">{name}</a>' in page
        assert ({"alice", "bob"} - {name}).pop() not in page
    tokens = {
        re.findall(r'"X-CSRFToken": "(\w+)"', Client().get("/cards/parasite/").content.decode())[0]
        for _ in range(2)
    }
    assert len(tokens) == 2


def test_htmx_and_full_pages_are_kept_apart(client: Client) -> None:
    full = client.get("/cards/", SEARCH).content.decode()
    assert full.startswith("<!doctype html>")
    fragment = client.get("/cards/", SEARCH, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment and 'hx-swap-oob="true"' in fragment
    assert count(fragment) == count(full)
    typing = client.get(
        "/cards/", SEARCH, headers={"HX-Request": "true", "HX-Trigger": "card-search"}
    ).content.decode()
    assert 'id="card-query"' in fragment and 'id="card-query"' not in typing


def test_a_query_error_stays_a_400_when_cached(client: Client) -> None:
    for _ in range(2):
        answer = client.get("/cards/", {"q": "cost<<3"})
        assert answer.status_code == 400
        assert "This query cannot be read:" in answer.content.decode()


def test_a_cached_page_costs_one_query(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    client.get("/cards/parasite/")
    client.get("/cards/", SEARCH)
    # The catalogue's revision, which says whether the kept page is still current.
    with django_assert_num_queries(1):
        assert client.get("/cards/parasite/").status_code == 200
    with django_assert_num_queries(1):
        assert client.get("/cards/", SEARCH).status_code == 200


def test_a_deployment_that_changes_a_template_renders_its_own_pages(tmp_path: Path) -> None:
    app = tmp_path / "cards"
    shutil.copytree(
        Path(page_cache.__file__).parent, app, ignore=shutil.ignore_patterns("__pycache__")
    )
    assert page_cache.CODE_VERSION.startswith(f"{page_cache.code_digest(app)}-")
    face = app / "templates" / "cards" / "_card_face.html"
    face.write_text(face.read_text(encoding="utf-8") + "<!-- new -->", encoding="utf-8")
    changed = page_cache.code_digest(app)
    assert not page_cache.CODE_VERSION.startswith(changed)
    (app / "static.css").write_text("a { color: red }", encoding="utf-8")
    assert page_cache.code_digest(app) == changed
