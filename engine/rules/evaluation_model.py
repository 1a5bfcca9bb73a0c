"""The learned evaluation's weights, as ``engine.rules.train_evaluation`` wrote them.

Read once per process from ``evaluation_model.json`` beside this module (which stays
interpreted: the compiled modules never open files). The file is one of the sources that decide a
game (``engine.rules.native.GAME_SOURCES``): new weights, new games.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from engine.rules.evaluation import FEATURES, Evaluator

MODEL_FILE = Path(__file__).with_name("evaluation_model.json")


@functools.cache
def model_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    if data["features"] != list(FEATURES):
        raise ValueError(f"{MODEL_FILE.name} was trained on other features: train it again")
    return data


def model_weights() -> tuple[float, ...]:
    return tuple(float(value) for value in model_data()["weights"])


def evaluator() -> Evaluator:
    """A new evaluator with the stored weights (each agent keeps its own caches)."""
    data = model_data()
    hidden = data.get("hidden") or {"input": [], "bias": [], "output": []}
    return Evaluator(
        [float(value) for value in data["weights"]],
        [[float(value) for value in row] for row in hidden["input"]],
        [float(value) for value in hidden["bias"]],
        [float(value) for value in hidden["output"]],
    )
