"""Fixtures of the Champions tests.

The catalogue (abilities with their costs and texts) is loaded once per test module inside an
outer transaction that is rolled back when the module ends, so other apps' tests never see it;
each test runs in a savepoint inside it. Uploaded files go to a fresh MEDIA_ROOT per test.
"""

import io
from pathlib import Path

import pytest
from PIL import Image

from champions.designs import ChampionDesign


@pytest.fixture(autouse=True)
def media_root(settings: object, tmp_path: Path) -> Path:
    root = tmp_path / "media"
    root.mkdir()
    settings.MEDIA_ROOT = root  # type: ignore[attr-defined]
    return root


def media_files(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*") if path.is_file())


def picture_bytes(
    fmt: str = "PNG", size: tuple[int, int] = (400, 300), mode: str = "RGB", **save: object
) -> bytes:
    """A real picture: a gradient, so resampling and cropping change measurable pixels."""
    image = Image.linear_gradient("L").resize(size).convert(mode)
    if mode == "RGB":
        image = Image.merge(
            "RGB",
            (
                image.getchannel(0),
                Image.new("L", size, 90),
                image.getchannel(0).transpose(Image.Transpose.FLIP_LEFT_RIGHT),
            ),
        )
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


@pytest.fixture
def eager_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run Celery tasks in-process even when REDIS_URL configures a real broker."""
    from cod_site.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setitem(app.conf, "task_eager_propagates", True)


@pytest.fixture
def owner(django_user_model: object) -> object:
    return django_user_model.objects.create_user("ana", password="pw-123456789")  # type: ignore[attr-defined]


@pytest.fixture
def other(django_user_model: object) -> object:
    return django_user_model.objects.create_user("bo", password="pw-123456789")  # type: ignore[attr-defined]


def design(**changes: object) -> ChampionDesign:
    base = ChampionDesign(
        names={"en": "Åsa the Bold", "fr": "Åsa l'Intrépide"},
        flavours={"fr": "Ébréchement des murailles."},
        mana=5,
        attack=4,
        hp=4,
        abilities=["splash", "aura:rage"],
    )
    return base.patched(changes) if changes else base
