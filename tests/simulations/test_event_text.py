"""The engine's events and refusals in English, French and Swedish (engine.display.event_text):
every code translated with the same placeholders, the catalogue module in step with the engine's
table, and the words the pages show."""

from types import MappingProxyType

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from django.utils.translation import trans_real

from engine.display import event_text
from engine.display.event_text import engine_text, messages, placeholders, refusal_text
from engine.management.commands import event_messages
from engine.rules import IllegalAction, Options, apply, new_game
from engine.rules.actions import from_json
from engine.rules.agents import GreedyAgent, play_game
from engine.rules.cards import load_catalogue
from engine.rules.events import EVENTS, REFUSALS, render_log

LANGUAGES = ("fr", "sv")


def _untranslated(language: str) -> list[str]:
    """The messages with no translation in `language`, or one whose placeholders differ."""
    catalogue = trans_real.translation(language)._catalog
    wrong = []
    for message in messages():
        key = f"{message.context}\x04{message.msgid}"
        if key not in catalogue:
            wrong.append(f"{message.context}: {message.msgid}")
        elif sorted(placeholders(catalogue[key])) != sorted(placeholders(message.msgid)):
            wrong.append(f"{message.context}: {message.msgid} -> {catalogue[key]}")
    return wrong


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_refusal_and_line_word_is_translated(language: str) -> None:
    assert len(list(messages())) == len(EVENTS) + len(REFUSALS) + 2
    assert _untranslated(language) == []


def test_a_new_engine_code_is_caught_until_it_is_translated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = MappingProxyType({**EVENTS, "surrender": ("game-end", "{loser} gives up.")})
    monkeypatch.setitem(event_text.KINDS, "event", (events, "engine event"))
    with pytest.raises(CommandError, match=r"out of date: run `manage\.py event_messages`"):
        call_command("event_messages", check=True)
    assert _untranslated("fr") == ["engine event: {loser} gives up."]


def test_the_catalogue_module_is_in_step_with_the_engine_s_table() -> None:
    assert event_messages.MODULE.read_text() == event_messages.module_source()
    call_command("event_messages", check=True)
    source = event_messages.MODULE.read_text()
    assert source.count("pgettext_lazy(") == len(EVENTS) + len(REFUSALS) + 2
    assert (
        "    # Translators: event play_line, rule creature-placement. {player} a seat letter; "
        "{card} a card\n    # name; {line} a line's word (context “engine line”).\n"
        '    pgettext_lazy("engine event", "{player} plays {card} on the {line} line."),\n'
    ) in source


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "B plays Dryade on the bottom line."),
        ("fr", "B joue Dryade sur la ligne du bas."),
        ("sv", "B spelar Dryade på nedre vägen."),
    ],
)
def test_an_event_in_each_language(language: str, text: str) -> None:
    args = (("player", 1), ("card", 0), ("line", 1))
    with translation.override(language):
        assert engine_text("event", "play_line", args, ["Dryade"]) == text


def test_a_refusal_of_the_engine_in_each_language() -> None:
    decks = [load_catalogue().precon(1), load_catalogue().precon(2)]
    state = new_game(decks, 3, Options(first_player=0))
    names = state.setup.names
    rightmost = names[state.players[0].hand[-1]]
    with pytest.raises(IllegalAction) as refused:
        apply(state, from_json(state, {"play": rightmost, "line": "top"}))
    error = refused.value
    assert error.code == "not_available"
    with translation.override("en"):
        assert engine_text("refusal", error.code, error.arguments, names) == error.message_en
    with translation.override("fr"):
        assert engine_text("refusal", error.code, error.arguments, names) == (
            f"{rightmost} n'est pas l'une des 4 cartes les plus à gauche de votre main."
        )
    with translation.override("sv"):
        assert engine_text("refusal", error.code, error.arguments, names) == (
            f"{rightmost} är inte ett av de 4 korten längst till vänster på din hand."
        )


def test_in_english_a_whole_game_reads_as_the_engine_writes_it() -> None:
    decks = [load_catalogue().precon(3), load_catalogue().precon(4)]
    result = play_game(decks, 11, [GreedyAgent(), GreedyAgent()], Options(log=True))
    log, names = result.state.log, result.state.setup.names
    assert log is not None
    with translation.override("en"):
        lines = [engine_text("event", event.code, event.args, names) for event in log]
    assert lines == render_log(log, names)
    assert len({event.code for event in log}) >= 10


@pytest.mark.parametrize(
    ("language", "seen", "hidden"),
    [
        ("en", "Dryade is not in your hand.", "card 7 is not in your hand."),
        ("fr", "Dryade n'est pas dans votre main.", "la carte 7 n'est pas dans votre main."),
        ("sv", "Dryade finns inte på din hand.", "kort 7 finns inte på din hand."),
    ],
)
def test_a_refusal_names_only_the_cards_the_seat_may_see(
    language: str, seen: str, hidden: str
) -> None:
    with translation.override(language):
        assert refusal_text("not_in_hand", (("card", 3),), {3: "Dryade"}) == seen
        assert refusal_text("not_in_hand", (("card", 7),), {3: "Dryade"}) == hidden
