"""The match table's compact rows drawn once: an older deal's row (``_deal_row.html`` without its working) is the
same HTML page after page until the deal, its tally or the reader's words change, so each app remembers it
(``row_drawer``), keyed by all the row's HTML depends on — the page's part (language, the deal pages' address,
columns, read-only, the words and button names) and the row's own (number, classes, cells, tags, summary, void).
The session's CSRF token is not in the key: the row is drawn with a placeholder the page's token replaces, so
every phone shares the rows. The newest deals (and the highlighted one), drawn with their working, are not kept:
the template draws them as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from flask import current_app
from markupsafe import Markup, escape

from .i18n import current_language

V = TypeVar("V")

ROWS_KEPT = 8192
"""How many drawn rows an app keeps (the least recently drawn go first)."""

_CSRF = "<!--csrf-->"
"""What a kept row holds where its forms' CSRF token goes: markup, so no escaped text on the row can look like it."""


class RowCache(Generic[V]):
    """A least-recently-used map of drawn rows (or of what else a page draws again and again), safe across a
    server's threads."""

    def __init__(self, size: int = ROWS_KEPT) -> None:
        self.size = size
        self._rows: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            html = self._rows.get(key)
            if html is not None:
                self._rows.move_to_end(key)
            return html

    def put(self, key: Hashable, html: V) -> None:
        with self._lock:
            self._rows[key] = html
            self._rows.move_to_end(key)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)

    def __len__(self) -> int:
        return len(self._rows)


def _rows_kept() -> RowCache[str]:
    kept = current_app.extensions.get("referee.drawn_rows")
    if kept is None:
        kept = current_app.extensions.setdefault("referee.drawn_rows", RowCache())
    return kept


def _page_key(context: dict[str, Any]) -> tuple[Hashable, ...]:
    """What a compact row's HTML takes from the page (``pages._row_context``), the token aside."""
    words, acts = context["words"], context["acts"]
    working = words["working"]
    return (current_language(), context["deal_base"], context["cols"], bool(context["read_only"]),
            tuple(sorted(acts.items())), tuple(sorted(words["tags"].items())),
            working["correct"], working["restore"], working["void"])


def row_drawer(context: dict[str, Any]) -> Callable[[Iterable[Any]], list[Any]]:
    """The page's ``drawn_rows(table)``: the table's rows, each run of compact rows (TableRows without their deal)
    joined into one Markup as ``_deal_row.html`` draws them — from the app's kept rows when drawn before with the
    same words and fields —, each row with its working as it is, for the template to draw."""
    kept, page = _rows_kept(), _page_key(context)
    token = str(escape(context["csrf"]))
    template = current_app.jinja_env.get_template("_deal_row.html")
    drawing = {**context, "csrf": Markup(_CSRF), "scores_only": False}

    def drawn_row(row: Any) -> str:
        key = (page, row.number, row.css, row.cells, row.tags, row.summary, row.void)
        html = kept.get(key)
        if html is None:
            html = template.render(drawing, row=row)
            kept.put(key, html)
        return html

    def drawn_rows(table: Iterable[Any]) -> list[Any]:
        parts: list[Any] = []
        run: list[str] = []
        for row in table:
            if row.deal is None:
                run.append(drawn_row(row))
                continue
            if run:
                parts.append(Markup("".join(run).replace(_CSRF, token)))
                run = []
            parts.append(row)
        if run:
            parts.append(Markup("".join(run).replace(_CSRF, token)))
        return parts

    return drawn_rows
