"""Champion pages: gallery, my Champions, the designer with its htmx preview, the Champion page,
fork/delete, printing several Champions; in English, French and Swedish."""

import base64
import io
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from champions import services
from champions.models import Champion, PrintJob, Visibility
from tests.champions.conftest import design, media_files, picture_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]


@pytest.fixture
def ana(owner: object) -> Client:
    client = Client()
    client.force_login(owner)  # type: ignore[arg-type]
    return client


def form(**changes: object) -> dict:
    data = {
        "name_en": "Åsa",
        "name_fr": "Åsa la Brave",
        "flavour_fr": "Ébréchement.",
        "mana": "8",
        "attack": "5",
        "hp": "5",
        "ability_1": "splash",
        "ability_2": "aura:rage",
        "visibility": "public",
        "illustration_x": "50",
        "illustration_y": "50",
        "illustration_zoom": "100",
    }
    data.update(changes)
    return data


def preview_image(html: str) -> Image.Image:
    match = re.search(r'src="data:image/webp;base64,([^"]+)"', html)
    assert match, html
    return Image.open(io.BytesIO(base64.b64decode(match.group(1))))


def test_gallery_lists_public_champions_only(owner: object, client: Client) -> None:
    public = services.champion_create(owner=owner, design=design(visibility="public"))
    services.champion_create(
        owner=owner, design=design(visibility="unlisted", names={"en": "Hidden"})
    )
    html = client.get("/champions/").content.decode()
    assert f'href="/champions/{public.uid}/"' in html
    assert "Hidden" not in html
    assert f"/api/v1/champions/{public.uid}/card.png?size=preview&amp;lang=en" in html
    partial = client.get("/champions/?q=zzz", HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="champion-grid">')
    assert "No Champions here yet." in partial


def test_pages_in_french_and_swedish(owner: object, client: Client) -> None:
    services.champion_create(owner=owner, design=design(visibility="public"))
    french = client.get("/fr/champions/").content.decode()
    assert '<html lang="fr">' in french
    assert "Concevoir un Champion" in french
    assert "Åsa l'Intrépide" in french or "Åsa l&#x27;Intrépide" in french
    swedish = client.get("/sv/champions/").content.decode()
    assert "Designa en Champion" in swedish
    assert "Åsa the Bold" in swedish  # no Swedish name: English


def test_my_champions_needs_a_login_and_shows_every_visibility(
    ana: Client, owner: object, client: Client
) -> None:
    assert client.get("/champions/mine/").status_code == 302
    for visibility in Visibility.values:
        services.champion_create(
            owner=owner, design=design(visibility=visibility, names={"en": f"V-{visibility}"})
        )
    html = ana.get("/champions/mine/").content.decode()
    assert all(f"V-{visibility}" in html for visibility in Visibility.values)


def test_designer_starts_from_a_shared_proposal(ana: Client) -> None:
    response = ana.get("/champions/new/?propose=6&seed=shared&require=splash")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="splash" selected' in html
    assert "seed shared" in html
    assert "Suggested cost: <strong>6</strong> Mana" in html
    assert preview_image(html).size == (485, 754)  # 56 × 87 mm at 220 dpi


def test_live_preview_prices_and_draws_without_saving(ana: Client) -> None:
    response = ana.post("/champions/designer/preview/", form(mana="3"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<div id="preview"')
    assert "<li>5/5 body: 4</li>" in html
    assert "<li>Splash: +1</li>" in html
    assert "<li>Aura: Rage: +2.5</li>" in html
    assert "Suggested cost: <strong>8</strong> Mana" in html
    assert "A cost of 3 is 5 less than the suggested 8: this Champion is underpriced." in html
    preview_image(html)
    # The breakdown speaks the page's language; the preview language only changes the card.
    french = ana.post(
        "/fr/champions/designer/preview/", form(preview_language="sv"), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "<li>Corps 5/5 : 4</li>" in french
    assert preview_image(french).tobytes() != preview_image(html).tobytes()
    assert Champion.objects.count() == 0


def test_live_preview_explains_an_impossible_design(ana: Client) -> None:
    html = ana.post("/champions/designer/preview/", form(ability_3="aura:splash")).content.decode()
    assert "A Champion can have only one Aura; Aura: Rage, Aura: Splash were given." in html
    html = ana.post("/champions/designer/preview/", form(attack="")).content.decode()
    assert "Fill in the name, cost, attack and HP to see the card." in html


def test_draft_picture_then_save(ana: Client, media_root: Path) -> None:
    response = ana.post(
        "/champions/designer/illustration/",
        {"illustration": SimpleUploadedFile("me.png", picture_bytes("PNG", size=(600, 500)))},
    )
    assert response["HX-Trigger-After-Swap"] == "champion-preview"
    assert "HX-Trigger" not in response
    token = re.search(r'name="draft_illustration" value="([^"]+)"', response.content.decode())[1]
    assert media_files(media_root) == []  # a draft lives in the cache only
    plain = preview_image(
        ana.post("/champions/designer/preview/", form()).content.decode()
    ).tobytes()
    with_picture = preview_image(
        ana.post("/champions/designer/preview/", form(draft_illustration=token)).content.decode()
    ).tobytes()
    assert plain != with_picture
    saved = ana.post("/champions/new/", form(draft_illustration=token))
    champion = Champion.objects.get()
    assert saved.status_code == 302 and saved["Location"] == f"/champions/{champion.uid}/"
    assert (champion.illustration_width, champion.illustration_height) == (600, 500)
    assert len(media_files(media_root)) == 1
    expired = ana.post("/champions/new/", form(draft_illustration="gone"))
    assert expired.status_code == 400
    assert (
        "The uploaded picture is no longer available: choose it again." in expired.content.decode()
    )


def test_create_with_a_plain_form_upload_then_edit(ana: Client, media_root: Path) -> None:
    response = ana.post(
        "/champions/new/",
        form(illustration=SimpleUploadedFile("x.jpg", picture_bytes("JPEG"))),
    )
    champion = Champion.objects.get()
    assert response["Location"] == f"/champions/{champion.uid}/"
    assert [row.language_code for row in champion.translations.order_by("language_code")] == [
        "en",
        "fr",
    ]
    edit = ana.get(f"/champions/{champion.uid}/edit/").content.decode()
    assert 'value="Åsa la Brave"' in edit
    assert 'value="aura:rage" selected' in edit
    assert "Remove the illustration" in edit
    ana.post(
        f"/champions/{champion.uid}/edit/",
        form(name_sv="Åsa den Modiga", remove_illustration="on", attack="6"),
    )
    champion.refresh_from_db()
    assert champion.attack == 6 and not champion.illustration
    assert champion.translations.get(language_code="sv").name == "Åsa den Modiga"


def test_champion_page_with_social_preview_and_print_form(owner: object, client: Client) -> None:
    champion = services.champion_create(owner=owner, design=design(visibility="unlisted"))
    html = client.get(f"/champions/{champion.uid}/").content.decode()
    assert (
        f'<meta property="og:image" content="http://testserver/api/v1/champions/{champion.uid}'
        '/card.png?size=preview&amp;lang=en">'
    ) in html
    assert '<meta name="robots" content="noindex">' in html
    assert f'action="/api/v1/champions/{champion.uid}/pnp.pdf"' in html
    # 4/4 body 3, Splash 1, Aura: Rage 2.5 = 6.5 → 7, two more than the chosen 5.
    assert "Suggested cost: <strong>7</strong> Mana" in html
    assert "A cost of 5 is 2 less than the suggested 7: this Champion is underpriced." in html
    assert "Edit" not in html  # a visitor cannot edit
    french = client.get(f"/fr/champions/{champion.uid}/").content.decode()
    assert "Åsa l&#x27;Intrépide" in french


def test_private_champions_are_not_found_by_others(
    owner: object, other: object, client: Client
) -> None:
    champion = services.champion_create(owner=owner, design=design())
    assert client.get(f"/champions/{champion.uid}/").status_code == 404
    client.force_login(other)  # type: ignore[arg-type]
    assert client.get(f"/champions/{champion.uid}/").status_code == 404
    assert client.get(f"/champions/{champion.uid}/edit/").status_code == 404
    assert client.post(f"/champions/{champion.uid}/delete/").status_code == 404
    assert Champion.objects.filter(pk=champion.pk).exists()


def test_fork_and_delete_from_the_pages(
    ana: Client, owner: object, other: object, client: Client
) -> None:
    original = services.champion_create(owner=other, design=design(visibility="public"))
    response = ana.post(f"/champions/{original.uid}/fork/")
    fork = Champion.objects.get(owner=owner)
    assert response["Location"] == f"/champions/{fork.uid}/edit/"
    assert fork.parent == original
    assert ana.post(f"/champions/{fork.uid}/delete/")["Location"] == "/champions/mine/"
    assert not Champion.objects.filter(pk=fork.pk).exists()


@pytest.mark.usefixtures("eager_tasks")
def test_print_several_champions_through_a_job(
    ana: Client, owner: object, django_capture_on_commit_callbacks: object
) -> None:
    first = services.champion_create(owner=owner, design=design(names={"en": "First"}))
    second = services.champion_create(owner=owner, design=design(names={"en": "Second"}))
    page = ana.get("/champions/print/").content.decode()
    assert f'name="copies_{first.uid}"' in page and f'name="copies_{second.uid}"' in page
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = ana.post(
            "/champions/print/",
            {f"copies_{first.uid}": "10", f"copies_{second.uid}": "2", "paper": "letter"},
        )
    job = PrintJob.objects.get()
    assert response["Location"] == f"/champions/print/{job.pk}/"
    html = ana.get(response["Location"]).content.decode()
    assert "12 cards — Ready" in html
    assert f'href="/api/v1/champions/print-jobs/{job.pk}/download.pdf"' in html
    assert "(2 pages)" in html
    assert "hx-trigger" not in html  # finished: no more polling
    empty = ana.post("/champions/print/", {"paper": "a4"})
    assert empty.status_code == 400
    assert "Choose at least one Champion to print." in empty.content.decode()
