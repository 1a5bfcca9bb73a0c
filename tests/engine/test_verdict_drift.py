"""How far each agent's verdicts drift from the strongest's (engine/verdict_drift.py): a small
seeded measurement, and the file the batch page reads."""

from __future__ import annotations

import json
from pathlib import Path

from engine import verdict_drift
from engine.agent_ladder import current_ladder
from engine.verdict_drift import DRIFT_FILE, TOLERANCE, drifts_from_json, main, measure


def test_a_small_measurement_compares_every_pair_with_the_reference() -> None:
    result = measure(["greedy"], "random", games=4, seed=2, constructed=3)
    table = result["table"]
    # The 16 preconstructed pairs, then the Constructed ones.
    assert [row["pair"] for row in table[:2]] == ["1-1", "1-2"]
    assert [row["pair"] for row in table[16:]] == ["random-0", "random-1", "random-2"]
    for row in table:
        # Four games a pair: deck A's win rate in quarters (draws count half: eighths).
        assert row["greedy"] * 8 == int(row["greedy"] * 8)
        assert 0.0 <= row["random"] <= 1.0
    gaps = [round(abs(row["greedy"] - row["random"]), 4) for row in table]
    (summary,) = result["agents"]
    assert summary == {
        "agent": "greedy",
        "pairs": 19,
        "within": sum(gap <= TOLERANCE for gap in gaps),
        "mean": round(sum(gaps) / 19, 4),
        "largest": round(max(gaps), 4),
    }
    # The same seed plays the same games.
    assert measure(["greedy"], "random", games=4, seed=2, constructed=3) == result
    drift = drifts_from_json(result)["greedy"]
    assert (drift.reference, drift.games_per_pair, drift.pairs) == ("random", 4, 19)
    assert drift.share_within == summary["within"] / 19


def test_the_command_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "drift.json"
    args = ["--reference", "greedy", "--agents", "random", "--games", "2", "--constructed", "1"]
    assert main([*args, "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert (data["reference"], data["games_per_pair"], len(data["table"])) == ("greedy", 2, 17)


def test_the_drift_file_checks_the_cheaper_agents_against_the_strongest() -> None:
    data = json.loads(DRIFT_FILE.read_text())
    drifts = verdict_drift.current_drifts()
    assert drifts == drifts_from_json(data)
    # The reference is the strongest agent of the Duel ladder, the default one at every size.
    assert data["reference"] == current_ladder().agents[0].name
    assert len(data["table"]) == 16 + 50
    for drift in drifts.values():
        assert drift.pairs == 66
        assert 0 <= drift.within <= drift.pairs
        assert drift.mean <= drift.largest
