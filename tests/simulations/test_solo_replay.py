"""Solo games in the replay viewer: the AI's side (deck pile, discard pile, Stronghold, lines,
Mana) and its automatic turn as steps (engine.simulation.replay_game, engine.display.board)."""

from engine.rules import CardSeen
from engine.rules.ai_options import AiOptions
from engine.rules.cards import load_catalogue
from engine.rules.solo import preconstructed
from engine.simulation import AUTOMATON, BatchSpec, play_game, replay_game


def _names(cards: tuple[CardSeen, ...]) -> list[str]:
    return [card.name for card in cards]


def _spec(seed: int = 7) -> BatchSpec:
    player, ai = preconstructed(load_catalogue(), 1)
    return BatchSpec(
        seed=seed,
        decks=(tuple(player), tuple(ai)),
        agents=("greedy", AUTOMATON),
        mode="solo",
        ai=AiOptions(),
    )


def test_the_ai_turn_is_a_frame_of_its_own_with_each_revealed_card_a_step() -> None:
    game = replay_game(_spec(), 0)
    player_turn, ai_turn, next_turn = game.frames[:3]
    assert (player_turn.turn, player_turn.active) == (1, 0)
    assert player_turn.actions == ({"play": "Brute", "line": "top"}, "assault", "end_turn")
    assert (ai_turn.turn, ai_turn.active) == (2, 1)
    assert ai_turn.actions == (
        {"reveal": "Machine", "line": "top"},
        {"reveal": "Brigand", "line": "bottom"},
        "assault",
        "end_turn",
    )
    assert len(ai_turn.steps) == len(ai_turn.step_events) == 4
    # Before Phase 2: its Quick Play Mana (6 + the player's one creature), 24 cards face down.
    ai = ai_turn.players.seats[1]
    assert (ai.letter, game.seat_decks[1], ai.pile_count, ai.hit_points, ai.mana) == (
        "B", 1, 24, 24, 7,
    )  # fmt: skip
    assert (ai.discard, ai.hand, ai.automaton) == ((), (), True)
    assert ai.lines == ((), ())
    first, second = ai_turn.steps[0].seats[1], ai_turn.steps[1].seats[1]
    assert (first.pile_count, [c.card.name for c in first.lines[0]], first.lines[1]) == (
        23, ["Machine"], (),
    )  # fmt: skip
    assert (second.pile_count, [c.card.name for c in second.lines[1]]) == (22, ["Brigand"])
    # Each reveal's events: what that step did (Machine is card 29, Brigand 20).
    assert ai_turn.step_events[:2] == (2, 4)
    assert ai_turn.events[:4] == (
        ("reveal", (("card", 29), ("player", 1), ("line", 0))),
        ("play_line", (("player", 1), ("card", 29), ("line", 0))),
        ("reveal", (("card", 20), ("player", 1), ("line", 1))),
        ("play_line", (("player", 1), ("card", 20), ("line", 1))),
    )
    assert (next_turn.turn, next_turn.active) == (3, 0)
    assert next_turn.players.seats[0].pile_count is None


def test_the_discard_pile_shows_its_top_card_first_and_the_game_matches_its_result() -> None:
    spec = _spec()
    game = replay_game(spec, 0)
    assert game.outcome == play_game(spec, 0)
    # Machine went to the discard pile first; Combustion, revealed in turn 4, lies on top of it.
    assert _names(game.frames[3].players.seats[1].discard) == ["Machine"]
    assert _names(game.frames[4].players.seats[1].discard) == ["Combustion", "Machine"]
    final = game.frames[-1].players.seats[1]
    assert (final.fort, final.pile_count, final.hit_points) == (True, 16, 16)
    assert _names(final.discard) == ["Combustion"]
    for frame in game.frames:
        assert len(frame.actions) == len(frame.steps)
        for view in (frame.players, *frame.steps):
            ai = view.seats[1]
            # No card of this game leaves the AI's side: its 24 are in the pile, the discard
            # pile or on its lines, whatever the step.
            assert ai.pile_count is not None
            assert ai.pile_count + len(ai.discard) + sum(len(line) for line in ai.lines) == 24


def test_every_game_of_a_batch_replays_to_the_result_it_played() -> None:
    spec = _spec(seed=11)
    for index in range(4):
        game = replay_game(spec, index)
        assert game.outcome == play_game(spec, index)
        assert all(frame.active in (0, 1) for frame in game.frames)


def test_an_odd_game_keeps_the_player_in_seat_a() -> None:
    # Solo never rotates the seats: game 1's replay named the AI's seat as deck A's and gave
    # seat A the automaton (the viewer and the API read the rotation of a Duel).
    game = replay_game(_spec(), 1)
    assert game.deck_seats == ("A", "B")
    assert game.agents == {"A": "greedy", "B": AUTOMATON}
    assert game.seat_decks == (0, 1)
