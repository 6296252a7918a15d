"""The message catalogues (referee/translations): complete, not fuzzy, placeholders kept, and up to date with
the sources.

Gating: every message is extracted into messages.pot and present in each language's messages.po, and every one
must be translated (``TRANSLATED = None``). While a language or a part of the app is being translated, TRANSLATED
can name the source files (patterns) whose messages must already be.
"""

from __future__ import annotations

import re
import subprocess
from fnmatch import fnmatch
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ROOT / "referee" / "translations"
LANGUAGES = ("ja", "de")

# Source files (patterns) whose messages must all be translated; None: every message.
TRANSLATED: tuple[str, ...] | None = None  # every file's messages are translated

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:[!:][^}]*)?\}")


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _key(message) -> tuple[str | None, str]:
    return message.context, message.id[0] if isinstance(message.id, (list, tuple)) else message.id


def _messages(catalog: Catalog) -> dict:
    return {_key(m): m for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    """``{name}`` and ``%(name)s`` placeholders of a message (escaped ``{{``/``%%`` are text)."""
    text = text.replace("{{", "").replace("}}", "").replace("%%", "")
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def gated(message) -> bool:
    if TRANSLATED is None:
        return True
    return any(fnmatch(path, pattern) for path, _ in message.locations for pattern in TRANSLATED)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return _read(CATALOGUES / "messages.pot")


@pytest.fixture(scope="module", params=LANGUAGES)
def language(request) -> tuple[str, Catalog]:
    return request.param, _read(CATALOGUES / request.param / "LC_MESSAGES" / "messages.po", request.param)


def test_the_template_is_up_to_date_with_the_sources(tmp_path, template):
    """Re-extracted now, the sources give exactly the committed messages.pot (run: bash scripts/i18n extract)."""
    fresh = tmp_path / "messages.pot"
    subprocess.run(["bash", "scripts/i18n", "pot", str(fresh)], cwd=ROOT, check=True, capture_output=True, timeout=120)
    now, committed = _messages(_read(fresh)), _messages(template)
    missing, stale = sorted(set(now) - set(committed), key=str), sorted(set(committed) - set(now), key=str)
    assert not missing and not stale, (
        f"messages.pot is out of date: run bash scripts/i18n extract. New: {missing[:10]} Gone: {stale[:10]}")
    moved = {k: (sorted({p for p, _ in now[k].locations}), sorted({p for p, _ in committed[k].locations}))
             for k in now if {p for p, _ in now[k].locations} != {p for p, _ in committed[k].locations}}
    assert not moved, f"messages.pot names other files for these (bash scripts/i18n extract): {list(moved.items())[:5]}"


def test_every_language_has_every_message_of_the_template(template, language):
    code, catalog = language
    want, have = set(_messages(template)), set(_messages(catalog))
    assert not want - have, f"{code}: run bash scripts/i18n extract (missing: {sorted(want - have, key=str)[:10]})"
    assert not have - want, f"{code}: messages no longer in the sources: {sorted(have - want, key=str)[:10]}"


def fuzzy_entries(catalog: Catalog) -> list:
    return (["<header>"] if catalog.fuzzy else []) + [m.id for m in catalog if m.id and m.fuzzy]


def untranslated(template: Catalog, catalog: Catalog) -> list:
    """Messages of gated sources without a translation (every plural form) in ``catalog``."""
    messages = _messages(catalog)
    found = []
    for key, source in _messages(template).items():
        if not gated(source):
            continue
        message = messages.get(key)
        strings = message.string if message is not None else ""
        strings = list(strings) if isinstance(strings, (list, tuple)) else [strings]
        plural = isinstance(source.id, (list, tuple))
        if not all(s.strip() for s in strings) or (plural and len(strings) != catalog.num_plurals):
            found.append(key)
    return found


def placeholder_problems(catalog: Catalog) -> list:
    """Translations whose placeholders are not the original's. A plural form may use the singular's or the
    plural's (English "one deal" may leave the count out; a language with one form uses the plural's)."""
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            allowed = [placeholders(message.id[0]), placeholders(message.id[1])]
            wrong += [(message.id, s) for s in message.string if s and placeholders(s) not in allowed]
        elif message.string and placeholders(message.string) != placeholders(message.id):
            wrong.append((message.id, message.string))
    return wrong


def test_no_entry_is_fuzzy(language):
    code, catalog = language
    assert not fuzzy_entries(catalog), (
        f"{code}: fuzzy entries (check each, then remove the flag): {fuzzy_entries(catalog)[:10]}"
    )


def test_every_gated_message_is_translated(template, language):
    code, catalog = language
    assert not untranslated(template, catalog), f"{code}: not translated: {untranslated(template, catalog)[:10]}"


def test_translations_keep_the_placeholders(language):
    code, catalog = language
    assert not placeholder_problems(catalog), f"{code}: placeholders differ: {placeholder_problems(catalog)[:5]}"


def test_the_checks_catch_what_they_are_for():
    """A catalogue with a missing, a fuzzy and a wrongly filled message fails each check."""
    source = Catalog()
    for text in ("History", "Rules", "{player} takes {points}", "%(name)s won"):
        source.add(text, locations=[("templates/base.html", None)])
    source.add(("%(count)s player", "%(count)s players"), locations=[("templates/home.html", None)])
    source.add("Untranslated elsewhere", locations=[("referee/not_yet_translated.py", None)])  # a file outside the gate
    de = Catalog(locale="de", fuzzy=False)
    de.add("History", "Verlauf")
    de.add("Rules", "Regeln", flags=["fuzzy"])
    de.add("{player} takes {points}", "{spieler} nimmt {points}")
    de.add("%(name)s won", "%(name)s hat gewonnen")
    de.add(("%(count)s player", "%(count)s players"), ("%(count)s Spieler", ""))
    de.add("Untranslated elsewhere", "")
    assert fuzzy_entries(de) == ["Rules"]
    gate = TRANSLATED is not None
    missing = untranslated(source, de)
    assert (None, "%(count)s player") in missing and (None, "History") not in missing
    assert ((None, "Untranslated elsewhere") in missing) is not gate
    assert placeholder_problems(de) == [("{player} takes {points}", "{spieler} nimmt {points}")]


def test_the_gate_names_files_that_exist():
    for pattern in TRANSLATED or ():
        assert list(ROOT.glob(pattern)), pattern


@pytest.mark.parametrize("text, names", [
    ("{player} takes {points}", {"player", "points"}),
    ("%(name)s won %(count)d", {"name", "count"}),
    ("{{literal}} and 100%% and {n:,}", {"n"}),
    ("no placeholder", set()),
])
def test_placeholders_are_found(text, names):
    assert placeholders(text) == names
