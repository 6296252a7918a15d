"""Printed score sheets: the sheet model, built from what the rules return, and HTML → PDF with WeasyPrint (in
a child process, a bounded number at once: ``render_pdf``, ``RenderGate``), and the cache of rendered sheets.

Nothing here re-derives a rule: a row's notation comes from ``game.notation``, its working from the
result's breakdown, the totals from the replayed match. The chart (SVG) and the QR code (PNG) are made here,
without any network: WeasyPrint may only read files from ``static/`` (and the ``data:`` URLs made here).
"""

from __future__ import annotations

import bisect
import ctypes
import ctypes.util
import functools
import gc
import hashlib
import itertools
import logging
import math
import mimetypes
import multiprocessing
import re
import threading
import time
import traceback
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
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
MARKER_CHARACTERS = ("\u25cf", "\u25a1", "\u25b2", "\u25c7")  # ● □ ▲ ◇: the markers as text, for a legend


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
    abandoned: bool  # given up, or a club table ended by the director (it counts as it stands)
    note: str  # the rules' standing note (a ``Line``: rendered through ``say``), or ""
    options: list[tuple[str, str]]  # (label, value) as the rules name them (``N_`` words: through the catalogue)
    chart: str
    legend: list[tuple[str, str]]  # (marker character, player): beside the chart as HTML, shaped like all other text
    qr: str  # the QR code of the match's address, as a PNG ``data:`` URL
    url: str
    as_of: datetime | None  # the match's last change: a cached sheet is the same whenever it is printed
    started: datetime | None
    extra: dict[str, str] = field(default_factory=dict)


def moment_of(stamp: str | None) -> datetime | None:
    """A stored ISO timestamp in this machine's time zone (None when unreadable)."""
    try:
        return datetime.fromisoformat(stamp).astimezone() if stamp else None
    except (ValueError, OverflowError):  # OverflowError: year 1 or 9999, past what a time zone can show
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
    target = game.target(match.options)
    return MatchSheet(
        match=match,
        title=f"{game.name}: {' vs '.join(match.players)}",
        rows=rows,
        totals=dict(match.state.totals),
        finished=standing.finished,
        winner=standing.winner,
        abandoned=bool(match.row.get("abandoned")),
        note=standing.note or "",
        options=[(spec.label, shown) for spec, shown in game.describe_options(match.options)],
        chart=chart_svg(match.players, series, target=target, noun=noun, labels=False, target_label=target_label,
                        title=title, sparse=True),
        legend=[(MARKER_CHARACTERS[n % len(MARKER_CHARACTERS)], player) for n, player in enumerate(match.players)],
        qr=qr_png(url),
        url=url,
        as_of=moment_of(match.row["updated"]),
        started=moment_of(match.row["created"]),
    )


# ---- the compact score sheet: numbers in fixed-width columns of plain text ------------------
#
# Each deal of the score sheet is ONE line of text (one box for WeasyPrint, where a table row of seven cells is
# seven): its numbers padded on the left to a fixed width, so that they line up right-aligned under the column
# headings. In DejaVu Sans (the sheet's font for digits) every digit, U+2007 FIGURE SPACE and U+2012 FIGURE DASH
# is one digit wide (1303/2048 em, the CSS unit ``ch``), and the thousands separators (``,`` ``.``) and U+00A0
# NO-BREAK SPACE half of one (651/2048 em). Neither padding character is a place to break the line.

FIGURE_SPACE = "\u2007"
NARROW_SPACE = "\u00a0"
FIGURE_DASH = "\u2012"
_DIGIT, _NARROW = 1303, 651  # advances in DejaVu Sans (units of 1/2048 em)
_ADVANCES = {"+": 1716, "#": 1716, "Σ": 1294}  # the headings' advances (DejaVu Sans)
_WIDE = frozenset("0123456789" + FIGURE_SPACE + FIGURE_DASH)
GAP = 2  # digit widths between the columns of one player (+ and Σ)
PLAYER_GAP = 3  # digit widths before each player's columns (at least) and before the dealer
MIN_GROUP = 13  # digit widths of each player's columns with the gap before them, at least: room for the name
DEALER_MARK = " \u2502 "  # │ between the dealer and the deal


def figures(text: str) -> str:
    """A formatted number whose minus sign is as wide as a digit (U+2012 FIGURE DASH for ``-`` or ``−``)."""
    return text.replace("-", FIGURE_DASH).replace("\u2212", FIGURE_DASH)


@dataclass(frozen=True)
class Column:
    """A column of formatted numbers: ``wide`` digit-wide characters and ``narrow`` half-wide ones (separators)
    in the widest; ``pad`` sets any of them right-aligned in that width."""

    wide: int = 1
    narrow: int = 0

    @staticmethod
    def measure(text: str) -> tuple[int, int]:
        wide = sum(1 for c in text if c in _WIDE)
        return wide, len(text) - wide

    @classmethod
    def fitting(cls, texts: Sequence[str]) -> Column:
        sizes = [cls.measure(t) for t in texts] or [(1, 0)]
        return cls(max(1, *(w for w, _ in sizes)), max(0, *(n for _, n in sizes)))

    @property
    def ch(self) -> float:
        """The width in the CSS unit ``ch`` (one digit)."""
        return self.wide + self.narrow / 2

    def pad(self, text: str) -> str:
        wide, narrow = self.measure(text)
        return FIGURE_SPACE * max(0, self.wide - wide) + NARROW_SPACE * max(0, self.narrow - narrow) + text

    @property
    def units(self) -> int:
        """The width in DejaVu Sans' units (1/2048 em)."""
        return self.wide * _DIGIT + self.narrow * _NARROW


@dataclass(frozen=True)
class _Face:
    """The advances (DejaVu Sans' units) a line of placed text needs: figures and separators, and the spaces
    blank space is made of (each way to make up to four of the narrow ones, by width)."""

    digit: int
    narrow: int
    spaces: tuple[tuple[int, str], ...]
    widths: tuple[int, ...] = ()
    fills: tuple[str, ...] = ()

    @classmethod
    def of(cls, digit: int, narrow: int, spaces: tuple[tuple[int, str], ...]) -> _Face:
        ways: dict[int, str] = {}
        for count in range(5):
            for some in itertools.combinations_with_replacement(spaces, count):
                ways.setdefault(sum(advance for advance, _ in some), "".join(space for _, space in some))
        return cls(digit, narrow, spaces, tuple(sorted(ways)), tuple(ways[w] for w in sorted(ways)))

    def advance(self, text: str) -> int:
        """A figure's or a heading's advance."""
        if text in _ADVANCES:
            return _ADVANCES[text]
        wide, narrow = Column.measure(text)
        return wide * self.digit + narrow * self.narrow

    def blank(self, room: int) -> tuple[str, int]:
        """Blank space as wide as ``room`` or a little less (at most 31 units, 1/66 em), and its width."""
        best, best_width = "", 0
        for count in range(max(0, room // self.digit - 2), max(0, room) // self.digit + 1):
            i = bisect.bisect_right(self.widths, room - count * self.digit) - 1
            width = count * self.digit + self.widths[i]
            if i >= 0 and best_width < width <= room:
                best, best_width = FIGURE_SPACE * count + self.fills[i], width
        return best, best_width

    def place(self, pieces: Sequence[tuple[str, int]], end: int) -> str:
        """A line of ``pieces`` (text, where it ends: DejaVu Sans' units from the start of the line), then blank
        up to ``end``. Each piece is placed from the start of the line: the small gaps do not add up."""
        text, x = "", 0
        for piece, right in [*pieces, ("", end)]:
            blank, width = self.blank(right - self.advance(piece) - x)
            text += blank + piece
            x += width + self.advance(piece)
        return text


_NARROW_SPACES = (("\u2004", 675), ("\u2005", 512), ("\u2006", 342), ("\u2009", 409), ("\u200a", 204))
REGULAR = _Face.of(_DIGIT, _NARROW, ((_NARROW, NARROW_SPACE), *((a, c) for c, a in _NARROW_SPACES)))
BOLD = _Face.of(1425, 778, ((713, NARROW_SPACE), *((a, c) for c, a in _NARROW_SPACES)))  # DejaVu Sans Bold


@dataclass(frozen=True)
class ScoreLine:
    struck: bool  # void, after the end, or no longer fitting the rules: printed struck through
    figures: str  # number, then each player's score and total: fixed width, right-aligned
    dealer: str
    notation: str  # in the reader's language, with the status words

    @property
    def text(self) -> str:
        """The whole line: the figures, the dealer, the notation."""
        return f"{self.figures}{FIGURE_SPACE * PLAYER_GAP}{self.dealer}{DEALER_MARK}{self.notation}"


@dataclass(frozen=True)
class ScoreLines:
    """The compact sheet's lines, the line of headings over their figures, and the widths (``ch``) of the
    columns, for the players' names above them."""

    lines: list[ScoreLine]
    headings: str  # # + Σ + Σ…, set like the lines, and the gap before the dealer
    final: str  # the final totals in bold (DejaVu Sans Bold), each under its Σ column
    number: float  # the deal number's column
    group: float  # each player's columns (+ and Σ) with the gap before them
    indent: float  # where the dealer starts: the figures' whole width and the gap after them
    players: int
    mark: str = DEALER_MARK

    @property
    def css(self) -> str:
        """The style of these widths (``columns_css``)."""
        return columns_css(self.number, self.group, self.players)


def columns_css(number: float, group: float, players: int) -> str:
    """The compact sheet's column widths as CSS: the deal number's column and each player's (the names above the
    figures), and where a deal's text continues when it wraps (under its own start, not under the figures).
    On a screen the lines keep room for the figures and some text, and scroll sideways when the screen is
    narrower."""
    indent = number + players * group + PLAYER_GAP
    return (f".cols {{ margin-left: {number:g}ch; width: {players * group:g}ch; }}\n"
            f"p.r {{ padding-left: {indent:g}ch; text-indent: -{indent:g}ch; }}\n"
            f"@media screen {{ .rows > p.h {{ min-width: {indent + 24:g}ch; }} .rows > p.r {{ min-width: 24ch; }} }}\n")


def _spaces(ch: float) -> str:
    """Blank space ``ch`` digits wide (to the half digit)."""
    return FIGURE_SPACE * int(ch) + NARROW_SPACE * round(2 * (ch - int(ch)))


def score_lines(sheet: MatchSheet, number: Callable[[int], str], notation: Callable[[SheetRow], str]) -> ScoreLines:
    """The sheet's deals as fixed-width lines: ``number(value)`` formats a number in the reader's language,
    ``notation(row)`` is the row's notation with its status words.

    Each player's columns take at least ``MIN_GROUP`` digits (room for the name above them), the gap before
    them widened as needed."""
    players = sheet.match.players
    scores = [[figures(number(r.scores[p])) if r.scores is not None else "" for p in players] for r in sheet.rows]
    totals = [[figures(number(r.totals[p])) for p in players] for r in sheet.rows]
    final = [figures(number(sheet.totals[p])) for p in players]
    deal = Column.fitting([str(r.number) for r in sheet.rows])
    score = Column.fitting([s for row in scores for s in row])
    total = Column.fitting([t for row in [*totals, final] for t in row])
    group = max(MIN_GROUP, PLAYER_GAP + score.ch + GAP + total.ch)
    lead, between = _spaces(group - score.ch - GAP - total.ch), FIGURE_SPACE * GAP
    lines = []
    for row, row_scores, row_totals in zip(sheet.rows, scores, totals, strict=True):
        cells = [deal.pad(str(row.number))]
        cells += [lead + score.pad(s) + between + total.pad(t) for s, t in zip(row_scores, row_totals, strict=True)]
        lines.append(ScoreLine(row.status in STRUCK, "".join(cells), row.dealer, notation(row)))
    places, ends, x = [("#", deal.units)], [], deal.units
    for player_total in final:
        x += REGULAR.advance(lead) + score.units
        places.append(("+", x))
        x += GAP * _DIGIT + total.units
        places.append(("Σ", x))
        ends.append((player_total, x))
    return ScoreLines(lines, REGULAR.place(places, x + PLAYER_GAP * _DIGIT), BOLD.place(ends, x), deal.ch, group,
                      deal.ch + len(players) * group + PLAYER_GAP, len(players))


STRUCK = ("void", "after end", "invalid")  # deals that count for nothing: struck through on the sheet


@functools.lru_cache(maxsize=256)
def qr_png(url: str) -> str:
    """A QR code of ``url`` as a PNG ``data:`` URL (pure Python, no network): 8 pixels a module, drawn without
    smoothing (``image-rendering: pixelated``). WeasyPrint draws this picture in a fraction of the time it takes
    to read the same code as an SVG path."""
    return str(segno.make(url, error="m").png_data_uri(scale=8, border=2))


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (pure Python, no network)."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=2.2, border=2, dark="#000", light="#fff")


@dataclass(frozen=True)
class _Plot:
    """Where a chart's plot sits in its picture and how values map into it."""

    left: float
    top: float
    width: float
    height: float
    deals: int
    peak: int

    def x(self, i: int) -> float:
        return self.left + self.width * i / self.deals

    def y(self, v: float) -> float:
        return self.top + self.height * (1 - v / self.peak)


def chart_svg(
    players: Sequence[str], series: Sequence[dict[str, int]], target: int | None = None, noun: str = "deal",
    width: int = 520, height: int = 200, labels: bool = True, target_label: str = "target {target}",
    title: str = "Running totals", sparse: bool = False,
) -> str:
    """Running totals after each counted deal, one line per player; readable in black and white.

    Each line ends in its player's marker at its last point, on the plot's right edge; two lines that end at
    (nearly) the same height have their end markers nudged apart, so both show. With ``labels``, the name follows
    in the margin right of the plot, after the same marker (joined to the line's end by a thin stroke when nudged
    apart from another name), shortened with "…" to the room there: the match page, where the browser draws
    text in any script.
    ``labels=False`` leaves the players' names out of the picture (the PDF sheet names the markers in an HTML
    legend: WeasyPrint does not shape SVG text, so Arabic, Hebrew, Devanagari or Thai names would print
    wrongly); every line still carries its player's name as a ``<title>``.
    ``sparse``: few numbers on the axes and no axis title (the printed sheet: WeasyPrint lays out and draws
    every letter of an SVG text on its own, a whole line of HTML text costs less than one of them).
    Everything is drawn inside the viewBox."""
    left, top, bottom = 42, 10, 28
    right = _LABEL_ROOM if labels else 14  # without names: room for the last x-axis number only
    peak = max([1] + [t for point in series for t in point.values()] + ([target] if target else []))
    step = _nice_step(peak)
    plot = _Plot(left, top, width - left - right, height - top - bottom, max(len(series) - 1, 1),
                 ((peak + step - 1) // step) * step)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'class="chart" role="img" aria-label="{escape(title, {chr(34): "&quot;"})}">',
        f'<rect x="{left}" y="{top}" width="{plot.width}" height="{plot.height}" fill="none" stroke="#999" '
        'stroke-width="0.6"/>',
        *_chart_axes(plot, step, sparse, noun, height),
    ]
    if target:  # the target's line, named inside the plot at its left, where every line still starts low
        out.append(
            f'<line x1="{left}" x2="{left + plot.width}" y1="{plot.y(target):.1f}" y2="{plot.y(target):.1f}" '
            f'stroke="#000" stroke-width="0.8" stroke-dasharray="1 2"/>'
            f'<text x="{left + 4}" y="{plot.y(target) + 11:.1f}" font-size="9">'
            f'{escape(target_label.format(target=target))}</text>'
        )
    ends = [plot.y(series[-1].get(player, 0)) for player in players]
    marks = _spread(ends, _MARKER_GAP, top + 3, top + plot.height)  # equal ends: both markers show
    named = _spread(ends, _LABEL_GAP, top + 4, top + plot.height - 1)  # and both names
    for n, player in enumerate(players):
        out.extend(_chart_line(plot, series, n, player, marks[n], named[n] if labels else None))
    out.append("</svg>")
    return "".join(out)


def _chart_axes(plot: _Plot, step: int, sparse: bool, noun: str, height: int) -> list[str]:
    """The grid lines with their values, the deals' numbers under the plot and (unless ``sparse``) its noun."""
    out = []
    left, top = plot.left, plot.top
    every = 2 if sparse and plot.peak // step > 3 else 1  # the sparse chart names every other grid line
    for n, v in enumerate(range(0, plot.peak + 1, step)):
        out.append(f'<line x1="{left}" x2="{left + plot.width}" y1="{plot.y(v):.1f}" y2="{plot.y(v):.1f}" '
                   'stroke="#ddd" stroke-width="0.5"/>')
        if n % every == 0:
            out.append(f'<text x="{left - 4}" y="{plot.y(v) + 3:.1f}" text-anchor="end" font-size="9">{v}</text>')
    ticks = _tick_step(plot.deals, 3) if sparse else max(1, plot.deals // 12)
    for i in range(0, plot.deals + 1, ticks):
        out.append(f'<text x="{plot.x(i):.1f}" y="{top + plot.height + 12}" text-anchor="middle" '
                   f'font-size="9">{i}</text>')
    if not sparse:
        out.append(f'<text x="{left + plot.width / 2:.1f}" y="{height - 3}" text-anchor="middle" '
                   f'font-size="9">{escape(noun)}</text>')
    return out


def _chart_line(plot: _Plot, series: Sequence[dict[str, int]], n: int, player: str, mark: float,
                named: float | None) -> list[str]:
    """One player's line (the ``n``-th style), its marker at its end (at height ``mark``) and, with ``named``, the
    name beside it at that height, after its marker again (joined to the line's end when nudged apart)."""
    points = [(plot.x(i), plot.y(point.get(player, 0))) for i, point in enumerate(series)]
    dash = _DASHES[n % len(_DASHES)]
    kind = _MARKERS[n % len(_MARKERS)]
    end_x = plot.left + plot.width
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    out = [f"<g><title>{escape(player)}</title>",
           f'<polyline points="{path}" fill="none" stroke="#000" stroke-width="1.4"'
           + (f' stroke-dasharray="{dash}"' if dash else "") + "/>"]
    if len(points) <= 40:
        out.extend(_marker(kind, px, py) for px, py in points[:-1])
    out.append(_marker(kind, end_x, mark))
    if named is not None:
        if abs(named - mark) > 0.5:
            out.append(f'<line x1="{end_x + 3:.1f}" y1="{mark:.1f}" x2="{end_x + 6:.1f}" y2="{named:.1f}" '
                       'stroke="#000" stroke-width="0.5"/>')
        out.append(_marker(kind, end_x + 10, named))
        out.append(f'<text x="{end_x + 16}" y="{named + 3.2:.1f}" font-size="9">'
                   f'{escape(_fitted(player, _LABEL_ROOM - 18, 9))}</text>')
    out.append("</g>")
    return out


_LABEL_ROOM = 88  # the margin right of the plot, for the players' names (12 letters or more at 9 units)
_LABEL_GAP = 12  # the names' lines, at least this far apart (a line of 9-unit text is 10.5–12 high by script)
_MARKER_GAP = 6.5  # the lines' end markers: at least this far apart (each is 6 high at most)


def _spread(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """The heights ``ys`` moved as little as needed to be at least ``gap`` apart, within [low, high]: heights too
    close together are spread evenly around their middle (in their order; equal heights in the players' order)."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    clusters: list[list[float]] = []  # each: the wanted heights of neighbours placed together, evenly apart
    for i in order:
        clusters.append([ys[i]])
        while len(clusters) > 1 and _first(clusters[-2], gap, low, high) + len(clusters[-2]) * gap \
                > _first(clusters[-1], gap, low, high):
            clusters[-2:] = [clusters[-2] + clusters[-1]]
    out = [0.0] * len(ys)
    k = 0
    for cluster in clusters:
        start = _first(cluster, gap, low, high)
        for j in range(len(cluster)):
            out[order[k]] = start + j * gap
            k += 1
    return out


def _first(cluster: Sequence[float], gap: float, low: float, high: float) -> float:
    """Where the first of a cluster of heights goes: the cluster centred on its middle, kept within [low, high]."""
    span = (len(cluster) - 1) * gap
    middle = sum(cluster) / len(cluster)
    return max(low, min(middle - span / 2, high - span))


# Advances (in em) a little wider than DejaVu Sans's, which is wider than the phones' own fonts: enough to keep a
# name inside the chart whatever sans-serif font draws it.
_NARROW_LETTERS, _SEMI_LETTERS, _WIDE_LETTERS = frozenset("ijlI.,:;'!|"), frozenset("frt()[]{}-/ "), frozenset("mwMW@%")


def _advance(char: str) -> float:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0.0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 1.0
    if char in _NARROW_LETTERS:
        return 0.3
    if char in _SEMI_LETTERS:
        return 0.42
    if char in _WIDE_LETTERS:
        return 1.0
    return 0.79 if char.isupper() else 0.64


def text_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size`` (a little more, not less)."""
    return size * sum(_advance(c) for c in text)


def _fitted(name: str, room: float, size: float) -> str:
    """``name``, or as much of it as fits in ``room`` followed by "…" (never inside a letter and its marks)."""
    if text_width(name, size) <= room:
        return name
    cut = name
    while cut and text_width(cut, size) + text_width("…", size) > room:
        cut = cut[:-1]
        while cut and (_advance(cut[-1]) == 0.0 or cut[-1] == " "):  # a mark or joiner without its letter
            cut = cut[:-1]
    return cut + "…"


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


def _tick_step(deals: int, most: int) -> int:
    """Every how many deals the x axis is labelled: a round number, at most ``most`` steps."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if deals / step <= most:
            return step
    return max(1, deals // most)


def _nice_step(peak: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if peak / step <= 6:
            return step
    return 10_000


# ---- PDF ----------------------------------------------------------------------------------

def static_fetcher(static_folder: str | Path, static_url_path: str = "/static"):
    """A WeasyPrint URL fetcher that serves files from static/ and refuses everything else (no network)."""
    # WeasyPrint (0.6 s and 40 MiB to load) only where a sheet is rendered: in the render's child, not the server
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    root = Path(static_folder).resolve()
    prefix = static_url_path.rstrip("/") + "/"

    class StaticFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            if urlparse(url).scheme == "data":  # a picture made here (the QR code): decoded, nothing fetched
                return super().fetch(url, headers)
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


def html_to_pdf(html: str, base_url: str, static_folder: str | Path, css: str | None = None,
                stylesheets: Sequence[Any] = ()) -> bytes:
    """Render the sheet's HTML (print CSS, @page) to PDF bytes; ``css``: a style sheet of its own on top;
    ``stylesheets``: style sheets already read (``stylesheet``)."""
    from weasyprint import CSS, HTML  # only where a sheet is rendered (see static_fetcher)

    fetcher = static_fetcher(static_folder)
    extra = [*stylesheets, *([CSS(string=css, url_fetcher=fetcher)] if css else [])]
    return HTML(string=html, base_url=base_url, url_fetcher=fetcher, media_type="print").write_pdf(
        stylesheets=extra or None)


def render_pdf(html: str, base_url: str, static_folder: str | Path, stylesheet_paths: Sequence[str | Path] = (),
               in_child: bool = True) -> bytes:
    """The PDF of a sheet's HTML (``html_to_pdf``, with the style sheets at ``stylesheet_paths``), rendered in a
    child process of its own unless ``in_child`` is false.

    Why a child: WeasyPrint is pure Python for the most part. In the server's process a 50-page sheet holds the
    GIL that every other request needs for as long as it renders (a probe of /api/games waited up to 1.8 s
    beside two such renders), and its ~150 MiB, once freed, stay with the process: glibc's ``malloc_trim``
    gives back little of a heap two renders fragmented (432 MiB kept after eight sheets). A child process has
    a GIL of its own, and all its memory goes back to the system when it ends. It is forked from a fork server
    that has WeasyPrint loaded and warmed up (``referee.render_child``), so a child starts in milliseconds."""
    args = (html, base_url, str(static_folder), tuple(str(p) for p in stylesheet_paths))
    return _render_in_child(*args) if in_child else _render_here(*args)


def _render_here(html: str, base_url: str, static_folder: str, stylesheet_paths: tuple[str, ...]) -> bytes:
    return html_to_pdf(html, base_url=base_url, static_folder=static_folder,
                       stylesheets=[stylesheet(path) for path in stylesheet_paths])


class RenderFailed(RuntimeError):
    """The child process rendering a sheet failed (its traceback is the message) or ended without an answer."""


RENDER_LIMIT = 600.0  # seconds a child may render before it is stopped (the longest sheets take about 40 s)


def _render_in_child(*args: Any) -> bytes:
    context = _child_context()
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_child_main, args=(sending, *args), name="referee-sheet", daemon=True)
    child.start()
    sending.close()
    try:
        if not receiving.poll(RENDER_LIMIT):
            raise RenderFailed(f"the sheet's render took more than {RENDER_LIMIT:.0f} s and was stopped")
        kind, value = receiving.recv()
    except EOFError:
        child.join(5)
        raise RenderFailed(f"the sheet's render process ended without an answer (exit code {child.exitcode})") from None
    finally:
        receiving.close()
        if child.is_alive():
            child.join(5)  # it sent its answer and ends
        if child.is_alive():
            child.kill()
            child.join(5)
        child.close()
    body, logged = value
    for name, level, message in logged:  # WeasyPrint's warnings (a missing glyph, bad CSS) in the server's log
        logging.getLogger(name).log(level, "%s", message)
    if kind != "pdf":
        raise RenderFailed(body)
    return bytes(body)


def _child_main(sending: Any, *args: Any) -> None:
    """In the child: render, send the PDF (or the traceback) with what was logged meanwhile, and end."""
    logged: list[tuple[str, int, str]] = []

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            logged.append((record.name, record.levelno, record.getMessage()))

    root = logging.getLogger()
    root.handlers[:] = [Kept(logging.WARNING)]
    try:
        answer: tuple[str, Any] = ("pdf", (_render_here(*args), logged))
    except BaseException as exc:  # told to the parent, which raises it: a 500 with a request id
        answer = ("error", ("".join(traceback.format_exception(exc)), logged))
    sending.send(answer)
    sending.close()


@functools.lru_cache(maxsize=1)
def _child_context() -> Any:
    """A fork server (where the platform has one; else each child starts anew) that imports
    ``referee.render_child`` once, and that every render's child is forked from. Never a plain fork of the
    server itself: its other threads may hold locks the child would inherit held."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["referee.render_child"])
    return context


def start_render_server() -> None:
    """Start the fork server now (it loads WeasyPrint meanwhile) rather than at the first sheet."""
    context = _child_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver  # only where there is a fork server (not Windows)

        forkserver.ensure_running()


# Every script the sheets' fonts cover: rendered once, the warm-up page loads each of those fonts.
_SCRIPTS = "Zoë Дмитрий Γιώργος אברהם محمد प्रिया สมชาย 김철수 张伟 さくら サクラ 🎉 ♠"


def _warm_up_page() -> str:
    """A page built like a match sheet (``templates/sheets/match.html``): the header with its QR code, score
    lines under a running heading, a table of deals with their working, the totals and the chart, page numbers.
    Rendering it fills the caches a sheet's render uses (only speed depends on how closely it matches)."""
    players = ["Ann", "山田 太郎"]
    series = [{"Ann": 10 * n, "山田 太郎": 7 * n} for n in range(30)]
    lines = "".join(f'<p class="r">{n:>3}{FIGURE_SPACE * 4}{10 * n:>4}  {7 * n:>4} Ann{DEALER_MARK}♠ take</p>'
                    for n in range(1, 61))
    deals = "".join(f"<tr><td>{n}</td><td>Ann</td><td>♥ take</td><td>{n}</td><td>{2 * n}</td><td>0</td><td>{n}</td>"
                    f'</tr><tr class="w"><td></td><td colspan="6">Ann: 70 + 10 last trick = {n}</td></tr>'
                    for n in range(1, 31))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>'
        '@page { @bottom-right { content: "page " counter(page) " / " counter(pages); } }'
        "@page { @top-left { content: element(colhead); vertical-align: bottom; width: 100%; } }"
        "@page :first { @top-left { content: none; } } .colhead { position: running(colhead); }"
        f"{columns_css(3, 13, 2)}</style></head><body>"
        '<p class="printed-at">Referee</p><div class="head"><h1>Klaberjass Ann · 山田 太郎</h1>'
        f"<p><b>Match</b> #1</p><p><b>Note</b> {_SCRIPTS}</p><p class=\"rules\"><b>Rules</b> Target: 1000</p>"
        f'<div class="qr"><img src="{qr_png("http://localhost:5000/matches/1")}" alt=""><br>Open this match</div></div>'
        '<div class="colhead score"><table class="cols"><tr><th>Ann</th><th>山田 太郎</th></tr></table></div>'
        '<div class="rows score"><table class="cols"><tr><th>Ann</th><th>山田 太郎</th></tr></table>'
        f'<p class="h"># + Σ + Σ Dealt{DEALER_MARK}Deal</p>{lines}</div>'
        '<div class="rows"><table class="deals p2"><colgroup><col class="n"><col class="d"><col><col class="s">'
        '<col class="t"><col class="s"><col class="t"></colgroup><thead><tr><th>#</th><th>Dealt</th><th>Deal</th>'
        '<th colspan="2">Ann</th><th colspan="2">山田 太郎</th></tr><tr class="pm"><th></th><th></th><th></th>'
        f"<th>+</th><th>Σ</th><th>+</th><th>Σ</th></tr></thead><tbody>{deals}</tbody></table></div>"
        '<div class="foot"><p class="ft">Totals so far</p><p class="tot"><b>290 203</b></p>'
        '<p class="result">In progress.</p>'
        f'{chart_svg(players, series, target=1000, labels=False, sparse=True)}'
        '<p class="legend">Running totals after each deal: ● Ann □ 山田 太郎</p></div></body></html>'
    )


def warm_up(static_folder: str | Path) -> None:
    """Load what renders need — WeasyPrint's caches, the fonts of every script, the sheets' style sheet — by
    rendering a page built like a sheet."""
    paths = [p for p in (Path(static_folder) / "sheet.css",) if p.is_file()]
    _render_here(_warm_up_page(), "http://localhost/", str(static_folder), tuple(str(p) for p in paths))


_STYLESHEETS: dict[Path, tuple[float, Any]] = {}


def stylesheet(path: str | Path) -> Any:
    """The style sheet at ``path`` read by WeasyPrint once per process (again when the file changes): reading
    it (cssselect2 compiles every selector) costs about as much as a whole one-page render. A read style
    sheet is only matched against afterwards, so threads share it."""
    from weasyprint import CSS  # only where a sheet is rendered (see static_fetcher)

    file = Path(path).resolve()
    stamp = file.stat().st_mtime
    known = _STYLESHEETS.get(file)
    if known is None or known[0] != stamp:
        known = _STYLESHEETS[file] = (stamp, CSS(string=file.read_text(encoding="utf-8"), media_type="print"))
    return known[1]


# ---- bounded rendering --------------------------------------------------------------------

class Busy(Exception):
    """No render slot came free in time (or too many requests wait already): ``retry_after`` is a fair guess, in
    whole seconds, of when one will."""

    def __init__(self, retry_after: int, renders: int) -> None:
        super().__init__(f"every render slot is taken; retry in {retry_after} s")
        self.retry_after, self.renders = retry_after, renders


class RenderGate:
    """At most ``renders`` sheets rendered at once, and at most ``waiting`` more requests waiting — each at most
    ``wait`` seconds — for a slot; any request beyond those is refused at once (``Busy``). So renders, and
    requests waiting for one, never hold more than ``renders + waiting`` of the server's threads: the others stay
    free for everything else. Thread-safe."""

    def __init__(self, renders: int, waiting: int, wait: float) -> None:
        self.renders, self.waiting, self.wait = max(1, renders), max(0, waiting), max(0.0, wait)
        self._slots = threading.BoundedSemaphore(self.renders)
        self._lock = threading.Lock()
        self._admitted = 0  # requests rendering or waiting for a slot (or for another request's render)
        self._took = 0.0  # how long a render takes, lately (seconds; 0: none yet)

    @property
    def admitted(self) -> int:
        return self._admitted

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: about one render's time (5 s before the first is timed)."""
        return min(300, max(1, math.ceil(self._took))) if self._took else 5

    def busy(self) -> Busy:
        return Busy(self.retry_after(), self.renders)

    @contextmanager
    def admission(self) -> Iterator[None]:
        """Hold one of the ``renders + waiting`` places for the ``with`` block (``Busy`` at once when none is
        left)."""
        with self._lock:
            if self._admitted >= self.renders + self.waiting:
                raise self.busy()
            self._admitted += 1
        try:
            yield
        finally:
            with self._lock:
                self._admitted -= 1

    def run(self, make: Callable[[], bytes]) -> bytes:
        """``make()`` in a render slot, waited for at most ``wait`` seconds; then the memory it used is given
        back (``release_memory``)."""
        with self.admission():
            if not self._slots.acquire(timeout=self.wait):
                raise self.busy()
            start = time.monotonic()
            try:
                return make()
            finally:
                took = time.monotonic() - start
                self._slots.release()
                self._took = took if not self._took else 0.7 * self._took + 0.3 * took
                release_memory(collect=took >= 1.0)


@functools.lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None


def release_memory(collect: bool = False) -> None:
    """Give the memory a render freed back to the system: glibc keeps freed memory in the process otherwise.
    ``collect``: after a long render, its reference cycles collected first (the HTML of a 50-page sheet leaves
    about 25 MiB, half of it in cycles). ``malloc_trim`` runs without holding the GIL."""
    if collect:
        gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


# ---- the sheet cache ----------------------------------------------------------------------

@dataclass(frozen=True)
class Rendered:
    """A rendered sheet (PDF or HTML bytes) and its strong ETag (a digest of the bytes)."""

    body: bytes
    etag: str


class _Flight:
    """One render under way: done when it ends, with what it made (None: it failed)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.rendered: Rendered | None = None


class SheetCache:
    """Rendered sheets kept in this process, least recently used first out, bounded by count and bytes.

    Entries live in *slots* (a match's PDF for one language and address, a blank sheet with its names…);
    each slot holds one version: storing a newer version of a slot replaces the older one at once, so a
    match that changes never keeps stale sheets around. Thread-safe (waitress serves from several threads)."""

    def __init__(self, max_entries: int = 64, max_bytes: int = 32 * 1024 * 1024) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[Any, tuple[Any, Rendered]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._flights: dict[tuple[Any, Any], _Flight] = {}  # renders under way, by (slot, version)

    def get(self, slot: Any, version: Any) -> Rendered | None:
        with self._lock:
            found = self._entries.get(slot)
            if found is None or found[0] != version:
                return None
            self._entries.move_to_end(slot)
            return found[1]

    def put(self, slot: Any, version: Any, body: bytes) -> Rendered:
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

    def get_or_render(self, slot: Any, version: Any, make: Callable[[], bytes], gate: RenderGate | None = None,
                      ) -> Rendered:
        """The sheet from the cache, else rendered once (``make()``, through ``gate`` when given) and kept: a
        request for a sheet another request is rendering waits for that render (as one waiting at the gate, at
        most its ``wait``) instead of rendering it again."""
        while True:
            found = self.get(slot, version)
            if found is not None:
                return found
            with self._lock:
                flight = self._flights.get((slot, version))
                leading = flight is None
                if flight is None:
                    flight = self._flights[(slot, version)] = _Flight()
            if leading:
                return self._lead(slot, version, make, gate, flight)
            with gate.admission() if gate is not None else nullcontext():
                done = flight.done.wait(gate.wait if gate is not None else None)
            if not done and gate is not None:
                raise gate.busy()
            if flight.rendered is not None:
                return flight.rendered
            # the render failed (or was refused): this request tries for itself

    def _lead(self, slot: Any, version: Any, make: Callable[[], bytes], gate: RenderGate | None,
              flight: _Flight) -> Rendered:
        try:
            flight.rendered = self.put(slot, version, gate.run(make) if gate is not None else make())
            return flight.rendered
        finally:
            with self._lock:
                del self._flights[(slot, version)]
            flight.done.set()

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
