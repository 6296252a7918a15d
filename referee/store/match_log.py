"""The match log: every action on a match (entered, corrected, voided, undone, ended …), the store's
``match_events`` table — what Undo and Redo walk and the activity list shows. Not a club's events (``club``).
The API keeps its names for it (``/api/matches/<id>/events``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from .. import jsontext
from .base import SqlStore, now
from .rows import LogEntry
from .tuples import SQLParam

# Which phone is making the change (a hash of its long-lived device cookie), set by the web layer for
# each request: every action records it, so Undo can say "entered by this phone" or "by another phone".
acting_device: ContextVar[str | None] = ContextVar("acting_device", default=None)
# Which table's link is making the change (its number), set by the web layer when a request acts as a table link (its
# token as Bearer, or a phone its card opened): every action records it, so a link undoes only its own (RULES.md 5.6).
acting_table: ContextVar[int | None] = ContextVar("acting_table", default=None)


class TooManyActions(Exception):
    """The match already holds ``limit`` actions: nothing was added (the caller's transaction is rolled back)."""

    def __init__(self, count: int, limit: int):
        self.count, self.limit = count, limit
        super().__init__(f"the match holds {count} actions, the most it may hold is {limit}")


_EVENT_COLUMNS = "id, match_id, deal_number, action, at, detail, undone"

def _event_of(values: tuple[Any, ...]) -> LogEntry:
    """One row of match_events; ``detail`` parsed as stored (text that is not JSON, as a damaged or hand-edited
    database may hold, is kept as that text: ``matches.event_detail`` reads only what it understands)."""
    event_id, match_id, deal_number, action, at, detail, undone = values
    try:
        parsed = jsontext.parse(detail)
    except (ValueError, TypeError):
        parsed = detail
    return {"id": event_id, "match_id": match_id, "deal_number": deal_number, "action": action, "at": at,
            "detail": parsed, "undone": bool(undone)}


class MatchLog(SqlStore):
    """A match's log of actions."""

    def log_action(self, match_id: int, action: str, deal_number: int | None = None,
                   detail: Mapping[str, object] | None = None,
                   at: str | None = None) -> int:
        """Add one action to a match's log, unless the match holds ``max_events`` of them already (TooManyActions):
        the count is part of the INSERT, so it costs no statement of its own."""
        detail = dict(detail or {})
        device = acting_device.get()
        table = acting_table.get()
        if at is None:  # an imported event keeps the detail it came with
            if device:
                detail.setdefault("device", device)
            if table is not None:
                detail.setdefault("table", table)
        limit = int(self.max_events)
        event_id = self._insert_returning(
            "INSERT INTO match_events (match_id, deal_number, action, at, detail, undone, space) "
            "SELECT ?, ?, ?, ?, ?, 0, referee_space() "
            "WHERE (SELECT count(*) FROM match_events WHERE match_id = ? AND space = referee_space()) < ?",
            [match_id, deal_number, action, at or now(), jsontext.dumps(detail), match_id, limit],
        )
        if event_id is None:
            raise TooManyActions(self.action_count(match_id), limit)
        return event_id

    def actions_of(self, match_id: int) -> list[LogEntry]:
        """Every action on a match, oldest first (``iter_actions`` reads them a batch at a time)."""
        return list(self.iter_actions(match_id))

    def iter_actions(self, match_id: int, batch: int = 1000) -> Iterator[LogEntry]:
        """Every action on a match, oldest first, read ``batch`` rows at a time: an export of a long log never holds
        all of it."""
        cursor = self._run(f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? AND space = referee_space() "
                            "ORDER BY id", [match_id])
        while rows := cursor.fetchmany(batch):
            yield from (_event_of(row) for row in rows)

    def actions_after(self, match_id: int, after: int, limit: int) -> list[LogEntry]:
        """At most ``limit`` actions on a match that came after action ``after`` (0: from the first), oldest first."""
        cursor = self._run(
            f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? AND space = referee_space() AND id > ? "
            "ORDER BY id LIMIT ?",
            [match_id, after, limit],
        )
        return [_event_of(row) for row in cursor.fetchall()]

    def latest_actions(self, match_id: int, limit: int, before: int | None = None, *,
                       actions: Sequence[str] | None = None, standing: bool = False, deal_number: int | None = None,
                       after: int | None = None) -> list[LogEntry]:
        """The newest ``limit`` actions on a match, newest first: one query on the index, however long the log.
        Only those older than action ``before`` and newer than action ``after``; of the kinds ``actions``; not undone
        (``standing``); about deal ``deal_number``."""
        condition, params = "", list[SQLParam]()
        for clause, value, wanted in (("id < ?", before, before is not None), ("id > ?", after, after is not None),
                                      ("deal_number = ?", deal_number, deal_number is not None)):
            if wanted:
                condition += f" AND {clause}"
                params.append(value)
        if standing:
            condition += " AND undone = 0"
        if actions is not None:
            condition += " AND action IN ({})".format(", ".join("?" * len(actions)))
            params.extend(actions)
        cursor = self._run(
            f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? AND space = referee_space(){condition} "
            "ORDER BY id DESC LIMIT ?",
            [match_id, *params, limit],
        )
        return [_event_of(row) for row in cursor.fetchall()]

    def get_action(self, match_id: int, event_id: object) -> LogEntry | None:
        """One action of a match by its id (None: not one of this match's actions)."""
        if isinstance(event_id, bool) or not isinstance(event_id, int) or not 0 < event_id < 2**63:
            return None
        row = self._run(f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? AND id = ? "
                        "AND space = referee_space()",
                              [match_id, event_id]).fetchone()
        return _event_of(row) if row else None

    def action_count(self, match_id: int, from_id: int | None = None) -> int:
        """How many actions a match has (those from action ``from_id`` on)."""
        if from_id is None:
            return int(self._run("SELECT count(*) FROM match_events WHERE match_id = ? AND space = referee_space()",
                                 [match_id]).fetchone()[0])
        return int(self._run("SELECT count(*) FROM match_events WHERE match_id = ? AND space = referee_space() "
                             "AND id >= ?", [match_id, from_id]).fetchone()[0])

    def mark_action_undone(self, event_id: int, undone: bool = True) -> None:
        self._run("UPDATE match_events SET undone = ? WHERE id = ? AND space = referee_space()",
                  [int(undone), event_id])

