"""The sheets' pictures, made without any network: the chart of the running totals (SVG, one line per player,
readable in black and white) and the QR code of a match's address (PNG ``data:`` URL, or inline SVG).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

import segno

# Line styles that stay apart in black and white: dash pattern and marker per player.
_DASHES = ("", "6 3", "2 3", "8 3 2 3")
_MARKERS = ("circle", "square", "triangle", "diamond")
MARKER_CHARACTERS = ("\u25cf", "\u25a1", "\u25b2", "\u25c7")  # ● □ ▲ ◇: the markers as text, for a legend


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


def rating_svg(ratings: Sequence[float], sigmas: Sequence[float], width: int = 360, height: int = 170,
               title: str = "Rating", noun: str = "match", start: float = 0.0) -> str:
    """A player's rating after each ended match (a line, a dot per match while there are few) inside its ±σ band
    (grey), the first match at the left; the y axis from the lowest to the highest the band reaches, ``start``
    always in view (every player starts there) and never below 0 (no rating is shown below it). Drawn inside the
    viewBox, readable in black and white."""
    left, top, bottom, right = 34, 8, 26, 10
    low = max(0.0, min([float(start)] + [r - s for r, s in zip(ratings, sigmas, strict=True)]))
    high = max([float(start) + 1] + [r + s for r, s in zip(ratings, sigmas, strict=True)])
    span = high - low
    step = max(1, _nice_step(int(span) or 1))
    low, high = step * (low // step), step * -(-high // step)
    w, h = width - left - right, height - top - bottom
    count = max(len(ratings) - 1, 1)

    def x(i: int) -> float:
        return left + w * i / count

    def y(v: float) -> float:
        return top + h * (high - v) / ((high - low) or 1)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" class="chart rating-chart" role="img" '
           f'aria-label="{escape(title, {chr(34): "&quot;"})}">',
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#999" stroke-width="0.6"/>']
    v = low
    while v <= high:
        out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd" '
                   f'stroke-width="{0.9 if v == start else 0.5}"/>'
                   f'<text x="{left - 4}" y="{y(v) + 3:.1f}" text-anchor="end" font-size="9">{int(v)}</text>')
        v += step
    if ratings:
        band = ([f"{x(i):.1f},{y(r + s):.1f}" for i, (r, s) in enumerate(zip(ratings, sigmas, strict=True))]
                + [f"{x(i):.1f},{y(max(low, r - s)):.1f}" for i, (r, s) in reversed(list(enumerate(zip(ratings, sigmas,
                                                                                                      strict=True))))])
        out.append(f'<polygon points="{" ".join(band)}" fill="#000" fill-opacity="0.12" stroke="none"/>')
        line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(ratings))
        out.append(f'<polyline points="{line}" fill="none" stroke="#000" stroke-width="1.4"/>')
        if len(ratings) <= 40:
            out.extend(f'<circle cx="{x(i):.1f}" cy="{y(r):.1f}" r="2" fill="#000"/>' for i, r in enumerate(ratings))
    ticks = max(1, count // 8)
    for i in range(0, len(ratings), ticks):
        out.append(f'<text x="{x(i):.1f}" y="{top + h + 12}" text-anchor="middle" font-size="9">{i + 1}</text>')
    out.append(f'<text x="{left + w / 2:.1f}" y="{height - 3}" text-anchor="middle" font-size="9">'
               f'{escape(noun)}</text></svg>')
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
