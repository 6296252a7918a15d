"""An export document taken in (``import_data``): checked whole (``validation``), its events' tables found in the
file or here, then written in one ``BEGIN IMMEDIATE`` transaction — all of it or nothing. A match or an event whose
uid is already here is skipped; a season's settings already here are kept."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .. import jsontext, matches, store
from ..games.base import Violation
from ..matches import spaces
from ..matches.events import load_event
from ..matches.table_links import ensure_links
from ..store.protocol import ArchiveStore
from .base import InvalidImport
from .club_validation import _CLUB, _IncomingEvent, _present
from .problems import _Problems, _TooMany
from .validation import _Incoming, _read_document


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


def import_data(db: ArchiveStore, data: Any, max_deals: int = matches.DEFAULT_MAX_DEALS,
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
    with db.immediate():
        new_events = [e for e in document.events if not db.has_event_uid(e.uid)]
        new_uids = {e.uid for e in new_events}
        _check_tables(db, new_events, document.matches)  # raises InvalidImport: nothing is written yet
        for m in document.matches:
            if db.has_match_uid(m.uid):
                report.skipped.append(m.uid)
                continue
            report.imported.append(_write(db, m))
        for e in document.events:
            if e.uid not in new_uids:
                report.events_skipped.append(e.uid)
                continue
            report.events_imported.append(_write_event(db, e))
        db.add_missing_seasons(  # the settings here are kept
            [(s["name"], s["game"], s["best_of"], s["league_points"]) for s in document.seasons])
    return report


def _write(db: ArchiveStore, m: _Incoming) -> int:
    """Store one match exactly as the file has it (plain INSERTs: an archive has hundreds of thousands of rows),
    then rebuild its summaries without touching ``updated``."""
    try:
        match_id = db.insert_match(m.game.key, m.players, m.options, m.first_dealer, place=m.place, note=m.note,
                                   uid=m.uid, created=m.created)
    except store.SpaceFull as exc:  # the whole import is rolled back: nothing of it stored
        raise InvalidImport(spaces.full(exc).violations) from None
    db.set_imported_match(match_id, m.updated, m.abandoned, m.ended_by_hand)
    for d in m.deals:
        deal_id = db.import_deal(match_id, d["number"], d["dealer"], _json(d["input"]), d["void"], d["version"],
                                 d["last_action"], d["created"], d["updated"])
        db.import_revisions([
            (deal_id, r["version"], _json(r["input"]), int(r["void"]), r["action"], r["at"], r["replaced_at"])
            for r in d["revisions"]
        ])
    db.import_actions(
        [(match_id, e["deal_number"], e["action"], e["at"], _json(e["detail"]), int(e["undone"])) for e in m.events],
    )
    matches.sync(db, match_id, touch=False)
    # A confirmation holds for the match as it stands (RULES.md 5.6): its version here, after the rebuild.
    version = db.match_version(match_id)
    assert version is not None  # the match just written
    db.import_confirmations([(match_id, c["player"], version, c["at"]) for c in m.confirmations])
    return match_id


def _write_event(db: ArchiveStore, e: _IncomingEvent) -> int:
    """Store one event as the file has it, its tables on the matches of the same uid, and a new link for each of its
    physical tables (the file holds no token: the old links open nothing here; the director prints new cards)."""
    event_id = db.import_event(e.name, e.date, e.game.key, jsontext.dumps(e.options), e.rounds, e.round_length,
                               e.seating, e.season, e.tariff, e.seed, e.created, e.uid, e.kind,
                               jsontext.dumps(e.avoid), e.first_round, e.show_chances, e.entry_fee,
                               jsontext.dumps(e.prizes), e.booby, e.round_minutes)
    db.import_event_players(event_id, e.players)
    for name, (when, amount) in e.paid.items():
        db.set_player_paid(event_id, name, when, amount)
    for r in e.drawn:
        db.import_event_round(event_id, r["number"], r["seed"], jsontext.dumps(r["byes"]), r["drawn"])
        if r.get("clock"):
            c = r["clock"]
            db.set_round_clock(event_id, r["number"], c["minutes"], c["started"], c["added_minutes"],
                               c["paused_seconds"], c["paused_at"])
        for t in r["tables"]:
            match_id = db.match_id_of_uid(t["match"])
            if match_id is None:  # cannot be: ``_check_tables`` found it here or in the file (written above)
                raise RuntimeError(f"the match {t['match']} of an event's table is not there")
            db.import_event_table(event_id, r["number"], t["number"], match_id, t["ended_by_director"])
    latest = e.drawn[-1]["tables"] if e.drawn else []
    for t in latest:  # a link revoked in the round in play stays so (its director issues a new one)
        if t["revoked"]:
            db.import_revoked_link(event_id, t["number"], t["revoked"])
    tables = max([len(r["tables"]) for r in e.drawn] + [len(_present(e.players, len(e.drawn) + 1)) // e.game.seats])
    ensure_links(db, event_id, tables)
    if e.ended is not None:
        db.set_event_ended(event_id, e.ended)
    elif not e.ended_given and e.drawn and len(e.drawn) >= e.rounds:  # a file written before events kept when they
        current = load_event(db, event_id).current  # ended: over as it was then, once its last round was over
        if current is not None and current.over:
            db.set_event_ended(event_id, e.drawn[-1]["drawn"])
    return event_id


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _check_tables(db: ArchiveStore, events: list[_IncomingEvent], in_file: list[_Incoming]) -> None:
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


def _check_round(db: ArchiveStore, e: _IncomingEvent, r: dict[str, Any], by_uid: dict[str, _Incoming],
                 problems: _Problems) -> None:
    present = _present(e.players, r["number"])
    seated = {name: "sits out" for name in r["byes"]}
    for t in r["tables"]:
        label = f"Event {e.index + 1}, round {r['number']}, table {t['number']}"
        where = f"events.{e.index}.drawn.{r['number'] - 1}.tables.{t['number'] - 1}.match"
        row = db.match_seats_of_uid(t["match"])
        if row is not None:
            game, players = row[1], list(jsontext.parse(row[2]))
            other = db.event_of_table(row[0])
            if other is not None:
                problems.append(Violation(_CLUB, f"{label}: its match {t['match']} is a table of event {other} "
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
