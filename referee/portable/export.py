"""The export document written out: some matches or the whole archive — every match with its deals, their earlier
versions, its log of actions and its confirmations, then every event and every season's settings — as JSON text a
piece at a time (``export_text``), a damaged match or event listed under ``unreadable`` instead."""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

from .. import jsontext, matches
from ..matches.events import confirmations
from ..store import now
from ..store.protocol import ArchiveStore
from .base import FORMAT, VERSION

# The document is written as text a piece at a time (``export_text``): the head, then each match — its fields and
# deals at once (a match holds at most REFEREE_MAX_DEALS of them), its actions read from the database a batch at a
# time — so an export holds one match's deals in memory, never the whole archive or a whole activity log. The text
# is the compact JSON of the document (``jsontext``), the same bytes the document written at once would be.

CHUNK = 64 * 1024  # characters of JSON text sent at a time


def export_text(db: ArchiveStore, match_ids: list[int] | None = None) -> Iterator[str]:
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


def export_match(db: ArchiveStore, match_id: int) -> dict[str, Any]:
    """One match as an export document; raises ``matches.NotFound``."""
    return json.loads("".join(export_text(db, [match_id])))


def export_archive(db: ArchiveStore) -> dict[str, Any]:
    """Every match, event and season as an export document (``export_text``, read back), damaged ones under
    ``unreadable``."""
    return json.loads("".join(export_text(db)))


def _export_pieces(db: ArchiveStore, match_ids: list[int] | None) -> Iterator[str]:
    whole = match_ids is None
    ids = db.all_match_ids() if whole else match_ids
    out = _Pieces()
    head = jsontext.dumps({"format": FORMAT, "version": VERSION, "exported": now()})
    out.put(head[:-1] + ',"matches":[')
    unreadable: list[dict[str, Any]] = []
    separator = ""
    for match_id in ids or ():
        try:
            match = matches.load(db, match_id)
            opening = _match_opening(db, match)
            closing = '],"confirmations":' + jsontext.dumps(_confirmations(db, match)) + "}"
        except Exception as exc:
            if not whole:
                raise
            unreadable.append(_unreadable_match(db, match_id, exc))
            continue
        out.put(separator + opening)
        separator = ","
        comma = ""
        for event in db.iter_actions(match_id):
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


def _confirmations(db: ArchiveStore, match: matches.Match) -> list[dict[str, str]]:
    """Who confirmed the match's result as it stands (RULES.md 5.6: a confirmation of an earlier version no longer
    counts, and is not exported)."""
    return [{"player": player, "at": at} for player, at in confirmations(db, match.id, match.version).items()]


def _club_pieces(db: ArchiveStore, out: _Pieces, whole: bool, unreadable_ids: set[int],
                 unreadable: list[dict[str, Any]]) -> Iterator[str]:
    """The document's ``events`` and ``seasons``: every one of the archive's, none in an export of some matches. An
    event that cannot be read, or one with a table whose match could not be (``unreadable_ids``), is listed under
    ``unreadable`` instead: the file must hold every match its events name."""
    out.put(',"events":[')
    separator = ""
    for event_id in db.all_event_ids() if whole else ():
        try:
            text = jsontext.dumps(_event_document(db, event_id, unreadable_ids))
        except Exception as exc:
            unreadable.append(_unreadable_event(db, event_id, exc))
            continue
        out.put(separator + text)
        separator = ","
        if out.full():
            yield out.take()
    seasons = [{"name": s.name, "game": s.game, "best_of": s.best_of, "league_points": s.league_points}
               for s in db.all_season_settings()] if whole else []
    out.put('],"seasons":' + jsontext.dumps(seasons))


class _TableNotExported(Exception):
    """An event's table whose match is not in the file."""


def _event_document(db: ArchiveStore, event_id: int, unreadable_ids: set[int]) -> dict[str, Any]:
    """One event of the document: its fields, its players in the order they joined, and its rounds with their
    tables, each naming its match by uid — never its link's token."""
    e = db.exported_event_fields(event_id)
    if e is None:  # no such event (deleted meanwhile): it is unreadable, said as the file has always said it
        raise TypeError("cannot unpack non-iterable NoneType object")
    players = [{"name": player, "joined_round": joined, "left_round": left, "paid": paid, "paid_amount": amount}
               for player, joined, left, paid, amount in db.exported_event_players(event_id)]
    revoked_links = db.revoked_event_tables(event_id)  # tables whose every link is revoked
    latest = db.latest_event_round(event_id)
    tables: dict[int, list[dict[str, Any]]] = {}
    for t in db.exported_event_tables(event_id):
        if t.match_uid is None or t.match_id in unreadable_ids:
            raise _TableNotExported(f"round {t.round}, table {t.number}: match {t.match_id} could not be read")
        revoked = revoked_links.get(t.number) if t.round == latest else None  # as the round in play had it
        tables.setdefault(t.round, []).append(
            {"table": t.number, "match": t.match_uid, "ended_by_director": t.ended_by_director, "revoked": revoked})
    drawn = [{"round": r.number, "seed": r.seed, "drawn": r.drawn, "byes": jsontext.parse(r.byes),
              "tables": tables.get(r.number, []), "clock": _round_clock(db.round_clock(event_id, r.number))}
             for r in db.exported_event_rounds(event_id)]
    return {"uid": e.uid, "name": e.name, "date": e.date, "game": e.game, "options": jsontext.parse(e.options),
            "rounds": e.rounds, "round": e.round_length, "seating": e.seating, "season": e.season, "tariff": e.tariff,
            "seed": e.seed, "created": e.created, "kind": e.kind, "avoid": jsontext.parse(e.avoid),
            "first_round": e.first_round, "show_chances": bool(e.show_chances), "entry_fee": e.entry_fee,
            "prizes": jsontext.parse(e.prizes), "booby": bool(e.booby), "round_minutes": e.round_minutes,
            "ended": e.ended, "players": players, "drawn": drawn}


def _round_clock(row: tuple[int, str, int, int, str | None] | None) -> dict[str, Any] | None:
    """A round's clock as the file keeps it (issue 37): the minutes it started with and when, the minutes added, the
    seconds paused and when it was paused (null: running); null for a round without one."""
    if row is None:
        return None
    minutes, started, added, paused_seconds, paused_at = row
    return {"minutes": minutes, "started": started, "added_minutes": added, "paused_seconds": paused_seconds,
            "paused_at": paused_at}


def _uid_of_unreadable(uid_of: Callable[[int], str | None], noun: str, row_id: int, exc: Exception) -> str | None:
    """The uid of a match or event (``uid_of``: ``db.match_uid``, ``db.event_uid``) that could not be read, logged as
    such; None when even that fails."""
    logging.getLogger("referee").error("export: %s %s cannot be read: %r", noun, row_id, exc)
    try:
        return uid_of(row_id)
    except Exception:
        return None


def _unreadable_event(db: ArchiveStore, event_id: int, exc: Exception) -> dict[str, Any]:
    uid = _uid_of_unreadable(db.event_uid, "event", event_id, exc)
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


def _unreadable_match(db: ArchiveStore, match_id: int, exc: Exception) -> dict[str, Any]:
    uid = _uid_of_unreadable(db.match_uid, "match", match_id, exc)
    return {
        "id": match_id,
        "uid": uid,
        "reason": f"Match {match_id} could not be read ({type(exc).__name__}: {str(exc)[:200]}); "
        "it is not in this file.",
    }


def _match_opening(db: ArchiveStore, match: matches.Match) -> str:
    """A match of the document as JSON text up to its list of actions (left open: they follow)."""
    row = match.row
    revisions = {deal_id: [{"version": rev.version, "input": rev.input, "void": rev.void,
                            "action": rev.action, "at": rev.at, "replaced_at": rev.replaced_at}
                           for rev in revs]
                 for deal_id, revs in db.revisions_for_match(match.id).items()}  # input parsed, void a bool
    fields = {
        "uid": row.uid,
        "game": match.game.key,
        "players": list(match.players),
        "options": match.game.options_to_json(match.options),
        "first_dealer": row.first_dealer,
        "created": row.created,
        "updated": row.updated,
        "place": row.place,
        "note": row.note,
        "abandoned": row.abandoned,
        "ended_by_hand": row.ended_by_hand,
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
