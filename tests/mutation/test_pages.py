"""The Mutation pages, through Django's test client."""

import json

import pytest
from django.test import Client

from mutation import selectors
from mutation.models import CostRule, DraftCard, Mutation, MutationSession
from mutation.qr import qr_svg
from tests.mutation.conftest import card_id, expansion, new_session

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_list_invites_visitors_to_log_in(client) -> None:
    html = client.get("/mutation/").content.decode()
    assert "Log in to organise a session." in html
    assert 'href="/mutation/"' in html  # the nav link


def test_organising_a_session_from_the_page(catalogue, organiser) -> None:
    assert Client().get("/mutation/new/").status_code == 302
    client = logged_in(organiser)
    response = client.post(
        "/mutation/new/",
        {
            "name": "Saturday",
            "expansion_a": expansion("treachery").pk,
            "expansion_b": expansion("resistance").pk,
            "seed": "11",
            "player_1": "Ana",
            "player_2": "Bo",
            "organiser_seat": "3",
        },
    )
    session = MutationSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/mutation/{session.pk}/"
    assert (session.seed, session.seats.get(number=3).user) == (11, organiser)
    html = client.get(response["Location"]).content.decode()
    for seat in session.seats.all():
        assert f"/mutation/join/{seat.join_token}/" in html


def test_the_same_expansion_twice_is_refused_on_the_page(catalogue, organiser) -> None:
    response = logged_in(organiser).post(
        "/mutation/new/",
        {
            "name": "x",
            "expansion_a": expansion("treachery").pk,
            "expansion_b": expansion("treachery").pk,
        },
    )
    assert response.status_code == 200
    assert "A Mutation session mixes two different expansions." in response.content.decode()


def test_a_guest_joins_and_sees_only_their_hand(catalogue, organiser) -> None:
    session = new_session(organiser)
    seat2 = session.seats.get(number=2)
    guest = Client()
    assert guest.get(f"/mutation/{session.pk}/").status_code == 404
    page = guest.get(f"/mutation/join/{seat2.join_token}/").content.decode()
    assert "This link gives you seat 2." in page
    response = guest.post(f"/mutation/join/{seat2.join_token}/", {"name": "Bob"})
    assert response["Location"] == f"/mutation/{session.pk}/"
    html = guest.get(f"/mutation/{session.pk}/draft/").content.decode()
    hands = {
        number: selectors.draft_seat_view(session, session.seats.get(number=number)).hand
        for number in (1, 2, 3, 4)
    }
    for row in hands[2]:
        assert f'data-card="{row.card.slug}"' in html
    for number in (1, 3, 4):
        for row in hands[number]:
            assert f'data-card="{row.card.slug}"' not in html
    # Asking for another seat's hand shows their own instead.
    other = guest.get(f"/mutation/{session.pk}/draft/?seat=1").content.decode()
    assert f'data-card="{hands[1][0].card.slug}"' not in other
    assert f'data-card="{hands[2][0].card.slug}"' in other
    guest.post(f"/mutation/{session.pk}/draft/", {"seat": 2, "card": hands[2][4].card_id})
    row = DraftCard.objects.get(session=session, card_id=hands[2][4].card_id)
    assert (row.picked_by.number, row.pick_number) == (2, 0)
    waiting = guest.get(f"/mutation/{session.pk}/draft/", HTTP_HX_REQUEST="true").content.decode()
    assert "Waiting for seat 1 to pass you the next hand" in waiting
    assert 'hx-trigger="every 3s"' in waiting
    assert "<html" not in waiting


def test_the_organiser_runs_the_draft_on_one_device(catalogue, organiser) -> None:
    session = new_session(organiser)
    client = logged_in(organiser)
    neutral = client.get(f"/mutation/{session.pk}/draft/").content.decode()
    assert "Pass the device" in neutral
    assert "data-card=" not in neutral
    hand = selectors.draft_seat_view(session, session.seats.get(number=3)).hand
    html = client.get(f"/mutation/{session.pk}/draft/?seat=3").content.decode()
    assert html.count("data-card=") == 16
    response = client.post(
        f"/mutation/{session.pk}/draft/", {"seat": 3, "card": hand[0].card_id}, follow=True
    )
    page = response.content.decode()
    assert "Cy picked a card. Pass the device on." in page
    assert "data-card=" not in page


def test_deckbuilding_page(ready_session) -> None:
    client = logged_in(ready_session.organiser)
    seat_cards = list(selectors.seat_pool(ready_session.seats.get(number=2)))
    html = client.get(f"/mutation/{ready_session.pk}/deck/?seat=2").content.decode()
    assert html.count('name="cards"') == 16
    chosen = [row.card_id for row in seat_cards[8:]]
    response = client.post(
        f"/mutation/{ready_session.pk}/deck/?seat=2",
        {"seat": 2, "cards": chosen, "stronghold": card_id("stronghold-resistance")},
    )
    assert response.status_code == 302
    assert set(
        DraftCard.objects.filter(
            picked_by__number=2, session=ready_session, in_deck=True
        ).values_list("card_id", flat=True)
    ) == set(chosen)
    short = client.post(
        f"/mutation/{ready_session.pk}/deck/?seat=2",
        {"seat": 2, "cards": chosen[:7], "stronghold": card_id("stronghold-resistance")},
    )
    assert "A Mutation deck holds exactly 8 cards; this one holds 7." in short.content.decode()


def test_the_workshop_previews_then_glues(ready_session) -> None:
    client = logged_in(ready_session.organiser)
    url = f"/mutation/{ready_session.pk}/workshop/?seat=1"
    page = client.get(url).content.decode()
    assert "The rulebook's own cost table was a picture and is lost" in page
    assert "2.5</strong> of 2.5 Mutation Points left" in page
    target, source = card_id("sylvan-protector"), card_id("democular")
    form = {"target": target, "element": f"{source}:ability:1", "covers": ["2", "3"]}
    preview = client.post(url, form, HTTP_HX_REQUEST="true").content.decode()
    assert "Cost: <strong>1</strong> Mutation Points · left now 2.5, after: 1.5" in preview
    assert "Box 2: Perforation" in preview
    assert Mutation.objects.count() == 0
    wrong = client.post(url, {**form, "covers": ["2"]}, HTTP_HX_REQUEST="true").content.decode()
    assert "An Aura must cover two special ability boxes or another Aura." in wrong
    assert 'value="apply"' not in wrong
    untouched = {"target": target, "element": f"{source}:ability:1"}
    hint = client.post(url, untouched, HTTP_HX_REQUEST="true").content.decode()
    assert "Now tick the ability box it covers (two boxes for an Aura)." in hint
    assert "must cover" not in hint
    done = client.post(url, {**form, "action": "apply"}, follow=True).content.decode()
    assert "Mutation glued on." in done
    mutation = Mutation.objects.get()
    assert (mutation.ability_code, mutation.covers, mutation.phase) == ("aura:berserk", [2, 3], 1)
    assert "1.5</strong> of 2.5 Mutation Points left" in done
    assert 'class="mut-glued"' in done
    refused = client.post(url, {**form, "action": "apply"}, follow=True).content.decode()
    assert "has already been cut out" in refused
    assert Mutation.objects.count() == 1


def test_the_engine_deck_download(ready_session) -> None:
    client = logged_in(ready_session.organiser)
    response = client.get(f"/mutation/{ready_session.pk}/seats/1/engine-deck.json")
    assert response["Content-Disposition"] == (
        f'attachment; filename="mutation-{ready_session.pk}-seat-1.json"'
    )
    names = sorted(card["name"] for card in json.loads(response.content))
    assert names == sorted(
        c.printed.name for c in selectors.deck_cards(ready_session.seats.get(number=1), "en")
    )
    assert Client().get(f"/mutation/{ready_session.pk}/seats/1/engine-deck.json").status_code == 404


def test_the_cost_table_page(ready_session, players) -> None:
    client = logged_in(ready_session.organiser)
    url = f"/mutation/{ready_session.pk}/costs/"
    html = client.get(url).content.decode()
    assert "picture, and that picture is lost" in html
    # One table (the inputs line up), each line named once.
    assert html.count('<table class="mut-table mut-costs">') == 1
    assert html.count(">Mutation Points per Mutation Phase<") == 1
    assert html.count(">+1 attack value<") == 1
    budget = ready_session.cost_rules.get(key="budget")
    client.post(url, {f"points-{budget.pk}": "3"})
    assert CostRule.objects.get(pk=budget.pk).points == 3
    refused = client.post(url, {f"points-{budget.pk}": "3.2"}, follow=True).content.decode()
    assert "Mutation Points come in steps of 0.5" in refused
    seat = ready_session.seats.get(number=1)
    seat.user = players[0]
    seat.save()
    player_view = logged_in(players[0]).get(url).content.decode()
    assert f'name="points-{budget.pk}"' not in player_view
    assert "The organiser of the session can change it." in player_view


def test_results_and_standings_pages(ready_session, players) -> None:
    client = logged_in(ready_session.organiser)
    url = f"/mutation/{ready_session.pk}/schedule/"
    assert client.get(url).content.decode().count('name="winner"') == 24
    client.post(url, {"round": 1, "table": 1, "winner": 2})
    client.post(url, {"round": 1, "table": 2, "winner": 3})
    standings = client.get(f"/mutation/{ready_session.pk}/standings/").content.decode()
    assert "Score grid" in standings
    assert '<abbr title="won">W</abbr> ·' in standings
    seat = ready_session.seats.get(number=4)
    seat.user = players[3]
    seat.save()
    player = logged_in(players[3]).get(url).content.decode()
    # Di plays seat 4: rounds 2-6 have one game of theirs to record (round 1 is recorded).
    assert player.count('name="winner"') == 10


def test_pages_speak_french(ready_session) -> None:
    client = logged_in(ready_session.organiser)
    html = client.get(f"/fr/mutation/{ready_session.pk}/workshop/?seat=1").content.decode()
    assert "Atelier de mutation" in html


def test_saving_the_mutated_deck_from_the_workshop(ready_session) -> None:
    client = logged_in(ready_session.organiser)
    response = client.post(f"/mutation/{ready_session.pk}/seats/2/export/")
    from decks.models import Deck

    deck = Deck.objects.get()
    assert response["Location"] == f"/decks/{deck.share_id}/"
    assert deck.owner == ready_session.organiser
    assert deck.name == "Friday session: mutated deck of Bo"


def test_the_session_names_its_expansions_in_the_page_language(catalogue, organiser) -> None:
    session = new_session(organiser, seed=5)
    client = logged_in(organiser)
    assert "Treachery + Resistance, seed 5" in client.get(f"/mutation/{session.pk}/").text
    french = client.get(f"/fr/mutation/{session.pk}/").text
    assert "Félonie + Résistance" in french


def test_once_every_deck_is_chosen_the_session_leads_to_the_games(ready_session) -> None:
    client = logged_in(ready_session.organiser)
    html = client.get(f"/mutation/{ready_session.pk}/").text
    assert ready_session.status == MutationSession.Status.DECKBUILDING
    assert ">Decks ready</span>" in html and "Build your deck" not in html
    assert f'href="/mutation/{ready_session.pk}/workshop/"' in html
    # Each join link has its copy button.
    for number in (1, 2, 3, 4):
        assert f'data-copy="#join-link-{number}"' in html
    building = new_session(ready_session.organiser, seed=8)
    DraftCard.objects.filter(session=building).update(picked_at=None)
    MutationSession.objects.filter(pk=building.pk).update(
        status=MutationSession.Status.DECKBUILDING
    )
    html = client.get(f"/mutation/{building.pk}/").text
    assert ">Deckbuilding</span>" in html and "Build your deck" in html


def test_each_join_link_has_its_qr_code(catalogue, organiser) -> None:
    session = new_session(organiser)
    html = logged_in(organiser).get(f"/mutation/{session.pk}/").text
    assert html.count('<svg version="1.1" viewBox="0 0 37 37"') == 4
    assert 'id="qr-path"' not in html
    for seat in session.seats.all():
        url = f"http://testserver/mutation/join/{seat.join_token}/"
        label = f"QR code of the join link of seat {seat.number}"
        assert qr_svg(url, label=label) in html
    french = logged_in(organiser).get(f"/fr/mutation/{session.pk}/").text
    assert 'aria-label="QR code du lien d\'invitation de la place 1"' in french
