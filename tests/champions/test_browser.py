"""The designer in a real browser: live preview and price without a reload, then save."""

import pytest
from django.contrib.auth.models import User

from cards.services import catalogue_load
from champions.models import Champion
from tests.support.database import DATA_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_design_a_champion_with_live_preview(page: object, live_server: object) -> None:
    catalogue_load(data_dir=DATA_DIR)
    User.objects.create_user("ana", password="pw-123456789")
    base = live_server.url  # type: ignore[attr-defined]
    page.goto(f"{base}/accounts/login/?next=/champions/new/")  # type: ignore[attr-defined]
    page.fill("input[name=username]", "ana")  # type: ignore[attr-defined]
    page.fill("input[name=password]", "pw-123456789")  # type: ignore[attr-defined]
    page.click("form [type=submit]")  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/champions/new/")  # type: ignore[attr-defined]

    page.evaluate("window.notReloaded = true")  # type: ignore[attr-defined]
    page.fill("#id_name_en", "Åsa")  # type: ignore[attr-defined]
    page.fill("#id_mana", "8")  # type: ignore[attr-defined]
    page.fill("#id_attack", "5")  # type: ignore[attr-defined]
    page.fill("#id_hp", "5")  # type: ignore[attr-defined]
    price = page.locator("#price")  # type: ignore[attr-defined]
    price.get_by_text("5/5 body: 4").wait_for()
    page.select_option("#id_ability_1", "splash")  # type: ignore[attr-defined]
    page.select_option("#id_ability_2", "aura:rage")  # type: ignore[attr-defined]
    price.get_by_text("Aura: Rage: +2.5").wait_for()
    assert "Suggested cost: 8 Mana" in price.inner_text()
    page.fill("#id_mana", "3")  # type: ignore[attr-defined]
    price.get_by_text("A cost of 3 is 5 less than the suggested 8").wait_for()
    src = page.locator("#preview img").get_attribute("src")  # type: ignore[attr-defined]
    assert src.startswith("data:image/webp;base64,")
    assert page.evaluate("window.notReloaded") is True  # type: ignore[attr-defined]

    page.get_by_role("button", name="Use the suggested cost").click()  # type: ignore[attr-defined]
    price.get_by_text("A cost of 3").wait_for(state="detached")
    assert page.input_value("#id_mana") == "8"  # type: ignore[attr-defined]
    page.click("text=Save Champion")  # type: ignore[attr-defined]
    page.wait_for_url(f"{base}/champions/*/")  # type: ignore[attr-defined]
    champion = Champion.objects.get()
    assert (champion.mana, champion.attack, champion.hp) == (8, 5, 5)
    assert page.locator("h1").inner_text() == "Åsa"  # type: ignore[attr-defined]
    card = page.locator(".champion-card img")  # type: ignore[attr-defined]
    assert page.evaluate("img => img.naturalWidth", card.element_handle()) == 661  # type: ignore[attr-defined]
