"""The puzzle editor: a position built from catalogue cards, checked as it is built (a message
per problem, the API's validation), saved, proved and shared; a stored puzzle edited back."""

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from champions.models import Visibility
from grimoire import services
from grimoire.models import ProofStatus, Puzzle
from grimoire.views import NEW_PUZZLE
from tests.grimoire.test_api import InlinePool

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalogue")]

# Zombie (3/1) faces Fresh recruit (1/3) on the upper line: Mental strike (3 Damage) clears the
# way, then the Assault's 3 Damage destroy B's Bastion of 2 HP.
STRIKE = {
    **NEW_PUZZLE,
    "a_mana": 2,
    "a_hand_0": "Mental strike",
    "a_hand_1": "Fresh recruit",
    "a_stronghold_at": 1,
    "a_top_0_card": "Zombie",
    "b_hand_0": "Boom!",
    "b_hand_1": "Swarmer",
    "b_top_0_card": "Fresh recruit",
    "goal_kind": "destroy_stronghold",
    "goal_side": "bastion",
    "difficulty": 2,
    "title_en": "Clear the way",
    "hint_en": "Look at the upper line.",
    "title_fr": "Dégagez la voie",
}


def _check(client: Client, data: dict[str, Any], url: str = "/grimoire/new/") -> Any:
    return client.post(url, data, headers={"HX-Request": "true"})


def test_the_editor_is_for_signed_in_authors(ana: Client) -> None:
    assert Client().get("/grimoire/new/")["Location"] == "/accounts/login/?next=/grimoire/new/"
    page = ana.get("/grimoire/new/").content.decode()
    assert '<datalist id="cards">' in page
    assert '<option value="Mental strike" data-kind="incantation">Mental strike</option>' in page
    assert 'list="cards"' in page
    french = ana.get("/fr/grimoire/new/").content.decode()
    # The engine's name, the label in French.
    assert '<option value="Mental strike" data-kind="incantation">' in french


def test_each_change_is_checked_with_a_message_per_problem(ana: Client) -> None:
    valid = _check(ana, STRIKE)
    assert valid.context["problems"] == []
    html = valid.content.decode()
    assert 'data-problems="0"' in html
    assert "The position and the goal are valid." in html
    assert 'aria-label="Preview of the board"' in html
    assert '<span class="board-mana" data-mana="2">2 Mana</span>' in html

    unknown = _check(ana, {**STRIKE, "a_hand_0": "Nonesuch", "title_en": ""})
    assert unknown.context["problems"] == [
        ("Player A, hand, card 1", "No card of the catalogue is named Nonesuch."),
        # Left out, it leaves Fresh recruit alone to the left of the Stronghold.
        ("Player A, hand", "the Stronghold needs at least one card to its right (1 hit point)"),
        ("Texts", "an English title is required"),
    ]
    symbiote = _check(ana, {**STRIKE, "a_top_0_symbiote": "Nonesuch"})
    assert symbiote.context["problems"] == [
        (
            "Player A, the upper line, creature 1, Symbiote on it",
            "No card of the catalogue is named Nonesuch.",
        )
    ]
    dead = _check(ana, {**STRIKE, "b_top_0_damage": 3})
    assert dead.context["problems"] == [
        ("Player B, the upper line, creature 1", "3 damage destroy a creature of 3 HP")
    ]
    no_hp = _check(ana, {**STRIKE, "a_stronghold_at": 2})
    assert no_hp.context["problems"] == [
        ("Player A, hand", "the Stronghold needs at least one card to its right (1 hit point)")
    ]
    too_many = _check(ana, {**STRIKE, "goal_kind": "destroy_creatures", "goal_count": 2})
    assert [where for where, _what in too_many.context["problems"]] == ["Goal"]
    assert 'data-problems="1"' in too_many.content.decode()


def test_save_prove_and_share_a_new_puzzle(ana: Client) -> None:
    refused = ana.post("/grimoire/new/", {**STRIKE, "a_hand_0": "Nonesuch", "save": "1"})
    assert refused.status_code == 200
    assert Puzzle.objects.count() == 0
    saved = ana.post("/grimoire/new/", {**STRIKE, "save": "1"})
    puzzle = Puzzle.objects.get()
    assert saved["Location"] == f"/grimoire/{puzzle.uid}/edit/"
    assert puzzle.author is not None and puzzle.author.username == "ana"
    assert puzzle.scenario == {
        "cards": {
            "Mental strike": {"type": "incantation", "cost": 2, "attack": 3},
            "Fresh recruit": {"type": "creature", "cost": 1, "attack": 1, "hp": 3},
            "Zombie": {"type": "creature", "cost": 1, "attack": 3, "hp": 1},
            "Boom!": {"type": "incantation", "cost": 1, "attack": 1},
            "Swarmer": {
                "type": "creature",
                "cost": 1,
                "attack": 2,
                "hp": 1,
                "abilities": ["indestructible"],
            },
        },
        "state": {
            "active": "A",
            "players": {
                "A": {
                    "hand": ["Mental strike", "STRONGHOLD", "Fresh recruit"],
                    "mana": 2,
                    "lines": {"top": ["Zombie"], "bottom": []},
                },
                "B": {
                    "hand": ["STRONGHOLD", "Boom!", "Swarmer"],
                    "lines": {"top": ["Fresh recruit"], "bottom": []},
                },
            },
        },
    }
    assert puzzle.goal == {"kind": "destroy_stronghold", "side": "bastion"}
    assert puzzle.difficulty == 2
    assert sorted(puzzle.translations.values_list("language_code", "title")) == [
        ("en", "Clear the way"),
        ("fr", "Dégagez la voie"),
    ]
    assert (puzzle.visibility, puzzle.proof_status) == (Visibility.PRIVATE, ProofStatus.NONE)

    early = ana.post(f"/grimoire/{puzzle.uid}/publish/", {"visibility": "public"}, follow=True)
    assert "Only a puzzle the solver proved can be shared" in early.content.decode()
    proved = ana.post(f"/grimoire/{puzzle.uid}/prove/", follow=True).content.decode()
    assert "Proved: 1 distinct solution(s); you can share it now." in proved
    ana.post(f"/grimoire/{puzzle.uid}/publish/", {"visibility": "public"})
    puzzle.refresh_from_db()
    assert (puzzle.visibility, puzzle.proof_status) == (Visibility.PUBLIC, ProofStatus.PROVED)
    assert puzzle.report is not None
    assert puzzle.report["shortest"] == [
        {"play": "Mental strike", "target": {"player": "B", "card": "Fresh recruit"}},
        "assault",
    ]
    assert "Clear the way" in Client().get("/grimoire/").content.decode()


def test_a_puzzle_without_a_solution_is_not_proved(ana: Client) -> None:
    ana.post("/grimoire/new/", {**STRIKE, "a_mana": 1, "save": "1"})
    puzzle = Puzzle.objects.get()
    page = ana.post(f"/grimoire/{puzzle.uid}/prove/", follow=True).content.decode()
    assert "No proof: the solver&#x27;s complete search found no solution." in page
    puzzle.refresh_from_db()
    assert puzzle.proof_status == ProofStatus.REFUSED


def _form_data(response: Any) -> dict[str, Any]:
    """What the editor's form sends as it was drawn (unchecked boxes are not sent)."""
    form = response.context["form"]
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is not None and value is not False and value != "":
            data[name] = value
    return data


def test_editing_keeps_an_unchanged_puzzle_and_its_own_cards(
    ana: Client, django_user_model: Any
) -> None:
    call_command("load_starter_book")
    url = "/grimoire/book-aerial-wings/edit/"
    assert ana.get(url).status_code == 404  # the project's puzzle, not ana's
    staff = django_user_model.objects.create_user("sam", password="x", is_staff=True)
    client = Client()
    client.force_login(staff)
    before = Puzzle.objects.get(uid="book-aerial-wings")
    data = _form_data(client.get(url))
    assert data["a_top_0_card"] == "Hawk"  # the book's own card, not in the catalogue
    assert data["b_stronghold"] == "fort"
    assert _check(client, data, url).context["problems"] == []
    assert client.post(url, {**data, "save": "1"})["Location"] == url
    after = Puzzle.objects.get(uid="book-aerial-wings")
    assert after.scenario == before.scenario
    assert (after.proof_status, after.visibility) == (ProofStatus.PROVED, Visibility.PUBLIC)
    # A change of position drops the proof and the sharing.
    client.post(url, {**data, "b_top_0_damage": 1, "save": "1"})
    changed = Puzzle.objects.get(uid="book-aerial-wings")
    assert changed.scenario["state"]["players"]["B"]["lines"]["top"] == [
        {"card": "Wall", "damage": 1}
    ]
    assert (changed.proof_status, changed.visibility) == (ProofStatus.NONE, Visibility.PRIVATE)


def test_a_proof_beyond_the_request_budget_runs_as_a_job_the_page_polls(
    ana: Client, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from cod_site import background
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(background, "tasks", InlinePool())
    monkeypatch.setattr(services, "INLINE_SECONDS", 0)
    ana.post("/grimoire/new/", {**STRIKE, "save": "1"})
    puzzle = Puzzle.objects.get()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        page = ana.post(f"/grimoire/{puzzle.uid}/prove/", follow=True).content.decode()
    assert "The solver is searching: 0 of at most 200,000 positions so far." in page
    assert "Proof: <strong>Proof running</strong>" in page
    assert "Prove it with the solver</button>" not in page
    for callback in callbacks:
        callback()
    panel = ana.get(f"/grimoire/{puzzle.uid}/proof/").content.decode()
    assert "hx-trigger" not in panel
    assert "Proved: 1 distinct solution(s); you can share it now." in panel
    assert "Make it public" in panel
    puzzle.refresh_from_db()
    assert puzzle.proof_status == ProofStatus.PROVED
    # Only the author polls it.
    assert Client().get(f"/grimoire/{puzzle.uid}/proof/").status_code == 302


def test_a_custom_card_is_defined_in_the_editor_and_edited_back(ana: Client) -> None:
    # Titan, a card of the puzzle's own: a 5/2 Splash creature for 2 Mana, placed on the upper
    # line instead of the catalogue's Zombie.
    titan = {
        **STRIKE,
        "a_top_0_card": "Titan",
        "custom_0_name": "Titan",
        "custom_0_type": "creature",
        "custom_0_cost": 2,
        "custom_0_attack": 5,
        "custom_0_hp": 2,
        "custom_0_abilities": "splash",
    }
    page = ana.get("/grimoire/new/").content.decode()
    assert 'name="custom_9_abilities"' in page and "splash" in page
    assert _check(ana, titan).context["problems"] == []
    unplaced = _check(ana, {**titan, "custom_1_name": "Ghost", "custom_1_hp": 3})
    assert unplaced.context["problems"] == [
        ("Custom card 2, Name", "Place Ghost in a hand or on a line, or clear it.")
    ]
    twice = _check(ana, {**titan, "custom_1_name": "Titan"})
    assert twice.context["problems"] == [
        ("Custom card 2, Name", "Another custom card is named Titan.")
    ]
    bad_code = _check(ana, {**titan, "custom_0_abilities": "splash, flying"})
    [(where, what)] = bad_code.context["problems"]
    assert where == "Position"
    assert what.startswith("unknown ability code 'flying' on card 'Titan' (known codes: aerial,")

    ana.post("/grimoire/new/", {**titan, "save": "1"})
    puzzle = Puzzle.objects.get()
    assert puzzle.scenario["cards"]["Titan"] == {
        "type": "creature", "cost": 2, "attack": 5, "hp": 2, "abilities": ["splash"],
    }  # fmt: skip
    assert "Zombie" not in puzzle.scenario["cards"]
    url = f"/grimoire/{puzzle.uid}/edit/"
    data = _form_data(ana.get(url))
    assert (data["custom_0_name"], data["custom_0_attack"], data["custom_0_abilities"]) == (
        "Titan", 5, "splash",
    )  # fmt: skip
    assert "custom_1_name" not in data  # the catalogue's cards are not custom
    ana.post(url, {**data, "custom_0_attack": 4, "save": "1"})
    puzzle.refresh_from_db()
    assert puzzle.scenario["cards"]["Titan"]["attack"] == 4


def test_the_turns_options_are_written_only_when_not_their_defaults(ana: Client) -> None:
    ana.post("/grimoire/new/", {**STRIKE, "save": "1"})
    plain = Puzzle.objects.get()
    assert set(plain.scenario["state"]) == {"active", "players"}
    url = f"/grimoire/{plain.uid}/edit/"
    data = _form_data(ana.get(url))
    assert (data["phase"], data["turn"], "exhaustion" in data) == ("summoning", 1, False)
    ana.post(url, {**data, "turn": 3, "exhaustion": "on", "phase": "start", "save": "1"})
    plain.refresh_from_db()
    state = plain.scenario["state"]
    assert (state["phase"], state["turn"], state["options"]) == ("start", 3, {"exhaustion": True})
    assert "first_turn" not in state
    first = _check(ana, {**STRIKE, "first_turn": "on", "turn": 2})
    assert first.context["problems"] == [("The turn", "must be 1 on the first player's first turn")]


def test_a_check_sent_as_save_is_clicked_does_not_save(ana: Client) -> None:
    # htmx adds the clicked submit button to the check a field's change sends as Save is
    # clicked: that check saved a second puzzle beside the form's own submission.
    checked = _check(ana, {**STRIKE, "save": "1"})
    assert checked.status_code == 200
    assert checked.context["problems"] == []
    assert Puzzle.objects.count() == 0
    ana.post("/grimoire/new/", {**STRIKE, "save": "1"})
    assert Puzzle.objects.count() == 1


def test_the_board_is_drawn_from_the_start_and_while_the_position_is_invalid(
    ana: Client,
) -> None:
    # A new puzzle: its empty position drawn at once (the editor's board), its problems unsaid
    # until the author changes something.
    new = ana.get("/grimoire/new/")
    assert new.context["problems"] == []
    assert new.context["board"] is not None
    assert [seat.hp for seat in new.context["board"].seats] == [0, 0]
    html = new.content.decode()
    assert 'aria-label="Preview of the board"' in html
    assert "data-editor-tools hidden" in html
    assert '<option value="Mental strike" data-kind="incantation">' in html
    # A creature dead of its damage: refused, and still drawn where it gets fixed.
    dead = _check(ana, {**STRIKE, "b_top_0_damage": 3})
    assert [what for _where, what in dead.context["problems"]] == [
        "3 damage destroy a creature of 3 HP"
    ]
    creature = dead.context["board"].lines[0].right.creatures[0]
    assert (creature.face.name, creature.damage) == ("Fresh recruit", 3)


def test_the_boards_places_are_named_for_its_buttons(ana: Client) -> None:
    places = ana.get("/grimoire/new/").context["form"].places()
    assert places["a_hand"] == "Player A, hand"
    assert places["b_bottom"] == "Player B, the lower line"
    assert places["b_top_3"] == "Player B, the upper line, creature 4"
    assert places["a_hand_9"] == "Player A, hand, card 10"
    assert len(places) == 2 * (1 + 10 + 2 * (1 + 4))
