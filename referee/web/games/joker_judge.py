"""Joker Judge on the web (RULES.md §3)."""

from __future__ import annotations

from ...games import find_game
from ...games.base import N_
from ..entry import joker_judge as entry
from .plug import GamePlug, Heading

PLUG = GamePlug(
    game=find_game("joker-judge"),
    entry=entry,
    entry_template="games/joker-judge/_entry.html",
    turn_template="games/joker-judge/_turn.html",
    rules_template="rules/joker-judge.html",
    reference_template="rules/_ref_joker-judge.html",
    figures_template="games/joker-judge/_figures.html",
    blank_columns=((Heading(N_("Parent")), "col-mid"), (Heading(N_("Bid")), "col-small"),
                   (Heading(N_("Tricks")), "col-small"), ("×", "col-small")),
)
