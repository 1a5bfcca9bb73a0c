"""The Draft procedures (engine.rules.drafts) and the computer drafters (engine.rules.drafters)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules.cards import CardDef, load_catalogue
from engine.rules.drafters import DRAFTERS, PriceDrafter, SimulatedDrafter, run_draft
from engine.rules.drafts import (
    PROCEDURES,
    Pick,
    catalogue_pool,
    hand_origin,
    left_of,
    new_draft,
    pending,
    pending_for,
    pending_picks,
    pick,
    restore,
    result,
    right_of,
)
from engine.rules.errors import IllegalAction, InputError


def numbered_pool(size: int) -> list[CardDef]:
    """Creatures whose worth grows with their number (attack = hp = number + 1)."""
    return [CardDef(f"Card {i}", "creature", cost=1, attack=i + 1, hp=i + 1) for i in range(size)]


def walk(procedure: str, size: int, seed: int = 7) -> list[tuple[int, int, int, bool, int]]:
    """Every pending step of a draft taking the leftmost revealed cards: (seat, count, number
    of revealed cards, gives the rest, round)."""
    draft = new_draft(procedure, numbered_pool(size), seed)
    steps = []
    while (waiting := pending(draft)) is not None:
        steps.append(
            (
                waiting.seat,
                waiting.count,
                len(waiting.revealed),
                waiting.gives_rest,
                waiting.round,
            )
        )
        pick(draft, waiting.seat, waiting.revealed[: waiting.count])
    return steps


def test_the_procedures_as_the_rulebook_lists_them() -> None:
    assert PROCEDURES["duel"].rounds == (
        (Pick(0, 1), Pick(1, 2), Pick(0, 1)),
        (Pick(1, 1), Pick(0, 2), Pick(1, 1)),
    )
    assert PROCEDURES["four_players"].rounds[0] == (
        Pick(0, 1),
        Pick(1, 1),
        Pick(2, 1),
        Pick(3, 2),
        Pick(2, 1),
        Pick(1, 1),
        Pick(0, 1),
    )
    assert PROCEDURES["four_players"].rounds[3][3] == Pick(2, 2)
    assert PROCEDURES["solo"].rounds == ((Pick(0, 1),),)
    assert PROCEDURES["coop"].rounds == ((Pick(0, 1), Pick(1, 1)), (Pick(1, 1), Pick(0, 1)))
    assert {code: p.rule_id for code, p in PROCEDURES.items()} == {
        "duel": "format-draft",
        "solo": "solo-setup",
        "four_players": "multiplayer-draft",
        "coop": "coop",
        "mutation": "mutation",
    }


def test_duel_draft_reveals_4_a_takes_1_b_2_a_the_last_then_b_starts() -> None:
    round_a = [(0, 1, 4, False), (1, 2, 3, False), (0, 1, 1, False)]
    round_b = [(1, 1, 4, False), (0, 2, 3, False), (1, 1, 1, False)]
    expected = [(*step, number) for number in range(4) for step in (round_a, round_b)[number % 2]]
    assert walk("duel", 32) == expected


def test_four_player_draft_order_shifts_each_round() -> None:
    steps = walk("four_players", 32)
    assert len(steps) == 28
    assert [(seat, count, shown) for seat, count, shown, _, _ in steps[:7]] == [
        (0, 1, 8), (1, 1, 7), (2, 1, 6), (3, 2, 5), (2, 1, 3), (1, 1, 2), (0, 1, 1),
    ]  # fmt: skip
    assert [seat for seat, *_ in steps[7:14]] == [1, 2, 3, 0, 3, 2, 1]
    assert [seat for seat, *_ in steps[21:28]] == [3, 0, 1, 2, 1, 0, 3]
    assert steps[24][:2] == (2, 2)


def test_solo_draft_keeps_1_of_4_and_gives_3_to_the_ai_until_8() -> None:
    assert walk("solo", 32) == [(0, 1, 4, True, number) for number in range(8)]
    draft = new_draft("solo", numbered_pool(32), 3)
    while (waiting := pending(draft)) is not None:
        pick(draft, 0, waiting.revealed[:1])
    drafted = result(draft)
    assert [len(deck) for deck in drafted.decks] == [8]
    assert (len(drafted.ai_pile), len(drafted.unused)) == (24, 0)


def test_coop_draft_a_1_b_1_and_6_to_the_ai_swapped_each_round() -> None:
    steps = walk("coop", 64)
    assert steps[:4] == [
        (0, 1, 8, False, 0),
        (1, 1, 7, True, 0),
        (1, 1, 8, False, 1),
        (0, 1, 7, True, 1),
    ]
    assert len(steps) == 16
    draft = new_draft("coop", numbered_pool(64), 1)
    while (waiting := pending(draft)) is not None:
        pick(draft, waiting.seat, waiting.revealed[:1])
    drafted = result(draft)
    assert ([len(deck) for deck in drafted.decks], len(drafted.ai_pile)) == ([8, 8], 48)


def test_mutation_deals_16_to_each_seat_who_pass_the_rest_to_the_left() -> None:
    mutation = PROCEDURES["mutation"]
    assert (mutation.seats, mutation.pool_size, mutation.reveal, mutation.cards) == (4, 64, 16, 16)
    assert [left_of(mutation, seat) for seat in range(4)] == [1, 2, 3, 0]
    assert [right_of(mutation, seat) for seat in range(4)] == [3, 0, 1, 2]
    # B picks from its own hand, then A's (its right-hand neighbour passed it left), D's, C's...
    assert [hand_origin(mutation, 1, number) for number in range(6)] == [1, 0, 3, 2, 1, 0]
    draft = new_draft("mutation", numbered_pool(64), None)
    assert draft.hands == [list(range(16 * seat, 16 * seat + 16)) for seat in range(4)]
    assert draft.pile == []
    # Every seat may pick at once, each from the hand dealt to it.
    assert [(one.seat, one.revealed[0], one.count, one.round) for one in pending_picks(draft)] == [
        (0, 0, 1, 0), (1, 16, 1, 0), (2, 32, 1, 0), (3, 48, 1, 0),
    ]  # fmt: skip
    pick(draft, 0, [5])
    # A's next hand is still with D; B's next one is what A left of its hand.
    assert pending_for(draft, 0) is None
    pick(draft, 1, [16])
    next_b = pending_for(draft, 1)
    assert next_b is not None
    assert next_b.revealed == tuple(card for card in range(16) if card != 5)
    assert next_b.round == 1
    assert [one.seat for one in pending_picks(draft)] == [1, 2, 3]
    assert pending(draft) == next_b


def test_a_whole_mutation_draft_gives_each_seat_16_cards_one_per_hand_and_pass() -> None:
    draft = new_draft("mutation", numbered_pool(64), 9)
    dealt = [list(hand) for hand in draft.hands]
    while (waiting := pending(draft)) is not None:
        pick(draft, waiting.seat, waiting.revealed[-1:])
    drafted = result(draft)
    assert [len(deck) for deck in drafted.decks] == [16] * 4
    assert (drafted.ai_pile, drafted.unused) == ((), ())
    for seat, deck in enumerate(draft.decks):
        assert [
            next(origin for origin, hand in enumerate(dealt) if card in hand) for card in deck
        ] == [hand_origin(PROCEDURES["mutation"], seat, number) for number in range(16)]


def test_mutation_refusals_cite_the_mutation_rule() -> None:
    draft = new_draft("mutation", numbered_pool(64), None)
    pick(draft, 0, [0])
    with pytest.raises(IllegalAction) as not_passed:
        pick(draft, 0, [48])
    assert refusal(not_passed.value) == (
        "draft_hand_not_passed",
        "mutation",
        "A waits for the hand D has not passed on yet.",
    )
    with pytest.raises(IllegalAction) as taken:
        pick(draft, 1, [0])
    assert refusal(taken.value)[:2] == ("draft_not_revealed", "mutation")
    with pytest.raises(IllegalAction) as two:
        pick(draft, 1, [16, 17])
    assert refusal(two.value)[:2] == ("draft_wrong_count", "mutation")
    assert draft.decks == [[0], [], [], []]
    # The first seat that may pick does: A has its 16 cards while D still waits for its last.
    done = new_draft("mutation", numbered_pool(64), None)
    while len(done.decks[0]) < 16:
        waiting = pending(done)
        assert waiting is not None
        pick(done, waiting.seat, waiting.revealed[:1])
    assert [len(deck) for deck in done.decks] == [16, 16, 16, 15]
    with pytest.raises(IllegalAction) as full:
        pick(done, 0, [next(card for hand in done.hands for card in hand)])
    assert refusal(full.value) == ("draft_seat_done", "mutation", "A has taken all their cards.")


def test_a_mutation_draft_is_restored_from_its_picks() -> None:
    played = new_draft("mutation", numbered_pool(64), None)
    for seat, card in ((0, 3), (3, 50), (1, 20), (0, 60), (2, 40)):
        pick(played, seat, [card])
    again = new_draft("mutation", numbered_pool(64), None)
    restore(again, played.decks)
    assert again.hands == played.hands
    assert pending_picks(again) == pending_picks(played)
    with pytest.raises(InputError, match="taken twice"):
        restore(new_draft("mutation", numbered_pool(64), None), [[3], [3], [], []])
    with pytest.raises(InputError, match="only a passing draft just dealt"):
        restore(again, played.decks)
    with pytest.raises(InputError, match="only a passing draft just dealt"):
        restore(new_draft("coop", numbered_pool(64), None), [[], []])


def test_the_deck_pile_is_the_pool_shuffled_by_the_seed() -> None:
    first = new_draft("duel", numbered_pool(32), 11)
    again = new_draft("duel", numbered_pool(32), 11)
    other = new_draft("duel", numbered_pool(32), 12)
    assert pending(first) == pending(again)
    assert first.pile == again.pile
    assert (first.revealed, first.pile) != (other.revealed, other.pile)
    assert sorted(first.revealed + first.pile) == list(range(32))


def refusal(draft_pick: object) -> tuple[str, str, str]:
    assert isinstance(draft_pick, IllegalAction)
    return draft_pick.code, draft_pick.rule_id, draft_pick.message_en


def test_bad_picks_are_refused_with_a_code_and_the_procedures_rule() -> None:
    draft = new_draft("duel", numbered_pool(16), 5)
    waiting = pending(draft)
    assert waiting is not None
    hidden = draft.pile[0]
    with pytest.raises(IllegalAction) as wrong_seat:
        pick(draft, 1, waiting.revealed[:1])
    assert refusal(wrong_seat.value) == (
        "draft_not_your_pick",
        "format-draft",
        "It is A's pick, not B's.",
    )
    with pytest.raises(IllegalAction) as wrong_count:
        pick(draft, 0, waiting.revealed[:2])
    assert refusal(wrong_count.value) == (
        "draft_wrong_count",
        "format-draft",
        "Choose 1 card(s) here, not 2.",
    )
    with pytest.raises(IllegalAction) as not_revealed:
        pick(draft, 0, [hidden])
    assert refusal(not_revealed.value) == (
        "draft_not_revealed",
        "format-draft",
        f"Card {hidden} is not among the revealed cards.",
    )
    pick(draft, 0, waiting.revealed[:1])
    twice = draft.revealed[0]
    with pytest.raises(IllegalAction) as same:
        pick(draft, 1, [twice, twice])
    assert refusal(same.value) == (
        "draft_same_card",
        "format-draft",
        f"Card {twice} is chosen twice.",
    )
    # Nothing a refused pick did stays.
    assert (draft.decks, len(draft.revealed)) == ([[waiting.revealed[0]], []], 3)


def test_a_finished_draft_refuses_picks_under_its_own_rule() -> None:
    draft = new_draft("solo", numbered_pool(32), 2)
    with pytest.raises(InputError, match=r"^the draft is not over yet$"):
        result(draft)
    while (waiting := pending(draft)) is not None:
        pick(draft, 0, waiting.revealed[-1:])
    with pytest.raises(IllegalAction) as over:
        pick(draft, 0, [0])
    assert refusal(over.value) == (
        "draft_over",
        "solo-setup",
        "The Draft is over: every player has their cards.",
    )


@pytest.mark.parametrize(
    ("procedure", "size", "message"),
    [
        ("solo", 31, "the solo draft takes 32 cards, not 31"),
        ("coop", 32, "the coop draft takes 64 cards, not 32"),
        ("four_players", 33, "the four_players draft takes 32 cards, not 33"),
        ("duel", 15, "the duel draft takes at least 16 cards, not 15"),
        (
            "sealed",
            32,
            "unknown draft procedure 'sealed' (choose from duel, solo, four_players, coop, "
            "mutation)",
        ),
    ],
)
def test_a_pool_that_does_not_fit_is_refused(procedure: str, size: int, message: str) -> None:
    with pytest.raises(InputError) as refused:
        new_draft(procedure, numbered_pool(size), 0)
    assert str(refused.value) == message


def test_the_same_card_twice_in_a_pool_is_refused() -> None:
    pool = [*numbered_pool(15), CardDef("card 3", "creature", cost=1, attack=1, hp=1)]
    with pytest.raises(InputError, match=r"^the draft pool holds card 3 twice$"):
        new_draft("duel", pool, 0)


def test_catalogue_pools_are_expansions() -> None:
    catalogue = load_catalogue()
    assert len(catalogue_pool(catalogue, "00")) == 32
    assert len(catalogue_pool(catalogue, "01, 02")) == 64
    precons = {card.name for number in range(1, 5) for card in catalogue.precon(number)}
    assert {card.name for card in catalogue_pool(catalogue, "00")} == precons
    with pytest.raises(InputError, match=r"^no expansion '07'"):
        catalogue_pool(catalogue, "07")
    with pytest.raises(InputError, match=r"^name each expansion of the pool once: '01,01'$"):
        catalogue_pool(catalogue, "01,01")


def test_the_price_drafter_takes_the_best_worth_first() -> None:
    pool = numbered_pool(16)
    draft = new_draft("duel", pool, 9)
    waiting = pending(draft)
    assert waiting is not None
    assert PriceDrafter(0).choose(draft, waiting) == [max(waiting.revealed)]
    pick(draft, 0, [max(waiting.revealed)])
    waiting = pending(draft)
    assert waiting is not None
    assert PriceDrafter(0).choose(draft, waiting) == sorted(waiting.revealed, reverse=True)[:2]


def test_price_drafters_in_a_duel_draft_split_the_best_cards() -> None:
    # Cards 0-15 revealed in a fixed order would give A the best of each round; whatever the
    # order, A's and B's decks are disjoint and hold the 16 revealed cards.
    drafted = run_draft("duel", numbered_pool(16), 4, [PriceDrafter(1), PriceDrafter(2)])
    names = sorted(card.name for deck in drafted.decks for card in deck)
    assert names == sorted(f"Card {i}" for i in range(16))
    assert drafted.unused == () and drafted.ai_pile == ()


def test_the_simulated_drafter_is_deterministic_from_its_seed() -> None:
    pool = catalogue_pool(load_catalogue(), "00")
    first = run_draft("duel", pool, 3, [SimulatedDrafter(5), PriceDrafter(6)])
    again = run_draft("duel", pool, 3, [SimulatedDrafter(5), PriceDrafter(6)])
    assert first == again
    assert [len(deck) for deck in first.decks] == [8, 8]
    assert len({card.name for deck in first.decks for card in deck}) == 16


def test_the_simulated_drafter_takes_a_forced_card_without_playing() -> None:
    draft = new_draft("duel", numbered_pool(16), 1)
    waiting = pending(draft)
    assert waiting is not None
    pick(draft, 0, waiting.revealed[:1])
    waiting = pending(draft)
    assert waiting is not None
    pick(draft, 1, waiting.revealed[:2])
    last = pending(draft)
    assert last is not None and len(last.revealed) == 1
    assert SimulatedDrafter(0, games=0).choose(draft, last) == list(last.revealed)


def test_run_draft_needs_one_drafter_per_seat() -> None:
    with pytest.raises(InputError, match=r"^the coop draft has 2 seat"):
        run_draft("coop", numbered_pool(64), 0, [PriceDrafter()])
    assert sorted(DRAFTERS) == ["price", "simulated"]


@settings(max_examples=60, deadline=None)
@given(
    procedure=st.sampled_from(sorted(PROCEDURES)),
    seed=st.integers(min_value=0, max_value=2**63 - 1),
    choices=st.lists(st.integers(min_value=0, max_value=7), min_size=70, max_size=70),
)
def test_every_procedure_deals_each_seat_its_cards_once_and_replays_from_the_seed(
    procedure: str, seed: int, choices: list[int]
) -> None:
    rules = PROCEDURES[procedure]
    pool = numbered_pool(rules.pool_size + (3 if not rules.pool_exact else 0))

    def play() -> tuple[list[list[int]], list[int], list[int]]:
        draft = new_draft(procedure, pool, seed)
        turn = 0
        while (waiting := pending(draft)) is not None:
            shown = list(waiting.revealed)
            taken = []
            for _ in range(waiting.count):
                taken.append(shown.pop(choices[turn % len(choices)] % len(shown)))
                turn += 1
            pick(draft, waiting.seat, taken)
        return [list(deck) for deck in draft.decks], list(draft.ai_pile), list(draft.pile)

    decks, ai_pile, unused = play()
    assert [len(deck) for deck in decks] == [rules.cards] * rules.seats
    everything = [card for deck in decks for card in deck] + ai_pile + unused
    assert sorted(everything) == list(range(len(pool)))
    expected_ai = {"solo": 24, "coop": 48}.get(procedure, 0)
    assert len(ai_pile) == expected_ai
    assert play() == (decks, ai_pile, unused)


@pytest.mark.parametrize(
    ("procedure", "sets", "games"),
    [("duel", "00", 28), ("solo", "00", 64), ("four_players", "00", 62), ("coop", "01,02", 120)],
)
def test_simulated_drafters_complete_every_procedure(procedure: str, sets: str, games: int) -> None:
    pool = catalogue_pool(load_catalogue(), sets)
    drafters = [SimulatedDrafter(seat) for seat in range(PROCEDURES[procedure].seats)]
    drafted = run_draft(procedure, pool, 0, drafters)
    assert [len(deck) for deck in drafted.decks] == [8] * len(drafters)
    # Two games per unforced candidate: the forced picks and the last card cost nothing.
    assert drafters[0].games_played == games
