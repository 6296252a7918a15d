"""Printed score sheets: the sheet model, built from what the rules return, and HTML → PDF with WeasyPrint.

Nothing here re-derives a rule: a row's notation comes from ``game.notation``, its working from the
result's breakdown, the totals from the replayed match. The chart and the QR code are SVG made here,
without any network: WeasyPrint may only read files from ``static/``.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from xml.sax.saxutils import escape

import segno

from .matches import Match

# Line styles that stay apart in black and white: dash pattern and marker per player.
_DASHES = ("", "6 3", "2 3", "8 3 2 3")
_MARKERS = ("circle", "square", "triangle", "diamond")


@dataclass(frozen=True)
class SheetRow:
    number: int
    dealer: str
    notation: str
    scores: dict[str, int] | None
    totals: dict[str, int]
    status: str  # "" | "corrected" | "restored" | "void" | "after end" | "invalid"
    working: tuple[str, ...]  # breakdown lines (``Line``) or violations: each through ``say``
    versions: int


@dataclass(frozen=True)
class MatchSheet:
    match: Match
    title: str
    rows: list[SheetRow]
    totals: dict[str, int]
    finished: bool
    winner: str | None
    note: str  # the rules' standing note (a ``Line``: rendered through ``say``), or ""
    options: list[tuple[str, str]]  # (label, value) as the rules name them (``N_`` words: through the catalogue)
    chart: str
    legend: list[tuple[str, str]]  # (marker SVG, player): beside the chart as HTML, shaped like all other text
    qr: str
    url: str
    as_of: datetime | None  # the match's last change: a cached sheet is the same whenever it is printed
    started: datetime | None
    extra: dict[str, str] = field(default_factory=dict)


def _moment(stamp: str | None) -> datetime | None:
    """A stored ISO timestamp in this machine's time zone (None when unreadable)."""
    try:
        return datetime.fromisoformat(stamp).astimezone() if stamp else None
    except ValueError:
        return None


def match_sheet(match: Match, url: str, noun: str | None = None, target_label: str = "target {target}",
                title: str = "Running totals") -> MatchSheet:
    """Everything a match's printed sheet shows, in order (``noun`` and ``target_label``: the chart's words,
    in the reader's language; the game's own deal noun by default)."""
    noun = noun or match.game.deal_noun
    game = match.game
    rows = []
    for deal, replayed in match.rows:
        result = replayed.result
        if deal["void"]:
            status = "void"
        elif replayed.after_end:
            status = "after end"
        elif result is None:
            status = "invalid"
        elif deal["last_action"] in ("corrected", "restored"):
            status = deal["last_action"]
        else:
            status = ""
        rows.append(
            SheetRow(
                number=deal["number"],
                dealer=deal["dealer"],
                notation=game.notation(result) if result else "",  # "" — the sheet says it no longer fits
                scores=dict(result.scores) if result else None,
                totals=dict(replayed.totals),
                status=status,
                working=tuple(result.breakdown) if result else tuple(replayed.problems),
                versions=deal["version"],
            )
        )
    standing = match.state.standing
    series = [{p: 0 for p in match.players}] + [r.totals for r in rows]  # x = the deal's number
    target = getattr(match.options, "target", None)
    return MatchSheet(
        match=match,
        title=f"{game.name}: {' vs '.join(match.players)}",
        rows=rows,
        totals=dict(match.state.totals),
        finished=standing.finished,
        winner=standing.winner,
        note=standing.note or "",
        options=[(spec.label, shown) for spec, shown in game.describe_options(match.options)],
        chart=chart_svg(match.players, series, target=target, noun=noun, labels=False, target_label=target_label,
                        title=title),
        legend=[(marker_svg(n), player) for n, player in enumerate(match.players)],
        qr=qr_svg(url),
        url=url,
        as_of=_moment(match.row["updated"]),
        started=_moment(match.row["created"]),
    )


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (pure Python, no network)."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=2.2, border=2, dark="#000", light="#fff")


def chart_svg(
    players: Sequence[str], series: Sequence[dict[str, int]], target: int | None = None, noun: str = "deal",
    width: int = 520, height: int = 200, labels: bool = True, target_label: str = "target {target}",
    title: str = "Running totals",
) -> str:
    """Running totals after each counted deal, one line per player; readable in black and white.

    ``labels=False`` leaves the players' names out of the picture (the PDF sheet puts them in an HTML legend:
    WeasyPrint does not shape SVG text, so Arabic, Hebrew, Devanagari or Thai names would print wrongly)."""
    left, right, top, bottom = 42, 70, 10, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    deals = max(len(series) - 1, 1)
    peak = max([1] + [t for point in series for t in point.values()] + ([target] if target else []))
    step = _nice_step(peak)
    peak = ((peak + step - 1) // step) * step

    def x(i: int) -> float:
        return left + plot_w * i / deals

    def y(v: float) -> float:
        return top + plot_h * (1 - v / peak)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'class="chart" role="img" aria-label="{escape(title, {chr(34): "&quot;"})}">',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999" '
        'stroke-width="0.6"/>',
    ]
    for v in range(0, peak + 1, step):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   'stroke="#ddd" stroke-width="0.5"/>')
        out.append(f'<text x="{left - 4}" y="{y(v) + 3:.1f}" text-anchor="end" font-size="9">{v}</text>')
    ticks = max(1, deals // 12)
    for i in range(0, deals + 1, ticks):
        out.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 12}" text-anchor="middle" '
                   f'font-size="9">{i}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 3}" text-anchor="middle" '
               f'font-size="9">{escape(noun)}</text>')
    if target:
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(target):.1f}" y2="{y(target):.1f}" stroke="#000" '
            f'stroke-width="0.8" stroke-dasharray="1 2"/>'
            f'<text x="{left + plot_w + 4}" y="{y(target) + 3:.1f}" font-size="9">'
            f'{escape(target_label.format(target=target))}</text>'
        )
    label_ys: list[float] = []
    for n, player in enumerate(players):
        points = [(x(i), y(point.get(player, 0))) for i, point in enumerate(series)]
        dash = _DASHES[n % len(_DASHES)]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="#000" stroke-width="1.4"'
            + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"
        )
        if len(points) <= 40:
            out.extend(_marker(_MARKERS[n % len(_MARKERS)], px, py) for px, py in points)
        end_y = points[-1][1]
        while any(abs(end_y - other) < 10 for other in label_ys):
            end_y += 10
        label_ys.append(end_y)
        out.append(_marker(_MARKERS[n % len(_MARKERS)], left + plot_w + 8, end_y - 3))
        if labels:
            out.append(f'<text x="{left + plot_w + 14}" y="{end_y:.1f}" font-size="9">{escape(player[:12])}</text>')
    out.append("</svg>")
    return "".join(out)


def marker_svg(n: int) -> str:
    """The chart's marker for the n-th player, as a small SVG of its own (for a legend)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8" width="8" height="8" class="marker">'
            f'{_marker(_MARKERS[n % len(_MARKERS)], 4, 4)}</svg>')


def _marker(kind: str, px: float, py: float) -> str:
    if kind == "circle":
        return f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.2" fill="#000"/>'
    if kind == "square":
        return (f'<rect x="{px - 2.2:.1f}" y="{py - 2.2:.1f}" width="4.4" height="4.4" fill="#fff" stroke="#000" '
                'stroke-width="0.9"/>')
    if kind == "triangle":
        return (f'<polygon points="{px:.1f},{py - 2.8:.1f} {px - 2.6:.1f},{py + 2:.1f} {px + 2.6:.1f},{py + 2:.1f}" '
                'fill="#000"/>')
    return (f'<polygon points="{px:.1f},{py - 3:.1f} {px + 3:.1f},{py:.1f} {px:.1f},{py + 3:.1f} '
            f'{px - 3:.1f},{py:.1f}" fill="#fff" stroke="#000" stroke-width="0.9"/>')


def _nice_step(peak: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if peak / step <= 6:
            return step
    return 10_000


# ---- PDF ----------------------------------------------------------------------------------

def static_fetcher(static_folder: str | Path, static_url_path: str = "/static"):
    """A WeasyPrint URL fetcher that serves files from static/ and refuses everything else (no network)."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    root = Path(static_folder).resolve()
    prefix = static_url_path.rstrip("/") + "/"

    class StaticFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            path = urlparse(url).path
            if path.startswith(prefix):
                file = (root / path[len(prefix):]).resolve()
                if not file.is_file():  # a content-hashed name (app.<hash>.css) from url_for
                    file = (root / re.sub(r"\.[0-9a-f]{10}(\.[^./]+)$", r"\1", path[len(prefix):])).resolve()
                if file.is_file() and root in file.parents:
                    mime = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
                    return URLFetcherResponse(url, body=file.read_bytes(), headers={"Content-Type": mime})
            raise ValueError(f"Sheets only load files from {static_url_path}/, not {url}")

    return StaticFetcher()


def html_to_pdf(html: str, base_url: str, static_folder: str | Path, css: str | None = None) -> bytes:
    """Render the sheet's HTML (print CSS, @page) to PDF bytes; ``css``: a style sheet of its own on top."""
    from weasyprint import CSS, HTML

    fetcher = static_fetcher(static_folder)
    extra = [CSS(string=css, url_fetcher=fetcher)] if css else None
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher, media_type="print").write_pdf(stylesheets=extra)


# ---- the sheet cache ----------------------------------------------------------------------

@dataclass(frozen=True)
class Rendered:
    """A rendered sheet (PDF or HTML bytes) and its strong ETag (a digest of the bytes)."""

    body: bytes
    etag: str


class SheetCache:
    """Rendered sheets kept in this process, least recently used first out, bounded by count and bytes.

    Entries live in *slots* (a match's PDF for one language and address, a blank sheet with its names…);
    each slot holds one version: storing a newer version of a slot replaces the older one at once, so a
    match that changes never keeps stale sheets around. Thread-safe (waitress serves from several threads)."""

    def __init__(self, max_entries: int = 64, max_bytes: int = 32 * 1024 * 1024) -> None:
        import threading
        from collections import OrderedDict

        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[Any, tuple[Any, Rendered]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, slot: Any, version: Any) -> Rendered | None:
        with self._lock:
            found = self._entries.get(slot)
            if found is None or found[0] != version:
                return None
            self._entries.move_to_end(slot)
            return found[1]

    def put(self, slot: Any, version: Any, body: bytes) -> Rendered:
        import hashlib

        rendered = Rendered(body, hashlib.sha256(body).hexdigest()[:32])
        if len(body) > self.max_bytes:
            return rendered  # too big to keep: served, not cached
        with self._lock:
            old = self._entries.pop(slot, None)
            if old is not None:
                self._bytes -= len(old[1].body)
            self._entries[slot] = (version, rendered)
            self._bytes += len(body)
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= len(dropped.body)
        return rendered

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def size(self) -> int:
        """Bytes held."""
        return self._bytes
