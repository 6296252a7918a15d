"""Klaberjass on the web (RULES.md §1)."""

from __future__ import annotations

from ...games import find_game
from ...games.base import N_
from ...games.cards import SUIT_NAMES, SUIT_SYMBOLS
from ...games.klaberjass import SUITS
from ..entry import klaberjass as entry
from .plug import GamePlug, Heading, QuickChoice, QuickStart

PLUG = GamePlug(
    game=find_game("klaberjass"),
    entry=entry,
    entry_template="games/klaberjass/_entry.html",
    turn_template="games/klaberjass/_turn.html",
    rules_template="rules/klaberjass.html",
    reference_template="rules/_ref_klaberjass.html",
    figures_template="games/klaberjass/_figures.html",
    blank_columns=((Heading(N_("Maker · trump · outcome")), "col-wide"), (Heading(N_("Seq. · Bella")), "col-mid")),
    # The upcard is the first thing entered: tapped on the table, it opens the form with it (one tap less).
    quick_start=QuickStart(N_("Upcard"), tuple(
        QuickChoice(SUIT_SYMBOLS[s], {"upcard": s}, name=SUIT_NAMES[s], css=f"suit-start suit-{s}") for s in SUITS)),
    blank_player_columns=((Heading(N_("Card pts")), "col-small"),),  # what each player captured (RULES.md 1.3, 1.5)
)
