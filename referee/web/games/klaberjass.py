"""Klaberjass on the web (RULES.md §1)."""

from __future__ import annotations

from ...games import find_game
from ..entry import klaberjass as entry
from . import GamePlug

PLUG = GamePlug(
    game=find_game("klaberjass"),
    entry=entry,
    entry_template="games/klaberjass/_entry.html",
    turn_template="games/klaberjass/_turn.html",
    rules_template="rules/klaberjass.html",
    reference_template="rules/_ref_klaberjass.html",
    figures_template="games/klaberjass/_figures.html",
    blank_columns=(("Maker · trump · outcome", "col-wide"), ("Seq. · Bella", "col-mid")),
)
