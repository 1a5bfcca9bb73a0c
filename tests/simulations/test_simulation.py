"""The pure part of the simulations (engine.simulation): seeds, seats, chunking, counting,
intervals, replays. No database."""

import hashlib
import itertools
import json
import pickle
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import replay as replays
from engine.rules.cards import CardDef, load_catalogue
from engine.rules.champion import stand_in
from engine.rules.errors import InputError
from engine.rules.events import Event, render
from engine.simulation import (
    EARLY_TURNS,
    END_REASONS,
    BatchSpec,
    GameOutcome,
    Rate,
    Totals,
    chunk_count,
    chunk_span,
    deck_in_seat,
    deck_seats,
    derived_seed,
    histogram,
    play_game,
    play_games,
    replay_game,
    summarise,
)
from tests.simulations.conftest import as_on_main


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
    assert [deck_in_seat(index, 0, 2) for index in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [deck_in_seat(index, 1, 2) for index in range(6)] == [1, 0, 1, 0, 1, 0]
    assert [deck_seats(index, 2) for index in range(3)] == [(0, 1), (1, 0), (0, 1)]


def test_four_decks_rotate_one_seat_per_game_and_keep_their_partners() -> None:
    assert [[deck_in_seat(index, seat, 4) for seat in range(4)] for index in range(5)] == [
        [0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2], [0, 1, 2, 3],
    ]  # fmt: skip
    # Each deck plays first once every 4 games; decks A and C always sit in partner seats
    # (A and C, or B and D: the 2 vs 2 teams of engine.rules.modes).
    assert [deck_seats(index, 4) for index in range(4)] == [
        (0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0),
    ]  # fmt: skip
    for index in range(8):
        seats = deck_seats(index, 4)
        assert seats[0] % 2 == seats[2] % 2 and seats[1] % 2 == seats[3] % 2


def test_a_spec_seats_each_deck_with_its_agent_champion_and_random_stream() -> None:
    catalogue = load_catalogue()
    decks = tuple(tuple(catalogue.precon(number)) for number in (1, 2, 3, 4))
    champions = tuple(stand_in(next(c for c in deck if c.is_creature)) for deck in decks)
    spec = BatchSpec(
        seed=3,
        decks=decks,
        agents=("random", "greedy", "random", "lookahead"),
        champions=champions,
        mode="free_for_all",
    )
    assert spec.seating(1) == [decks[1], decks[2], decks[3], decks[0]]
    assert spec.seating(5) is spec.seating(1)  # built once: the engine's set-up cache is hit
    assert spec.seat_champions(2) == [champions[2], champions[3], champions[0], champions[1]]
    agents = spec.agents_for(3)
    assert [agent.name for agent in agents] == ["lookahead", "random", "greedy", "random"]
    # Deck D's lookahead agent in seat A draws from deck D's stream (4 + 1) of game 3.
    assert agents[0].rng.random() == random.Random(derived_seed(3, 3, 4)).random()
    assert spec.options.mode == "free_for_all" and spec.options.first_player == 0
    with pytest.raises(InputError, match="one agent per deck"):
        BatchSpec(seed=3, decks=decks, agents=("greedy", "greedy"))


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


# The Duel's numbers ------------------------------------------------------------------------------


def _digest(document: Any) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()


def _precon(*numbers: int) -> tuple[tuple[CardDef, ...], ...]:
    catalogue = load_catalogue()
    return tuple(tuple(catalogue.precon(number)) for number in numbers)


# Figures computed on main (34c5d74, the two-deck code) before batches had N seats, those of games
# with a greedy player recomputed when greedy changed (issue 14: the repetition guard and open
# lines): seed, preconstructed decks, agents, Exhaustion, games; then the wins of each deck and a
# digest of the whole totals document.
MAIN_TOTALS = [
    (42, (1, 2), ("greedy", "random"), False, 60, [55, 5],
     "1ef16c76aaf2429ad76e42cdfc16d436a6f0663c4ebb8cabaea883e209912282"),
    # Random agents and Exhaustion: 8 of these games end on an empty hand.
    (5, (4, 1), ("random", "random"), True, 200, [88, 112],
     "887ae9a2ad4911dc04caeabd75aca0ccc149d9c8afc0b2d4f116b74dd27c6b69"),
    # Two of these were draws at the turn limit before greedy's repetition guard.
    (2024, (1, 3), ("greedy", "greedy"), False, 200, [147, 53],
     "759f4f136a27d0f72a85225c5c3f8ad3f74ef041e3a14a06b880437045837f65"),
    (9, (2, 3), ("lookahead", "greedy"), False, 6, [6, 0],
     "af579e58dc12ee5d8e0a1288b0bed099c946e0b7d4d44160cfc4e4af2b84206a"),
]  # fmt: skip


@pytest.mark.parametrize(("seed", "decks", "agents", "exhaustion", "games", "wins", "digest"),
                         MAIN_TOTALS)  # fmt: skip
def test_a_duel_counts_the_games_main_counted(
    seed: int, decks: tuple[int, int], agents: tuple[str, str], exhaustion: bool, games: int,
    wins: list[int], digest: str,
) -> None:  # fmt: skip
    spec = BatchSpec(seed=seed, decks=_precon(*decks), agents=agents, exhaustion=exhaustion)
    totals = play_games(spec, 0, games).to_json()
    assert totals["wins"] == wins
    assert _digest(as_on_main(totals)) == digest


def test_a_duel_with_champions_plays_and_replays_as_on_main() -> None:
    """Champions (stand-ins: Parasite for deck A, Baron for deck B) and Exhaustion; a replay
    with the same actions and the same event log in English (figures of main, 34c5d74, recomputed
    when greedy changed in issue 14)."""
    champions = tuple(
        stand_in(next(card for card in deck if card.is_creature)) for deck in _precon(3, 1)
    )
    assert [champion.name for champion in champions] == ["Parasite", "Baron"]
    modules = BatchSpec(
        seed=7, decks=_precon(4, 2), agents=("random", "greedy"), exhaustion=True,
        champions=champions,
    )  # fmt: skip
    totals = play_games(modules, 0, 40).to_json()
    assert (totals["wins"], totals["first_wins"]) == ([2, 38], [1, 19])
    assert (
        _digest(as_on_main(totals))
        == "492b5a9f388283e6be543d914248943284641677155db1eed57fe0bfed6cea4b"
    )
    game = replay_game(modules, 3)
    assert (game.outcome.returns, game.outcome.turns, len(game.frames)) == ((-1, 1), 11, 12)
    assert _digest(game.replay) == (
        "6e3e9e7374c549e20d5a4ca1e4be0dc5af975443e7ca22a6ba13d9571d7fc3d5"
    )
    log = [[render(Event(*event), game.names) for event in frame.events] for frame in game.frames]
    assert _digest(log) == "0e3bfcf69239b46abc96b09bb5396ab83e08cffde4a1a45f90d660cad95845ad"


# Chunking ---------------------------------------------------------------------------------------


def test_totals_do_not_depend_on_the_chunking(spec: BatchSpec) -> None:
    whole = play_games(spec, 0, 60)
    for cuts in ([0, 7, 20, 60], [0, 1, 2, 30, 59, 60], [0, 30, 60]):
        merged = Totals.empty(2)
        chunks = [play_games(spec, a, b - a) for a, b in itertools.pairwise(cuts)]
        for chunk in reversed(chunks):  # in any order, as workers finish them
            merged.merge(Totals.from_json(json.loads(json.dumps(chunk.to_json()))))
        assert merged.to_json() == whole.to_json()
    assert whole.games == 60
    assert sum(whole.wins) + whole.draws == 60
    assert sum(whole.turns.values()) == 60
    assert sum(whole.ends.values()) == 60
    assert set(whole.ends) == set(END_REASONS)


def test_totals_keep_the_games_worth_watching(spec: BatchSpec) -> None:
    games = [play_game(spec, index) for index in range(60)]
    totals = play_games(spec, 0, 60)
    by_length = sorted(games, key=lambda game: (game.turns, game.index))
    assert totals.notable["shortest"] == [[g.index, g.turns] for g in by_length[:5]]
    by_length = sorted(games, key=lambda game: (-game.turns, game.index))
    assert totals.notable["longest"] == [[g.index, g.turns] for g in by_length[:5]]
    lost = [[g.index, g.turns] for g in games if g.winners and g.returns[0] < 0]
    assert totals.notable["losses"] == lost[:5] and len(lost) >= 5
    draws = [[g.index, g.turns] for g in games if not g.winners]
    assert totals.notable.get("draws", []) == draws[:5]
    # An older batch's totals have none, and still load.
    data = totals.to_json()
    del data["notable"]
    assert Totals.from_json(data).notable == {}


# Counting ---------------------------------------------------------------------------------------


def test_totals_count_a_game_exactly(spec: BatchSpec) -> None:
    game = play_game(spec, 3)
    totals = Totals.empty(2)
    totals.add(game)
    data = totals.to_json()
    assert data["games"] == 1
    assert data["turns"] == {str(game.turns): 1}
    assert data["first_games"] == [0, 1]  # odd game: deck B sits in seat A and plays first
    assert sorted(game.returns) == [-1, 1]
    won = [int(result > 0) for result in game.returns]
    assert data["wins"] == won
    assert data["first_wins"] == [0, won[1]]
    assert data["ends"][game.end] == 1
    for deck in (0, 1):
        names = {card.name for card in spec.decks[deck]}
        assert set(data["cards"][deck]) == names
        for name, row in data["cards"][deck].items():
            assert row == {
                "played": int(name in game.played[deck]),
                "wins": int(name in game.played[deck] and game.returns[deck] > 0),
                "damage": game.damage[deck][name],
                "early": int(name in game.early[deck]),
                "early_wins": int(name in game.early[deck] and game.returns[deck] > 0),
            }


def test_teammates_share_a_win_and_a_draw_is_no_one_s() -> None:
    """Four decks, as a 2 vs 2 game gives them (decks A and C one team)."""
    totals = Totals.empty(4)
    cards: tuple[dict[str, int], ...] = ({"Ogre": 2}, {"Imp": 0}, {"Elk": 5}, {})
    played = (frozenset({"Ogre"}), frozenset(), frozenset({"Elk"}), frozenset())
    early = (frozenset({"Ogre"}), frozenset(), frozenset(), frozenset())
    totals.add(GameOutcome(0, (1, -1, 1, -1), 0, 12, "fort_destroyed", cards, played, early))
    totals.add(GameOutcome(1, (-1, 1, -1, 1), 1, 9, "fort_destroyed", cards, played, early))
    totals.add(GameOutcome(2, (0, 0, 0, 0), 2, 201, "turn_limit", cards, played, early))
    data = totals.to_json()
    assert (data["games"], data["wins"], data["draws"]) == (3, [1, 1, 1, 1], 1)
    assert (data["first_games"], data["first_wins"]) == ([1, 1, 1, 0], [1, 1, 0, 0])
    assert data["cards"][0] == {
        "Ogre": {"played": 3, "wins": 1, "damage": 6, "early": 3, "early_wins": 1}
    }
    assert data["cards"][2] == {
        "Elk": {"played": 3, "wins": 1, "damage": 15, "early": 0, "early_wins": 0}
    }
    assert data["cards"][1] == {
        "Imp": {"played": 0, "wins": 0, "damage": 0, "early": 0, "early_wins": 0}
    }
    summary = summarise(Totals.from_json(json.loads(json.dumps(data))))
    assert len(summary.decks) == 4
    deck_c = summary.decks[2]
    assert (deck_c.wins.hits, deck_c.wins.games) == (1, 3)
    assert (deck_c.when_first.hits, deck_c.when_first.games) == (0, 1)
    assert (deck_c.when_second.hits, deck_c.when_second.games) == (1, 2)
    assert (summary.first_player.hits, summary.first_player.games) == (2, 3)


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
        cards=[{"Ogre": {"played": 10, "wins": 7, "damage": 31, "early": 6, "early_wins": 5}},
               {}],
    )  # fmt: skip
    summary = summarise(totals, (["Troll", "Ogre"], ["Gnome"]))
    deck_a, deck_b = summary.decks
    assert (deck_a.wins.hits, deck_b.wins.hits, summary.draws) == (12, 7, 1)
    assert summary.first_player.hits == 10 and summary.first_player.games == 20
    assert (deck_a.when_first.hits, deck_a.when_first.games) == (7, 10)
    assert (deck_a.when_second.hits, deck_a.when_second.games) == (5, 10)
    assert (deck_b.when_second.hits, deck_b.when_second.games) == (4, 10)
    assert summary.mean_turns == (9 * 5 + 10 * 10 + 201 + 12 * 4) / 20
    assert list(summary.turns) == [9, 10, 12, 201]
    troll, ogre = deck_a.cards
    assert (troll.name, troll.games_played, troll.damage) == ("Troll", 0, 0)
    assert (ogre.games_played, ogre.win_rate_when_played.hits, ogre.damage) == (10, 7, 31)
    assert ogre.damage_per_game_played == 3.1
    # Not played: the deck's other 10 games and 5 other wins; late: played, not early.
    assert (ogre.win_rate_when_not_played.hits, ogre.win_rate_when_not_played.games) == (5, 10)
    assert (ogre.win_rate_when_early.hits, ogre.win_rate_when_early.games) == (5, 6)
    assert (ogre.win_rate_when_late.hits, ogre.win_rate_when_late.games) == (2, 4)
    assert ogre.win_rate_when_early.low == pytest.approx(0.4365, abs=1e-4)
    assert (troll.win_rate_when_not_played.hits, troll.win_rate_when_not_played.games) == (12, 20)
    assert troll.win_rate_when_early.games == 0 and troll.win_rate_when_early.value is None
    assert deck_b.cards[0].name == "Gnome"


def test_totals_stored_before_the_early_counts_read_as_none_early() -> None:
    stored = Totals.empty(2).to_json()
    stored["cards"] = [{"Ogre": {"played": 4, "wins": 3, "damage": 9}}, {}]
    row = Totals.from_json(stored).cards[0]["Ogre"]
    assert row == {"played": 4, "wins": 3, "damage": 9, "early": 0, "early_wins": 0}


def test_a_card_first_played_in_its_player_s_first_turns_is_early(spec: BatchSpec) -> None:
    """Game 3 replayed turn by turn: the early cards are those its deck's player first played
    in their own turns 1 to EARLY_TURNS."""
    game = play_game(spec, 3)
    replayed = replay_game(spec, 3)
    first_turn: dict[tuple[int, str], int] = {}
    own_turns = [0, 0]
    for frame in replayed.frames[:-1]:
        deck = replayed.seat_decks[frame.active]
        own_turns[deck] += 1
        for action in frame.actions:
            if isinstance(action, dict) and "play" in action:
                first_turn.setdefault((deck, action["play"]), own_turns[deck])
    for deck in (0, 1):
        expected = {
            name for (d, name), turn in first_turn.items() if d == deck and turn <= EARLY_TURNS
        }
        assert game.early[deck] == expected
        assert game.early[deck] <= game.played[deck]
    assert game.early[0] or game.early[1]


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
    assert game.deck_seats == ("B", "A")
    assert game.first == "b"
    assert game.winners == (("a",) if game.outcome.returns[0] > 0 else ("b",))
    assert game.agents == {"A": "random", "B": "greedy"}
    assert [card["name"] for card in game.replay["decks"][0]] == [c.name for c in spec.decks[1]]
    # One frame per turn, plus the final position.
    assert len(game.frames) == game.outcome.turns + 1
    assert [frame.turn for frame in game.frames[:-1]] == list(range(1, game.outcome.turns + 1))
    first = game.frames[0]
    # Events are the engine's codes and arguments (the web app words them): plain data.
    assert first.events[0] == ("setup", (("player", 0),))
    assert render(Event(*first.events[0]), game.names) == "Set-up: A plays first."
    assert pickle.loads(pickle.dumps(game)) == game  # the replay cache pickles it
    seat_a = first.players.seats[0]
    assert seat_a.hand and seat_a.stronghold_at == 0
    assert seat_a.hit_points == 8 and seat_a.mana == 6
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
        assert (twin.returns, twin.turns, twin.end) == (unique.returns, unique.turns, unique.end)
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
