"""The games Referee knows: every module of this package that holds a game (RULES.md, one module per game).

A game module exposes its game object (``GAME = ...``, or one module-level instance of a ``BaseGame`` subclass
defined in it); adding a game is adding its module, nothing else is edited. Games are listed by their ``order``
attribute, then by name.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import overload

from .base import BaseGame, UnknownGame


def games_in(module: ModuleType) -> list[BaseGame]:
    """The game object a module exposes: its ``GAME``, else its module-level instances of its own game classes."""
    explicit = getattr(module, "GAME", None)
    if isinstance(explicit, BaseGame):
        return [explicit]
    return [value for value in vars(module).values()
            if isinstance(value, BaseGame) and type(value).__module__ == module.__name__]


def _order(game: BaseGame) -> tuple[int, str]:
    return (game.order, game.name)


class Registry(Sequence[BaseGame]):
    """The games found in this package, ordered; a tuple to read. ``discover()`` looks again (a test that adds
    a package directory with a fourth game calls it, and again once it removed it)."""

    def __init__(self) -> None:
        self._games: tuple[BaseGame, ...] = ()

    def discover(self) -> None:
        found: dict[str, BaseGame] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_"):
                continue
            for game in games_in(importlib.import_module(f"{__name__}.{info.name}")):
                if found.setdefault(game.key, game) is not game:
                    raise RuntimeError(f"Two games have the key {game.key!r}.")
        self._games = tuple(sorted(found.values(), key=_order))

    @overload
    def __getitem__(self, index: int) -> BaseGame: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[BaseGame, ...]: ...
    def __getitem__(self, index: int | slice) -> BaseGame | tuple[BaseGame, ...]:
        return self._games[index]

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Iterator[BaseGame]:
        return iter(self._games)

    def __repr__(self) -> str:
        return f"Registry({', '.join(g.key for g in self._games)})"


GAMES = Registry()
GAMES.discover()


def find_game(key: str) -> BaseGame:
    """The game with this key; raises UnknownGame."""
    for game in GAMES:
        if game.key == key:
            return game
    raise UnknownGame(key)
