"""Champions: median time of one single-sheet Print-and-Play PDF (goal ≤ 50 ms) and of one
300 dpi card PNG. Pure rendering (no database): the faces are built in memory."""

import io
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cod_site.settings")

import django

django.setup()

from PIL import Image  # noqa: E402

from champions import faces, pnp  # noqa: E402
from champions.faces import CardFace, FaceAbility, Illustration  # noqa: E402
from champions.images import normalise_image  # noqa: E402
from champions.pnp import SheetOptions, build_sheets  # noqa: E402
from champions.rendering import card_png  # noqa: E402

RUNS = 40
GOAL_MS = 50.0


def picture(seed: int) -> Illustration:
    image = Image.effect_mandelbrot((1600, 1200), (-2 + seed / 10, -1.2, 1, 1.2), 60)
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG")
    stored = normalise_image(out.getvalue())
    return Illustration(stored.content, stored.sha256, x=0.4, y=0.5, zoom=1.3)


def face(name: str, illustration: Illustration) -> CardFace:
    return CardFace(
        kind="champion",
        name=name,
        mana=6,
        attack=5,
        hp=4,
        abilities=(
            FaceAbility("splash", "Splash", "The owner also deals its Damage to adjacent ones."),
            FaceAbility(
                "rage", "Aura: Rage", "Adjacent Creatures on the same line have Rage.", True
            ),
            FaceAbility("sprint", "Sprint", "The owner can move before attacking."),
        ),
        flavour="Åsa såg långt över de frusna fälten — où l'été s'achève.",
        type_line="Champion",
        illustration=illustration,
    )


def clear_caches() -> None:
    faces.art_pixels.cache_clear()
    faces._decoded.cache_clear()
    pnp._JPEGS.clear()


def median_ms(work: Callable[[], object], *, cold: bool = False) -> float:
    work()  # fonts registered, code warmed
    times = []
    for _ in range(RUNS):
        if cold:
            clear_caches()
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    art = picture(0)
    one = face("Åsa Ébréchement", art)
    nine = [face(f"Champion {index}", picture(index)) for index in range(9)]
    a4 = SheetOptions(paper="a4")
    full = SheetOptions(paper="letter", bleed=True, backs=True, back_offset_x_mm=0.5)

    figures = {
        "single-sheet PDF, 9 copies of one Champion": median_ms(
            lambda: build_sheets([one] * 9, a4)
        ),
        "single-sheet PDF, 9 different Champions": median_ms(lambda: build_sheets(nine, a4)),
        "single-sheet PDF + backs + bleed (Letter)": median_ms(
            lambda: build_sheets([one] * 9, full)
        ),
        "single-sheet PDF, 9 copies, pictures not cached": median_ms(
            lambda: build_sheets([one] * 9, a4), cold=True
        ),
        "card PNG, 300 dpi (661 × 1028)": median_ms(lambda: card_png(one)),
        "card PNG, picture not cached": median_ms(lambda: card_png(one), cold=True),
    }
    width = max(len(label) for label in figures)
    for label, value in figures.items():
        print(f"{label:<{width}}  median {value:7.1f} ms")
    goal = figures["single-sheet PDF, 9 copies of one Champion"]
    print(
        f"goal: one single-sheet PDF ≤ {GOAL_MS:.0f} ms → {'met' if goal <= GOAL_MS else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
