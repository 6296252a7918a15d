"""The compact score sheet: each deal ONE line of plain text, its numbers in fixed-width columns (padded with
figure spaces to line up under their headings in DejaVu Sans), and the CSS of the columns' widths.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .model import MatchSheet, SheetRow

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
