"""The README and docs/ hold together (issue 50, point 6): every relative Markdown link in README.md and docs/**/*.md
points at a file that exists, and every ``#anchor`` at a heading of its target, by GitHub's anchor rules; the README
stays a quick start (at most 250 lines) whose configuration table names every ``REFEREE_*`` setting the code reads.
Fast and offline: files are read, nothing is fetched."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from referee import config

ROOT = Path(__file__).resolve().parent.parent

# [text](target) or [text](target "title"); an image's ![alt](target) too. Reference definitions: [label]: target.
_INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_KEPT = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Nl", "No", "Mn", "Mc"}  # letters, digits and marks stay in an anchor


def documents(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def _prose(text: str, code_spans: bool = False) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked (a link in code is not a link) unless
    ``code_spans`` keeps them (a heading's text)."""
    lines, fenced = [], None
    for line in text.splitlines():
        fence = _FENCE.match(line)
        if fence:
            if fenced is None:
                fenced = fence.group(1)
            elif fence.group(1) == fenced:
                fenced = None
            lines.append("")
            continue
        if fenced:
            lines.append("")
        else:
            lines.append(line if code_spans else re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line))
    return lines


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: its text without Markdown (code spans' backticks, links' targets, emphasis),
    lowercased, every character that is not a letter, digit, space, hyphen or underscore dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text, not its target
    parts = re.split(r"(`+[^`]*`+)", text)  # code spans are read as written; inline HTML tags elsewhere are dropped
    text = "".join(part.strip("`") if part.startswith("`") else re.sub(r"<[^>]+>", "", part).replace("*", "")
                   for part in parts)
    text = text.strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c) in _KEPT)
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file, repeated headings numbered as GitHub numbers them (-1, -2 …)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for line in _prose(path.read_text(encoding="utf-8"), code_spans=True):
        heading = _HEADING.match(line)
        if not heading:
            continue
        slug = github_anchor(heading.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of every link in a Markdown file's prose."""
    found = []
    for number, line in enumerate(_prose(path.read_text(encoding="utf-8")), start=1):
        found += [(number, m.group(1)) for m in _INLINE.finditer(line)]
        found += [(number, m.group(1)) for m in _REFERENCE.finditer(line)]
    return found


def broken_links(files: list[Path], root: Path = ROOT) -> list[str]:
    """What is wrong with the relative links of these files: a target that does not exist, an anchor no heading of
    the target has. External links (a scheme, or //host) are not checked."""
    problems = []
    for path in files:
        for number, target in links(path):
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", target):
                continue
            file_part, _, anchor = target.partition("#")
            goal = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(root)}:{number}: {target}"
            if not goal.exists():
                problems.append(f"{where}: no such file")
            elif anchor and goal.is_file() and goal.suffix == ".md" and anchor not in anchors(goal):
                problems.append(f"{where}: no heading #{anchor} in {goal.relative_to(root)}")
            elif anchor and goal.is_dir():
                problems.append(f"{where}: an anchor on a folder")
    return problems


def test_every_relative_link_resolves() -> None:
    files = documents()
    assert len(files) >= 10, "README.md and docs/ (guide included) were not found"
    assert sum(len(links(path)) for path in files) > 50, "no links read: the pattern is wrong"
    assert broken_links(files) == []


@pytest.mark.parametrize(("heading", "anchor"), [
    ("Refusals: the codes of 404 and 409", "refusals-the-codes-of-404-and-409"),
    ("`POST /api/matches/<id>/deals`", "post-apimatchesiddeals"),
    ("Events: club play (RULES.md §5)", "events-club-play-rulesmd-5"),
    ("Several phones on one match: `number` and `If-Match`", "several-phones-on-one-match-number-and-if-match"),
    ("Quick start (a fresh machine)", "quick-start-a-fresh-machine"),
    ("The evening's purse", "the-evenings-purse"),
    ("Hosted: PostgreSQL and several processes", "hosted-postgresql-and-several-processes"),
    ("Ratings (issue 36)", "ratings-issue-36"),
    ("A table's link and its card", "a-tables-link-and-its-card"),
    ("Spieler – Übersicht", "spieler--übersicht"),
    ("[the API](api.md) in *short*", "the-api-in-short"),
])
def test_anchor_follows_github(heading: str, anchor: str) -> None:
    assert github_anchor(heading) == anchor


def test_broken_links_are_found(tmp_path: Path) -> None:
    """The check itself: a missing file, a missing heading and a repeated heading's number are each told apart;
    a link in code and an external link are not checked."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## Part\n\n## Part\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "# Top\n\n"
        "[fine](docs/other.md#part) [second](docs/other.md#part-1) [self](#top) [web](https://example.org/x.md)\n"
        "[gone](docs/missing.md) [no heading](docs/other.md#nowhere) [third](docs/other.md#part-2)\n"
        "`[in code](docs/missing-too.md)`\n\n```\n[fenced](docs/missing-three.md)\n```\n"
        "[ref]: docs/missing-four.md\n",
        encoding="utf-8")
    problems = broken_links(documents(tmp_path), tmp_path)
    assert problems == [
        "README.md:4: docs/missing.md: no such file",
        "README.md:4: docs/other.md#nowhere: no heading #nowhere in docs/other.md",
        "README.md:4: docs/other.md#part-2: no heading #part-2 in docs/other.md",
        "README.md:10: docs/missing-four.md: no such file",
    ]


def settings_read() -> set[str]:
    """Every REFEREE_* setting the code reads: referee/config.py's list (SETTINGS), and any named in referee/ or
    scripts/ (the tests' and benchmarks' own)."""
    names = {entry.variable for entry in config.SETTINGS}
    for folder in ("referee", "scripts"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".sh"):
                text = path.read_text(encoding="utf-8", errors="replace")
                names |= set(re.findall(r"\bREFEREE_[A-Z][A-Z0-9_]*[A-Z0-9]\b", text))
    return names


def test_readme_is_a_quick_start_naming_every_setting() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    table_rows = [line for line in readme.splitlines() if line.startswith("| `REFEREE_")]
    in_tables = {name for row in table_rows for name in re.findall(r"`(REFEREE_[A-Z0-9_]+)`", row.split("|")[1])}
    read = settings_read()
    assert {"REFEREE_DATABASE", "REFEREE_SHEET_WAIT", "REFEREE_TEST_WORKERS"} <= read, "the code was not read"
    assert sorted(read - in_tables) == []
    full = (ROOT / "docs" / "guide" / "hosting.md").read_text(encoding="utf-8")
    assert sorted(n for n in read if not n.startswith("REFEREE_TEST_") and f"`{n}`" not in full) == []


def test_paths_to_the_docs_in_the_code_exist() -> None:
    """Where Referee's own words send a person to a document ("see \"Your data\" in docs/guide/hosting.md"), the
    document is there, and so is the heading the message names."""
    named: dict[str, set[Path]] = {}
    for folder in ("referee", "templates", "scripts", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".html", ".pot", "") and path != Path(__file__).resolve():
                for doc in re.findall(r"\bdocs/[\w/.-]*\w\.md\b", path.read_text(encoding="utf-8", errors="replace")):
                    named.setdefault(doc, set()).add(path)
    assert "docs/guide/hosting.md" in named, "the code was not read"
    assert sorted(doc for doc in named if not (ROOT / doc).is_file()) == []
    hosting = anchors(ROOT / "docs" / "guide" / "hosting.md")
    assert {"your-data-export-import-backups", "serving-over-https"} <= hosting



_SCRIPT = re.compile(r"\bscripts/[\w/.-]*[\w]")


def scripts_named(root: Path = ROOT) -> dict[str, set[Path]]:
    """Every ``scripts/…`` path the docs, the README, the tests, CI, the pre-commit hooks and the scripts themselves
    name, with where: a script moved (issue 50, point 8: benchmarks under scripts/bench/, tools under
    scripts/tools/) leaves no one pointing at where it was."""
    sources = [*documents(root), root / ".ci" / "run", root / "pyproject.toml", root / ".pre-commit-config.yaml"]
    for folder in ("tests", "scripts"):
        sources += [path for path in (root / folder).rglob("*")
                    if path.is_file() and path.suffix in (".py", ".sh", "") and path != Path(__file__).resolve()]
    named: dict[str, set[Path]] = {}
    for path in sources:
        if path.is_file():
            for name in _SCRIPT.findall(path.read_text(encoding="utf-8", errors="replace")):
                named.setdefault(name.removesuffix("."), set()).add(path)
    return named


def test_every_script_named_is_where_it_is_named_and_scripts_stays_short(tmp_path) -> None:
    named = scripts_named()
    assert {"scripts/test", "scripts/lint", "scripts/bench/bench_live.py", "scripts/tools/store_protocol.py"} <= set(
        named), "the files were not read"
    assert sorted(f"{name} ({', '.join(sorted(str(p.relative_to(ROOT)) for p in named[name]))})"
                  for name in named if not (ROOT / name).exists()) == []
    top = sorted(path.name for path in (ROOT / "scripts").iterdir() if path.name != "__pycache__")
    assert len(top) <= 10, top
    assert {"serve", "test", "lint", "lock", "i18n", "setup.sh"} <= set(top)
    # And it would notice: a README naming a script that is not there.
    (tmp_path / "docs").mkdir()
    (tmp_path / "scripts" / "bench").mkdir(parents=True)
    (tmp_path / "scripts" / "bench" / "bench_live.py").write_text("")
    (tmp_path / "README.md").write_text("Run `scripts/bench_live.py`, then scripts/bench/bench_live.py.\n")
    assert {name for name in scripts_named(tmp_path) if not (tmp_path / name).exists()} == {"scripts/bench_live.py"}
