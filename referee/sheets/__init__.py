"""Printed score sheets: the sheet model, built from what the rules return, and HTML → PDF with WeasyPrint (in
a child process, a bounded number at once: ``render_pdf``, ``RenderGate``), and the cache of rendered sheets.

Nothing here re-derives a rule: a row's notation comes from ``game.notation``, its working from the
result's breakdown, the totals from the replayed match. The chart (SVG) and the QR code (PNG) are made here,
without any network: WeasyPrint may only read files from ``static/`` (and the ``data:`` URLs made here).

Its modules, each importing only those before it in this list:

- ``pictures``: the chart of the running totals and the QR code;
- ``model``: the sheet model (``match_sheet``: ``MatchSheet``, one ``SheetRow`` a deal);
- ``columns``: the compact score sheet's fixed-width lines (``score_lines``) and their columns' CSS;
- ``render``: HTML → PDF (``render_pdf``), in a child of the fork server (``referee.render_child``, ``warm_up``);
- ``gate``: at most so many renders at once (``RenderGate``, ``Busy``), memory given back after each;
- ``cache``: the rendered sheets kept in this process (``SheetCache``).
"""

from __future__ import annotations

from .cache import Rendered, SheetCache
from .columns import (
    BOLD,
    DEALER_MARK,
    FIGURE_DASH,
    FIGURE_SPACE,
    GAP,
    MIN_GROUP,
    NARROW_SPACE,
    PLAYER_GAP,
    REGULAR,
    STRUCK,
    Column,
    ScoreLine,
    ScoreLines,
    columns_css,
    figures,
    score_lines,
)
from .gate import Busy, RenderGate, release_memory
from .model import MatchSheet, SheetRow, match_sheet, moment_of
from .pictures import MARKER_CHARACTERS, chart_svg, qr_png, qr_svg, rating_svg, text_width
from .render import (
    RENDER_LIMIT,
    RenderFailed,
    html_to_pdf,
    render_pdf,
    start_render_server,
    static_fetcher,
    stylesheet,
    warm_up,
)

__all__ = [
    "BOLD", "DEALER_MARK", "FIGURE_DASH", "FIGURE_SPACE", "GAP", "MARKER_CHARACTERS", "MIN_GROUP", "NARROW_SPACE",
    "PLAYER_GAP", "REGULAR", "RENDER_LIMIT", "STRUCK", "Busy", "Column", "MatchSheet", "RenderFailed", "RenderGate",
    "Rendered", "ScoreLine", "ScoreLines", "SheetCache", "SheetRow", "chart_svg", "columns_css", "figures",
    "html_to_pdf", "match_sheet", "moment_of", "qr_png", "qr_svg", "rating_svg", "release_memory", "render_pdf",
    "score_lines", "start_render_server", "static_fetcher", "stylesheet", "text_width", "warm_up",
]
