from engine.display.replay_steps import position_query, replay_navigation, replay_position

# Three turns with 2, 3 and 0 actions: the last is the end of the game.
ACTIONS = [2, 3, 0]


def test_the_query_names_a_turn_from_1_and_a_step_as_the_actions_played() -> None:
    assert replay_position({}, ACTIONS) == (0, 0)
    assert replay_position({"turn": "2", "step": "3"}, ACTIONS) == (1, 3)
    assert replay_position({"turn": "2", "step": "9"}, ACTIONS) == (1, 3)
    assert replay_position({"turn": "99", "step": "1"}, ACTIONS) == (2, 0)
    assert replay_position({"turn": "-4", "step": "x"}, ACTIONS) == (0, 0)
    assert position_query((1, 0)) == "?turn=2"
    assert position_query((1, 2)) == "?turn=2&step=2"


def test_steps_walk_every_action_and_cross_the_turns() -> None:
    walk = [(0, 0)]
    while (ahead := replay_navigation(walk[-1], ACTIONS).next_step) is not None:
        walk.append(ahead)
    assert walk == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0)]
    back = [walk[-1]]
    while (behind := replay_navigation(back[-1], ACTIONS).previous_step) is not None:
        back.append(behind)
    assert back == walk[::-1]


def test_turns_first_and_last() -> None:
    middle = replay_navigation((1, 2), ACTIONS)
    assert (middle.previous_turn, middle.next_turn) == ((0, 0), (2, 0))
    assert (middle.first, middle.last) == ((0, 0), (2, 0))
    start = replay_navigation((0, 0), ACTIONS)
    assert (start.previous_turn, start.previous_step) == (None, None)
    end = replay_navigation((2, 0), ACTIONS)
    assert (end.next_turn, end.next_step, end.previous_step) == (None, None, (1, 3))
