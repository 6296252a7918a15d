"""Deal-entry forms, one module per game: HTML form fields ⇄ the deal input the rules read.

Each module offers ``empty``, ``from_input`` (a stored deal, to correct it), ``from_form`` (a post,
with the button pressed applied), ``to_input`` and ``view`` (what its template needs beyond the entry).
"""

from __future__ import annotations

from types import ModuleType

from . import joker_judge, klaberjass, spitzer

ENTRY_FORMS: dict[str, ModuleType] = {"klaberjass": klaberjass, "spitzer": spitzer, "joker-judge": joker_judge}


def entry_form(game_key: str) -> ModuleType:
    return ENTRY_FORMS[game_key]
