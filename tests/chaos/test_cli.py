"""``python -m engine.chaos.play``: the batch of computer games on the command line."""

from __future__ import annotations

import pytest

from engine.chaos.play import main


def test_a_batch_prints_the_win_rates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--agents", "greedy,random", "--games", "20", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("20 games, mode duel, seed 1, ")
    assert lines[1] == "A greedy     20 wins  100.0%  95% CI  83.9% - 100.0%"
    assert lines[2] == "B random      0 wins    0.0%  95% CI   0.0% -  16.1%"
    assert lines[3] == "without a winner (turn limit): 0"


def test_the_prologue(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--mode", "prologue", "--agents", "greedy", "--games", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "A greedy      5 wins  100.0%  95% CI  56.6% - 100.0%"
    assert out[2] == "lost (turn limit): 0"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--agents", "greedy,chess"],
            "error: unknown agent 'chess' (choose from random, greedy, search)",
        ),
        (["--agents", "greedy,greedy,greedy"], "error: --agents takes 2 agent(s) for --mode duel"),
        (["--games", "0"], "error: --games must be at least 1"),
    ],
)
def test_refusals(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert capsys.readouterr().err.strip() == message
