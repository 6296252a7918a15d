"""Portable data: matches, events and seasons exported and imported as JSON, deals as CSV, and a consistent backup.

The export document (``"format": "referee-export", "version": 2``) holds what people entered and
when, exactly as stored: every deal with its earlier versions, the log of actions and the confirmations of each
match's result as it stands; then club play (RULES.md 5): every event with its players, rounds and tables (each
table naming its match by uid), and every season's settings. A match and an event are known by their ``uid``; the
local integer ids are not part of the format, nor are the table links' tokens (secrets: an import makes new ones).
``status``, ``winner`` and ``totals`` are written for people reading the file; an import recomputes them from the
deals. Version 1 (matches alone, without confirmations) is still read.

An import is checked completely before anything is written, then written in one ``BEGIN
IMMEDIATE`` transaction: all of it or nothing. A match or an event whose uid is already here is skipped; a season's
settings already here are kept.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
import math
import os
import secrets
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from flask import Flask
from sqlite_utils import Database

from . import games, jsontext, matches, pgstore, store
from .games.base import BaseGame, InvalidOptions, RuleError, Table, UnknownGame, Violation
from .games.match import DealRecord, MatchState, replay
from .games.money import BadTariff, parse_tariff
from .games.season import LEAGUE_POINTS
from .matches import club
from .matches.names import duplicate_names, name_problems
from .matches.seasons import MAX_BEST_OF

FORMAT = "referee-export"
VERSION = 2  # the version written; every version in VERSIONS is read
VERSIONS = (1, 2)  # 1: matches alone (no events, seasons nor confirmations)
DEAL_ACTIONS = ("entered", "corrected", "voided", "restored", "undone")  # a deal's last_action, a version's action
MAX_NUMBER = matches.MAX_NUMBER  # deal numbers and versions: far beyond any real match, well inside SQLite's integers
MAX_DEPTH = 64  # nesting of JSON values: deal entries are a few levels deep
MAX_UID = 100
MAX_PROBLEMS = 100  # a file that is wrong everywhere: reading stops after this many problems
CSV_SEATS = max(game.seats for game in games.GAMES)  # the CSV's columns, fixed when Referee starts


class InvalidImport(RuleError):
    """An import file that cannot be taken as it is: every problem found, nothing stored."""


@dataclass
class ImportReport:
    imported: list[int] = field(default_factory=list)  # ids of the new matches, in file order
    skipped: list[str] = field(default_factory=list)  # uids of matches that were here already
    events_imported: list[int] = field(default_factory=list)  # ids of the new events, in file order
    events_skipped: list[str] = field(default_factory=list)  # uids of events that were here already

    def to_json(self) -> dict[str, list[Any]]:
        """The answer of ``POST /api/import`` (docs/api.md)."""
        return {"imported": self.imported, "skipped": self.skipped, "events_imported": self.events_imported,
                "events_skipped": self.events_skipped}


# ---- export -------------------------------------------------------------------------------
#
# The document is written as text a piece at a time (``export_text``): the head, then each match — its fields and
# deals at once (a match holds at most REFEREE_MAX_DEALS of them), its actions read from the database a batch at a
# time — so an export holds one match's deals in memory, never the whole archive or a whole activity log. The text
# is the compact JSON of the document (``jsontext``), the same bytes the document written at once would be.

CHUNK = 64 * 1024  # characters of JSON text sent at a time


def export_text(db: Database, match_ids: list[int] | None = None) -> Iterator[str]:
    """The export document of some matches (``None``: every match, oldest first by local id, so an import keeps the
    order, then every event and every season's settings; with ``match_ids`` their lists are empty) as JSON text, a
    piece at a time, ending with a newline. With ``match_ids`` a match that cannot be read raises
    (``matches.NotFound`` for one that is not there) — when the first piece is made, which ``started`` does at once;
    in the whole archive it is listed under ``unreadable`` with the reason, and the others are exported (an event
    with a table on it too)."""
    return started(_export_pieces(db, match_ids))


def started(pieces: Iterator[str]) -> Iterator[str]:
    """``pieces`` with the first one made now: whatever stops them at their start (no such match) is raised here,
    before an answer streaming them has begun."""
    first = next(pieces, None)
    return itertools.chain(() if first is None else (first,), pieces)


def export_match(db: Database, match_id: int) -> dict[str, Any]:
    """One match as an export document; raises ``matches.NotFound``."""
    return json.loads("".join(export_text(db, [match_id])))


def export_archive(db: Database) -> dict[str, Any]:
    """Every match, event and season as an export document (``export_text``, read back), damaged ones under
    ``unreadable``."""
    return json.loads("".join(export_text(db)))


def _export_pieces(db: Database, match_ids: list[int] | None) -> Iterator[str]:
    whole = match_ids is None
    ids = [row[0] for row in db.execute("SELECT id FROM matches ORDER BY id").fetchall()] if whole else match_ids
    out = _Pieces()
    head = jsontext.dumps({"format": FORMAT, "version": VERSION, "exported": store.now()})
    out.put(head[:-1] + ',"matches":[')
    unreadable: list[dict[str, Any]] = []
    separator = ""
    for match_id in ids or ():
        try:
            match = matches.load(db, match_id)
            opening = _match_opening(db, match)
            closing = '],"confirmations":' + jsontext.dumps(_confirmations(db, match)) + "}"
        except Exception as exc:  # noqa: BLE001 - one damaged match must not cost the whole archive
            if not whole:
                raise
            unreadable.append(_unreadable_match(db, match_id, exc))
            continue
        out.put(separator + opening)
        separator = ","
        comma = ""
        for event in store.iter_events(db, match_id):
            out.put(comma + jsontext.dumps({"deal_number": event["deal_number"], "action": event["action"],
                                            "at": event["at"], "detail": event["detail"], "undone": event["undone"]}))
            comma = ","
            if out.full():
                yield out.take()
        out.put(closing)
        if out.full():
            yield out.take()
    out.put("]")
    yield from _club_pieces(db, out, whole, {u["id"] for u in unreadable}, unreadable)
    if unreadable:
        out.put(',"unreadable":' + jsontext.dumps(unreadable))
    out.put("}\n")
    yield out.take()


def _confirmations(db: Database, match: matches.Match) -> list[dict[str, str]]:
    """Who confirmed the match's result as it stands (RULES.md 5.6: a confirmation of an earlier version no longer
    counts, and is not exported)."""
    return [{"player": player, "at": at} for player, at in club.confirmations(db, match.id, match.version).items()]


def _club_pieces(db: Database, out: _Pieces, whole: bool, unreadable_ids: set[int],
                 unreadable: list[dict[str, Any]]) -> Iterator[str]:
    """The document's ``events`` and ``seasons``: every one of the archive's, none in an export of some matches. An
    event that cannot be read, or one with a table whose match could not be (``unreadable_ids``), is listed under
    ``unreadable`` instead: the file must hold every match its events name."""
    out.put(',"events":[')
    separator = ""
    for (event_id,) in db.execute("SELECT id FROM events ORDER BY id").fetchall() if whole else ():
        try:
            text = jsontext.dumps(_event_document(db, event_id, unreadable_ids))
        except Exception as exc:  # noqa: BLE001 - one damaged event must not cost the whole archive
            unreadable.append(_unreadable_event(db, event_id, exc))
            continue
        out.put(separator + text)
        separator = ","
        if out.full():
            yield out.take()
    seasons = [{"name": name, "game": game, "best_of": best_of, "league_points": league_points}
               for name, game, best_of, league_points in db.execute(
                   "SELECT name, game, best_of, league_points FROM seasons ORDER BY name, game")] if whole else []
    out.put('],"seasons":' + jsontext.dumps(seasons))


class _TableNotExported(Exception):
    """An event's table whose match is not in the file."""


def _event_document(db: Database, event_id: int, unreadable_ids: set[int]) -> dict[str, Any]:
    """One event of the document: its fields, its players in the order they joined, and its rounds with their
    tables, each naming its match by uid — never its link's token."""
    (uid, name, date, game, options, rounds, round_length, seating, season, tariff, seed, created, kind,
     avoid) = db.execute(
        "SELECT uid, name, date, game, options, rounds, round_length, seating, season, tariff, seed, created, kind, "
        "avoid FROM events WHERE id = ?", [event_id]).fetchone()
    players = [{"name": player, "joined_round": joined, "left_round": left} for player, joined, left in db.execute(
        "SELECT name, joined_round, left_round FROM event_players WHERE event_id = ? ORDER BY position", [event_id])]
    revoked_links = {number: at for number, at in db.execute(
        "SELECT number, MAX(revoked) FROM event_links WHERE event_id = ? GROUP BY number "
        "HAVING COUNT(*) = COUNT(revoked)", [event_id])}  # tables whose every link is revoked
    latest = max((r[0] for r in db.execute("SELECT number FROM event_rounds WHERE event_id = ?", [event_id])),
                 default=0)
    tables: dict[int, list[dict[str, Any]]] = {}
    for round_number, number, match_id, match_uid, ended in db.execute(
            "SELECT t.round, t.number, t.match_id, m.uid, t.ended_by_director FROM event_tables t "
            "LEFT JOIN matches m ON m.id = t.match_id WHERE t.event_id = ? ORDER BY t.round, t.number", [event_id]):
        if match_uid is None or match_id in unreadable_ids:
            raise _TableNotExported(f"round {round_number}, table {number}: match {match_id} could not be read")
        revoked = revoked_links.get(number) if round_number == latest else None  # as the round in play had it
        tables.setdefault(round_number, []).append(
            {"table": number, "match": match_uid, "ended_by_director": ended, "revoked": revoked})
    drawn = [{"round": number, "seed": round_seed, "drawn": at, "byes": jsontext.parse(byes),
              "tables": tables.get(number, [])}
             for number, round_seed, byes, at in db.execute(
                 "SELECT number, seed, byes, drawn FROM event_rounds WHERE event_id = ? ORDER BY number", [event_id])]
    return {"uid": uid, "name": name, "date": date, "game": game, "options": jsontext.parse(options),
            "rounds": rounds, "round": round_length, "seating": seating, "season": season, "tariff": tariff,
            "seed": seed, "created": created, "kind": kind, "avoid": jsontext.parse(avoid), "players": players,
            "drawn": drawn}


def _uid_of_unreadable(db: Database, table: str, noun: str, row_id: int, exc: Exception) -> str | None:
    """The uid of a match or event (``table``) that could not be read, logged as such; None when even that fails."""
    logging.getLogger("referee").error("export: %s %s cannot be read: %r", noun, row_id, exc)
    try:
        return db.execute(f"SELECT uid FROM {table} WHERE id = ?", [row_id]).fetchone()[0]
    except Exception:  # noqa: BLE001
        return None


def _unreadable_event(db: Database, event_id: int, exc: Exception) -> dict[str, Any]:
    uid = _uid_of_unreadable(db, "events", "event", event_id, exc)
    said = str(exc)[:200] if isinstance(exc, _TableNotExported) else f"{type(exc).__name__}: {str(exc)[:200]}"
    return {"event": event_id, "uid": uid,
            "reason": f"Event {event_id} could not be read ({said}); it is not in this file."}


class _Pieces:
    """Text gathered until about CHUNK characters are there to send."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def put(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)

    def full(self) -> bool:
        return self.size >= CHUNK

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts, self.size = [], 0
        return text


def _unreadable_match(db: Database, match_id: int, exc: Exception) -> dict[str, Any]:
    uid = _uid_of_unreadable(db, "matches", "match", match_id, exc)
    return {
        "id": match_id,
        "uid": uid,
        "reason": f"Match {match_id} could not be read ({type(exc).__name__}: {str(exc)[:200]}); "
        "it is not in this file.",
    }


def _match_opening(db: Database, match: matches.Match) -> str:
    """A match of the document as JSON text up to its list of actions (left open: they follow)."""
    row = match.row
    revisions: dict[int, list[dict[str, Any]]] = {}
    for rev in db.query(
        "SELECT r.* FROM deal_revisions r JOIN deals d ON d.id = r.deal_id WHERE d.match_id = ? "
        "ORDER BY r.deal_id, r.version",
        [match.id],
    ):
        revisions.setdefault(rev["deal_id"], []).append(
            {"version": rev["version"], "input": json.loads(rev["input"]), "void": bool(rev["void"]),
             "action": rev["action"], "at": rev["at"], "replaced_at": rev["replaced_at"]}
        )
    fields = {
        "uid": row["uid"],
        "game": match.game.key,
        "players": list(match.players),
        "options": match.game.options_to_json(match.options),
        "first_dealer": row["first_dealer"],
        "created": row["created"],
        "updated": row["updated"],
        "place": row["place"],
        "note": row["note"],
        "abandoned": bool(row["abandoned"]),
        "ended_by_hand": bool(row["ended_by_hand"]),
        "status": matches.status_of(match),
        "winner": match.winner,
        "totals": dict(match.state.totals),
        "deals": [
            {
                "number": d["number"],
                "dealer": d["dealer"],
                "input": d["input"],
                "void": d["void"],
                "version": d["version"],
                "last_action": d["last_action"],
                "created": d["created"],
                "updated": d["updated"],
                "revisions": revisions.get(d["id"], []),
            }
            for d in match.deals
        ],
    }
    return jsontext.dumps(fields)[:-1] + ',"events":['


# ---- import -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Incoming:
    """One match of an import file, checked and ready to write."""

    uid: str
    game: BaseGame
    players: list[str]
    options: dict[str, Any]
    first_dealer: str
    created: str
    updated: str
    place: str
    note: str
    abandoned: bool
    ended_by_hand: bool
    deals: list[dict[str, Any]]
    events: list[dict[str, Any]]
    confirmations: list[dict[str, str]] = field(default_factory=list)  # {"player", "at"} of its result as it stands


@dataclass(frozen=True)
class _IncomingEvent:
    """One event of an import file (club play, RULES.md 5), checked on its own and ready to write once its tables'
    matches are found (``_check_tables``)."""

    index: int  # its place in the file's events
    uid: str
    name: str
    date: str
    game: BaseGame
    options: dict[str, Any]
    rounds: int
    round_length: str
    seating: str
    season: str | None
    tariff: str | None
    seed: int
    created: str
    players: list[tuple[str, int, int | None]]  # name, joined round, left round: in the order they joined
    drawn: list[dict[str, Any]]  # {"number", "seed", "drawn", "byes", "tables": [{"number", "match", …}]}
    kind: str = "club_evening"
    avoid: list[list[str]] = field(default_factory=list)  # pairs of the players' names


@dataclass(frozen=True)
class _Document:
    matches: list[_Incoming]
    events: list[_IncomingEvent] = field(default_factory=list)
    seasons: list[dict[str, Any]] = field(default_factory=list)


def import_data(db: Database, data: Any, max_deals: int = matches.DEFAULT_MAX_DEALS,
                max_events: int = matches.DEFAULT_MAX_EVENTS) -> ImportReport:
    """Import an export document (already parsed from JSON). Raises InvalidImport with the problems found
    (reading stops after MAX_PROBLEMS), and then stores nothing; otherwise stores, in one transaction, every match
    and every event whose uid is new (each table with a new link), each match's confirmations, and each season's
    settings not here yet. A match may hold at most ``max_deals`` deals and ``max_events`` actions."""
    try:
        document = _read_document(data, max_deals, max_events)
    except _TooMany as exc:
        raise InvalidImport(exc.problems) from None
    report = ImportReport()
    with store.immediate(db):
        new_events = [e for e in document.events
                      if not db.execute("SELECT 1 FROM events WHERE uid = ?", [e.uid]).fetchone()]
        new_uids = {e.uid for e in new_events}
        _check_tables(db, new_events, document.matches)  # raises InvalidImport: nothing is written yet
        for m in document.matches:
            if db.execute("SELECT 1 FROM matches WHERE uid = ?", [m.uid]).fetchone():
                report.skipped.append(m.uid)
                continue
            report.imported.append(_write(db, m))
        for e in document.events:
            if e.uid not in new_uids:
                report.events_skipped.append(e.uid)
                continue
            report.events_imported.append(_write_event(db, e))
        db.conn.executemany(
            "INSERT INTO seasons (name, game, best_of, league_points) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name, game) DO NOTHING",  # the settings here are kept
            [(s["name"], s["game"], s["best_of"], s["league_points"]) for s in document.seasons])
    return report


def _write(db: Database, m: _Incoming) -> int:
    """Store one match exactly as the file has it (plain INSERTs: an archive has hundreds of thousands of rows),
    then rebuild its summaries without touching ``updated``."""
    match_id = store.insert_match(
        db, m.game.key, m.players, m.options, m.first_dealer, place=m.place, note=m.note, uid=m.uid, created=m.created,
    )
    db.execute(
        "UPDATE matches SET updated = ?, abandoned = ?, ended_by_hand = ? WHERE id = ?",
        [m.updated, int(m.abandoned), int(m.ended_by_hand), match_id],
    )
    for d in m.deals:
        cursor = db.execute(
            "INSERT INTO deals (match_id, number, dealer, input, void, version, last_action, created, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [match_id, d["number"], d["dealer"], _json(d["input"]), int(d["void"]), d["version"], d["last_action"],
             d["created"], d["updated"]],
        )
        deal_id = cursor.lastrowid
        db.conn.executemany(
            "INSERT INTO deal_revisions (deal_id, version, input, void, action, at, replaced_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (deal_id, r["version"], _json(r["input"]), int(r["void"]), r["action"], r["at"], r["replaced_at"])
                for r in d["revisions"]
            ],
        )
    db.conn.executemany(
        "INSERT INTO match_events (match_id, deal_number, action, at, detail, undone) VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, e["deal_number"], e["action"], e["at"], _json(e["detail"]), int(e["undone"])) for e in m.events],
    )
    matches.sync(db, match_id, touch=False)
    # A confirmation holds for the match as it stands (RULES.md 5.6): its version here, after the rebuild.
    version = db.execute("SELECT version FROM matches WHERE id = ?", [match_id]).fetchone()[0]
    db.conn.executemany(
        "INSERT INTO confirmations (match_id, player, version, at) VALUES (?, ?, ?, ?)",
        [(match_id, c["player"], version, c["at"]) for c in m.confirmations],
    )
    return match_id


def _write_event(db: Database, e: _IncomingEvent) -> int:
    """Store one event as the file has it, its tables on the matches of the same uid, and a new link for each of its
    physical tables (the file holds no token: the old links open nothing here; the director prints new cards)."""
    cursor = db.execute(
        "INSERT INTO events (name, date, game, options, rounds, round_length, seating, season, tariff, seed, "
        "created, uid, kind, avoid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [e.name, e.date, e.game.key, jsontext.dumps(e.options), e.rounds, e.round_length, e.seating, e.season,
         e.tariff, e.seed, e.created, e.uid, e.kind, jsontext.dumps(e.avoid)])
    event_id = int(cursor.lastrowid or 0)
    db.conn.executemany(
        "INSERT INTO event_players (event_id, position, name, joined_round, left_round) VALUES (?, ?, ?, ?, ?)",
        [(event_id, position, name, joined, left) for position, (name, joined, left) in enumerate(e.players)])
    for r in e.drawn:
        db.execute("INSERT INTO event_rounds (event_id, number, seed, byes, drawn) VALUES (?, ?, ?, ?, ?)",
                   [event_id, r["number"], r["seed"], jsontext.dumps(r["byes"]), r["drawn"]])
        for t in r["tables"]:
            match_id = db.execute("SELECT id FROM matches WHERE uid = ?", [t["match"]]).fetchone()[0]
            db.execute("INSERT INTO event_tables (event_id, round, number, match_id, ended_by_director) "
                       "VALUES (?, ?, ?, ?, ?)", [event_id, r["number"], t["number"], match_id, t["ended_by_director"]])
    latest = e.drawn[-1]["tables"] if e.drawn else []
    for t in latest:  # a link revoked in the round in play stays so (its director issues a new one)
        if t["revoked"]:
            db.execute("INSERT INTO event_links (token, event_id, number, created, revoked) VALUES (?, ?, ?, ?, ?)",
                       [secrets.token_urlsafe(18), event_id, t["number"], t["revoked"], t["revoked"]])
    tables = max([len(r["tables"]) for r in e.drawn] + [len(_present(e.players, len(e.drawn) + 1)) // e.game.seats])
    club.ensure_links(db, event_id, tables)
    return event_id


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# What a value must be, said for people.
_TEXT = "a piece of text"
_STAMP = "a date and time such as 2026-11-29T13:05:00+00:00"
_FLAG = "true or false"
_COUNT = f"a whole number from 1 to {MAX_NUMBER}"
_LIST = "a list"
_OBJECT = "an object"
_SEED = f"a whole number from 0 to {club.SEED_LIMIT - 1}"
_ROUNDS = f"a whole number from 1 to {club.MAX_ROUNDS}"


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_NUMBER


def _is_stamp(v: Any) -> bool:
    """A moment as Referee writes one: ISO 8601 with its offset from UTC, in a year every time zone can show (a
    page writes it in the reader's zone: year 1 at +14:00 is no date Python can hold)."""
    if not isinstance(v, str) or len(v) > 40:
        return False
    try:
        moment = datetime.fromisoformat(v)
    except ValueError:
        return False
    return moment.tzinfo is not None and 1 < moment.year < 9999


_KINDS: dict[str, Callable[[Any], bool]] = {
    _TEXT: lambda v: isinstance(v, str),
    _STAMP: _is_stamp,
    _FLAG: lambda v: isinstance(v, bool),
    _COUNT: _is_count,
    _LIST: lambda v: isinstance(v, list),
    _OBJECT: lambda v: isinstance(v, dict),
    _SEED: lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < club.SEED_LIMIT,
    _ROUNDS: lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= club.MAX_ROUNDS,
}


def _show(value: Any) -> str:
    shown = (
        json.dumps(value, ensure_ascii=False)
        if not isinstance(value, (dict, list))
        else ("an object" if isinstance(value, dict) else "a list")
    )
    return shown if len(shown) <= 40 else shown[:37] + "…"


class _TooMany(Exception):
    """MAX_PROBLEMS problems found: reading stops (a file wrong everywhere is not read to its end)."""

    def __init__(self, problems: list[Violation]):
        self.problems = problems


class _Problems(list):
    """The violations found so far (at most MAX_PROBLEMS: one more stops the reading with _TooMany), and a
    helper that reads one key of an object with its type."""

    def append(self, violation: Violation) -> None:
        if len(self) >= MAX_PROBLEMS:
            raise _TooMany(
                [
                    *self,
                    Violation(
                        "too_many_problems",
                        f"Reading stopped after {MAX_PROBLEMS} problems: fix these and import the file again.",
                        None,
                    ),
                ]
            )
        super().append(violation)

    def extend(self, violations) -> None:
        for violation in violations:
            self.append(violation)

    def need(
        self, obj: dict[str, Any], key: str, kind: str, code: str, label: str, where: str, nullable: bool = False
    ) -> Any:
        """``obj[key]`` if present and of ``kind``; otherwise a violation and None."""
        if key not in obj:
            self.append(Violation(code, f'{label} has no "{key}" (it must be {kind}).', f"{where}.{key}"))
            return None
        value = obj[key]
        if value is None and nullable:
            return None
        if not _KINDS[kind](value):
            self.append(
                Violation(
                    code,
                    f'{label}: "{key}" must be {kind}{" or null" if nullable else ""}, not {_show(value)}.',
                    f"{where}.{key}",
                )
            )
            return None
        return value


def _read_document(data: Any, max_deals: int = matches.DEFAULT_MAX_DEALS,
                   max_events: int = matches.DEFAULT_MAX_EVENTS) -> _Document:
    """Check a whole export document; raises InvalidImport with the problems found (_TooMany past MAX_PROBLEMS).
    What needs the database too (the matches an event's tables name) is ``_check_tables``'s."""
    if not isinstance(data, dict):
        raise InvalidImport(
            [Violation.of("bad_format", None, "This is not a Referee export: the file must hold a JSON object.")]
        )
    if data.get("format") != FORMAT:
        raise InvalidImport([Violation.of(
            "bad_format", "format", 'This is not a Referee export: "format" must be "{format}", not {value}.',
            format=FORMAT, value=_show(data.get("format")),
        )])
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise InvalidImport([Violation.of(
            "bad_format", "version",
            "This export is in format version {version}, but this Referee reads version {ours}: "
            "it was made by a different version of Referee.",
            version=_show(version), ours=VERSION,
        )])
    raw_matches = data.get("matches")
    if not isinstance(raw_matches, list):
        raise InvalidImport([Violation.of("bad_format", "matches", 'This export has no list of "matches".')])
    for key in ("events", "seasons") if version >= 2 else ():
        if not isinstance(data.get(key), list):
            raise InvalidImport(
                [Violation("bad_format", f'This export (version {version}) has no list of "{key}".', key)])
    problems = _Problems()
    incoming: list[_Incoming] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_matches):
        unreadable = _unreadable_values(raw, f"matches.{i}")
        if unreadable:  # text the database cannot take, numbers the rules cannot: not read any further
            problems.extend(unreadable)
            continue
        m = _read_match(raw, i, problems, max_deals, max_events, version)
        if m is None:
            continue
        if m.uid in seen:
            problems.append(Violation(
                "bad_match", f"Match {i + 1} has the same uid as match {seen[m.uid] + 1}: each match must appear once.",
                f"matches.{i}.uid",
            ))
        seen.setdefault(m.uid, i)
        incoming.append(m)
    document = _Document(incoming)
    if version >= 2:
        document = _Document(incoming, _read_events_of(data["events"], problems),
                             _read_seasons(data["seasons"], problems))
    if problems:
        raise InvalidImport(list(problems))
    return document


def _unreadable_values(value: Any, start: str = "matches") -> list[Violation]:
    """Text that is not valid Unicode, numbers that are not finite, values nested too deeply: things
    JSON lets through that the database or the rules cannot take. Iterative, so depth cannot crash it."""
    problems: list[Violation] = []
    stack: list[tuple[Any, str, int]] = [(value, start, 2 if start != "matches" else 1)]
    while stack and len(problems) < MAX_PROBLEMS:
        v, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            problems.append(
                Violation("bad_format", f"The value at {where} is nested more than {MAX_DEPTH} levels deep.", where)
            )
        elif isinstance(v, str):
            if not _encodable(v):
                problems.append(Violation("bad_format", f"The text at {where} is not valid Unicode.", where))
        elif isinstance(v, float):
            if not math.isfinite(v):
                problems.append(Violation("bad_format", f"The number at {where} is not a finite number.", where))
        elif isinstance(v, dict):
            for key, item in v.items():
                if not _encodable(key):
                    problems.append(Violation("bad_format", f"A name inside {where} is not valid Unicode.", where))
                    continue
                stack.append((item, f"{where}.{key}", depth + 1))
        elif isinstance(v, list):
            stack.extend((item, f"{where}.{n}", depth + 1) for n, item in enumerate(v))
    return problems


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# Options a game gained after exports were first written, with the value its matches were played with before
# (store migration 5 records the same on stored matches): a file that does not name them keeps that value.
OPTIONS_BEFORE: dict[str, dict[str, Any]] = {"spitzer": {"three_aces_partner": "first-other"}}


def _older_options(raw: dict[str, Any]) -> Any:
    """The options of an exported match, with what an older export leaves out filled in as it was played."""
    options, game = raw["options"], raw["game"]
    older = OPTIONS_BEFORE.get(game) if isinstance(game, str) else None
    return {**older, **options} if older and isinstance(options, dict) else options


def _read_setup(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> tuple[Any, Any, Any, Any]:
    """A match's game, players, options and first dealer, checked as a new match would be (Nones if not)."""
    game = players = options = first_dealer = None
    missing = [key for key in ("game", "players", "options", "first_dealer") if key not in raw]
    for key in missing:
        problems.append(Violation("bad_match", f'{label} has no "{key}".', f"{where}.{key}"))
    if not missing:
        if not isinstance(raw["first_dealer"], str):
            problems.append(Violation(
                "bad_match", f'{label}: "first_dealer" must be a player\'s name, not {_show(raw["first_dealer"])}.',
                f"{where}.first_dealer",
            ))
        else:
            try:
                game, players, options, first_dealer = matches.parse_new_match(
                    {key: raw[key] for key in ("game", "players", "first_dealer")} | {"options": _older_options(raw)}
                )
            except matches.InvalidMatch as exc:
                problems.extend(
                    Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}" if v.field else where)
                    for v in exc.violations
                )
    return game, players, options, first_dealer


def _read_events(values: dict[str, Any], label: str, where: str, problems: _Problems, players: list[str] | None
                 ) -> list[dict[str, Any]]:
    """A match's events; each must be about one of the match's deals."""
    events: list[dict[str, Any]] = []
    if values["events"] is not None:
        for k, raw_event in enumerate(values["events"]):
            event = _read_event(raw_event, f"{where}.events.{k}", f"{label}, event {k + 1}", problems, players)
            if event is None:
                continue
            # Undo goes back to the deal an event names: it must be one of this match's deals.
            if (
                values["deals"] is not None
                and event["deal_number"] is not None
                and event["deal_number"] > len(values["deals"])
            ):
                problems.append(Violation(
                    "bad_event",
                    f"{label}, event {k + 1} is about deal {event['deal_number']}, but the match has "
                    f"{len(values['deals'])} deal{'' if len(values['deals']) == 1 else 's'}.",
                    f"{where}.events.{k}.deal_number",
                ))
            events.append(event)
    return events


def _read_uid(raw: dict[str, Any], code: str, label: str, where: str, problems: _Problems) -> str | None:
    uid = problems.need(raw, "uid", _TEXT, code, label, where)
    if uid is not None and not (0 < len(uid) <= MAX_UID and uid.isprintable()):
        problems.append(
            Violation(code, f"{label}: the uid must be 1 to {MAX_UID} printable characters.", f"{where}.uid")
        )
        return None
    return uid


def _read_match(raw: Any, i: int, problems: _Problems, max_deals: int = matches.DEFAULT_MAX_DEALS,
                max_events: int = matches.DEFAULT_MAX_EVENTS, version: int = VERSION) -> _Incoming | None:
    where, label = f"matches.{i}", f"Match {i + 1}"
    if not isinstance(raw, dict):
        problems.append(Violation("bad_match", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    uid = _read_uid(raw, "bad_match", label, where, problems)
    values = {key: problems.need(raw, key, kind, "bad_match", label, where) for key, kind in (
        ("created", _STAMP), ("updated", _STAMP), ("place", _TEXT), ("note", _TEXT),
        ("abandoned", _FLAG), ("ended_by_hand", _FLAG), ("deals", _LIST), ("events", _LIST),
    )}

    # The game, the players and the options are checked as a new match would be.
    game, players, options, first_dealer = _read_setup(raw, label, where, problems)
    if game is not None and values["ended_by_hand"] and not game.can_end_by_hand(options):
        problems.append(Violation(
            "bad_match", f"{label} has a target, so it cannot have been ended by hand.", f"{where}.ended_by_hand",
        ))
    _cap_lists(values, label, where, problems, max_deals, max_events)
    deals = [deal for j, raw_deal in enumerate(values["deals"] or [])
             if (deal := _read_deal(raw_deal, j, f"{where}.deals.{j}", f"{label}, deal {j + 1}", problems,
                                    game, players, options)) is not None]
    events = _read_events(values, label, where, problems, players)
    # Version 1 knew no confirmations (nor club play): whatever such a file holds under the name is not read.
    confirmations = _read_confirmations(raw, label, where, problems, players) if version >= 2 else []

    if len(problems) > before:
        return None
    assert game is not None and players is not None and first_dealer is not None and uid is not None
    state = _texts_and_replay_fit(values, deals, label, where, problems, (game, players, options, first_dealer))
    if state is None:
        return None
    if confirmations and not (state.finished or values["abandoned"]):
        problems.append(Violation(
            "bad_confirmation", f"{label} is still being played: its result is confirmed once it has ended, so it "
            "can have no confirmations.", f"{where}.confirmations"))
        return None
    return _Incoming(
        uid=uid, game=game, players=players, options=game.options_to_json(options), first_dealer=first_dealer,
        created=values["created"], updated=values["updated"], place=values["place"], note=values["note"],
        abandoned=values["abandoned"], ended_by_hand=values["ended_by_hand"], deals=deals, events=events,
        confirmations=confirmations,
    )


def _read_confirmations(raw: dict[str, Any], label: str, where: str, problems: _Problems, players: list[str] | None
                        ) -> list[dict[str, str]]:
    """Who confirmed a match's result as it stands (RULES.md 5.6): each a player of the match, once, with when."""
    raw_list = problems.need(raw, "confirmations", _LIST, "bad_confirmation", label, where)
    found: list[dict[str, str]] = []
    for k, item in enumerate(raw_list or []):
        at_where, said = f"{where}.confirmations.{k}", f"{label}, confirmation {k + 1}"
        if not isinstance(item, dict):
            problems.append(Violation("bad_confirmation", f"{said} must be an object, not {_show(item)}.", at_where))
            continue
        player = problems.need(item, "player", _TEXT, "bad_confirmation", said, at_where)
        at = problems.need(item, "at", _STAMP, "bad_confirmation", said, at_where)
        if player is not None and players is not None and player not in players:
            problems.append(Violation("bad_confirmation", f"{said}: {player!r} is not a player of the match "
                                      f"({', '.join(players)}).", f"{at_where}.player"))
        elif player is not None and any(c["player"] == player for c in found):
            problems.append(Violation("bad_confirmation", f"{said}: {player!r} confirmed the result already.",
                                      f"{at_where}.player"))
        elif player is not None and at is not None:
            found.append({"player": player, "at": at})
    return found


def _cap_lists(values: dict[str, Any], label: str, where: str, problems: _Problems, max_deals: int,
               max_events: int) -> None:
    """A match with more deals or actions than one match may hold is refused, its lists not read any further."""
    if values["deals"] is not None and len(values["deals"]) > max_deals:
        v = matches.too_many_deals(len(values["deals"]), max_deals, label)
        problems.append(Violation(v.code, v.message, f"{where}.deals"))
        values["deals"] = values["events"] = None
    if values["events"] is not None and len(values["events"]) > max_events:
        problems.append(Violation(
            "too_many_events", f"{label} has {len(values['events']):,} actions in its activity; Referee keeps at most "
            f"{max_events:,} for one match (REFEREE_MAX_EVENTS). Nothing was imported.", f"{where}.events"))
        values["events"] = None


def _texts_and_replay_fit(values: dict[str, Any], deals: list[dict[str, Any]], label: str, where: str,
                          problems: _Problems, setup: tuple[BaseGame, list[str], Any, str]) -> MatchState | None:
    """The place and note are texts a match may keep, and the deals, each checked, replay together — as every page
    will replay them: where they leave the match (None, and a problem, when they do not)."""
    game, players, options, first_dealer = setup
    for text_problem in matches.text_problems(values["place"], values["note"]):
        problems.append(
            Violation(text_problem.code, f"{label}: {text_problem.message}", f"{where}.{text_problem.field}")
        )
        return None
    try:
        return replay(game, players, options, first_dealer,
                      [DealRecord(d["number"], d["dealer"], d["input"], d["void"]) for d in deals],
                      ended_by_hand=values["ended_by_hand"])
    except Exception:  # noqa: BLE001 - whatever the rules trip over, the file is refused rather than stored
        problems.append(
            Violation("bad_match", f"{label}: its deals cannot be replayed by the rules of {game.name}.", where)
        )
        return None


def _read_deal(
    raw: Any, j: int, where: str, label: str, problems: _Problems,
    game: BaseGame | None, players: list[str] | None, options: Any,
) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(Violation("bad_deal", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    deal = _read_deal_fields(raw, j, where, label, problems, players)
    revisions = _read_revisions(raw, deal["version"], where, label, problems)
    if len(problems) > before:
        return None
    # Every version goes through the rules like a new entry — a void one and earlier ones too: any of them
    # can be brought back into the totals (restore, undo), and every page shows them.
    if game is not None and players is not None:
        table = Table(tuple(players), deal["dealer"])
        _check_entry(game, table, options, deal["input"], label, f"{where}.input", problems)
        for k, rev in enumerate(revisions):
            _check_entry(game, table, options, rev["input"], f"{label}, earlier version {k + 1}",
                         f"{where}.revisions.{k}.input", problems)
    if len(problems) > before:
        return None
    return {**deal, "revisions": revisions}


def _read_deal_fields(raw: dict[str, Any], j: int, where: str, label: str, problems: _Problems,
                      players: list[str] | None) -> dict[str, Any]:
    """A deal's own fields, each of its kind (None where it is not: a problem says so)."""
    need = problems.need
    number = need(raw, "number", _COUNT, "bad_deal", label, where)
    if number is not None and number != j + 1:
        problems.append(Violation(
            "bad_deal", f"{label} is numbered {number}: deals must be numbered 1, 2, 3… in order.", f"{where}.number",
        ))
    dealer = need(raw, "dealer", _TEXT, "bad_deal", label, where)
    if dealer is not None and players is not None and dealer not in players:
        problems.append(
            Violation(
                "bad_deal",
                f"{label}: the dealer {dealer!r} is not a player of the match ({', '.join(players)}).",
                f"{where}.dealer",
            )
        )
    if "input" not in raw:
        problems.append(Violation("bad_deal", f'{label} has no "input" (what was entered).', f"{where}.input"))
    void = need(raw, "void", _FLAG, "bad_deal", label, where)
    version = need(raw, "version", _COUNT, "bad_deal", label, where)
    last_action = need(raw, "last_action", _TEXT, "bad_deal", label, where)
    if last_action is not None and last_action not in DEAL_ACTIONS:
        problems.append(
            Violation(
                "bad_deal",
                f'{label}: "last_action" must be {", ".join(DEAL_ACTIONS)}, not {_show(last_action)}.',
                f"{where}.last_action",
            )
        )
    created = need(raw, "created", _STAMP, "bad_deal", label, where)
    updated = need(raw, "updated", _STAMP, "bad_deal", label, where)
    return {"number": number, "dealer": dealer, "input": raw.get("input"), "void": void, "version": version,
            "last_action": last_action, "created": created, "updated": updated}


def _read_revisions(raw: dict[str, Any], version: int | None, where: str, label: str, problems: _Problems
                    ) -> list[dict[str, Any]]:
    """A deal's earlier versions: as many as its version says, each read."""
    raw_revisions = problems.need(raw, "revisions", _LIST, "bad_deal", label, where)
    revisions: list[dict[str, Any]] = []
    if raw_revisions is None:
        return revisions
    if version is not None and len(raw_revisions) != version - 1:
        problems.append(Violation(
            "bad_deal",
            f"{label} is at version {version}, so it must keep {version - 1} earlier "
            f"version{'' if version == 2 else 's'}, not {len(raw_revisions)}.",
            f"{where}.revisions",
        ))
    for k, raw_rev in enumerate(raw_revisions):
        rev = _read_revision(raw_rev, k, f"{where}.revisions.{k}", f"{label}, earlier version {k + 1}", problems)
        if rev is not None:
            revisions.append(rev)
    return revisions


def _check_entry(
    game: BaseGame, table: Table, options: Any, entry: Any, label: str, where: str, problems: _Problems
) -> None:
    try:
        found = game.validate(entry, table, options)
    except Exception:  # noqa: BLE001 - the rules must not trip over any JSON, but a file is refused rather than stored
        found = [Violation("bad_deal", "the rules cannot read this entry.", None)]
    for v in found:
        problems.append(Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}" if v.field else where))


def _read_revision(raw: Any, k: int, where: str, label: str, problems: _Problems) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        problems.append(Violation("bad_deal", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    version = problems.need(raw, "version", _COUNT, "bad_deal", label, where)
    if version is not None and version != k + 1:
        problems.append(
            Violation(
                "bad_deal",
                f"{label} is numbered version {version}: earlier versions must run 1, 2, 3… in order.",
                f"{where}.version",
            )
        )
    if "input" not in raw:
        problems.append(Violation("bad_deal", f'{label} has no "input" (what was entered).', f"{where}.input"))
    void = problems.need(raw, "void", _FLAG, "bad_deal", label, where)
    action = problems.need(raw, "action", _TEXT, "bad_deal", label, where)
    if action is not None and action not in DEAL_ACTIONS:
        problems.append(Violation(
            "bad_deal", f'{label}: "action" must be {", ".join(DEAL_ACTIONS)}, not {_show(action)}.', f"{where}.action",
        ))
    at = problems.need(raw, "at", _STAMP, "bad_deal", label, where)
    replaced_at = problems.need(raw, "replaced_at", _STAMP, "bad_deal", label, where)
    if len(problems) > before:
        return None
    return {
        "version": version,
        "input": raw["input"],
        "void": void,
        "action": action,
        "at": at,
        "replaced_at": replaced_at,
    }


_EVENT_ACTIONS_SAID = ", ".join(matches.EVENT_ACTIONS)


def _read_event(raw: Any, where: str, label: str, problems: _Problems, players: list[str] | None
                ) -> dict[str, Any] | None:
    """One action of a match's log, every field of the kind Referee writes: its ``action`` one Referee logs, its
    ``deal_number`` there exactly when the action is about a deal, its ``detail`` an object of the keys that action
    keeps (``matches.EVENT_DETAIL``), each of its kind — so every page and answer can read it back."""
    if not isinstance(raw, dict):
        problems.append(Violation("bad_event", f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    deal_number = problems.need(raw, "deal_number", _COUNT, "bad_event", label, where, nullable=True)
    action = problems.need(raw, "action", _TEXT, "bad_event", label, where)
    if action is not None and action not in matches.EVENT_ACTIONS:
        problems.append(Violation(
            "bad_event", f'{label}: "action" must be one of {_EVENT_ACTIONS_SAID}, not {_show(action)}.',
            f"{where}.action"))
        action = None
    at = problems.need(raw, "at", _STAMP, "bad_event", label, where)
    undone = problems.need(raw, "undone", _FLAG, "bad_event", label, where)
    number_read = "deal_number" in raw and (raw["deal_number"] is None or deal_number is not None)
    if action is not None and number_read:
        if action in matches.DEAL_EVENTS and deal_number is None:
            problems.append(Violation(
                "bad_event", f'{label} is a deal {action}: its "deal_number" must name the deal, not null.',
                f"{where}.deal_number"))
        elif action in ("ended", "abandoned", "resumed") and deal_number is not None:
            problems.append(Violation(
                "bad_event", f'{label}: the match {action} is about no deal: its "deal_number" must be null.',
                f"{where}.deal_number"))
    if "detail" not in raw:
        problems.append(Violation("bad_event", f'{label} has no "detail" (it must be {_OBJECT}).', f"{where}.detail"))
    elif action is not None:
        for key, wrong in matches.detail_problems(action, raw["detail"], players):
            if key is None:
                problems.append(Violation(
                    "bad_event", f'{label}: "detail" must be {_OBJECT}, not {_show(raw["detail"])}.',
                    f"{where}.detail"))
            else:
                value = raw["detail"][key]
                shown = f", not {_show(value)}" if wrong.startswith("must") else ""
                said = key if len(key) <= 40 else key[:37] + "…"
                problems.append(
                    Violation("bad_event", f'{label}: "detail.{said}" {wrong}{shown}.', f"{where}.detail.{key}"))
    if len(problems) > before:
        return None
    return {"deal_number": deal_number, "action": action, "at": at, "detail": raw["detail"], "undone": undone}


# ---- club play: events and seasons (version 2) ---------------------------------------------------------------------
#
# An event is read on its own here; the matches its tables name are found once the whole file is read, in the file
# or in the database (``_check_tables``, inside the import's transaction, before anything is written).

_CLUB = "bad_club_event"


def _read_events_of(raw_events: list[Any], problems: _Problems) -> list[_IncomingEvent]:
    """The file's events, each checked; one uid twice, or one match at two tables, is refused."""
    events: list[_IncomingEvent] = []
    seen: dict[str, int] = {}
    tables_of: dict[str, str] = {}  # match uid → the table that names it first
    for i, raw in enumerate(raw_events):
        unreadable = _unreadable_values(raw, f"events.{i}")
        if unreadable:
            problems.extend(unreadable)
            continue
        event = _read_club_event(raw, i, problems)
        if event is None:
            continue
        if event.uid in seen:
            problems.append(Violation(
                _CLUB, f"Event {i + 1} has the same uid as event {seen[event.uid] + 1}: each event must appear once.",
                f"events.{i}.uid"))
        seen.setdefault(event.uid, i)
        for r in event.drawn:
            for t in r["tables"]:
                here = f"event {i + 1}, round {r['number']}, table {t['number']}"
                if t["match"] in tables_of:
                    problems.append(Violation(
                        _CLUB, f"Event {i + 1}, round {r['number']}, table {t['number']}: its match {t['match']} is "
                        f"already {tables_of[t['match']]}: a match is one table.",
                        f"events.{i}.drawn.{r['number'] - 1}.tables.{t['number'] - 1}.match"))
                tables_of.setdefault(t["match"], here)
        events.append(event)
    return events


def _read_club_event(raw: Any, i: int, problems: _Problems) -> _IncomingEvent | None:
    """One event's fields, each of its kind and as ``POST /api/events`` would take it (RULES.md 5.1)."""
    where, label = f"events.{i}", f"Event {i + 1}"
    if not isinstance(raw, dict):
        problems.append(Violation(_CLUB, f"{label} must be an object, not {_show(raw)}.", where))
        return None
    before = len(problems)
    need = problems.need
    uid = _read_uid(raw, _CLUB, label, where, problems)
    values = {key: need(raw, key, kind, _CLUB, label, where) for key, kind in (
        ("options", _OBJECT), ("rounds", _ROUNDS), ("round", _TEXT), ("seating", _TEXT), ("seed", _SEED),
        ("created", _STAMP), ("players", _LIST), ("drawn", _LIST),
    )}
    name = _club_text(raw, "name", 120, label, where, problems)
    date = _club_date(raw, label, where, problems)
    season = _club_text(raw, "season", 80, label, where, problems, nullable=True)
    game = _club_game(raw, label, where, problems)
    if values["seating"] is not None and values["seating"] not in ("standings", "random"):
        problems.append(Violation("bad_seating", f'{label}: "seating" must be standings or random, not '
                                  f'{_show(values["seating"])}.', f"{where}.seating"))
    options = _club_options(raw, values, game, label, where, problems)
    players = _club_players(values, game, label, where, problems)
    kind, avoid = _club_kind_and_avoid(raw, players, label, where, problems)
    if len(problems) > before:
        return None
    drawn = _club_rounds(values, game, players, label, where, problems)
    if len(problems) > before or drawn is None:
        return None
    assert uid is not None and name is not None and date is not None and game is not None and options is not None
    return _IncomingEvent(
        index=i, uid=uid, name=name, date=date, game=game, options=game.options_to_json(options),
        rounds=values["rounds"], round_length=values["round"], seating=values["seating"], season=season,
        tariff=None if options.tariff is None else str(options.tariff), seed=values["seed"],
        created=values["created"], players=players, drawn=drawn, kind=kind, avoid=avoid)


def _club_kind_and_avoid(raw: dict[str, Any], players: list[tuple[str, int, int | None]], label: str, where: str,
                         problems: _Problems) -> tuple[str, list[list[str]]]:
    """What the event is called and its pairs kept apart, as ``POST /api/events`` takes them; a file written before
    they existed has neither (a club evening, nobody kept apart)."""
    found: list[Violation] = []
    kind = club.read_kind(raw.get("kind", "club_evening"), found)
    avoid = club.read_avoid(raw.get("avoid", []), [name for name, _joined, _left in players], found)
    for v in found:
        problems.append(Violation(_CLUB, f"{label}: {v.message}", f"{where}.{v.field}"))
    return kind, avoid


def _club_text(raw: dict[str, Any], key: str, limit: int, label: str, where: str, problems: _Problems,
               nullable: bool = False) -> str | None:
    """A name, a date, a season: printable text of at most ``limit`` characters, not blank, as an event keeps it."""
    value = problems.need(raw, key, _TEXT, _CLUB, label, where, nullable=nullable)
    if value is None:
        return None
    if not (value.strip() and len(value) <= limit and matches.printable(value)):
        problems.append(Violation(_CLUB, f'{label}: "{key}" must be text of at most {limit} characters, not '
                                  f'{_show(value)}.', f"{where}.{key}"))
        return None
    return value.strip()


def _club_date(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> str | None:
    """The event's date as the API takes it (``club.read_date``: a day of the calendar, 2026-12-03)."""
    value = problems.need(raw, "date", _TEXT, _CLUB, label, where)
    if value is None:
        return None
    found: list[Violation] = []
    date = club.read_date(value, found)
    if found:
        problems.append(Violation("bad_date", f'{label}: "date" must be a day of the calendar written like '
                                  f"2026-12-03, not {_show(value)}.", f"{where}.date"))
        return None
    return date


def _club_game(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> BaseGame | None:
    key = problems.need(raw, "game", _TEXT, _CLUB, label, where)
    if key is None:
        return None
    try:
        return games.find_game(key)
    except UnknownGame:
        known = ", ".join(g.key for g in games.GAMES)
        problems.append(Violation("unknown_game", f"{label}: Referee does not know the game {key!r} (games: {known}).",
                                  f"{where}.game"))
        return None


def _club_options(raw: dict[str, Any], values: dict[str, Any], game: BaseGame | None, label: str, where: str,
                  problems: _Problems) -> Any:
    """The tables' options, read as a game's options are; ``round`` (``match`` or ``deals:N``) says their ``deals``,
    and ``tariff`` is theirs (RULES.md 5.4, 5.7)."""
    length, options = values["round"], values["options"]
    if game is None or length is None or options is None:
        return None
    found = club.ROUND_LENGTH.fullmatch(length)  # as the API reads it: "deals:2\n", "deals:02" are not lengths
    deals = int(found[1]) if found else None
    if length != "match" and (deals is None or not game.seats <= deals <= 400 or deals % game.seats):
        problems.append(Violation("bad_round", f'{label}: "round" must be match or deals:N, N a multiple of the '
                                  f"table's {game.seats} players, not {_show(length)}.", f"{where}.round"))
        return None
    try:
        parsed = game.parse_options(options)
    except InvalidOptions as exc:
        problems.extend(Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}" if v.field else where)
                        for v in exc.violations)
        return None
    if getattr(parsed, "deals", None) != deals:
        problems.append(Violation(_CLUB, f'{label}: its options\' "deals" must be what "round" says ({length}).',
                                  f"{where}.options.deals"))
    tariff = problems.need(raw, "tariff", _TEXT, _CLUB, label, where, nullable=True)
    if tariff is not None:
        try:
            parse_tariff(tariff)
        except BadTariff:
            problems.append(Violation("bad_tariff", f"{label}: the tariff is money per point and a currency, e.g. "
                                      f"'0.05 EUR', not {_show(tariff)}.", f"{where}.tariff"))
            return None
    if "tariff" in raw and tariff != (None if parsed.tariff is None else str(parsed.tariff)):
        problems.append(Violation("bad_tariff", f'{label}: "tariff" must be its options\' tariff.', f"{where}.tariff"))
    return parsed


def _club_players(values: dict[str, Any], game: BaseGame | None, label: str, where: str, problems: _Problems
                  ) -> list[tuple[str, int, int | None]]:
    """The event's players in the order they joined: each a name (as a match's), the round they joined for and the
    round they left from (null: still playing)."""
    raw_players, rounds = values["players"], values["rounds"]
    if raw_players is None:
        return []
    if len(raw_players) > club.MAX_EVENT_PLAYERS:
        problems.append(Violation(_CLUB, f"{label} has {len(raw_players)} players; an event has at most "
                                  f"{club.MAX_EVENT_PLAYERS}.", f"{where}.players"))
        return []
    players: list[tuple[str, int, int | None]] = []
    for k, item in enumerate(raw_players):
        at, said = f"{where}.players.{k}", f"{label}, player {k + 1}"
        if not isinstance(item, dict):
            problems.append(Violation(_CLUB, f"{said} must be an object, not {_show(item)}.", at))
            continue
        name = problems.need(item, "name", _TEXT, _CLUB, said, at)
        joined = problems.need(item, "joined_round", _COUNT, _CLUB, said, at)
        left = problems.need(item, "left_round", _COUNT, _CLUB, said, at, nullable=True)
        if rounds is not None and joined is not None and (joined > rounds or (left is not None and not
                                                                               joined <= left <= rounds + 1)):
            leaves = "" if left is None else f" and leaves from round {left}"
            problems.append(Violation(_CLUB, f"{said} joins for round {joined}{leaves}: the event has {rounds} "
                                      f"round{'' if rounds == 1 else 's'}.", at))
        elif name is not None and joined is not None:
            players.append((matches.clean_name(name), joined, left))
    names = [name for name, _joined, _left in players]
    if len(players) == len(raw_players):
        problems.extend(Violation(v.code, f"{label}: {v.message}", f"{where}.{v.field}.name" if v.field else where)
                        for v in name_problems(names) + duplicate_names(names))
    if game is not None and len(raw_players) < game.seats:
        problems.append(Violation("too_few_players", f"{label}: {len(raw_players)} players do not fill one table of "
                                  f"{game.seats}.", f"{where}.players"))
    return players


def _club_rounds(values: dict[str, Any], game: BaseGame | None, players: list[tuple[str, int, int | None]],
                 label: str, where: str, problems: _Problems) -> list[dict[str, Any]] | None:
    """The rounds drawn, numbered 1, 2, 3…, at most the event's rounds: each with its seed, when it was drawn, who
    sat out (players of the event then) and its tables, numbered 1, 2, 3…, each naming its match by uid."""
    raw_rounds, rounds = values["drawn"], values["rounds"]
    assert game is not None and raw_rounds is not None and rounds is not None
    if len(raw_rounds) > rounds:
        problems.append(Violation(_CLUB, f"{label} has {rounds} round{'' if rounds == 1 else 's'}, but "
                                  f"{len(raw_rounds)} are drawn.", f"{where}.drawn"))
        return None
    drawn: list[dict[str, Any]] = []
    for k, raw in enumerate(raw_rounds):
        at, said = f"{where}.drawn.{k}", f"{label}, round {k + 1}"
        if not isinstance(raw, dict):
            problems.append(Violation(_CLUB, f"{said} must be an object, not {_show(raw)}.", at))
            continue
        before = len(problems)
        number = problems.need(raw, "round", _COUNT, _CLUB, said, at)
        if number is not None and number != k + 1:
            problems.append(Violation(_CLUB, f"{said} is numbered {number}: rounds must be numbered 1, 2, 3… in "
                                      "order.", f"{at}.round"))
        seed = problems.need(raw, "seed", _SEED, _CLUB, said, at)
        stamp = problems.need(raw, "drawn", _STAMP, _CLUB, said, at)
        byes = _club_byes(raw, k + 1, players, said, at, problems)
        tables = _club_tables(raw, len(players) // game.seats, said, at, problems)
        if len(problems) == before:
            drawn.append({"number": k + 1, "seed": seed, "drawn": stamp, "byes": byes, "tables": tables})
    return drawn


def _present(players: list[tuple[str, int, int | None]], number: int) -> list[str]:
    """Who is drawn for round ``number``: joined by then and not left (as ``club.Event.present``)."""
    return [name for name, joined, left in players if joined <= number and (left is None or left > number)]


def _club_byes(raw: dict[str, Any], number: int, players: list[tuple[str, int, int | None]], label: str, where: str,
               problems: _Problems) -> list[str]:
    byes = problems.need(raw, "byes", _LIST, _CLUB, label, where) or []
    present = _present(players, number)
    for k, name in enumerate(byes):
        if name not in present or byes.index(name) != k:
            problems.append(Violation(_CLUB, f"{label}: {_show(name)} sits out, but is not a player of the event "
                                      f"present in round {number} (or sits out twice).", f"{where}.byes.{k}"))
    return byes


def _club_tables(raw: dict[str, Any], most: int, label: str, where: str, problems: _Problems) -> list[dict[str, Any]]:
    raw_tables = problems.need(raw, "tables", _LIST, _CLUB, label, where)
    if raw_tables is None:
        return []
    if not 1 <= len(raw_tables) <= max(most, 1):
        problems.append(Violation(_CLUB, f"{label} has {len(raw_tables)} tables: its players fill 1 to "
                                  f"{max(most, 1)}.", f"{where}.tables"))
        return []
    tables: list[dict[str, Any]] = []
    for k, item in enumerate(raw_tables):
        at, said = f"{where}.tables.{k}", f"{label}, table {k + 1}"
        if not isinstance(item, dict):
            problems.append(Violation(_CLUB, f"{said} must be an object, not {_show(item)}.", at))
            continue
        number = problems.need(item, "table", _COUNT, _CLUB, said, at)
        if number is not None and number != k + 1:
            problems.append(Violation(_CLUB, f"{said} is numbered {number}: tables must be numbered 1, 2, 3… in "
                                      "order.", f"{at}.table"))
        match = problems.need(item, "match", _TEXT, _CLUB, said, at)
        if match is not None and not (0 < len(match) <= MAX_UID and match.isprintable()):
            problems.append(Violation(_CLUB, f'{said}: "match" must be a match\'s uid (1 to {MAX_UID} printable '
                                      "characters).", f"{at}.match"))
        ended = problems.need(item, "ended_by_director", _STAMP, _CLUB, said, at, nullable=True)
        revoked = problems.need(item, "revoked", _STAMP, _CLUB, said, at, nullable=True)
        tables.append({"number": k + 1, "match": match, "ended_by_director": ended, "revoked": revoked})
    return tables


def _check_tables(db: Database, events: list[_IncomingEvent], in_file: list[_Incoming]) -> None:
    """Each table of the events to import is a match of the event's game, in the file or here already (and then no
    other event's table), its players the event's, present that round, nobody seated twice in one round. Raises
    InvalidImport with every problem (reading stops after MAX_PROBLEMS)."""
    problems = _Problems()
    by_uid = {m.uid: m for m in in_file}
    try:
        for e in events:
            for r in e.drawn:
                _check_round(db, e, r, by_uid, problems)
    except _TooMany as exc:
        raise InvalidImport(exc.problems) from None
    if problems:
        raise InvalidImport(list(problems))


def _check_round(db: Database, e: _IncomingEvent, r: dict[str, Any], by_uid: dict[str, _Incoming],
                 problems: _Problems) -> None:
    present = _present(e.players, r["number"])
    seated = {name: "sits out" for name in r["byes"]}
    for t in r["tables"]:
        label = f"Event {e.index + 1}, round {r['number']}, table {t['number']}"
        where = f"events.{e.index}.drawn.{r['number'] - 1}.tables.{t['number'] - 1}.match"
        row = db.execute("SELECT id, game, players FROM matches WHERE uid = ?", [t["match"]]).fetchone()
        if row is not None:
            game, players = row[1], list(jsontext.parse(row[2]))
            other = db.execute("SELECT event_id FROM event_tables WHERE match_id = ?", [row[0]]).fetchone()
            if other is not None:
                problems.append(Violation(_CLUB, f"{label}: its match {t['match']} is a table of event {other[0]} "
                                          "here already.", where))
        elif t["match"] in by_uid:
            game, players = by_uid[t["match"]].game.key, by_uid[t["match"]].players
        else:
            problems.append(Violation(_CLUB, f"{label}: its match {t['match']} is neither in this file nor here.",
                                      where))
            continue
        if game != e.game.key:
            problems.append(Violation(_CLUB, f"{label}: its match is a game of {game}, the event's game is "
                                      f"{e.game.key}.", where))
        for player in players:
            if player not in present:
                problems.append(Violation(_CLUB, f"{label}: {player!r} plays at its match but is not a player of the "
                                          f"event present in round {r['number']}.", where))
            elif player in seated:
                problems.append(Violation(_CLUB, f"{label}: {player!r} plays at its match but {seated[player]} in "
                                          f"round {r['number']} already.", where))
            seated[player] = f"is at table {t['number']}"


def _read_seasons(raw_seasons: list[Any], problems: _Problems) -> list[dict[str, Any]]:
    """Each season's settings for one game (RULES.md 5.8): ``best_of`` null (every event) or a whole number,
    ``league_points`` score or placing; a name and game once."""
    seasons: list[dict[str, Any]] = []
    seen: dict[tuple[bytes, str], int] = {}
    for i, raw in enumerate(raw_seasons):
        where, label = f"seasons.{i}", f"Season {i + 1}"
        unreadable = _unreadable_values(raw, where)
        if unreadable:
            problems.extend(unreadable)
            continue
        if not isinstance(raw, dict):
            problems.append(Violation("bad_season", f"{label} must be an object, not {_show(raw)}.", where))
            continue
        before = len(problems)
        name = problems.need(raw, "name", _TEXT, "bad_season", label, where)
        if name is not None and not (name.strip() == name and 0 < len(name) <= 80 and matches.printable(name)):
            problems.append(Violation("bad_season", f'{label}: "name" must be text of at most 80 characters, not '
                                      f"{_show(name)}.", f"{where}.name"))
        game = _club_game(raw, label, where, problems)
        best_of = _season_best_of(raw, label, where, problems)
        league_points = problems.need(raw, "league_points", _TEXT, "bad_season", label, where)
        if league_points is not None and league_points not in LEAGUE_POINTS:
            problems.append(Violation("bad_season", f'{label}: "league_points" must be score or placing, not '
                                      f"{_show(league_points)}.", f"{where}.league_points"))
        if len(problems) > before:
            continue
        assert name is not None and game is not None
        key = (name.encode().lower(), game.key)  # as SQLite's NOCASE: ASCII letters alone
        if key in seen:
            problems.append(Violation("bad_season", f"{label} has the name and game of season {seen[key] + 1}: each "
                                      "season's settings must appear once.", f"{where}.name"))
        seen.setdefault(key, i)
        seasons.append({"name": name, "game": game.key, "best_of": best_of, "league_points": league_points})
    return seasons


def _season_best_of(raw: dict[str, Any], label: str, where: str, problems: _Problems) -> int | None:
    if "best_of" not in raw:
        problems.append(Violation("bad_season", f'{label} has no "best_of" (a whole number, or null: every event).',
                                  f"{where}.best_of"))
        return None
    value = raw["best_of"]
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_BEST_OF):
        return value
    problems.append(Violation("bad_season", f'{label}: "best_of" must be a whole number from 1 to {MAX_BEST_OF} or '
                              f"null, not {_show(value)}.", f"{where}.best_of"))
    return None


# ---- CSV ----------------------------------------------------------------------------------

CSV_HEADER: tuple[str, ...] = (
    "match_uid", "match_id", "game", "created", "deal", "dealer", "status", "summary",
    *(f"{column}_{seat}" for seat in range(1, CSV_SEATS + 1) for column in ("player", "score", "total")),
)


def _cell(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (=, +, -, @ first) is written with a leading '."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def deals_csv(db: Database, match_ids: list[int] | None = None) -> str:
    """``deals_csv_text`` at once."""
    return "".join(deals_csv_text(db, match_ids))


def deals_csv_text(db: Database, match_ids: list[int] | None = None) -> Iterator[str]:
    """One row per deal (``None``: every match), as text a piece at a time (``started``: a match that is not there
    raises ``matches.NotFound`` at once). ``created`` is when the deal was first entered; ``score_n`` is what the
    deal counts for seat n (blank for a void deal or one after the end), ``total_n`` the running total after it.
    Columns of seats a game does not have stay blank."""
    return started(_csv_pieces(db, match_ids))


def _csv_pieces(db: Database, match_ids: list[int] | None) -> Iterator[str]:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    whole_archive = match_ids is None
    if match_ids is None:
        match_ids = [row[0] for row in db.execute("SELECT id FROM matches ORDER BY id").fetchall()]
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


# ---- backup -------------------------------------------------------------------------------

class DamagedDatabase(sqlite3.DatabaseError):
    """The source of a backup fails SQLite's integrity check: nothing was written."""


@dataclass(frozen=True)
class BackupReport:
    source: Path | str  # a file, or a PostgreSQL database's URL (without its password)
    target: Path
    size: int  # bytes
    matches: int
    deals: int


def backup(source_path: str | Path, target_path: str | Path, force: bool = False) -> BackupReport:
    """A consistent copy of a live database (SQLite's online backup API: one step, so one snapshot,
    while other connections keep writing). The copy is written beside the target and moved into place,
    so a failure leaves no half-written file. The copy must pass ``PRAGMA integrity_check``, or nothing is
    written (DamagedDatabase). Raises FileExistsError unless ``force``; FileNotFoundError.

    A PostgreSQL database is backed up to the same kind of file (``_backup_postgres``): one snapshot of it, which
    Referee can run on directly (REFEREE_DATABASE=the file) or import elsewhere."""
    if pgstore.is_postgres(source_path):
        return _backup_postgres(str(source_path), Path(target_path), force)
    source, target = Path(source_path), Path(target_path)
    if not source.is_file():
        raise FileNotFoundError(f"There is no database at {source}.")
    if target.is_dir():
        raise IsADirectoryError(f"{target} is a folder: give the path of the file to write.")
    if target.exists() and not force:
        raise FileExistsError(f"{target} already exists; use --force to overwrite it.")
    if target.exists() and target.resolve() == source.resolve():
        raise FileExistsError(f"{target} is the database itself.")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"There is no folder {target.parent}.")
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temp = Path(temp_name)
    try:
        src = sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True, timeout=15)
        try:
            dst = sqlite3.connect(temp)
            try:
                try:
                    src.backup(dst)  # pages=-1: everything in one step
                    dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                    rows = dst.execute("PRAGMA integrity_check").fetchall()
                except sqlite3.DatabaseError as exc:
                    rows = [(str(exc),)]
                if rows != [("ok",)]:
                    detail = "; ".join(str(r[0]) for r in rows[:3]) + (
                        f" (and {len(rows) - 3} more)" if len(rows) > 3 else ""
                    )
                    raise DamagedDatabase(
                        f"The database {source} is damaged (SQLite's integrity check says: {detail}), so no backup was "
                        f"written to {target}: keep your earlier backups, they are the ones to restore from."
                    )
                counts = _counts(dst)
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return BackupReport(source, target, target.stat().st_size, *counts)


def _backup_postgres(url: str, target: Path, force: bool) -> BackupReport:
    """A PostgreSQL database copied into a new SQLite file of the same schema, from one snapshot (a repeatable-read,
    read-only transaction), written beside the target and moved into place once whole."""
    if target.is_dir():
        raise IsADirectoryError(f"{target} is a folder: give the path of the file to write.")
    if target.exists() and not force:
        raise FileExistsError(f"{target} already exists; use --force to overwrite it.")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"There is no folder {target.parent}.")
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temp = Path(temp_name)
    temp.unlink()
    try:
        store.connect(temp).conn.close()  # the schema, migrated as a new database is
        store.close_write_lock(temp)
        src = pgstore.PgDatabase(url)
        dst = sqlite3.connect(temp)
        try:
            src.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            tables = [row[0] for row in dst.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for table in tables:
                columns = [row[1] for row in dst.execute(f"PRAGMA table_info({table})")]
                names = ", ".join(columns)
                cursor = src.execute(f"SELECT {names} FROM {table}")
                while rows := cursor.fetchmany(5000):
                    dst.executemany(f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})", rows)
            src.rollback()
            dst.commit()
            dst.execute("PRAGMA journal_mode = DELETE")
            rows = dst.execute("PRAGMA integrity_check").fetchall()
            if rows != [("ok",)]:
                raise DamagedDatabase(f"The backup of {pgstore.shown(url)} did not pass SQLite's check ({rows[:3]}): "
                                      f"nothing was written to {target}.")
            counts = _counts(dst)
        finally:
            dst.close()
            src.close()
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return BackupReport(pgstore.shown(url), target, target.stat().st_size, *counts)


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    try:
        return (conn.execute("SELECT count(*) FROM matches").fetchone()[0],
                conn.execute("SELECT count(*) FROM deals").fetchone()[0])
    except sqlite3.OperationalError:  # a database without Referee's tables yet
        return 0, 0


def register_cli(app: Flask) -> None:
    """Adds ``flask --app referee backup PATH [--force]``."""

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(path_type=Path))
    @click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
    def backup_command(path: Path, force: bool) -> None:
        """Copy the database (consistently, while the app runs) to PATH."""
        try:
            report = backup(app.config["DATABASE"], path, force=force)
        except (OSError, sqlite3.Error) as exc:
            raise click.ClickException(str(exc)) from None
        except Exception as exc:  # psycopg's errors: the PostgreSQL database cannot be read
            problem = pgstore.start_problem(str(app.config["DATABASE"]), exc)
            if problem is None:
                raise
            raise click.ClickException(problem) from None
        click.echo(
            f"Backed up {report.source} to {report.target}: {report.matches} matches, {report.deals} deals, "
            f"{report.size:,} bytes."
        )
