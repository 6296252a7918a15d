"""Deals as CSV (``deals_csv_text``): one row per deal of some matches or of every match, its score and the running
totals seat by seat, as text a piece at a time; and an event's standings (``standings_csv``), in the reader's
language. A cell a spreadsheet would run as a formula is written as text, so that it reads back as typed."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from .. import games, matches
from ..games.club import RoundLine
from ..matches.events import Event
from ..matches.money import event_settlement
from ..matches.purse import event_purse
from ..store.protocol import ArchiveStore
from .export import CHUNK, _unreadable_match, started

CSV_SEATS = max(game.seats for game in games.GAMES)  # the CSV's columns, fixed when Referee starts

CSV_HEADER: tuple[str, ...] = (
    "match_uid", "match_id", "game", "created", "deal", "dealer", "status", "summary",
    *(f"{column}_{seat}" for seat in range(1, CSV_SEATS + 1) for column in ("player", "score", "total")),
)


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet runs (or reads as a number, or a control) first


def _cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (=, +, -, @, a tab or a return first) is written with a
    leading ', and so is a text that starts with ' itself: one ' more, so that the file says which it was ("=1+1" is
    written '=1+1, "'=1+1" ''=1+1) and whoever reads it back takes exactly one ' off a cell that starts with one."""
    if isinstance(value, str) and value[:1] in (*FORMULA, "'"):
        return "'" + value
    return value


def deals_csv(db: ArchiveStore, match_ids: list[int] | None = None) -> str:
    """``deals_csv_text`` at once."""
    return "".join(deals_csv_text(db, match_ids))


def deals_csv_text(db: ArchiveStore, match_ids: list[int] | None = None) -> Iterator[str]:
    """One row per deal (``None``: every match), as text a piece at a time (``started``: a match that is not there
    raises ``matches.NotFound`` at once). ``created`` is when the deal was first entered; ``score_n`` is what the
    deal counts for seat n (blank for a void deal or one after the end), ``total_n`` the running total after it.
    Columns of seats a game does not have stay blank."""
    return started(_csv_pieces(db, match_ids))


def _csv_pieces(db: ArchiveStore, match_ids: list[int] | None) -> Iterator[str]:
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
        except Exception as exc:
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
                match.row.uid, match.id, match.game.key, deal["created"], deal["number"], deal["dealer"],
                deal["last_action"], replayed.result.summary if replayed.result else "", *seats,
            )])
        if out.tell() >= CHUNK:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


# ---- an event's standings, to take home (issue 37) ---------------------------------------------------------------

BOM = "\ufeff"  # spreadsheets read a CSV file as UTF-8 when it starts with one


@dataclass(frozen=True)
class CsvWords:
    """How a standings file is written for the people of one language (issue 47): its column headers and the words of
    its cells, translated by the web layer (``None``/empty: today's English file, the keys as they are), and the
    separators a spreadsheet of that language expects — where the decimal separator is a comma (German), fields
    are separated by ';' and money is written with a decimal comma, as German Excel opens a file in columns."""

    headers: Mapping[str, str] = field(default_factory=dict)  # "place" → "Platz"; "round" → "Runde {round}"
    results: Mapping[str, str] = field(default_factory=dict)  # "win" → "Sieg", "bye" → "spielfrei"
    delimiter: str = ","
    decimal: str = "."

    def header(self, key: str) -> str:
        return self.headers.get(key, key)

    def round(self, number: int) -> str:
        return self.headers["round"].format(round=number) if "round" in self.headers else f"round_{number}"

    def money(self, minor: int, digits: int) -> str:
        """An amount in minor units as a spreadsheet of the language reads a number: "17.50", "17,50", "-0,44"; no
        currency sign and no thousands separator (the header says what it is)."""
        text = str(Decimal(abs(minor)).scaleb(-digits).quantize(Decimal(1).scaleb(-digits)))
        return ("-" if minor < 0 else "") + text.replace(".", self.decimal)


ENGLISH = CsvWords()


def _result(line: RoundLine | None, words: CsvWords) -> str:
    """A round's cell: "win 250" ("Sieg 250"), "bye", "absent"; blank while the table plays."""
    if line is None or line.result is None:
        return ""
    said = words.results.get(line.result, line.result)
    return said if line.total is None or line.result in ("bye", "absent") else f"{said} {line.total}"


def standings_csv(event: Event, words: CsvWords = ENGLISH) -> str:
    """An event's standings as a spreadsheet reads them (UTF-8 with a byte-order mark): one row per player — place
    ("2=" shared), player, score, the tie-breaks, each round's result ("win 250", "bye", "absent"; blank while its
    table plays), the prize (the booby's included; blank without a purse, or for nobody placed yet) and, when the
    event has a tariff, the balance (RULES.md 5.7). In ``words``' language: its headers and result words, its field
    separator and decimal separator (English: the keys, "," and ".")."""
    two = event.game.seats == 2
    table = event.standings()
    numbers = [r.number for r in event.rounds]
    found = event_purse(event)
    settlement = event_settlement(event)
    prizes: dict[str, int] = {}
    for player, amount in [(p.player, p.amount) for p in found.prizes] + list(found.booby) if found else ():
        prizes[player] = prizes.get(player, 0) + amount
    out = io.StringIO()
    writer = csv.writer(out, delimiter=words.delimiter)
    keys = ["place", "player", "match_points" if two else "points",
            *(("difference", "own_totals") if two else ("rounds_won", "best_round"))]
    writer.writerow([_cell(words.header(key)) for key in keys] + [_cell(words.round(n)) for n in numbers]
                    + [_cell(words.header("prize"))] + ([_cell(words.header("balance"))] if settlement else []))
    for row in table.rows:
        lines = {line.round: line for line in row.rounds}
        results = [_result(lines.get(n), words) for n in numbers]
        won = words.money(prizes[row.player], found.fee.digits) if found is not None and row.player in prizes else ""
        balance = ([words.money(settlement.balances.get(row.player, 0), settlement.tariff.digits)]
                   if settlement else [])
        writer.writerow([*(_cell(v) for v in (row.place_text, row.player, row.score, *row.tiebreaks, *results)), won,
                         *balance])
    return BOM + out.getvalue()
