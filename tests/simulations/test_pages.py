"""The pages: "Test this deck" from a deck page, the batch page with its progress and results,
the replay viewer, in English, French and Swedish."""

import re
from typing import Any

import pytest
from django.test import Client

from decks.models import Deck
from engine import selectors, services
from engine.models import SimulationBatch, SimulationSeat, Status
from tests.decks.conftest import PRECON
from tests.simulations.conftest import InlineExecutor, create_batch, make_deck, run_chunks

pytestmark = pytest.mark.usefixtures("cards_db")


def _batch(owner: Any, deck: Deck) -> SimulationBatch:
    return create_batch(owner, deck, 30, opponent=4, seed=5)


def test_the_deck_page_offers_to_test_a_legal_deck(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    html = owner_client.get(f"/decks/{precon_deck.share_id}/").content.decode()
    assert f'href="/simulations/new/?deck={precon_deck.share_id}"' in html
    assert "Test this deck" in html
    illegal = make_deck(owner, PRECON[3][:7], name="Seven")
    html = owner_client.get(f"/decks/{illegal.share_id}/").content.decode()
    assert "Test this deck" not in html


def test_the_form_queues_a_batch_and_shows_it(
    owner_client: Client,
    owner: Any,
    other: Any,
    precon_deck: Deck,
    inline_chunks: InlineExecutor,
    django_capture_on_commit_callbacks: Any,
) -> None:
    public = make_deck(other, PRECON[2], name="Oscar's public", visibility="public")
    page = owner_client.get(f"/simulations/new/?deck={precon_deck.share_id}").content.decode()
    assert f'<option value="{precon_deck.share_id}" selected>' in page
    assert "Oscar&#x27;s public (oscar)" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(
            f"/simulations/new/?deck={precon_deck.share_id}",
            {
                "deck": precon_deck.share_id,
                "opponent": "public",
                "opponent_public": public.share_id,
                "agent": "random",
                "games": "24",
            },
        )
    batch = SimulationBatch.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/simulations/{batch.pk}/"
    assert list(batch.seats.values_list("deck_id", "agent")) == [
        (precon_deck.pk, "random"), (public.pk, "random"),
    ]  # fmt: skip
    assert batch.games == 24
    html = owner_client.get(response["Location"]).content.decode()
    assert '<progress id="batch-progress-bar" max="24" value="24"' in html
    assert 'id="win-rate-chart"' in html and 'id="length-chart"' in html
    assert "hx-trigger" not in html  # done: the page stops polling
    assert html.count('class="histogram-bar"') == len(
        selectors.simulation.histogram(selectors.batch_summary(batch).turns)  # type: ignore[union-attr]
    )
    assert 'data-card="Troll"' in html and "Cards of deck A" in html
    assert html.count('<tr data-card="') == 16


def test_form_errors_are_shown_and_nothing_is_queued(
    owner_client: Client, precon_deck: Deck
) -> None:
    response = owner_client.post(
        "/simulations/new/",
        {"deck": precon_deck.share_id, "opponent": "code", "opponent_code": "AQAB!!",
         "agent": "greedy", "games": "10"},
    )  # fmt: skip
    assert response.status_code == 400
    assert "A deck code holds only letters, digits" in response.content.decode()
    response = owner_client.post(
        "/simulations/new/",
        {"deck": precon_deck.share_id, "opponent": "code", "agent": "greedy", "games": "0"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Choose the opponent" in html
    assert "Ensure this value is greater than or equal to 1." in html
    assert not SimulationBatch.objects.exists()


def test_the_progress_part_polls_until_the_batch_is_over(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    services.chunk_run(batch_id=batch.pk, index=0)
    part = owner_client.get(f"/simulations/{batch.pk}/progress/").content.decode()
    assert 'hx-trigger="every 1s"' in part
    assert '<progress id="batch-progress-bar" max="30" value="10"' in part
    assert "10 of 30 games played" in part and "33.3 %" in part
    assert "win-rate-chart" not in part
    run_chunks(batch)
    part = owner_client.get(f"/simulations/{batch.pk}/progress/").content.decode()
    assert "hx-trigger" not in part and "win-rate-chart" in part


def test_the_pages_show_every_deck_a_batch_has(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    """Three decks (no playable mode seats three yet, so the rows are written here): every
    page lists each deck with its letter, AI and results."""
    seat_a, seat_b = _batch(owner, precon_deck).seats.all()
    batch = SimulationBatch.objects.create(
        requested_by=owner, mode="three", games=3, chunk_size=3, seed=1, rules_version="test",
        status=Status.DONE, games_done=3, chunks_done=1,
        totals={
            "games": 3, "wins": [1, 1, 0], "draws": 1, "first_games": [1, 1, 1],
            "first_wins": [1, 0, 0], "turns": {"9": 2, "201": 1},
            "ends": {"fort_destroyed": 2, "empty_hand_bastion": 0, "empty_hand_fort": 0,
                     "turn_limit": 1},
            "cards": [{}, {}, {"Ogre": {"played": 2, "wins": 0, "damage": 7}}],
        },
    )  # fmt: skip
    decks = ((seat_a, "greedy"), (seat_b, "random"), (seat_b, "lookahead"))
    for index, (seat, agent) in enumerate(decks):
        SimulationSeat.objects.create(
            batch=batch, index=index, source=seat.source, deck=seat.deck, code=seat.code,
            name=seat.name, preconstructed=seat.preconstructed, agent=agent, cards=seat.cards,
            slugs=seat.slugs, champion=None,
        )  # fmt: skip
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    title = "Olga&#x27;s deck 1 against Preconstructed deck 4, Preconstructed deck 4"
    assert f"<h1>{title}</h1>" in html
    assert re.findall(r'<div data-deck="(\w)"><dt>Deck (\w)</dt>', html) == [
        ("a", "A"), ("b", "B"), ("c", "C"),
    ]  # fmt: skip
    assert "Lookahead (slow)" in html
    assert re.findall(r'<tr data-deck="(\w)">', html) == ["a", "b", "c"]
    assert "Cards of deck C · Preconstructed deck 4" in html
    assert html.count('class="rate-row"') == 4  # each deck's wins, and the first player's
    assert "Deck C wins" in html
    assert title in owner_client.get("/simulations/").content.decode()


def test_cancel_from_the_page(owner_client: Client, owner: Any, precon_deck: Deck) -> None:
    batch = _batch(owner, precon_deck)
    response = owner_client.post(f"/simulations/{batch.pk}/cancel/")
    assert response.status_code == 302
    batch.refresh_from_db()
    assert batch.status == Status.CANCELLED
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "No game was played." in html


def test_the_batch_list(owner_client: Client, owner: Any, precon_deck: Deck) -> None:
    batch = _batch(owner, precon_deck)
    html = owner_client.get("/simulations/").content.decode()
    assert f'href="/simulations/{batch.pk}/"' in html
    assert "Olga&#x27;s deck 1 against Preconstructed deck 4" in html


def test_the_replay_viewer_steps_through_the_turns(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    game = selectors.batch_game(batch, 2)
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/").content.decode()
    assert "Turn 1" in html and 'rel="next"' in html and 'rel="prev"' not in html
    assert html.count('<section class="board-seat') == 2
    assert html.count('<span class="board-card-name">Bastion</span>') == 2
    # The 4 leftmost of the player (one board for every page: the Play table's markup).
    assert html.count('class="board-card play-card is-available"') == 4
    hand = re.findall(
        r'<li class="board-card play-card(?: is-available)?" data-card="\d+">'
        r'<span class="board-card-name(?: is-long)?" title=',
        html,
    )
    assert len(hand) == 16
    assert html.count('<div class="board-bridge" aria-hidden="true">Bridge</div>') == 2
    assert 'data-seat="A"' in html and 'data-seat="B"' in html
    # Game 2 is even: deck A in seat A, to the left of the Bridges, and it plays first.
    assert (
        '<h3 class="board-seat-title">Deck A · Olga&#x27;s deck 1 '
        '<span class="board-turn">to play</span></h3>'
    ) in html
    assert '<h3 class="board-seat-title">Deck B · Preconstructed deck 4</h3>' in html
    assert "Seat A" not in html
    (winner,) = game.outcome.winners
    name = ("Olga&#x27;s deck 1", "Preconstructed deck 4")[winner]
    assert f"won by deck {'AB'[winner]} ({name})" in html
    last = len(game.frames)
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/?turn={last}").content.decode()
    assert "End of the game" in html and 'rel="next"' not in html
    assert "board-turn" not in html and "board-mana" not in html  # the game is over
    # ?turn counts as the page does: the fifth position is "Turn 5 (5/…)".
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/?turn=5").content.decode()
    assert f"Turn 5 <small>(5/{last})</small>" in html
    assert f'href="/simulations/{batch.pk}/games/2/?turn=4"' in html
    assert f'href="/simulations/{batch.pk}/games/2/?turn=6"' in html
    # Steps within turn 5: its start, then the position after each of its actions.
    assert game.frames[4].actions == ({"play": "Troll", "line": "bottom"}, "assault", "end_turn")
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/?turn=5&step=2").content.decode()
    assert '<span class="step-label">after action 2 of 3</span>' in html
    assert '<li class="is-current" aria-current="step">Assault</li>' in html
    assert f'href="/simulations/{batch.pk}/games/2/?turn=5&amp;step=1" rel="prev"' in html
    assert f'href="/simulations/{batch.pk}/games/2/?turn=5&amp;step=3" rel="next"' in html
    # The assault destroyed Aberration and Assassin: back in B's hand, B's lines empty.
    assert "<li>Aberration (B) is destroyed.</li>" in html
    right_halves = re.findall(r'<ol class="board-half is-right"[^>]*>(.*?)</ol>', html, re.S)
    assert [half.strip() for half in right_halves] == ["", ""]
    html = owner_client.get(f"/simulations/{batch.pk}/games/2/?turn=5&step=99").content.decode()
    assert '<span class="step-label">after action 3 of 3</span>' in html
    assert f'href="/simulations/{batch.pk}/games/2/?turn=6" rel="next"' in html
    assert owner_client.get(f"/simulations/{batch.pk}/games/30/").status_code == 404
    # Game 1 is odd: deck B sits in seat A, left of the Bridges; the log and the actions name
    # the decks, never the seats.
    html = owner_client.get(f"/simulations/{batch.pk}/games/1/?turn=2").content.decode()
    assert re.findall(r'<h3 class="board-seat-title">(Deck \w)', html) == ["Deck B", "Deck A"]
    assert "<li>A plays Brute on the bottom line.</li><li>A plays Revenant" in html
    assert "<li>A casts Boom! on Mutant (B).</li>" in html
    assert "<li>Casts Boom! on Mutant (deck B)</li>" in html
    # The same in French and Swedish: the board, the steps, the log and the actions.
    html = owner_client.get(f"/fr/simulations/{batch.pk}/games/1/?turn=2&step=3").content.decode()
    assert '<span class="step-label">après l\'action 3 sur 5</span>' in html
    assert "<li>A lance Boom! sur Mutant (B).</li>" in html
    # Never "subit 1 Blessures": the amount comes after the noun.
    assert "<li>Mutant (B) subit des Blessures : 1 (1/4).</li>" in html
    assert '<li class="is-current" aria-current="step">Lance Boom! sur Mutant (deck B)</li>' in html
    assert '<div class="board-bridge" aria-hidden="true">Pont</div>' in html
    html = owner_client.get(f"/sv/simulations/{batch.pk}/games/1/?turn=2&step=3").content.decode()
    assert '<span class="step-label">efter handling 3 av 5</span>' in html
    assert "Spelar Boom! på Mutant (lek B)" in html
    assert '<h3 class="board-seat-title">Lek B · ' in html


def test_the_batch_page_lists_the_games_worth_watching(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    run_chunks(batch)
    batch.refresh_from_db()
    notable = batch.totals["notable"]
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert 'name="index"' not in html  # no bare game-number box
    for kind, title in (
        ("losses", "Games deck A lost"),
        ("draws", "Draws"),
        ("shortest", "Shortest games"),
        ("longest", "Longest games"),
    ):
        section = re.search(rf'<div data-kind="{kind}">\s*<dt>(.*?)</dt>\s*<dd>(.*?)</dd>', html)
        assert section is not None, kind
        assert section.group(1) == title
        links = re.findall(
            r'<a href="/simulations/\d+/games/(\d+)/">Game \d+ · (\d+) turns?</a>', section.group(2)
        )
        assert [[int(index), int(turns)] for index, turns in links] == notable.get(kind, [])
        if not links:
            assert section.group(2) == "none"
    assert len(notable["shortest"]) == len(notable["longest"]) == min(5, batch.games)
    assert notable["shortest"][0][1] == min(int(turns) for turns in batch.totals["turns"])


def test_the_pages_say_why_a_replay_by_another_engine_is_refused(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    run_chunks(batch)
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert 'class="replay-pick"' in html and "replay-unavailable" not in html
    SimulationBatch.objects.filter(pk=batch.pk).update(engine_digest="")
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert 'class="replay-pick"' not in html
    assert (
        "The games of this test batch were played by another version of the rules engine or of "
        "its AIs: their replays are not available. The results below remain those of the "
        "games played."
    ) in html
    assert 'id="win-rate-chart"' in html
    response = owner_client.get(f"/simulations/{batch.pk}/games/2/")
    assert response.status_code == 409
    html = response.content.decode()
    assert "replaying game 2 today would show a different game" in html
    assert f'href="/simulations/{batch.pk}/"' in html
    html = owner_client.get(f"/sv/simulations/{batch.pk}/games/2/").content.decode()
    assert "spelades av en annan version av regelmotorn" in html


def _first_play(batch: SimulationBatch, cards: set[str]) -> tuple[int, int, dict[str, Any], str]:
    """(game, turn, arguments, card) of the first time one of `cards` is put on a line."""
    for index in range(batch.games):
        game = selectors.batch_game(batch, index)
        for number, frame in enumerate(game.frames):
            for code, args in frame.events:
                shown = dict(args)
                if code == "play_line" and game.names[int(shown["card"])] in cards:
                    return index, number, shown, game.names[int(shown["card"])]
    raise AssertionError(f"none of {cards} was played")


def test_the_event_log_is_in_the_page_s_language(
    owner_client: Client, owner: Any, constructed_deck: Deck
) -> None:
    """Words, card names (the catalogue's), seats and lines of the page's language."""
    batch = create_batch(owner, constructed_deck, 6, opponent=4, seed=5)
    french = {
        "Dryad": "Dryade",
        "Emerald dragon": "Dragon émeraude",
        "Abyssal grrr": "Grrr abyssal",
    }
    index, number, args, name = _first_play(batch, set(french))
    seat = "AB"[args["player"]]
    url = f"/simulations/{batch.pk}/games/{index}/?turn={number + 1}"
    html = owner_client.get(f"/fr{url}").content.decode()
    assert "<summary>Journal des événements</summary>" in html
    line = ("du haut", "du bas")[args["line"]]
    assert f"<li>{seat} joue {french[name]} sur la ligne {line}.</li>" in html
    html = owner_client.get(f"/sv{url}").content.decode()
    line = ("övre", "nedre")[args["line"]]
    assert f"<li>{seat} spelar {name} på {line} vägen.</li>" in html  # no Swedish name: English
    html = owner_client.get(url).content.decode()
    line = ("top", "bottom")[args["line"]]
    assert f"<li>{seat} plays {name} on the {line} line.</li>" in html
    first = f"/simulations/{batch.pk}/games/{index}/?turn=1"
    assert (
        "<li>Mise en place : A joue en premier.</li>"
        in owner_client.get(f"/fr{first}").content.decode()
    )
    assert "<li>Uppställning: A börjar.</li>" in owner_client.get(f"/sv{first}").content.decode()


def test_pages_are_private_and_need_an_account(
    owner_client: Client, owner: Any, other: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    assert Client().get("/simulations/new/")["Location"].startswith("/accounts/login/")
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(f"/simulations/{batch.pk}/").status_code == 404
    assert stranger.get(f"/simulations/{batch.pk}/games/0/").status_code == 404


@pytest.mark.parametrize(
    ("prefix", "texts"),
    [
        ("/fr", ["Tester ce deck", "Adversaire", "Nombre de parties"]),
        ("/sv", ["Testa leken", "Motståndare", "Antal partier"]),
    ],
)
def test_pages_in_french_and_swedish(
    owner_client: Client, precon_deck: Deck, prefix: str, texts: list[str]
) -> None:
    html = owner_client.get(f"{prefix}/simulations/new/?deck={precon_deck.share_id}").content
    for text in texts:
        assert text in html.decode()


def test_a_batch_page_in_french(owner_client: Client, owner: Any, precon_deck: Deck) -> None:
    batch = _batch(owner, precon_deck)
    run_chunks(batch)
    html = owner_client.get(f"/fr/simulations/{batch.pk}/").content.decode()
    assert "Olga&#x27;s deck 1 contre Deck pré-construit 4" in html
    assert "30 parties jouées sur 30" in html and "Résultats" in html
    assert "Cartes du Deck A · Olga&#x27;s deck 1" in html
    api = owner_client.get(f"/api/v1/simulations/{batch.pk}/?lang=sv").json()
    assert api["deck_b"]["name"] == "Förkonstruerad lek 4"


def test_the_admin_shows_batches_read_only(
    owner: Any, precon_deck: Deck, django_user_model: Any
) -> None:
    batch = _batch(owner, precon_deck)
    services.chunk_run(batch_id=batch.pk, index=0)
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", password="pw-root-1234"))
    listing = admin.get("/admin/engine/simulationbatch/").content.decode()
    assert "Olga&#x27;s deck 1" in listing
    assert "Olga&#x27;s deck 1 / Preconstructed deck 4" in listing
    page = admin.get(f"/admin/engine/simulationbatch/{batch.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html
    # Each deck of the batch, as played.
    assert html.count("<h3><b>Deck of a batch:</b>") == 2
    assert "Preconstructed deck 4" in html and "&quot;Troll&quot;" in html
    assert admin.get("/admin/engine/simulationbatch/add/").status_code == 403


def test_big_numbers_are_grouped_and_the_last_length_label_fits(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    batch = _batch(owner, precon_deck)
    SimulationBatch.objects.filter(pk=batch.pk).update(
        status=Status.DONE, games=12000, games_done=12000,
        totals={
            "games": 12000, "wins": [7000, 5000], "draws": 0, "first_games": [6000, 6000],
            "first_wins": [3500, 3500], "turns": {str(turns): 160 for turns in range(3, 78)},
            "ends": {"fort_destroyed": 12000, "empty_hand_bastion": 0, "empty_hand_fort": 0,
                     "turn_limit": 0},
            "cards": [{"Ogre": {"played": 12000, "wins": 7000, "damage": 2056260}}, {}],
        },
    )  # fmt: skip
    html = owner_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "<td>7,000 / 12,000</td>" in html
    assert "<td>2,056,260</td>" in html
    french = owner_client.get(f"/fr/simulations/{batch.pk}/").content.decode()
    assert "<td>2\xa0056\xa0260</td>" in french
    width = float(re.search(r'<svg viewBox="0 0 ([\d.]+) [\d.]+" class="histogram"', html)[1])
    labels = re.findall(
        r'<text class="axis-label" x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)">([\d–]+)</text>',
        html,
    )
    x, anchor, last = labels[-1]
    # The last bar is labelled, and its label ends inside the chart, not cut at its edge.
    right = float(x) + {"end": 0, "middle": 0.5, "start": 1}[anchor] * len(last) * 6.2
    assert (last.endswith("77"), right <= width) == (True, True)


def test_my_public_deck_is_among_the_public_opponents(
    owner_client: Client, owner: Any, precon_deck: Deck
) -> None:
    Deck.objects.filter(pk=precon_deck.pk).update(visibility="public")
    html = owner_client.get("/simulations/new/").content.decode()
    public = html[html.index('name="opponent_public"') :]
    public = public[: public.index("</select>")]
    assert f'<option value="{precon_deck.share_id}">' in public
    assert "No public deck yet." not in html
