"""Train the learned evaluation (engine.rules.evaluation) from self-play games of the strong agent.

    python -m engine.rules.train_evaluation [--seed 1] [--games 1200] [--nodes 2000] \\
        [--shard-games 8] [--work .build/evaluation-training] \\
        [--out engine/rules/evaluation_model.json] [--check]

1. Games: the strong agent (``--nodes`` per decision) plays itself, every other game on a pair
   of preconstructed decks and the others on pairs of random Constructed decks, all drawn from
   ``--seed`` (decks and shuffles of their own, never the corpus the benchmarks measure with).
   Each game is kept as its actions and result.
2. The games are played in shards of ``--shard-games`` games, each written to ``--work`` with a
   digest of its games as soon as it is done: a run stopped midway resumes where it stopped,
   and shards may be played by several processes at once (``--shards FIRST:LAST``) before one
   last run without it fits the model. A longer run (more ``--games``) reuses the shorter's.
3. The samples: every position a turn starts from, played again from the games, gives one
   sample per seat: its features (:func:`engine.rules.evaluation.features`, so new features
   need no new games) and whether that seat went on to win (draws are left out).
4. The model: logistic regression, fitted by Newton's method with a small ridge, in float64 with
   NumPy, then rounded to 6 decimals, so the same seed gives the same file.

The model file records the training's parameters and each shard's digest beside the weights;
``--check`` plays the games again and compares (``tests/engine/test_learned_agent.py`` plays the
first shard again, a fast check of the same thing).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.rules.actions import END_TURN, Action, apply
from engine.rules.agents import StrongAgent, card_values
from engine.rules.cards import CardDef, Catalogue, load_catalogue
from engine.rules.corpus import PRECONSTRUCTED, constructed_decks
from engine.rules.evaluation import FEATURE_COUNT, FEATURES, Evaluator, features
from engine.rules.evaluation_model import MODEL_FILE
from engine.rules.game import Game
from engine.rules.state import Options
from engine.rules.turn import new_game

RIDGE = 1e-3
NEWTON_STEPS = 30
ADAM_STEPS = 2000
# The share of the shards (the last ones) kept out of the fit to report the model's accuracy.
HOLDOUT = 0.1
# Constructed decks are drawn from this seed plus the training's: none of the benchmark corpora's.
DECK_SEED_OFFSET = 7919


def _seed(*parts: int) -> int:
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def training_game(
    catalogue: Catalogue, seed: int, game: int, pool: list[tuple[CardDef, ...]]
) -> tuple[tuple[tuple[CardDef, ...], tuple[CardDef, ...]], int]:
    """The decks and shuffle seed of training game ``game``."""
    if game % 2 == 0:
        pair = (game // 2) % 16
        a, b = PRECONSTRUCTED[pair // 4], PRECONSTRUCTED[pair % 4]
        decks = (tuple(catalogue.precon(a)), tuple(catalogue.precon(b)))
    else:
        index = (game // 2) % (len(pool) - 1)
        decks = (pool[index], pool[index + 1])
    return decks, _seed(seed, game)


def play_shard(
    catalogue: Catalogue, seed: int, nodes: int, first: int, count: int
) -> list[list[Any]]:
    """The games ``first`` to ``first + count - 1``: [game number, actions, returns] each (the
    positions are played again from them at fit time, so new features need no new games)."""
    pool = _pool(catalogue, seed)
    games: list[list[Any]] = []
    for game in range(first, first + count):
        decks, game_seed = training_game(catalogue, seed, game, pool)
        played = Game.start(decks, game_seed, Options())
        agents = [StrongAgent(_seed(seed, game, seat), nodes=nodes) for seat in (0, 1)]
        actions: list[Action] = []
        played.advance(agents, after=lambda state, seat, action: actions.append(action))  # noqa: B023 (called in this iteration)
        games.append([game, [list(action) for action in actions], list(played.state.returns())])
    return games


def _pool(catalogue: Catalogue, seed: int) -> list[tuple[CardDef, ...]]:
    return constructed_decks(catalogue, 512, seed + DECK_SEED_OFFSET)


def samples_of(catalogue: Catalogue, seed: int, games: list[list[Any]]) -> list[list[float]]:
    """Every position a turn starts from in ``games`` (as ``play_shard`` gives them), one sample
    per seat: its features, then 1.0 if that seat won, else 0.0 (draws are left out)."""
    pool = _pool(catalogue, seed)
    samples: list[list[float]] = []
    for game, actions, returns in games:
        if 1 not in returns:
            continue
        decks, game_seed = training_game(catalogue, seed, game, pool)
        state = new_game(decks, game_seed, Options())
        values = card_values(state.setup)
        starts = True
        for action in actions:
            if starts:
                for seat in (0, 1):
                    row = features(state, seat, values)
                    samples.append([*row, 1.0 if returns[seat] > 0 else 0.0])
            apply(state, tuple(action))
            starts = action[0] == END_TURN
    return samples


def digest(games: list[list[Any]]) -> str:
    return hashlib.sha256(json.dumps(games, separators=(",", ":")).encode()).hexdigest()


def _config(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "seed": args.seed,
        "games": args.games,
        "nodes": args.nodes,
        "shard_games": args.shard_games,
    }


def _shard_path(work: Path, config: dict[str, Any], index: int) -> Path:
    # Not the number of games: a longer run reuses the shards of a shorter one.
    played = {key: value for key, value in config.items() if key != "games"}
    tag = hashlib.sha256(json.dumps(played, sort_keys=True).encode()).hexdigest()[:12]
    return work / f"shard-{tag}-{index:05d}.json"


def shard_games(
    catalogue: Catalogue, config: dict[str, Any], work: Path, index: int, log: bool = True
) -> tuple[list[list[Any]], str]:
    """Shard ``index``'s games and digest, from ``work`` if it was played already."""
    path = _shard_path(work, config, index)
    if path.is_file():
        stored = json.loads(path.read_text(encoding="utf-8"))
        return stored["games"], stored["digest"]
    size = config["shard_games"]
    first = index * size
    count = min(size, config["games"] - first)
    start = time.process_time()
    games = play_shard(catalogue, config["seed"], config["nodes"], first, count)
    shard_digest = digest(games)
    work.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(
        json.dumps({"games": games, "digest": shard_digest}, separators=(",", ":")),
        encoding="utf-8",
    )
    temporary.replace(path)
    if log:
        print(
            f"shard {index}: games {first}-{first + count - 1}, "
            f"{time.process_time() - start:.1f} s",
            flush=True,
        )
    return games, shard_digest


def fit(samples: Sequence[Sequence[float]]) -> list[float]:
    """Logistic regression weights (no intercept: the features are differences between sides)."""
    import numpy as np

    data = np.asarray(samples, dtype=np.float64)
    x, y = data[:, :FEATURE_COUNT], data[:, FEATURE_COUNT]
    w = np.zeros(FEATURE_COUNT)
    ridge = RIDGE * len(y) * np.eye(FEATURE_COUNT)
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + ridge @ w
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + ridge
        step = np.linalg.solve(hessian, gradient)
        w = w - step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return [round(float(value), 6) for value in w]


def fit_hidden(
    samples: Sequence[Sequence[float]], linear: list[float], units: int, seed: int
) -> dict[str, Any]:
    """The linear weights and a hidden layer of ``units`` odd tanh pairs
    (:class:`engine.rules.evaluation.Evaluator`), trained together from ``linear`` by full-batch
    Adam on the log loss with a small weight decay; the inputs are scaled by their spread
    inside the first layer's weights. Seeded: the same samples give the same weights."""
    import numpy as np

    data = np.asarray(samples, dtype=np.float64)
    x, y = data[:, :FEATURE_COUNT], data[:, FEATURE_COUNT]
    spread = x.std(axis=0)
    spread[spread == 0.0] = 1.0
    xs = x / spread
    rng = np.random.default_rng(seed)
    params = {
        "w": np.asarray(linear) * spread,
        "a": rng.normal(0.0, 0.3, (units, FEATURE_COUNT)),
        "b": rng.normal(0.0, 0.3, units),
        "o": np.zeros(units),
    }
    moments = {key: (np.zeros_like(value), np.zeros_like(value)) for key, value in params.items()}
    rate, decay, count = 0.01, 1e-4, len(y)
    for step in range(1, ADAM_STEPS + 1):
        za = xs @ params["a"].T
        plus, minus = np.tanh(params["b"] + za), np.tanh(params["b"] - za)
        z = xs @ params["w"] + (plus - minus) @ params["o"]
        error = (1.0 / (1.0 + np.exp(-z)) - y) / count
        d_plus = np.outer(error, params["o"]) * (1.0 - plus**2)
        d_minus = np.outer(error, params["o"]) * (1.0 - minus**2)
        grads = {
            "w": xs.T @ error,
            "o": (plus - minus).T @ error,
            "b": (d_plus - d_minus).sum(axis=0),
            "a": (d_plus + d_minus).T @ xs,
        }
        for key, grad in grads.items():
            grad = grad + decay * params[key]
            first, second = moments[key]
            first = 0.9 * first + 0.1 * grad
            second = 0.999 * second + 0.001 * grad**2
            moments[key] = (first, second)
            corrected = (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
            params[key] = params[key] - rate * corrected

    def rounded(values: Any) -> Any:
        return np.round(values, 6).tolist()

    return {
        "weights": rounded(params["w"] / spread),
        "hidden": {
            "input": rounded(params["a"] / spread),
            "bias": rounded(params["b"]),
            "output": rounded(params["o"]),
        },
    }


def scores(model: Evaluator, samples: Sequence[Sequence[float]]) -> dict[str, float]:
    """Log loss and accuracy of ``model`` on ``samples``."""
    loss = 0.0
    right = 0
    for row in samples:
        p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, model.logit_of(list(row[:-1]))))))
        won = row[FEATURE_COUNT] == 1.0
        loss -= math.log(max(1e-12, p if won else 1.0 - p))
        right += (p > 0.5) == won
    count = max(1, len(samples))
    return {"log_loss": round(loss / count, 4), "accuracy": round(right / count, 4)}


def train(args: argparse.Namespace) -> dict[str, Any]:
    catalogue = load_catalogue()
    config = _config(args)
    shards = -(-args.games // args.shard_games)
    first, last = 0, shards
    if args.shards:
        first, last = (int(part) for part in args.shards.split(":"))
    collected = [
        shard_games(catalogue, config, args.work, index)
        for index in range(first, min(last, shards))
    ]
    if args.shards:
        return {}
    held = max(1, round(HOLDOUT * shards)) if shards > 1 else 0
    seed = config["seed"]
    fitted = [
        row for games, _ in collected[: shards - held] for row in samples_of(catalogue, seed, games)
    ]
    holdout = [
        row for games, _ in collected[shards - held :] for row in samples_of(catalogue, seed, games)
    ]
    model: dict[str, Any] = {"weights": fit(fitted)}
    if args.hidden:
        model = fit_hidden(fitted, model["weights"], args.hidden, seed)
    hidden = model.get("hidden", {"input": [], "bias": [], "output": []})
    evaluator = Evaluator(model["weights"], hidden["input"], hidden["bias"], hidden["output"])
    return {
        "features": list(FEATURES),
        **model,
        "training": {
            **config,
            "hidden_units": args.hidden,
            "samples": len(fitted) + len(holdout),
            "holdout_shards": held,
            "fit": scores(evaluator, fitted),
            "holdout": scores(evaluator, holdout) if holdout else None,
            "shard_digests": [shard_digest for _, shard_digest in collected],
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.rules.train_evaluation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--nodes", type=int, default=2000, help="the strong agent's budget")
    parser.add_argument("--shard-games", type=int, default=8)
    parser.add_argument("--hidden", type=int, default=0, help="hidden units (0: linear)")
    parser.add_argument("--work", type=Path, default=Path(".build/evaluation-training"))
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--shards", help="FIRST:LAST: only play these shards (no fit)")
    parser.add_argument(
        "--check", action="store_true", help="compare with --out instead of writing it"
    )
    args = parser.parse_args(argv)
    model = train(args)
    if not model:
        return 0
    text = json.dumps(model, indent=1) + "\n"
    print(json.dumps(model["training"]["fit"]), json.dumps(model["training"]["holdout"]))
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print("the model file is reproduced" if same else f"{args.out} DIFFERS")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
