"""The Champions API: CRUD and permissions, price, propose, card PNG, PnP PDFs, print jobs."""

import io
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from PIL import Image

from champions import services
from champions.models import Champion, ChampionAbility, PrintJob
from tests.champions.conftest import design, media_files, picture_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

BODY = {
    "names": {"en": "Åsa the Bold", "fr": "Åsa l'Intrépide"},
    "flavours": {"fr": "Ébréchement des murailles."},
    "mana": 8,
    "attack": 5,
    "hp": 5,
    "abilities": ["splash", "aura:rage"],
    "visibility": "public",
}


@pytest.fixture
def ana(owner: object) -> Client:
    client = Client()
    client.force_login(owner)  # type: ignore[arg-type]
    return client


@pytest.fixture
def bo_client(other: object) -> Client:
    client = Client()
    client.force_login(other)  # type: ignore[arg-type]
    return client


def upload(client: Client, uid: str, content: bytes, name: str = "a.png") -> object:
    """PUT a multipart upload (the test client only encodes multipart bodies for POST)."""
    body = encode_multipart(BOUNDARY, {"file": SimpleUploadedFile(name, content)})
    return client.put(
        f"/api/v1/champions/{uid}/illustration/", body, content_type=MULTIPART_CONTENT
    )


def create(client: Client, **changes: object) -> dict:
    response = client.post(
        "/api/v1/champions/", {**BODY, **changes}, content_type="application/json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_price_endpoint_for_anonymous_visitors(client: Client) -> None:
    response = client.post(
        "/api/v1/champions/price/",
        {"attack": 5, "hp": 5, "abilities": ["splash", "aura:rage"]},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json() == {
        "suggested_cost": 8,
        "exact_cost": 7.5,
        "breakdown": [
            {
                "kind": "body",
                "code": "body",
                "label": "5/5 body",
                "cost": 4.0,
                "text": "5/5 body: 4",
            },
            {
                "kind": "ability",
                "code": "splash",
                "label": "Splash",
                "cost": 1.0,
                "text": "Splash: +1",
            },
            {
                "kind": "aura",
                "code": "aura:rage",
                "label": "Aura: Rage",
                "cost": 2.5,
                "text": "Aura: Rage: +2.5",
            },
        ],
        "mana": None,
        "warning": None,
    }


def test_price_in_french_with_a_warning(client: Client) -> None:
    response = client.post(
        "/api/v1/champions/price/?lang=fr",
        {"attack": 4, "hp": 4, "abilities": ["sharpening", "aura:rage"], "mana": 2},
        content_type="application/json",
    )
    body = response.json()
    assert [line["text"] for line in body["breakdown"]] == [
        "Corps 4/4 : 3",
        "Affûtage : +2",
        "Aura : Rage : +2,5",
    ]
    assert (body["exact_cost"], body["suggested_cost"]) == (7.5, 8)
    assert body["warning"] == (
        "Un coût de 2, c'est 6 de moins que les 8 suggérés : ce Champion est trop bon marché."
    )
    swedish = client.post(
        "/api/v1/champions/price/?lang=sv",
        {"attack": 1, "hp": 2, "abilities": ["cursed"]},
        content_type="application/json",
    ).json()
    # No Swedish name for Cursed: the English one (the catalogue's fallback).
    assert [line["text"] for line in swedish["breakdown"]] == ["Kropp 1/2: 0,5", "Cursed: −0,5"]


def test_create_read_update_delete(ana: Client, owner: object, media_root: Path) -> None:
    created = create(ana)
    uid = created["id"]
    assert len(uid) == 11
    assert created["name"] == "Åsa the Bold"
    assert created["names"] == {"en": "Åsa the Bold", "fr": "Åsa l'Intrépide"}
    assert created["flavours"] == {"fr": "Ébréchement des murailles."}
    assert [a["token"] for a in created["abilities"]] == ["splash", "aura:rage"]
    assert created["price"]["suggested_cost"] == 8
    assert created["price"]["warning"] is None
    assert created["owner"] == "ana"
    assert created["links"]["card_png"] == f"http://testserver/api/v1/champions/{uid}/card.png"
    assert created["links"]["page"] == f"http://testserver/champions/{uid}/"

    french = ana.get(f"/api/v1/champions/{uid}/?lang=fr").json()
    assert (french["name"], french["flavour"]) == ("Åsa l'Intrépide", "Ébréchement des murailles.")
    swedish = ana.get(f"/api/v1/champions/{uid}/?lang=sv").json()
    assert (swedish["name"], swedish["flavour"]) == ("Åsa the Bold", "")  # English fallback

    patched = ana.patch(
        f"/api/v1/champions/{uid}/",
        {"names": {"sv": "Åsa den Djärva"}, "attack": 6, "mana": 2},
        content_type="application/json",
    ).json()
    assert patched["names"] == {
        "en": "Åsa the Bold",
        "fr": "Åsa l'Intrépide",
        "sv": "Åsa den Djärva",
    }
    assert (patched["attack"], patched["hp"], patched["mana"]) == (6, 5, 2)
    assert patched["price"]["suggested_cost"] == 8  # 6/5 body 4.5, Splash 1, Aura: Rage 2.5
    assert patched["price"]["warning"] == (
        "A cost of 2 is 6 less than the suggested 8: this Champion is underpriced."
    )

    replaced = ana.put(
        f"/api/v1/champions/{uid}/",
        {"names": {"en": "Plain"}, "mana": 2, "attack": 2, "hp": 2},
        content_type="application/json",
    ).json()
    assert (replaced["names"], replaced["abilities"], replaced["visibility"]) == (
        {"en": "Plain"},
        [],
        "private",
    )
    assert ana.delete(f"/api/v1/champions/{uid}/").status_code == 204
    assert not Champion.objects.filter(uid=uid).exists()
    assert ana.get(f"/api/v1/champions/{uid}/").status_code == 404


def test_visibility_and_permissions(ana: Client, bo_client: Client, client: Client) -> None:
    private = create(ana, visibility="private")["id"]
    unlisted = create(ana, visibility="unlisted")["id"]
    public = create(ana, visibility="public")["id"]
    for reader, expected in ((client, 404), (bo_client, 404), (ana, 200)):
        assert reader.get(f"/api/v1/champions/{private}/").status_code == expected
        assert reader.get(f"/api/v1/champions/{private}/card.png").status_code == expected
    for reader in (client, bo_client, ana):
        assert reader.get(f"/api/v1/champions/{unlisted}/").status_code == 200
        assert reader.get(f"/api/v1/champions/{public}/").status_code == 200
    # The gallery lists only public ones; ?mine=1 lists all of one's own.
    listed = [row["id"] for row in client.get("/api/v1/champions/").json()["results"]]
    assert listed == [public]
    mine = {row["id"] for row in ana.get("/api/v1/champions/?mine=1").json()["results"]}
    assert mine == {private, unlisted, public}
    assert client.get("/api/v1/champions/?mine=1").json()["count"] == 0
    # Writes by others: refused, nothing changed.
    before = Champion.objects.get(uid=public).updated_at
    response = bo_client.patch(
        f"/api/v1/champions/{public}/", {"attack": 1}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert bo_client.delete(f"/api/v1/champions/{public}/").status_code == 403
    assert (
        bo_client.patch(
            f"/api/v1/champions/{private}/", {}, content_type="application/json"
        ).status_code
        == 404
    )
    assert Champion.objects.get(uid=public).updated_at == before
    assert (
        client.post("/api/v1/champions/", BODY, content_type="application/json").status_code == 403
    )


def test_search_by_name_in_any_language(ana: Client, client: Client) -> None:
    create(ana)
    create(ana, names={"en": "Other"})
    assert client.get("/api/v1/champions/?q=intrép").json()["count"] == 1
    assert client.get("/api/v1/champions/?q=zzz").json()["count"] == 0


def test_fork_makes_a_private_copy_with_its_parent(
    ana: Client, bo_client: Client, media_root: Path
) -> None:
    uid = create(ana)["id"]
    assert upload(ana, uid, picture_bytes("PNG")).status_code == 200
    response = bo_client.post(f"/api/v1/champions/{uid}/fork/")
    assert response.status_code == 201
    fork = response.json()
    assert (fork["owner"], fork["parent"], fork["visibility"]) == ("bo", uid, "private")
    assert fork["names"] == {"en": "Åsa the Bold", "fr": "Åsa l'Intrépide"}
    assert [a["token"] for a in fork["abilities"]] == ["splash", "aura:rage"]
    assert fork["illustration"]["width"] == 400
    assert len(media_files(media_root)) == 2  # the fork has its own copy of the picture
    ana.delete(f"/api/v1/champions/{uid}/")
    assert bo_client.get(fork["illustration"]["url"]).status_code == 200


def test_illustration_upload_serve_and_delete(
    ana: Client, client: Client, media_root: Path
) -> None:
    uid = create(ana)["id"]
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"
    response = upload(ana, uid, picture_bytes("JPEG", exif=exif), "photo.jpg")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["illustration"]["width"], body["illustration"]["height"]) == (400, 300)
    [stored] = media_files(media_root)
    assert stored.startswith(f"champions/illustrations/{uid}-") and stored.endswith(".jpg")
    served = client.get(body["illustration"]["url"])
    assert served.status_code == 200 and served["Content-Type"] == "image/jpeg"
    content = b"".join(served.streaming_content)
    assert b"SecretCam" not in content
    assert content == (media_root / stored).read_bytes()

    # A replacement removes the old file once committed.
    with_commit = ana.post(
        f"/api/v1/champions/{uid}/illustration/",
        {"file": SimpleUploadedFile("b.webp", picture_bytes("WEBP", size=(200, 100)))},
    )
    assert with_commit.status_code == 200
    assert ana.delete(f"/api/v1/champions/{uid}/illustration/").status_code == 204
    assert client.get(f"/api/v1/champions/{uid}/illustration/").status_code == 404


def test_old_files_are_deleted_after_commit(
    owner: object, media_root: Path, django_capture_on_commit_callbacks: object
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        champion = services.champion_create(
            owner=owner, design=design(), illustration=io.BytesIO(picture_bytes("PNG"))
        )
    first = media_files(media_root)
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        services.champion_set_illustration(
            champion=champion, actor=owner, illustration=io.BytesIO(picture_bytes("JPEG"))
        )
    second = media_files(media_root)
    assert len(first) == len(second) == 1 and first != second
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        services.champion_delete(champion=champion, actor=owner)
    assert media_files(media_root) == []


def test_card_png_in_each_language_and_preview(ana: Client, client: Client) -> None:
    uid = create(ana)["id"]
    full = client.get(f"/api/v1/champions/{uid}/card.png?lang=fr")
    assert full.status_code == 200 and full["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(full.content)).size == (661, 1028)
    english = client.get(f"/api/v1/champions/{uid}/card.png?lang=en").content
    assert english != full.content  # the name and texts differ
    preview = client.get(f"/api/v1/champions/{uid}/card.png?size=preview", HTTP_ACCEPT="image/png")
    assert Image.open(io.BytesIO(preview.content)).size == (320, 497)
    bad = client.get(f"/api/v1/champions/{uid}/card.png?size=huge", HTTP_ACCEPT="image/png")
    assert bad.status_code == 400
    assert bad["Content-Type"] == "application/json"
    assert bad.json()["code"] == "invalid_size"
    assert client.get(f"/api/v1/champions/{uid}/card.png?lang=de").status_code == 400


def test_pnp_pdf_of_one_champion(ana: Client, client: Client) -> None:
    uid = create(ana)["id"]
    response = client.get(
        f"/api/v1/champions/{uid}/pnp.pdf?paper=letter&copies=12&backs=true&bleed=true&lang=fr",
        HTTP_ACCEPT="application/pdf",
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 4  # 9 + 3 cards, each sheet followed by its backs
    assert (float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)) == (
        612.0,
        792.0,
    )
    with pdfplumber.open(io.BytesIO(response.content)) as document:
        text = document.pages[0].extract_text()
    assert "Åsa l'Intrépide" in text and "Ébréchement des murailles." in text
    too_many = client.get(f"/api/v1/champions/{uid}/pnp.pdf?copies=28")
    assert too_many.status_code == 400
    assert too_many.json()["code"] == "too_many_cards"
    assert client.get(f"/api/v1/champions/{uid}/pnp.pdf?paper=a3").json()["code"] == "invalid"


def test_pnp_pdf_of_several_champions(ana: Client, client: Client) -> None:
    first = create(ana, names={"en": "First"})["id"]
    second = create(ana, names={"en": "Second"})["id"]
    response = client.get(f"/api/v1/champions/pnp.pdf?champions={first}*4,{second}*5")
    assert response.status_code == 200
    with pdfplumber.open(io.BytesIO(response.content)) as document:
        assert len(document.pages) == 1
        text = document.pages[0].extract_text()
    assert text.count("First") == 4 and text.count("Second") == 5
    assert client.get("/api/v1/champions/pnp.pdf?champions=").json()["code"] in (
        "invalid",
        "no_cards",
    )
    assert (
        client.get(f"/api/v1/champions/pnp.pdf?champions={first}*x").json()["code"]
        == "invalid_copies"
    )


def test_propose_is_reproducible_and_links_to_the_designer(client: Client) -> None:
    body = {"mana": 5, "abilities": ["splash"], "seed": "abc"}
    first = client.post("/api/v1/champions/propose/", body, content_type="application/json")
    again = client.post("/api/v1/champions/propose/", body, content_type="application/json")
    assert first.status_code == 200
    assert first.json() == again.json()
    proposal = first.json()
    assert proposal["abilities"][0] == "splash"
    assert proposal["price"]["suggested_cost"] == proposal["price"]["exact_cost"] == 5
    assert proposal["designer_url"] == (
        "http://testserver/champions/new/?propose=5&seed=abc&require=splash"
    )
    unseeded = client.post(
        "/api/v1/champions/propose/", {"mana": 3}, content_type="application/json"
    )
    assert len(unseeded.json()["seed"]) == 8
    refused = client.post(
        "/api/v1/champions/propose/",
        {"mana": 0, "abilities": ["symbiote", "reinforcement"]},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "no_fair_champion"


@pytest.mark.usefixtures("eager_tasks")
def test_print_job_runs_in_process_and_gives_a_download_link(
    ana: Client, bo_client: Client, django_capture_on_commit_callbacks: object
) -> None:
    first = create(ana, names={"en": "First"})["id"]
    second = create(ana, names={"en": "Second"}, visibility="private")["id"]
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = ana.post(
            "/api/v1/champions/print-jobs/",
            {
                "items": [{"champion": first, "copies": 30}, {"champion": second, "copies": 7}],
                "paper": "a4",
                "backs": True,
            },
            content_type="application/json",
        )
    assert response.status_code == 202
    job_id = response.json()["id"]
    status = ana.get(f"/api/v1/champions/print-jobs/{job_id}/").json()
    assert (status["status"], status["card_count"], status["page_count"]) == ("done", 37, 10)
    assert status["download_url"] == (
        f"http://testserver/api/v1/champions/print-jobs/{job_id}/download.pdf"
    )
    download = ana.get(status["download_url"])
    assert download.status_code == 200
    pdf = b"".join(download.streaming_content)
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        assert len(document.pages) == 10
        texts = [page.extract_text() for page in document.pages[::2]]
    assert sum(text.count("First") for text in texts) == 30
    assert sum(text.count("Second") for text in texts) == 7
    # Someone else's job is not found; someone else's private Champion cannot be printed.
    assert bo_client.get(f"/api/v1/champions/print-jobs/{job_id}/").status_code == 404
    jobs = PrintJob.objects.count()
    refused = bo_client.post(
        "/api/v1/champions/print-jobs/",
        {"items": [{"champion": second, "copies": 1}]},
        content_type="application/json",
    )
    assert refused.status_code == 404
    assert PrintJob.objects.count() == jobs


def test_print_job_limits(ana: Client) -> None:
    uid = create(ana)["id"]
    response = ana.post(
        "/api/v1/champions/print-jobs/",
        {"items": [{"champion": uid, "copies": 91}]},
        content_type="application/json",
    )
    assert response.json()["code"] == "invalid_copies"
    response = ana.post(
        "/api/v1/champions/print-jobs/",
        {"items": [{"champion": uid, "copies": 90}] * 11},
        content_type="application/json",
    )
    assert response.json()["code"] == "too_many_cards"
    assert PrintJob.objects.count() == 0


def test_admin_edited_costs_change_prices(ana: Client) -> None:
    from cards.models import Ability

    uid = create(ana)["id"]
    Ability.objects.filter(code="splash").update(creature_cost=3)
    assert ana.get(f"/api/v1/champions/{uid}/").json()["price"]["exact_cost"] == 9.5
    Ability.objects.filter(code="rage").update(can_be_aura=False)
    # The stored design is no longer possible: no price, no crash.
    assert ana.get(f"/api/v1/champions/{uid}/").json()["price"] is None
    assert ChampionAbility.objects.filter(champion__uid=uid).count() == 2


def test_a_print_job_whose_champion_vanished_fails_with_the_reason(owner: object) -> None:
    from champions.pnp import SheetOptions

    champion = services.champion_create(owner=owner, design=design())
    # Inside the test transaction the task (queued on commit) does not run yet.
    job = services.print_job_create(
        owner=owner, items=[(champion.uid, 3)], options=SheetOptions(), language="fr"
    )
    services.champion_delete(champion=champion, actor=owner)
    finished = services.print_job_run(job_id=str(job.pk))
    assert (finished.status, finished.error) == ("failed", f"Aucun Champion {champion.uid}.")
    assert not finished.file


def test_admin_lists_champions_and_print_jobs(owner: object, django_user_model: object) -> None:
    services.champion_create(owner=owner, design=design())
    admin = django_user_model.objects.create_superuser("root", password="pw-123456789")  # type: ignore[attr-defined]
    client = Client()
    client.force_login(admin)
    for url in ("/admin/champions/champion/", "/admin/champions/printjob/"):
        assert client.get(url).status_code == 200
    champion = Champion.objects.get()
    page = client.get(f"/admin/champions/champion/{champion.pk}/change/")
    assert page.status_code == 200
    assert "Åsa l&#x27;Intrépide" in page.content.decode()
