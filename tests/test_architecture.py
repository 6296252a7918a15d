"""The modules of referee/ import one another without a cycle (docs/architecture.md, "The floors"): the import
graph is read from the source with ``ast`` — every ``import`` and ``from … import``, at the top of a module, inside
a function or under ``TYPE_CHECKING`` alike — and no module reaches itself again."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root / "referee"`` by its dotted name (a package by its ``__init__``)."""
    return {module_name(path, root): path for path in sorted((root / "referee").rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that the module ``name`` imports anywhere in its text: ``from .x import y`` imports
    ``x.y`` when that is a module, else ``x`` (a package's ``__init__`` that Python runs on the way to one of its
    modules is not counted: it is no import of this module's)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            submodules = {f"{source}.{alias.name}" for alias in node.names} & known
            found |= submodules
            if len(submodules) < len(node.names):  # a name the module itself defines
                found.add(source)
    return {target for target in found if target in known and target != name}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan's algorithm), as a path round it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_module_of_referee_imports_its_way_back_to_itself() -> None:
    graph = import_graph()
    assert {"referee.app", "referee.cli", "referee.commands", "referee.matches.club"} <= set(graph)
    assert "referee.app" in graph["referee.cli"]  # the server imports the app ...
    assert "referee.commands" in graph["referee.app"]  # ... which registers the flask commands
    assert cycles(graph) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "referee" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("files", "expected"), [
    pytest.param({"__init__.py": "", "a.py": "from .b import x\n", "b.py": "x = 1\n"}, [], id="one way"),
    pytest.param({"__init__.py": "", "a.py": "from .b import x\n", "b.py": "def f():\n    from .a import y\n"},
                 [["referee.a", "referee.b"]], id="back up inside a function"),
    pytest.param({"__init__.py": "", "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                  "    from . import b\n", "b.py": "import referee.a\n"},
                 [["referee.a", "referee.b"]], id="under TYPE_CHECKING, and absolute"),
    pytest.param({"__init__.py": "", "p/__init__.py": "from .c import z\n", "p/c.py": "from .. import a\n",
                  "a.py": "from .p import c\n"},
                 [["referee.a", "referee.p.c"]], id="from a package, a module of it"),
    pytest.param({"__init__.py": "", "p/__init__.py": "from .c import z\n", "p/c.py": "from .. import a\n",
                  "a.py": "from .p import z\n"},
                 [["referee.a", "referee.p", "referee.p.c"]], id="from a package, a name its __init__ defines"),
    pytest.param({"__init__.py": "", "p/__init__.py": "from .c import z\n", "p/c.py": "from . import d\nz = 1\n",
                  "p/d.py": ""},
                 [], id="a package's __init__ run on the way is no import"),
    pytest.param({"__init__.py": "", "p/__init__.py": "", "p/c.py": "from . import d\n",
                  "p/d.py": "from ..p.c import q\n"},
                 [["referee.p.c", "referee.p.d"]], id="two dots"),
])
def test_the_graph_finds_each_kind_of_cycle(tmp_path, files, expected) -> None:
    assert cycles(import_graph(_tree(tmp_path, files))) == expected


# Issue 50, item 1 (typed rows): ``Any`` hides what a reader of untrusted input must narrow, and what a row holds.
MOST_ANY = 40
MOST_UNANNOTATED = 10


def any_uses(root: Path = ROOT) -> list[str]:
    """Where ``Any`` is used in referee/store and referee/matches (a name ``Any`` or ``typing.Any`` in the code,
    its import aside), as ``path:line``, in order."""
    found: list[tuple[str, int]] = []
    for package in ("store", "matches"):
        for path in sorted((root / "referee" / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if (isinstance(node, ast.Name) and node.id == "Any") or (
                        isinstance(node, ast.Attribute) and node.attr == "Any"
                        and isinstance(node.value, ast.Name) and node.value.id == "typing"):
                    found.append((str(path.relative_to(root)), node.lineno))
    return [f"{where}:{line}" for where, line in sorted(found)]


def unannotated(root: Path = ROOT) -> list[str]:
    """The functions of referee/ without a return annotation, as ``path:line name`` (an ``__init__`` aside: mypy
    reads one whose arguments are typed as returning None)."""
    found = []
    for path in sorted((root / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is None \
                    and node.name != "__init__":
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    return found


def test_any_is_rare_in_the_store_and_the_service_layer() -> None:
    uses = any_uses()
    assert len(uses) <= MOST_ANY, (
        f"`Any` is written {len(uses)} times in referee/store and referee/matches (at most {MOST_ANY}): a reader "
        "of untrusted input takes `object` and narrows it, JSON is referee.jsontext.JSON, a row is a dataclass; "
        "at:\n" + "\n".join(uses))


def test_functions_of_referee_say_what_they_return() -> None:
    missing = unannotated()
    assert len(missing) <= MOST_UNANNOTATED, (
        f"{len(missing)} functions of referee/ have no return annotation (at most {MOST_UNANNOTATED}):\n"
        + "\n".join(missing))
