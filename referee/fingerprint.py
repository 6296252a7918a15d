"""Which rules computed a match's stored results: a fingerprint per game, of the code its results depend on.

A match row keeps the fingerprint of its game's rules with the results it stores; a match whose fingerprint is not
the running code's is replayed from what the players entered, once, and stored again (``matches.load``,
``matches.sync``, and ``matches.plan_from_snapshot``, which then leaves the deal to the write lock). So a fixed
rule recomputes every stored total it changes, and only those: a game's fingerprint is the sha256 of the sources of
its module, of every module of ``referee.games`` that module imports (directly or through another: base.py,
cards.py) and of match.py, which replays every game. A fix to Spitzer's rules replays the Spitzer matches, not the
Klaberjass ones; adding a game to the registry replays nothing.

The modules come from the registry (``referee.games.GAMES``) and the imports written in their sources, not from a
walk over the package. Each game's fingerprint is worked out the first time a match of it is loaded or stored, then
kept for the life of the process (the sources do not change under a running server). Reading sources is I/O, which
is why this lives here and not in ``referee.games``.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from collections.abc import Callable, Iterator
from functools import cache

from . import games
from .games import match as replay_module
from .games.base import AnyGame

PACKAGE = games.__name__


def rules_fingerprint(game_key: str) -> str:
    """The fingerprint of the rules of the game with this key, as the registry holds it now; "" for a game Referee
    does not know (no stored fingerprint is "", so such a match goes to a replay, which says the game is unknown)."""
    for game in games.GAMES:
        if game.key == game_key:
            return _fingerprint(game)
    return ""


@cache
def _fingerprint(game: AnyGame) -> str:
    return fingerprint_of(game)


def module_source(name: str) -> str:
    """The source of a module of the rules, as its loader reads it (a file, or a member of a zip)."""
    spec = importlib.util.find_spec(name)
    loader = spec.loader if spec is not None else None
    source = loader.get_source(name) if loader is not None and hasattr(loader, "get_source") else None
    if source is None:
        raise RuntimeError(f"No source for {name}: Referee needs the rules' .py files to fingerprint them.")
    return str(source)


def fingerprint_of(game: AnyGame, source: Callable[[str], str] = module_source) -> str:
    """sha256 of the sources of ``rules_sources(game)``, in the order of the modules' names."""
    digest = hashlib.sha256()
    for name, text in sorted(rules_sources(game, source).items()):
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def rules_sources(game: AnyGame, source: Callable[[str], str] = module_source) -> dict[str, str]:
    """The source of each module of ``referee.games`` a game's results depend on, by module name: its own, the
    replay's (match.py) and, from there, of every module of the package their sources import (at the top, in a
    function or only for type checking: an import too many costs a replay, one too few would keep results of old
    rules)."""
    found: dict[str, str] = {}
    todo = [type(game).__module__, replay_module.__name__]
    while todo:
        name = todo.pop()
        if name not in found:
            found[name] = source(name)
            todo.extend(_imported(name, found[name]))
    return found


@cache
def _imported(name: str, text: str) -> tuple[str, ...]:
    """The modules of the package that the source ``text`` of module ``name`` imports."""
    return tuple(dict.fromkeys(_imports(name, _statements(ast.parse(text, name).body))))


def _statements(nodes: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement, nested ones too (an import is a statement: expressions need no visit)."""
    for node in nodes:
        yield node
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, block, None)
            if isinstance(inner, list):
                yield from _statements(inner)


def _imports(name: str, statements: Iterator[ast.AST]) -> Iterator[str]:
    package = name.rpartition(".")[0]
    for node in statements:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if _inside(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            if not _inside(base):
                continue
            for alias in node.names:  # "from . import cards" imports a module; "from .base import N_" a name
                submodule = f"{base}.{alias.name}"
                yield submodule if _is_module(submodule) else base


def _inside(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a name inside a module that is not a package ("referee.games.base.N_")
        return False
