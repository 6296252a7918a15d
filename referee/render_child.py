"""Imported once by the fork server that sheet renders are forked from (``referee.sheets.render_pdf``):
WeasyPrint loaded, the fonts and the sheets' style sheet read, so each render's child process starts warm.

A child runs ``referee.sheets._child_main`` and needs nothing of the server's ``__main__`` module, which
multiprocessing would otherwise import again in each child: a script's top level run once more a render (its
imports repeated, about 0.4 s; an unguarded one would even start its work again). This fork server serves
Referee's renders alone, so its children are told to leave ``__main__`` as it is."""

from __future__ import annotations

import contextlib
import gc
from multiprocessing import spawn

from . import sheets
from .assets import asset_folder

spawn._fixup_main_from_path = lambda path: None  # type: ignore[attr-defined]
spawn._fixup_main_from_name = lambda name: None  # type: ignore[attr-defined]

with contextlib.suppress(Exception):
    sheets.warm_up(asset_folder("static"))
# What is loaded now lives as long as the fork server: left out of every child's garbage collections, which would
# otherwise walk it all and so copy each of its pages into the child (copy-on-write).
gc.freeze()
