"""The deck pages, server side: builder panel, saving, deck page, history, lists, accounts."""

import re

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from decks import services
from decks.models import Deck, DeckVersion
from decks.selectors.checks import deck_check
from decks.selectors.formats import format_get
from decks.selectors.lookup import cards_require
from tests.decks.conftest import CONSTRUCTED, PRECON

pytestmark = pytest.mark.usefixtures("cards_db")

PANEL = "/decks/builder/panel/"
SEARCH = "/decks/builder/search/"


def _deck(owner: AbstractBaseUser, visibility: str = "public", **extra: object) -> Deck:
    values = {
        "name": "Teeth",
        "format": format_get(slug="constructed"),
        "cards": cards_require(CONSTRUCTED, "cards"),
    }
    return services.deck_create(owner=owner, visibility=visibility, **{**values, **extra})  # type: ignore[arg-type]


def _cards_in(html: str) -> list[str]:
    return re.findall(r'<input type="hidden" name="card" value="([^"]+)">', html)


def _codes_in(html: str) -> list[str]:
    return re.findall(r'class="deck-error" data-code="([a-z_]+)"', html)


def test_the_builder_opens_for_visitors(client: Client) -> None:
    html = client.get("/decks/new/").content.decode()
    assert "<h1>Deckbuilder</h1>" in html
    assert '<option value="constructed" selected>Constructed</option>' in html
    assert '<option value="constructed-2021">Constructed 2021 (legacy)</option>' in html
    assert 'hx-get="/decks/builder/search/"' in html
    assert "Log in to save" in html
    assert _cards_in(html) == []


def test_the_builder_opens_a_deck_code(client: Client) -> None:
    code = deck_check(format="preconstructed", cards=PRECON[3]).code
    html = client.get(f"/decks/new/?code={code}").content.decode()
    assert '<option value="preconstructed" selected>Preconstructed</option>' in html
    assert sorted(_cards_in(html)) == PRECON[3]
    assert 'data-legal="true"' in html
    assert f'value="{code}"' in html
    broken = client.get(f"/decks/new/?code={code[:-1]}").content.decode()
    assert "This deck code is mistyped: its checksum does not match." in broken


def test_the_builder_starts_a_deck_with_the_cards_asked_for(client: Client) -> None:
    html = client.get("/decks/new/?card=grrr").content.decode()
    assert '<option value="constructed" selected>Constructed</option>' in html
    assert _cards_in(html) == ["grrr"]
    code = deck_check(format="constructed", cards=["grrr"]).code
    assert f'value="{code}"' in html
    unknown = client.get("/decks/new/?card=no-such-card").content.decode()
    assert _cards_in(unknown) == ["no-such-card"]


def test_panel_adds_and_removes_cards_and_errors_come_and_go(client: Client) -> None:
    seven = {"format": "constructed", "card": CONSTRUCTED[:7], "seed": "42"}
    html = client.post(PANEL, seven).content.decode()
    assert _codes_in(html) == ["deck_size"]
    assert "A Constructed deck holds exactly 8 cards; this one holds 7." in html
    html = client.post(PANEL, {**seven, "add": "grrr"}).content.decode()
    assert _cards_in(html) == CONSTRUCTED[:7]  # a card in the deck is not added twice
    html = client.post(PANEL, {**seven, "card": [*CONSTRUCTED[:7], "grrr"]}).content.decode()
    assert _codes_in(html) == ["duplicate_card", "duplicate_card"]  # shown next to both copies
    html = client.post(
        PANEL, {**seven, "card": [*CONSTRUCTED[:7], "grrr"], "remove": "7"}
    ).content.decode()
    assert _codes_in(html) == ["deck_size"]
    html = client.post(PANEL, {**seven, "add": CONSTRUCTED[7]}).content.decode()
    assert _codes_in(html) == []
    assert 'data-legal="true"' in html
    assert "Legal Constructed deck" in html
    assert f'value="{deck_check(format="constructed", cards=CONSTRUCTED).code}"' in html


def test_panel_checks_the_mode_and_shows_figures(client: Client) -> None:
    html = client.post(
        PANEL, {"format": "constructed", "mode": "solo", "card": CONSTRUCTED, "seed": "7"}
    ).content.decode()
    assert _codes_in(html) == ["format_not_allowed_in_mode"]
    assert 'aria-label="Mana curve: 0: 0, 1: 2, 2: 2, 3: 2, 4: 0, 5: 0, 6: 2"' in html
    assert 'aria-label="Card types: Creatures: 6, Incantations: 2"' in html
    assert "Average Mana of the 4 leftmost cards, over all shuffles: <strong>3.00</strong>" in html
    hand = re.findall(r'class="hand-card([^"]*)" data-card="([^"]+)"', html)
    assert sorted(slug for _, slug in hand) == sorted(CONSTRUCTED)
    assert [bool("is-playable" in cls) for cls, _ in hand] == [True] * 4 + [False] * 4
    again = client.post(
        PANEL, {"format": "constructed", "card": CONSTRUCTED, "seed": "7"}
    ).content.decode()
    assert re.findall(r'class="hand-card[^"]*" data-card="([^"]+)"', again) == [
        slug for _, slug in hand
    ]
    shuffled = client.post(
        PANEL, {"format": "constructed", "card": CONSTRUCTED, "seed": "7", "shuffle": "1"}
    ).content.decode()
    assert 'data-seed="7"' not in shuffled


def test_panel_imports_a_list_and_suggests_for_unknown_lines(client: Client) -> None:
    html = client.post(
        PANEL,
        {
            "format": "constructed",
            "card": ["troll"],
            "import": "1",
            "import_text": "Grrr\nBaron\nGrr\n",
        },
    ).content.decode()
    assert _cards_in(html) == ["grrr", "baron"]
    assert "Line 3: “Grr”" in html
    assert re.findall(r'class="link-button suggestion" name="add" value="([^"]+)"', html) == [
        "grrr", "gorger", "growler", "grabber", "ogre",
    ]  # fmt: skip


def test_panel_for_legacy_and_draft_formats(client: Client) -> None:
    legacy = [*PRECON[1], "alpha", "ogre"]
    html = client.post(
        PANEL, {"format": "constructed-2021", "card": legacy, "removed": ["7", "9"]}
    ).content.decode()
    assert re.findall(r'name="removed" value="(\d+)" checked', html) == ["7", "9"]
    assert 'data-legal="true"' in html
    html = client.post(PANEL, {"format": "draft", "card": PRECON[2]}).content.decode()
    assert _codes_in(html) == ["pool_required"]
    assert '<textarea id="deck-pool" name="pool"' in html
    html = client.post(
        PANEL, {"format": "draft", "card": PRECON[2], "pool": "\n".join(PRECON[2])}
    ).content.decode()
    assert _codes_in(html) == []


def test_search_marks_the_decks_cards_shows_stats_and_pages(client: Client) -> None:
    html = client.get(SEARCH, {"q": "grrr", "card": ["grrr", "baron"]}).content.decode()
    assert re.findall(r'<li class="search-result is-in-deck" data-card="([^"]+)"', html) == ["grrr"]
    assert html.count('name="add"') == 4  # no button to add Grrr a second time
    grrr = html[html.index('data-card="grrr"') :]
    assert "Creature · Initiation Pack · <span" in grrr
    assert "⚔ 1</span>" in grrr and "♥ 3</span>" in grrr
    assert '<span class="entry-abilities">Rage</span>' in grrr
    first = client.get(SEARCH, {"q": "type:creature"}).content.decode()
    assert "307 cards · 1–30 shown" in first
    assert "page=2" in first and "page=0" not in first
    last = client.get(SEARCH, {"q": "type:creature", "page": "99"}).content.decode()
    assert "307 cards · 301–307 shown" in last
    assert len(re.findall(r'<li class="search-result', last)) == 7
    assert "page=10" in last and "page=12" not in last


def test_search_uses_the_catalogue_query_language(client: Client) -> None:
    html = client.get("/decks/builder/search/?q=grrr").content.decode()
    assert re.findall(r'data-card="([^"]+)"', html) == [
        "abyssal-grrr",
        "frosted-grrr",
        "grrr",
        "moat-grrr",
        "resentful-grrr",
    ]
    assert "5 cards" in html
    html = client.get("/decks/builder/search/?q=type:incantation cost<=0").content.decode()
    assert all(slug for slug in re.findall(r'data-card="([^"]+)"', html))
    assert (
        "This query cannot be read:"
        in client.get("/decks/builder/search/?q=cost<=").content.decode()
    )
    assert client.get("/decks/builder/search/?q=").content.decode().strip() == ""


def test_visitors_are_sent_to_log_in_with_their_deck(client: Client) -> None:
    response = client.post(
        "/decks/new/", {"format": "constructed", "card": CONSTRUCTED, "name": "x"}
    )
    code = deck_check(format="constructed", cards=CONSTRUCTED).code
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=%2Fdecks%2Fnew%2F%3Fcode%3D{code}"
    assert Deck.objects.count() == 0


def test_save_edit_and_history(client: Client, owner: AbstractBaseUser) -> None:
    client.force_login(owner)
    response = client.post(
        "/decks/new/",
        {
            "name": "Teeth",
            "format": "constructed",
            "visibility": "unlisted",
            "card": CONSTRUCTED,
            "description": "# Plan\n\nHit *hard*.",
        },
    )
    deck = Deck.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/decks/{deck.share_id}/"
    page = client.get(response["Location"]).content.decode()
    assert "Saved as version 1." in page
    assert "<h3>Plan</h3>\n<p>Hit <em>hard</em>.</p>" in page
    assert (
        f'<a class="pnp-link" href="/api/v1/decks/{deck.share_id}/pnp.pdf?lang=en">'
        "Print and Play (PDF)</a>" in page
    )
    assert (deck.visibility, deck.owner) == ("unlisted", owner)
    edit = client.get(f"/decks/{deck.share_id}/edit/").content.decode()
    assert sorted(_cards_in(edit)) == sorted(CONSTRUCTED)
    assert 'value="Teeth"' in edit
    client.post(
        f"/decks/{deck.share_id}/edit/",
        {
            "name": "Teeth",
            "format": "constructed",
            "visibility": "unlisted",
            "card": [*CONSTRUCTED[:7], "vortex"],
        },
    )
    page = client.get(f"/decks/{deck.share_id}/").content.decode()
    assert re.findall(r'<tr data-version="(\d+)">', page) == ["2", "1"]
    diff = client.get(f"/decks/{deck.share_id}/diff/?from=2&to=1").content.decode()
    assert 'data-card="vortex">+ Vortex</li>' in diff
    assert 'data-card="dislocation">− Dislocation</li>' in diff
    restored = client.post(
        f"/decks/{deck.share_id}/versions/1/restore/", follow=True
    ).content.decode()
    assert "Version 1 restored as version 3." in restored
    assert DeckVersion.objects.filter(deck=deck).count() == 3


def test_save_refuses_unknown_cards_and_keeps_the_builder(
    client: Client, owner: AbstractBaseUser
) -> None:
    client.force_login(owner)
    response = client.post(
        "/decks/new/", {"name": "x", "format": "constructed", "card": ["grrr", "not-a-card"]}
    )
    assert response.status_code == 400
    assert "No card is named “not-a-card”." in response.content.decode()
    assert _cards_in(response.content.decode()) == ["grrr", "not-a-card"]
    assert Deck.objects.count() == 0


def test_others_cannot_edit_restore_or_delete(
    client: Client, owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    deck = _deck(owner)
    client.force_login(other)
    assert client.get(f"/decks/{deck.share_id}/edit/").status_code == 404
    assert (
        client.post(f"/decks/{deck.share_id}/edit/", {"name": "x", "card": ["grrr"]}).status_code
        == 404
    )
    client.post(f"/decks/{deck.share_id}/versions/1/restore/")
    client.post(f"/decks/{deck.share_id}/delete/")
    deck.refresh_from_db()
    assert (deck.name, deck.version) == ("Teeth", 1)
    page = client.get(f"/decks/{deck.share_id}/").content.decode()
    assert f'action="/decks/{deck.share_id}/edit/"' not in page
    assert "Restore" not in page


def test_fork_and_delete_from_the_page(
    client: Client, owner: AbstractBaseUser, other: AbstractBaseUser
) -> None:
    deck = _deck(owner)
    client.force_login(other)
    response = client.post(f"/decks/{deck.share_id}/fork/")
    fork = Deck.objects.get(owner=other)
    assert response["Location"] == f"/decks/{fork.share_id}/"
    page = client.get(response["Location"]).content.decode()
    assert f'forked from <a href="/decks/{deck.share_id}/">Teeth</a>' in page
    assert "<h1>Teeth (copy)</h1>" in page
    response = client.post(f"/decks/{fork.share_id}/delete/")
    assert response["Location"] == "/decks/mine/"
    assert not Deck.objects.filter(pk=fork.pk).exists()


def test_a_deck_code_page_needs_no_account(client: Client) -> None:
    code = deck_check(
        format="constructed-2021", cards=[*PRECON[1], "alpha", "ogre"], removed=["troll", "ogre"]
    ).code
    html = client.get(f"/d/{code}").content.decode()
    assert "<h1>A Constructed 2021 (legacy) deck</h1>" in html
    assert len(re.findall(r'class="deck-entry is-removed"', html)) == 2
    assert 'data-legal="true"' in html
    assert f'href="/decks/new/?code={code}"' in html
    bad = client.get(f"/d/{code[:-3]}")
    assert bad.status_code == 400
    assert 'data-reason="checksum"' in bad.content.decode()


def test_public_list_and_filters(client: Client, owner: AbstractBaseUser) -> None:
    _deck(owner, name="Alpha")
    _deck(owner, name="Beta", cards=cards_require(PRECON[1], "cards"))
    _deck(owner, "private", name="Secret")
    html = client.get("/decks/?sort=name").content.decode()
    assert re.findall(r'class="deck-row-name" href="[^"]+">([^<]+)<', html) == ["Alpha", "Beta"]
    assert "Secret" not in html
    partial = client.get("/decks/?card=Dragon émeraude", HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="deck-results"')
    assert re.findall(r'class="deck-row-name" href="[^"]+">([^<]+)<', partial) == ["Alpha"]
    unknown = client.get("/decks/?card=Grr").content.decode()
    assert "No card is named “Grr”." in unknown


def test_my_decks_needs_an_account(client: Client, owner: AbstractBaseUser) -> None:
    assert client.get("/decks/mine/")["Location"] == "/accounts/login/?next=/decks/mine/"
    _deck(owner, "private", name="Secret")
    client.force_login(owner)
    html = client.get("/decks/mine/").content.decode()
    assert "Secret" in html
    assert "visibility-private" in html


def test_the_deck_list_opens_each_preconstructed_deck_from_its_code(client: Client) -> None:
    html = client.get("/decks/").content.decode()
    links = re.findall(r'<a href="/d/([A-Za-z0-9_-]+)">Deck (\d)</a>', html)
    assert [number for _, number in links] == ["1", "2", "3", "4"]
    for code, number in links:
        assert code == deck_check(format="preconstructed", cards=PRECON[int(number)]).code
        page = client.get(f"/d/{code}").content.decode()
        assert "<h1>A Preconstructed deck</h1>" in page
        assert 'data-legal="true"' in page


def test_a_problem_of_the_whole_deck_is_told_once(client: Client) -> None:
    for mixed, outside in (
        ([*PRECON[1][:4], *PRECON[2][:4]], 4),
        ([*PRECON[1][:7], *PRECON[2][:1]], 1),
    ):
        data = {"format": "preconstructed", "card": mixed, "seed": "3"}
        html = client.post(PANEL, data).content.decode()
        assert _codes_in(html) == ["not_a_preconstructed_deck"]
        assert "1 problem" in html
        assert html.count('<li class="deck-error" data-code="not_a_preconstructed_deck">') == 1
        assert html.count('class="deck-entry has-error"') == outside  # the cards outside, marked
        assert 'class="entry-errors"' not in html


def test_the_import_box_takes_a_code_a_share_link_or_a_list(client: Client) -> None:
    code = deck_check(format="preconstructed", cards=PRECON[3]).code
    start = {"format": "constructed", "card": ["grrr"], "seed": "5", "import": "1"}
    for pasted in (code, f"  http://testserver/d/{code}\n", f"https://x.example/fr/d/{code}/"):
        html = client.post(PANEL, {**start, "import_text": pasted}).content.decode()
        assert sorted(_cards_in(html)) == sorted(PRECON[3])
        assert "matched no card" not in html
        # The format select comes along (out of band) with the code's format chosen.
        assert '<select id="deck-format" name="format" hx-swap-oob="true">' in html
        assert '<option value="preconstructed" selected>Preconstructed</option>' in html
    html = client.post(PANEL, {**start, "import_text": "Baron"}).content.decode()
    assert _cards_in(html) == ["baron"]
    assert "hx-swap-oob" not in html
    html = client.post(PANEL, {**start, "import_text": f"http://testserver/d/{code[:-2]}"})
    assert 'class="import-misses" role="alert"' in html.content.decode()
    assert _cards_in(html.content.decode()) == ["grrr"]


def test_a_mistyped_code_in_the_import_box_is_told_as_a_bad_code(client: Client) -> None:
    """Issue 29: a mistyped code read as a card list answered "did you mean Gargoyle?"."""
    code = deck_check(format="preconstructed", cards=PRECON[3]).code
    mistyped = code[:10] + ("B" if code[10] != "B" else "C") + code[11:]
    start = {"format": "constructed", "card": ["grrr"], "seed": "5", "import": "1"}
    html = client.post(PANEL, {**start, "import_text": f" {mistyped}\n"}).content.decode()
    assert (
        '<p class="import-misses" role="alert">'
        "This deck code is mistyped: its checksum does not match.</p>"
    ) in html
    assert "did you mean" not in html
    assert "matched no card" not in html
    assert _cards_in(html) == ["grrr"]
    # A word of a card name is still a card list.
    html = client.post(PANEL, {**start, "import_text": "Gargoyle"}).content.decode()
    assert _cards_in(html) == ["gargoyle"]


def test_the_deck_list_box_opens_a_code_a_share_link_or_a_list_in_the_builder(
    client: Client,
) -> None:
    html = client.get("/decks/").content.decode()
    assert '<form class="paste-box" method="get" action="/decks/new/">' in html
    assert '<textarea id="paste-text" name="paste"' in html
    code = deck_check(format="preconstructed", cards=PRECON[3]).code
    for pasted in (code, f"http://testserver/d/{code}", f"https://x.example/fr/d/{code}/"):
        html = client.get("/decks/new/", {"paste": pasted}).content.decode()
        assert sorted(_cards_in(html)) == sorted(PRECON[3])
        assert '<option value="preconstructed" selected>Preconstructed</option>' in html
        assert html.count('id="deck-format"') == 1
    html = client.get("/decks/new/", {"paste": "2 Baron\nGrrr\nGrr"}).content.decode()
    assert _cards_in(html) == ["baron", "baron", "grrr"]
    assert '<li data-line="3">Line 3: “Grr”' in html
    html = client.get("/fr/decks/").content.decode()
    assert "Ouvrir un code de Deck, un lien de partage ou une liste de cartes" in html


def test_cards_name_their_expansion_not_its_code(client: Client, django_user_model: object) -> None:
    """Issue 29: "Creature · 03" told nothing; the expansion's name in the page's language."""
    code = deck_check(format="constructed", cards=CONSTRUCTED).code
    html = client.get(f"/fr/d/{code}").content.decode()
    assert re.search(r'data-card="grrr">.*?<span class="entry-type">([^<]*)</span>', html, re.S)[
        1
    ] == ("Créature · 1/3 · Pack d&#x27;initiation")
    owner = django_user_model.objects.create_user("ann", password="pw-ann-123456")  # type: ignore[attr-defined]
    deck = _deck(owner)
    html = client.get(f"/d/{code}").content.decode()
    assert "Creature · 1/3 · Initiation Pack</span>" in html
    html = client.get(f"/decks/{deck.share_id}/").content.decode()
    assert "Creature · 1/3 · Initiation Pack</span>" in html
    html = client.get(SEARCH, {"q": "grrr"}).content.decode()
    assert "Creature · Initiation Pack · <span" in html
