"""One plug per game: everything the web layer needs of a game, named in one place.

A game's plug (``GamePlug``, in ``plug.py``) names its rules (the game object from ``referee.games``), its
deal-entry form (an ``EntryForm``: the contract is ``form.py``), its templates, its match summary, the columns of its
blank sheet (the deal's, and each player's), its player figures and its rules page; each game's module here holds its
plug and its form. ``PLUGS`` lists them explicitly, as ``referee.games.GAMES`` lists the games: adding a game is its
rules module, its module here, its templates, and one entry in each of the two registries.
Read ``PLUGS`` when it is needed (``plug_for``, ``find_plug``), not a copy taken at import.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ... import games  # the rules' registry (referee.games.GAMES), read when needed
from ...games.base import AnyGame, UnknownGame
from . import joker_judge, klaberjass, spitzer
from .form import EntryForm, PageOp, Reading
from .plug import GamePlug, Heading, QuickChoice, QuickStart

__all__ = ["PLUGS", "AnyPlug", "EntryForm", "GamePlug", "Heading", "PageOp", "Plugs", "QuickChoice", "QuickStart",
           "Reading", "find_plug", "game_summary", "plug_for"]

AnyPlug = GamePlug[Any, Any]  # some game's plug, whichever (each plug's form has its own entry and reading types)


class Plugs:
    """The games' plugs by game key, iterated in the order of the games (``referee.games.GAMES``)."""

    def __init__(self, plugs: Iterable[AnyPlug]) -> None:
        self._plugs: dict[str, AnyPlug] = {}
        for plug in plugs:
            if self._plugs.setdefault(plug.key, plug) is not plug:
                raise RuntimeError(f"Two web plugs for the game {plug.key!r}.")

    def check(self) -> None:
        """Every game of the rules has its plug (a game without one would be missing from pages, silently)."""
        missing = [g.key for g in games.GAMES if g.key not in self._plugs]
        if missing:
            raise RuntimeError(f"No web plug for the game{'s' if len(missing) > 1 else ''} {', '.join(missing)}: "
                               f"add its GamePlug(...) to {__name__}.PLUGS.")

    def __iter__(self) -> Iterator[AnyPlug]:
        """In the order of the games."""
        return iter([self._plugs[g.key] for g in games.GAMES if g.key in self._plugs])

    def __getitem__(self, key: str) -> AnyPlug:
        try:
            return self._plugs[key]
        except KeyError:
            raise UnknownGame(key) from None

    def __repr__(self) -> str:
        return f"Plugs({', '.join(self._plugs)})"


PLUGS = Plugs((klaberjass.PLUG, spitzer.PLUG, joker_judge.PLUG))


def find_plug(game: AnyGame | str) -> AnyPlug:
    """The plug of a game (or a game key); raises UnknownGame."""
    return PLUGS[game if isinstance(game, str) else game.key]


def plug_for(game: AnyGame | str) -> AnyPlug | None:
    """The plug of a game (or a game key); None for a game Referee does not know (an old stored key)."""
    try:
        return find_plug(game)
    except UnknownGame:
        return None


def game_summary(match: Any) -> list[str]:
    """The match's summary (template global); empty for a game that has none."""
    plug = plug_for(match.game)
    return plug.summary(match) if plug and plug.summary else []
