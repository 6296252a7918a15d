"""The games Referee knows, in the order people see them: an explicit registry, as python-chess lists its
``VARIANTS`` (RULES.md, one section and one module per game).

Adding a game is writing its module and adding its object to ``GAMES`` (its web plug goes into
``referee.web.games.PLUGS``). Read the registry when it is needed — ``games.GAMES`` through this module, or
``find_game`` — never a copy taken at import: replacing ``GAMES`` (a test's monkeypatch adds a fourth game so) is
then seen everywhere.
"""

from __future__ import annotations

from .base import AnyGame, UnknownGame
from .joker_judge import JOKER_JUDGE
from .klaberjass import KLABERJASS
from .spitzer import SPITZER

__all__ = ["GAMES", "find_game"]

GAMES: tuple[AnyGame, ...] = (KLABERJASS, SPITZER, JOKER_JUDGE)


def find_game(key: str) -> AnyGame:
    """The game with this key; raises UnknownGame."""
    for game in GAMES:
        if game.key == key:
            return game
    raise UnknownGame(key)
