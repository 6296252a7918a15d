"""Deals as CSV (``deals_csv_text``): one row per deal of some matches or of every match, its score and the running
totals seat by seat, as text a piece at a time; a cell a spreadsheet would run as a formula is written as text."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from .. import games, matches
from ..matches.club import Event
from ..matches.purse import event_purse
from ..store import Store
from .export import CHUNK, _unreadable_match, started

CSV_SEATS = max(game.seats for game in games.GAMES)  # the CSV's columns, fixed when Referee starts

CSV_HEADER: tuple[str, ...] = (
    "match_uid", "match_id", "game", "created", "deal", "dealer", "status", "summary",
    *(f"{column}_{seat}" for seat in range(1, CSV_SEATS + 1) for column in ("player", "score", "total")),
)


def _cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (=, +, -, @ first) is written with a leading '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def deals_csv(db: Store, match_ids: list[int] | None = None) -> str:
    """``deals_csv_text`` at once."""
    return "".join(deals_csv_text(db, match_ids))


def deals_csv_text(db: Store, match_ids: list[int] | None = None) -> Iterator[str]:
    """One row per deal (``None``: every match), as text a piece at a time (``started``: a match that is not there
    raises ``matches.NotFound`` at once). ``created`` is when the deal was first entered; ``score_n`` is what the
    deal counts for seat n (blank for a void deal or one after the end), ``total_n`` the running total after it.
    Columns of seats a game does not have stay blank."""
    return started(_csv_pieces(db, match_ids))


def _csv_pieces(db: Store, match_ids: list[int] | None) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    whole_archive = match_ids is None
    if match_ids is None:
        match_ids = db.all_match_ids()
    for match_id in match_ids:
        try:
            match = matches.load(db, match_id)
        except matches.NotFound:
            raise
        except Exception as exc:  # noqa: BLE001 - one damaged match must not cost the whole archive: a row says so
            if not whole_archive:
                raise
            reason = _unreadable_match(db, match_id, exc)
            writer.writerow(
                [_cell(v) for v in (reason["uid"] or "", match_id, "", "", "", "", "unreadable", reason["reason"])]
            )
            continue
        for deal, replayed in match.rows:
            seats: list[Any] = []
            for player in match.players:
                score = int(replayed.result.scores.get(player, 0)) if replayed.counted else ""
                seats += [player, score, replayed.totals.get(player, 0)]
            seats += [""] * (3 * CSV_SEATS - len(seats))
            writer.writerow([_cell(v) for v in (
                match.row["uid"], match.id, match.game.key, deal["created"], deal["number"], deal["dealer"],
                deal["last_action"], replayed.result.summary if replayed.result else "", *seats,
            )])
        if out.tell() >= CHUNK:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


# ---- an event's standings, to take home (issue 37) ---------------------------------------------------------------

BOM = "\ufeff"  # spreadsheets read a CSV file as UTF-8 when it starts with one


def standings_csv(event: Event) -> str:
    """An event's standings as a spreadsheet reads them (UTF-8 with a byte-order mark): one row per player — place
    ("2=" shared), player, score, the tie-breaks, each round's result ("win 250", "bye", "absent"; blank while its
    table plays) and the prize (the booby's included; blank without a purse, or for nobody placed yet)."""
    two = event.game.seats == 2
    table = event.standings()
    numbers = [r.number for r in event.rounds]
    found = event_purse(event)
    prizes: dict[str, int] = {}
    if found is not None:
        for prize in found.prizes:
            prizes[prize.player] = prizes.get(prize.player, 0) + prize.amount
        for player, amount in found.booby:
            prizes[player] = prizes.get(player, 0) + amount
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "player", "match_points" if two else "points",
                     *(("difference", "own_totals") if two else ("rounds_won", "best_round")),
                     *(f"round_{n}" for n in numbers), "prize"])
    for row in table.rows:
        lines = {line.round: line for line in row.rounds}
        results = []
        for n in numbers:
            line = lines.get(n)
            if line is None or line.result is None:
                results.append("")
            elif line.total is None or line.result in ("bye", "absent"):
                results.append(str(line.result))
            else:
                results.append(f"{line.result} {line.total}")
        won = found.fee.text(prizes[row.player]) if found is not None and row.player in prizes else ""
        writer.writerow([_cell(v) for v in (row.place_text, row.player, row.score, *row.tiebreaks, *results, won)])
    return BOM + out.getvalue()
