"""Deal-entry forms, one module per game: HTML form fields ⇄ the deal input the rules read."""

from __future__ import annotations

from types import ModuleType

from . import klaberjass

ENTRY_FORMS: dict[str, ModuleType] = {"klaberjass": klaberjass}


def entry_form(game_key: str) -> ModuleType:
    return ENTRY_FORMS[game_key]
