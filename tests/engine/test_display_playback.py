"""The steps of what happened since a page's last board (engine.display.playback): what each event
marks on the board and which board it shows, in the log's order."""

from django.utils import translation

from engine.display.playback import PlaybackStep, event_marks, playback_steps


def _event(code: str, **args: object) -> dict[str, object]:
    return {"code": code, "args": args}


# The events of an Assault as a seat's view gives them (seed 8's Assault of Revenant, tests/play).
ASSAULT = [
    _event("assault", player="A"),
    _event("attack", card=4, player="A", target=8),
    _event("damage", card=8, player="B", amount=3, damage=3, hp=1, source=4, source_player=0),
    _event("destroyed", card=8, player="B"),
    _event("returns_right", card=8, player="B"),
]


def test_an_event_marks_its_attacker_target_damage_leaver_and_stronghold() -> None:
    assert [event_marks(event) for event in ASSAULT] == [
        (),
        (("attacker", "4"), ("target", "8")),
        (("hit", "8"), ("amount", "3"), ("damage", "3")),
        (("gone", "8"),),
        (("gone", "8"),),
    ]
    hit = _event("stronghold_damage", player="B", amount=5, hp=0, source=6, source_player=0)
    assert event_marks(hit) == (("stronghold", "B"), ("amount", "5"), ("hp", "0"))
    assert event_marks(_event("regenerates", player="A", hp=7)) == (
        ("stronghold", "A"),
        ("hp", "7"),
    )


def test_other_events_mark_the_cards_they_name_that_the_seat_sees() -> None:
    assert event_marks(_event("cast", player="A", card=5, target=12, owner="B")) == (
        ("cards", "5 12"),
    )
    # A card hidden from the seat (None) is not marked.
    assert event_marks(_event("exhaustion", card=None)) == ()
    assert event_marks(_event("turn", turn=3, player="B", turns=2)) == ()


def test_an_assault_shows_the_board_before_it_until_its_last_played_out_event() -> None:
    # Three actions: A's Assault (5 events, then the turn passes: 2 more), B plays a creature
    # (1 event), B ends its turn (1 event).
    events = [
        *ASSAULT,
        _event("turn", turn=3, player="B", turns=2),
        _event("mana", player="B", mana=7),
        _event("play_line", player="B", card=14, line="top"),
        _event("turn", turn=4, player="A", turns=2),
    ]
    texts = [f"line {index}" for index in range(len(events))]
    steps = playback_steps(events, texts, [7, 8, 9])
    assert [step.board for step in steps] == [0, 0, 0, 0, 0, 1, 1, 2, 3]
    assert [step.text for step in steps] == texts
    assert steps[7].marks == (("cards", "14"),)


def test_a_hit_creature_shows_its_damage_in_the_page_s_language() -> None:
    with translation.override("fr"):
        steps = playback_steps(ASSAULT[2:3], ["Microctopus prend 3 dégâts."], [1])
    assert steps == [
        PlaybackStep(
            "Microctopus prend 3 dégâts.",
            0,
            (("hit", "8"), ("amount", "3"), ("damage", "3")),
            "−3 dégâts",
        )
    ]


def test_without_positions_every_step_shows_the_page_s_board() -> None:
    steps = playback_steps(ASSAULT, ["a", "b", "c", "d", "e"], [])
    assert {step.board for step in steps} == {0}
