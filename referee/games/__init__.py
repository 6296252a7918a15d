"""The games Referee knows, as an explicit registry (RULES.md, one module per game)."""

from __future__ import annotations

from .base import BaseGame, UnknownGame
from .joker_judge import JOKER_JUDGE
from .klaberjass import KLABERJASS
from .spitzer import SPITZER

GAMES: tuple[BaseGame, ...] = (KLABERJASS, SPITZER, JOKER_JUDGE)


def find_game(key: str) -> BaseGame:
    """The game with this key; raises UnknownGame."""
    for game in GAMES:
        if game.key == key:
            return game
    raise UnknownGame(key)
