"""Klaberjass on the web (RULES.md §1)."""

from __future__ import annotations

from ...games import find_game
from ...games.base import N_
from ..entry import klaberjass as entry
from . import GamePlug, Heading

PLUG = GamePlug(
    game=find_game("klaberjass"),
    entry=entry,
    entry_template="games/klaberjass/_entry.html",
    turn_template="games/klaberjass/_turn.html",
    rules_template="rules/klaberjass.html",
    reference_template="rules/_ref_klaberjass.html",
    figures_template="games/klaberjass/_figures.html",
    blank_columns=((Heading(N_("Maker · trump · outcome")), "col-wide"), (Heading(N_("Seq. · Bella")), "col-mid")),
    blank_player_columns=((Heading(N_("Card pts")), "col-small"),),  # what each player captured (RULES.md 1.3, 1.5)
)
