"""The pure part of the simulations (engine.simulation): seeds, seats, chunking, counting,
intervals, replays. No database."""

import hashlib
import itertools
import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import replay as replays
from engine.rules.cards import load_catalogue
from engine.simulation import (
    END_REASONS,
    BatchSpec,
    Rate,
    Totals,
    chunk_count,
    chunk_span,
    deck_in_seat,
    derived_seed,
    histogram,
    play_game,
    play_games,
    replay_game,
    summarise,
)


@pytest.fixture(scope="module")
def spec() -> BatchSpec:
    catalogue = load_catalogue()
    return BatchSpec(
        seed=42,
        decks=(tuple(catalogue.precon(1)), tuple(catalogue.precon(2))),
        agents=("greedy", "random"),
    )


# Seeds and seats --------------------------------------------------------------------------------


def test_game_seed_is_a_hash_of_batch_seed_index_and_stream() -> None:
    def expected(seed: int, index: int, stream: int) -> int:
        digest = hashlib.blake2b(
            f"{seed}:{index}:{stream}".encode(), digest_size=8, person=b"cod-sim"
        ).digest()
        return int.from_bytes(digest, "big") >> 1

    assert derived_seed(0, 0) == 6748423462795024182 == expected(0, 0, 0)
    assert derived_seed(42, 7) == 584167633145277135
    assert derived_seed(42, 7, 1) == 8842432466954509919
    seeds = {derived_seed(42, index, stream) for index in range(500) for stream in (0, 1, 2)}
    assert len(seeds) == 1500
    assert all(0 <= seed < 2**63 for seed in seeds)
    # Neighbouring batches share no game: batch 43's game 0 is not batch 42's game 1.
    assert derived_seed(43, 0) != derived_seed(42, 1)


def test_seats_swap_every_other_game() -> None:
    assert [deck_in_seat(index, 0) for index in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [deck_in_seat(index, 1) for index in range(6)] == [1, 0, 1, 0, 1, 0]


def test_each_deck_plays_first_in_half_the_games(spec: BatchSpec) -> None:
    outcomes = [play_game(spec, index) for index in range(10)]
    assert [game.first for game in outcomes] == [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    totals = play_games(spec, 0, 11)
    assert totals.first_games == [6, 5]


def test_a_game_is_the_same_whoever_plays_it_and_whenever(spec: BatchSpec) -> None:
    again = BatchSpec(seed=42, decks=spec.decks, agents=spec.agents)
    assert play_game(spec, 17) == play_game(again, 17)
    # Playing other games first changes nothing (no state carried between games).
    play_games(again, 0, 5)
    assert play_game(again, 17) == play_game(spec, 17)
    other_batch = BatchSpec(seed=43, decks=spec.decks, agents=spec.agents)
    assert [play_game(other_batch, i).turns for i in range(8)] != [
        play_game(spec, i).turns for i in range(8)
    ]


# Chunking ---------------------------------------------------------------------------------------


def test_totals_do_not_depend_on_the_chunking(spec: BatchSpec) -> None:
    whole = play_games(spec, 0, 60)
    for cuts in ([0, 7, 20, 60], [0, 1, 2, 30, 59, 60], [0, 30, 60]):
        merged = Totals()
        chunks = [play_games(spec, a, b - a) for a, b in itertools.pairwise(cuts)]
        for chunk in reversed(chunks):  # in any order, as workers finish them
            merged.merge(Totals.from_json(json.loads(json.dumps(chunk.to_json()))))
        assert merged.to_json() == whole.to_json()
    assert whole.games == 60
    assert sum(whole.wins) + whole.draws == 60
    assert sum(whole.turns.values()) == 60
    assert sum(whole.ends.values()) == 60
    assert set(whole.ends) == set(END_REASONS)


# Counting ---------------------------------------------------------------------------------------


def test_totals_count_a_game_exactly(spec: BatchSpec) -> None:
    game = play_game(spec, 3)
    totals = Totals()
    totals.add(game)
    data = totals.to_json()
    assert data["games"] == 1
    assert data["turns"] == {str(game.turns): 1}
    assert data["first_games"] == [0, 1]  # odd game: deck B sits in seat A and plays first
    won = [int(game.winner == 0), int(game.winner == 1)]
    assert data["wins"] == won
    assert data["first_wins"] == [0, won[1]]
    assert data["ends"][game.end] == 1
    for deck in (0, 1):
        names = {card.name for card in spec.decks[deck]}
        assert set(data["cards"][deck]) == names
        for name, row in data["cards"][deck].items():
            assert row == {
                "played": int(name in game.played[deck]),
                "wins": int(name in game.played[deck] and game.winner == deck),
                "damage": game.damage[deck][name],
            }


# Intervals and summaries --------------------------------------------------------------------------


def test_wilson_intervals_exact() -> None:
    cases = {
        (50, 100): (0.40383152963549296, 0.596168470364507),
        (0, 10): (0.0, 0.2775328030260577),
        (10, 10): (0.7224671969739421, 0.9999999999999999),
        (7, 20): (0.18119182312398308, 0.5671457249315559),
    }
    for (hits, games), (low, high) in cases.items():
        rate = Rate.of(hits, games)
        assert rate.low == pytest.approx(low, abs=1e-12)
        assert rate.high == pytest.approx(high, abs=1e-12)
        assert rate.value == hits / games
    empty = Rate.of(0, 0)
    assert (empty.low, empty.high, empty.value) == (0.0, 1.0, None)


def test_summary_rates_from_counts() -> None:
    totals = Totals(
        games=20,
        wins=[12, 7],
        draws=1,
        first_games=[10, 10],
        first_wins=[7, 3],
        turns={9: 5, 10: 10, 201: 1, 12: 4},
        ends={"fort_destroyed": 18, "empty_hand_bastion": 1, "empty_hand_fort": 0,
              "turn_limit": 1},
        cards=[{"Ogre": {"played": 10, "wins": 7, "damage": 31}}, {}],
    )  # fmt: skip
    summary = summarise(totals, (["Troll", "Ogre"], ["Gnome"]))
    assert (summary.wins[0].hits, summary.wins[1].hits, summary.draws) == (12, 7, 1)
    assert summary.first_player.hits == 10 and summary.first_player.games == 20
    assert (summary.when_first[0].hits, summary.when_first[0].games) == (7, 10)
    assert (summary.when_second[0].hits, summary.when_second[0].games) == (5, 10)
    assert (summary.when_second[1].hits, summary.when_second[1].games) == (4, 10)
    assert summary.mean_turns == (9 * 5 + 10 * 10 + 201 + 12 * 4) / 20
    assert list(summary.turns) == [9, 10, 12, 201]
    troll, ogre = summary.cards[0]
    assert (troll.name, troll.games_played, troll.damage) == ("Troll", 0, 0)
    assert (ogre.games_played, ogre.win_rate_when_played.hits, ogre.damage) == (10, 7, 31)
    assert ogre.damage_per_game_played == 3.1
    assert summary.cards[1][0].name == "Gnome"


def test_histogram_groups_long_ranges() -> None:
    assert histogram({}) == []
    assert histogram({9: 2, 11: 3}) == [(9, 9, 2), (10, 10, 0), (11, 11, 3)]
    bars = histogram({7: 1, 8: 2, 60: 4, 200: 1, 201: 5}, max_bars=20)
    assert bars[0] == (7, 16, 3)
    assert len(bars) == 20
    assert bars[-1] == (197, 206, 1)
    # Games stopped at the turn limit (201 turns begun) are the draws: not in the histogram.
    assert sum(games for _a, _b, games in bars) == 8


# Replays ----------------------------------------------------------------------------------------


def test_replay_is_the_same_game_and_replays_in_the_engine(spec: BatchSpec) -> None:
    game = replay_game(spec, 5)
    assert game.outcome == play_game(spec, 5)
    state = replays.play(replays.parse(game.replay))
    assert state.turn == game.outcome.turns
    assert game.replay["result"]["turns"] == game.outcome.turns
    # Game 5 is odd: deck B in seat A, playing first with deck B's agent (random).
    assert game.deck_a_seat == "B"
    assert game.first == "b"
    assert game.agents == {"A": "random", "B": "greedy"}
    assert [card["name"] for card in game.replay["decks"][0]] == [c.name for c in spec.decks[1]]
    # One frame per turn, plus the final position.
    assert len(game.frames) == game.outcome.turns + 1
    assert [frame.turn for frame in game.frames[:-1]] == list(range(1, game.outcome.turns + 1))
    first = game.frames[0]
    assert first.events[0] == "Set-up: A plays first."
    assert first.players[0].hand and first.players[0].stronghold_at == 0
    assert first.players[0].hp == 8 and first.players[0].mana == 6
    assert game.frames[-1].actions == ()
    actions = [action for frame in game.frames for action in frame.actions]
    assert actions == game.replay["actions"]


def test_a_mirror_match_counts_each_deck_apart() -> None:
    """Deck against itself: every name is on both sides, so the board tells the copies apart.
    Renaming deck B's cards plays the same games (names play no part in the rules) with
    unambiguous names: the counts must be the same."""
    deck = tuple(load_catalogue().precon(4))
    renamed = tuple(replace(card, name=f"{card.name} II", name_fr="") for card in deck)
    mirror = BatchSpec(seed=5, decks=(deck, deck), agents=("greedy", "random"))
    plain = BatchSpec(seed=5, decks=(deck, renamed), agents=("greedy", "random"))
    for index in range(12):
        twin, unique = play_game(mirror, index), play_game(plain, index)
        assert (twin.winner, twin.turns, twin.end) == (unique.winner, unique.turns, unique.end)
        assert twin.damage[0] == unique.damage[0]
        assert twin.damage[1] == {name[:-3]: n for name, n in unique.damage[1].items()}
        assert twin.played[1] == {name[:-3] for name in unique.played[1]}
    assert sum(play_games(mirror, 0, 12).cards[1]["Zombie"].values()) > 0


def _spans(games: int, size: int) -> list[tuple[int, int]]:
    return [chunk_span(games, size, index) for index in range(chunk_count(games, size))]


def test_the_last_chunks_of_a_batch_are_half_size() -> None:
    assert _spans(20_000, 1000)[16:] == [
        (16_000, 1000), (17_000, 1000), (18_000, 500), (18_500, 500), (19_000, 500), (19_500, 500),
    ]  # fmt: skip
    assert chunk_count(20_000, 1000) == 22
    assert _spans(3500, 1000) == [(0, 1000), (1000, 500), (1500, 500), (2000, 500), (2500, 500),
                                  (3000, 500)]  # fmt: skip


def test_small_chunks_and_small_batches_are_cut_evenly() -> None:
    assert _spans(45, 10) == [(0, 10), (10, 10), (20, 10), (30, 10), (40, 5)]
    assert _spans(2999, 1000) == [(0, 1000), (1000, 1000), (2000, 999)]
    assert _spans(100, 19) == [(0, 19), (19, 19), (38, 19), (57, 19), (76, 19), (95, 5)]


@given(st.integers(1, 100_000), st.integers(1, 2000))
def test_chunks_cover_every_game_once_in_order(games: int, size: int) -> None:
    spans = _spans(games, size)
    assert [first for first, _count in spans] == list(
        itertools.accumulate([count for _first, count in spans[:-1]], initial=0)
    )
    assert sum(count for _first, count in spans) == games
    assert all(1 <= count <= size for _first, count in spans)
