"""Every UI string in French and Swedish: each app's catalogues (<app>/locale/{fr,sv}/LC_MESSAGES/
django.po) have no untranslated and no fuzzy entry (gettext skips both, so the page falls back to
English), and they hold every msgid `makemessages` extracts from the app's sources today (a string
added since the last extraction is in no catalogue at all)."""

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ("fr", "sv")
# The folders makemessages runs in; cod_site holds the accounts app and its own locale folder.
APPS = ("cards", "champions", "cod_site", "decks", "engine", "grimoire", "mutation", "play")
LOCALE_DIRS = (*APPS, "cod_site/accounts")

Key = tuple[str | None, str]
_FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$')


def _entries(path: Path) -> dict[Key, tuple[bool, list[str]]]:
    """The catalogue's live entries (not the header, not the obsolete `#~` ones): whether each is
    fuzzy, and its translations (one per plural form)."""
    entries = {}
    for block in path.read_text().split("\n\n"):
        fields: dict[str, str] = {}
        field = ""
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,"):
                fuzzy = fuzzy or "fuzzy" in (flag.strip() for flag in line[2:].split(","))
            elif line.startswith('"'):
                fields[field] += line[1:-1]
            elif match := _FIELD.match(line):
                field = match[1]
                fields[field] = match[2]
        if fields.get("msgid"):
            translations = [value for name, value in fields.items() if name.startswith("msgstr")]
            entries[(fields.get("msgctxt"), fields["msgid"])] = (fuzzy, translations)
    return entries


def _catalogue(locale_dir: str, language: str) -> Path:
    return ROOT / locale_dir / "locale" / language / "LC_MESSAGES" / "django.po"


def test_the_locale_folders_are_the_known_ones() -> None:
    found = sorted(
        str(path.parent.relative_to(ROOT))
        for pattern in ("*/locale", "*/*/locale")
        for path in ROOT.glob(pattern)
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
    )
    assert found == sorted(LOCALE_DIRS)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("locale_dir", LOCALE_DIRS)
def test_every_entry_is_translated_and_none_is_fuzzy(locale_dir: str, language: str) -> None:
    entries = _entries(_catalogue(locale_dir, language))
    assert len(entries) > 10
    assert [msgid for (_, msgid), (fuzzy, _) in entries.items() if fuzzy] == []
    assert [msgid for (_, msgid), (_, found) in entries.items() if not all(found)] == []


@pytest.mark.parametrize("app", APPS)
def test_the_catalogues_hold_every_string_of_the_sources(
    app: str, tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # makemessages writes into the working folder's locale folders (and the settings' ones):
    # it runs on a copy whose locale folders are empty, so it extracts afresh and the repository
    # is left as it is.
    settings.LOCALE_PATHS = []
    copy = tmp_path / app
    shutil.copytree(
        ROOT / app, copy, ignore=shutil.ignore_patterns("locale", "static", "__pycache__")
    )
    locale_dirs = [name for name in LOCALE_DIRS if name.split("/")[0] == app]
    for locale_dir in locale_dirs:
        (tmp_path / locale_dir / "locale").mkdir()
    monkeypatch.chdir(copy)
    call_command("makemessages", locale=["fr"], verbosity=0)
    for locale_dir in locale_dirs:
        extracted = _entries(tmp_path / locale_dir / "locale" / "fr" / "LC_MESSAGES" / "django.po")
        assert extracted
        for language in LANGUAGES:
            committed = _entries(_catalogue(locale_dir, language))
            assert sorted(msgid for _, msgid in extracted.keys() - committed.keys()) == []


def test_the_reading_of_a_catalogue(tmp_path: Path) -> None:
    catalogue = tmp_path / "django.po"
    catalogue.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        '#: forms.py:1\n#, fuzzy, python-format\n#| msgid "Card"\nmsgid "Card %(number)d"\n'
        'msgstr "carte"\n\n'
        'msgctxt "engine line"\nmsgid ""\n"top"\nmsgstr ""\n\n'
        'msgid "%(count)d card"\nmsgid_plural "%(count)d cards"\nmsgstr[0] "%(count)d carte"\n'
        'msgstr[1] ""\n\n'
        '#~ msgid "Gone"\n#~ msgstr "Parti"\n'
    )
    assert _entries(catalogue) == {
        (None, "Card %(number)d"): (True, ["carte"]),
        ("engine line", "top"): (False, [""]),
        (None, "%(count)d card"): (False, ["%(count)d carte", ""]),
    }
