"""The sheet model: everything a match's printed sheet shows, in order, built from what the rules return (a row's
notation from ``game.notation``, its working from the result's breakdown, the totals from the replayed match).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..matches import Match
from .pictures import MARKER_CHARACTERS, chart_svg, qr_png


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
        abandoned=match.row.abandoned,
        note=standing.note or "",
        options=[(spec.label, shown) for spec, shown in game.describe_options(match.options)],
        chart=chart_svg(match.players, series, target=target, noun=noun, labels=False, target_label=target_label,
                        title=title, sparse=True),
        legend=[(MARKER_CHARACTERS[n % len(MARKER_CHARACTERS)], player) for n, player in enumerate(match.players)],
        qr=qr_png(url),
        url=url,
        as_of=moment_of(match.row.updated),
        started=moment_of(match.row.created),
    )
