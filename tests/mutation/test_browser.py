"""A phone at the table: join a seat by its link, pick a card in the draft, glue one mutation."""

import re

import pytest

from mutation.models import DraftCard, Mutation
from tests.mutation.conftest import new_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def catalogue(committed_catalogue: None) -> None:
    """These tests run on committed data: the module-wide rolled-back catalogue would not do."""


def join(page, live_server, seat) -> None:
    page.goto(f"{live_server.url}/mutation/join/{seat.join_token}/")
    page.get_by_role("button", name=f"Take seat {seat.number}").click()
    page.wait_for_url(re.compile(r"/mutation/\d+/$"))


def test_a_draft_pick_and_a_mutation_from_the_pages(page, live_server, ready_session) -> None:
    page.set_viewport_size({"width": 390, "height": 844})

    # The draft: a guest takes seat 2 with its link and picks a card by tapping it.
    drafting = new_session(ready_session.organiser, seed=9)
    join(page, live_server, drafting.seats.get(number=2))
    page.get_by_role("link", name="Draft").first.click()
    assert page.locator("h2").inner_text() == "Bo: pick 1 of 16"
    cards = page.locator("button.mut-pick")
    assert cards.count() == 16
    chosen = cards.nth(5).get_attribute("data-card")
    cards.nth(5).click()
    page.get_by_text("Waiting for seat 1 to pass you the next hand").wait_for()
    row = DraftCard.objects.get(session=drafting, card__slug=chosen)
    assert (row.picked_by.number, row.pick_number) == (2, 0)

    # The workshop: seat 1 of a session whose decks are built glues Titan's HP on Mad scientist.
    join(page, live_server, ready_session.seats.get(number=1))
    page.goto(f"{live_server.url}/mutation/{ready_session.pk}/workshop/")
    assert "2.5 of 2.5 Mutation Points left" in page.locator(".mut-budget").inner_text()
    page.locator("label.mut-choice", has_text="Mad scientist").locator("input").check()
    titan = page.locator(".mut-lab-card", has_text="Titan")
    titan.locator("label", has_text="HP value").locator("input").check()
    quote = page.locator(".mut-quote")
    quote.get_by_text("Cost: 1.5 Mutation Points").wait_for()
    assert "left now 2.5, after: 1" in quote.inner_text()
    assert Mutation.objects.count() == 0
    quote.get_by_role("button", name="Confirm: cut and glue").click()
    page.get_by_text("Mutation glued on.").wait_for()
    mutation = Mutation.objects.get()
    assert (mutation.target.card.slug, mutation.element, mutation.value_after) == (
        "mad-scientist",
        "hp",
        8,
    )
    assert "1 of 2.5 Mutation Points left" in page.locator(".mut-budget").inner_text()
    glued = page.locator("label.mut-choice", has_text="Mad scientist").locator(".mut-glued")
    assert glued.inner_text().startswith("♥")
    assert titan.locator("label", has_text="HP value").locator("input").is_disabled()


def test_the_join_links_show_qr_codes_on_a_phone(page, live_server, catalogue, organiser) -> None:
    session = new_session(organiser)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/?next=/mutation/{session.pk}/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw-orga-123456")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/mutation/{session.pk}/")
    for number in (1, 2, 3, 4):
        code = page.get_by_role("img", name=f"QR code of the join link of seat {number}")
        code.scroll_into_view_if_needed()
        box = code.bounding_box()
        # 7rem square, on screen, and the page does not scroll sideways for it.
        assert (round(box["width"]), round(box["height"])) == (112, 112)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") == 390
