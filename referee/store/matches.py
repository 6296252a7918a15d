"""Matches, their deals and the deals' earlier versions, and the archive's searches: the SQL both stores say alike
(``MatchRows``, a mixin of ``SqliteStore`` and ``PostgresStore``).

What is stored is what players entered (the raw deal input) plus the game key and its options, and beside it what
the rules computed from that: each deal's result and the tally after it, the match's standing, with the fingerprint
of the rules that computed them (other rules: the match is replayed once from the entries). A correction or a void
never overwrites silently: the earlier version goes to ``deal_revisions`` first.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any, Unpack, cast

from .. import jsontext
from .base import SqlStore, now
from .rows import DealRow, DealVersion, MatchFields, MatchPlayer, MatchRow, MatchStanding, PlayerMatch
from .space_rows import SpaceFull
from .tuples import EndedMatch, SQLParam, read_row, sql_param


def _deal_row(row: dict[str, Any]) -> DealRow:
    row = dict(row)
    row.pop("space", None)
    row["input"] = json.loads(row["input"])
    row["void"] = bool(row["void"])
    return cast(DealRow, row)

def _deal_rows(cursor: Any) -> list[DealRow]:
    names = [c[0] for c in cursor.description]
    return [_deal_row(dict(zip(names, r, strict=True))) for r in cursor.fetchall()]



# The deal POST's SQL: plain prepared statements on the connection (sqlite-utils reads the table layout around
# each insert and update, several statements each time).
_INSERT_DEAL = (
    "INSERT INTO deals (match_id, number, dealer, input, void, version, last_action, created, updated, result, "
    "problems, counted, after_end, tally, space) "
    "VALUES (?, ?, ?, ?, 0, 1, 'entered', ?, ?, ?, NULL, ?, 0, ?, referee_space())"
)

class MatchRows(SqlStore):
    """A match's row, its players' rows and its deals."""

    def insert_match(self, game: str, players: list[str], options: Mapping[str, object], first_dealer: str,
        place: str = "", note: str = "", uid: str | None = None, created: str | None = None,
    ) -> int:
        """A new match in the store's space, unless the space holds ``max_matches`` already (SpaceFull); its id."""
        count, limit = self.match_count(), int(self.max_matches)
        if count >= limit:
            raise SpaceFull(count, limit)
        stamp = created or now()
        self._run("UPDATE spaces SET last_used = ? WHERE id = ?", [now(), self.space])  # the operator's list says it
        return self._insert_id(
            "matches",
            {
                "uid": uid or uuid.uuid4().hex,
                "place": place,
                "note": note,
                "game": game,
                "players": jsontext.dumps(players),
                "options": jsontext.dumps(options),
                "first_dealer": first_dealer,
                "created": stamp,
                "updated": stamp,
                "status": "in_progress",
                "totals": jsontext.dumps({p: 0 for p in players}),
            },
        )

    def match_count(self) -> int:
        """The matches the space holds."""
        return int(self._value("SELECT COUNT(*) FROM matches WHERE space = referee_space()"))

    def get_match(self, match_id: int) -> MatchRow | None:
        cursor = self._run("SELECT * FROM matches WHERE id = ? AND space = referee_space()", [match_id])
        row = cursor.fetchone()
        if row is None:
            return None
        return MatchRow.from_row(dict(zip([c[0] for c in cursor.description], row, strict=True)))

    def match_version(self, match_id: int) -> int | None:
        """A match's version alone (every change adds one): what a live page's poll compares; None: no such match."""
        row = self._run("SELECT version FROM matches WHERE id = ? AND space = referee_space()",
                        [match_id]).fetchone()
        return None if row is None else int(row[0] or 0)

    def list_matches(self, status: str | None = None, limit: int = 20) -> list[MatchRow]:
        if status:
            rows = self._rows(
                "SELECT * FROM matches WHERE space = referee_space() AND status = ? "
                "ORDER BY updated DESC, id DESC LIMIT ?", [status, limit]
            )
        else:
            rows = self._rows("SELECT * FROM matches WHERE space = referee_space() "
                              "ORDER BY updated DESC, id DESC LIMIT ?", [limit])
        return [MatchRow.from_row(r) for r in rows]

    def update_match_summary(
        self, match_id: int, status: str, winner: str | None, totals: dict[str, int], deal_count: int,
        ended_by_hand: bool | None = None, touch: bool = True,
    ) -> None:
        values: dict[str, object] = {
            "status": status,
            "winner": winner,
            "totals": jsontext.dumps(totals),
            "deal_count": deal_count,
        }
        if touch:
            values["updated"] = now()
        if ended_by_hand is not None:
            values["ended_by_hand"] = int(ended_by_hand)
        self._update("matches", match_id, values)

    def store_results(self, rows: list[tuple[int, str | None, str | None, int, int, str]]) -> None:
        """Each replayed deal's stored result: (deal id, result, problems, counted, after_end, tally)."""
        self._run_many("UPDATE deals SET result = ?, problems = ?, counted = ?, after_end = ?, tally = ? "
                       "WHERE id = ? AND space = referee_space()",
                            [(*rest, deal_id) for deal_id, *rest in rows])

    def store_standing(self, match_id: int, values: MatchStanding, touch: bool = True) -> None:
        """The match's standing after its deals (JSON already encoded), its version one more."""
        columns = {name: sql_param(value) for name, value in values.items()}
        if touch:
            columns["updated"] = now()
        names = ", ".join(f"{name} = ?" for name in columns)
        self._run(f"UPDATE matches SET {names}, version = version + 1 WHERE id = ? AND space = referee_space()",
                  [*columns.values(), match_id])

    def append_deal(self, match_id: int, number: int, dealer: str, deal_input: Any, result: str, counted: bool,
                    tally: str) -> DealRow:
        """A new deal at the end of a match, with its stored result; returns it as ``deals_for`` reads it."""
        stamp = now()
        text = jsontext.dumps(deal_input)
        deal_id = self._insert_returning(_INSERT_DEAL, [match_id, number, dealer, text, stamp, stamp, result,
                                                        int(counted), tally])
        assert deal_id is not None  # a plain INSERT … VALUES always makes its row
        return {"id": deal_id, "match_id": match_id, "number": number, "dealer": dealer, "input": deal_input,
                "void": False, "version": 1, "last_action": "entered", "created": stamp, "updated": stamp,
                "result": result,
                "problems": None, "counted": int(counted), "after_end": 0, "tally": tally}

    def advance_match(self, match_id: int, values: MatchStanding, players: Sequence[MatchPlayer],
                      guard: tuple[int, str, int] | None = None) -> bool:
        """The match row and its players' rows after one more deal: two statements. With ``guard`` (version,
        status, abandoned as they were read) only if the row is still so: False, and nothing written, otherwise."""
        written = {name: sql_param(value) for name, value in values.items()}
        written["updated"] = now()
        columns = ", ".join(f"{name} = ?" for name in written)
        if guard is None:
            self._run(f"UPDATE matches SET {columns}, version = version + 1 WHERE id = ? AND space = referee_space()",
                      [*written.values(), match_id])
        else:
            cursor = self._run(
                f"UPDATE matches SET {columns}, version = version + 1 "
                "WHERE id = ? AND space = referee_space() AND version = ? AND status = ? AND abandoned = ?",
                [*written.values(), match_id, *guard])
            if cursor.rowcount != 1:
                return False
        marks = ", ".join("(?, ?, ?, ?, ?)" for _ in players)
        self._run(
            "UPDATE match_players SET status = v.column2, total = v.column3, result = v.column4, facts = v.column5 "
            f"FROM (VALUES {marks}) AS v WHERE match_players.match_id = ? AND match_players.seat = v.column1 "
            "AND match_players.space = referee_space()",
            [x for p in players for x in (p.seat, p.status, p.total, p.result, jsontext.dumps(p.facts))]
            + [match_id],
        )
        return True

    def update_match_fields(self, match_id: int, **values: Unpack[MatchFields]) -> None:
        """Place, note, abandoned, ended_by_hand: what people set on a match itself."""
        self._update("matches", match_id, {**values, "updated": now()})

    def is_event_table(self, match_id: int) -> bool:
        """Whether the match is a table of a club event (RULES.md 5)."""
        return self._run("SELECT 1 FROM event_tables WHERE match_id = ? AND space = referee_space()",
                         [match_id]).fetchone() is not None

    def delete_unplayed_match(self, match_id: int) -> None:
        """A match without a deal, and what hangs on it (its players' rows, its log, share links, keys, confirmations),
        deleted: an event deleted before its play began takes its tables' matches with it. Refused (ValueError) for a
        match with a deal: nothing entered is ever lost."""
        if self._run("SELECT 1 FROM deals WHERE match_id = ? AND space = referee_space() LIMIT 1",
                     [match_id]).fetchone():
            raise ValueError(f"match {match_id} has deals: it is kept")
        for table in ("match_players", "match_events", "share_links", "idempotency_keys", "confirmations"):
            self._run(f"DELETE FROM {table} WHERE match_id = ? AND space = referee_space()", [match_id])
        self._run("DELETE FROM matches WHERE id = ? AND space = referee_space()", [match_id])

    def replace_match_players(self, match_id: int, rows: Sequence[MatchPlayer]) -> None:
        self._run("DELETE FROM match_players WHERE match_id = ? AND space = referee_space()", [match_id])
        for r in rows:
            self._insert("match_players", {
                "match_id": r.match_id, "seat": r.seat, "name": r.name, "name_key": r.name_key, "game": r.game,
                "created": r.created, "status": r.status, "total": r.total, "result": r.result,
                "facts": jsontext.dumps(r.facts)})

    # ---- deals ------------------------------------------------------------------------------------------

    def deals_for(self, match_id: int) -> list[DealRow]:
        return _deal_rows(self._run("SELECT * FROM deals WHERE match_id = ? AND space = referee_space() "
                                    "ORDER BY number", [match_id]))

    def deals_numbered(self, match_id: int, numbers: Sequence[int]) -> list[DealRow]:
        """Some of a match's deals (by number), in order: the few a page shows whole."""
        if not numbers:
            return []
        marks = ", ".join("?" for _ in numbers)
        return _deal_rows(self._run(f"SELECT * FROM deals WHERE match_id = ? AND space = referee_space() "
                                    f"AND number IN ({marks}) ORDER BY number", [match_id, *numbers]))

    def get_deal(self, match_id: int, number: int) -> DealRow | None:
        rows = list(self._rows("SELECT * FROM deals WHERE match_id = ? AND number = ? AND space = referee_space()",
                                    [match_id, number]))
        return _deal_row(rows[0]) if rows else None

    def next_deal_number(self, match_id: int) -> int:
        row = self._run("SELECT COALESCE(MAX(number), 0) + 1 FROM deals WHERE match_id = ? AND space = referee_space()",
                        [match_id]).fetchone()
        return int(row[0])

    def insert_deal(self, match_id: int, number: int, dealer: str, deal_input: Any) -> int:
        stamp = now()
        return self._insert_id(
            "deals",
            {
                "match_id": match_id,
                "number": number,
                "dealer": dealer,
                "input": jsontext.dumps(deal_input),
                "void": 0,
                "version": 1,
                "last_action": "entered",
                "created": stamp,
                "updated": stamp,
            },
        )

    def revise_deal(self, deal: DealRow, action: str, deal_input: Any | None = None, void: bool | None = None
    ) -> None:
        """Keep the current version of ``deal`` in deal_revisions, then store the new one."""
        stamp = now()
        self._insert(
            "deal_revisions",
            {
                "deal_id": deal["id"],
                "version": deal["version"],
                "input": jsontext.dumps(deal["input"]),
                "void": int(deal["void"]),
                "action": deal["last_action"],
                "at": deal["updated"],
                "replaced_at": stamp,
            }
        )
        self._update(
            "deals",
            deal["id"],
            {
                "input": jsontext.dumps(deal["input"] if deal_input is None else deal_input),
                "void": int(deal["void"] if void is None else void),
                "version": deal["version"] + 1,
                "last_action": action,
                "updated": stamp,
            },
        )

    def revisions_for_match(self, match_id: int) -> dict[int, list[DealVersion]]:
        """Every earlier version of every deal of a match, by deal id (one query)."""
        rows = self._rows(
            "SELECT r.* FROM deal_revisions r JOIN deals d ON d.id = r.deal_id WHERE d.match_id = ? "
            "AND d.space = referee_space() AND r.space = referee_space() ORDER BY r.deal_id, r.version",
            [match_id],
        )
        out: dict[int, list[DealVersion]] = {}
        for r in rows:
            revision = DealVersion.from_row(r)
            out.setdefault(revision.deal_id, []).append(revision)
        return out

    def revisions_for(self, deal_id: int) -> list[DealVersion]:
        rows = self._rows("SELECT * FROM deal_revisions WHERE deal_id = ? AND space = referee_space() "
                          "ORDER BY version", [deal_id])
        return [DealVersion.from_row(r) for r in rows]

    # ---- the archive --------------------------------------------------------------------------

    def search_matches(self, game: str | None = None, player: str | None = None, status: str | None = None,
        since: str | None = None, until: str | None = None, limit: int = 25, offset: int = 0, season: str | None = None,
    ) -> tuple[list[MatchRow], int]:
        """Matches newest first with the filters of the history page, and how many match in all.

        ``player`` is a case-insensitive part of a name; ``since``/``until`` are dates (YYYY-MM-DD, inclusive);
        ``season`` a season's name (the tables of its events, RULES.md 5.8).
        """
        where, args = ["space = referee_space()"], []
        if game:
            where.append("game = ?")
            args.append(game)
        if status:
            where.append("status = ?")
            args.append(status)
        if season:
            where.append("id IN (SELECT t.match_id FROM event_tables t JOIN events e ON e.id = t.event_id "
                         f"WHERE e.season = ? {self.NOCASE} AND t.space = referee_space() "
                         "AND e.space = referee_space())")
            args.append(season)
        if since:
            where.append("created >= ?")
            args.append(since)
        if until:
            where.append("created < ?")  # before the next day: the same SQL on SQLite and PostgreSQL
            args.append((date.fromisoformat(until) + timedelta(days=1)).isoformat())
        if player:
            where.append("id IN (SELECT match_id FROM match_players WHERE space = referee_space() "
                         "AND name_key LIKE ? ESCAPE '\\')")
            args.append("%" + player.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
        clause = "WHERE " + " AND ".join(where)
        total = self._run(f"SELECT COUNT(*) FROM matches {clause}", args).fetchone()[0]
        rows = self._rows(
            f"SELECT * FROM matches {clause} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?", [*args, limit, offset]
        )
        return [MatchRow.from_row(r) for r in rows], int(total)

    def player_rows(self, name_key: str) -> list[PlayerMatch]:
        """Every match a player sat in, newest first, with the match's totals and players."""
        rows = self._rows(
            """SELECT mp.match_id, mp.seat, mp.name, mp.game, mp.created, mp.status, mp.total, mp.result, mp.facts,
                      m.players, m.totals, m.winner
               FROM match_players mp JOIN matches m ON m.id = mp.match_id
               WHERE mp.space = referee_space() AND m.space = referee_space() AND mp.name_key = ?
               ORDER BY mp.created DESC, mp.match_id DESC""",
            [name_key],
        )
        return [PlayerMatch.from_row(r) for r in rows]

    def ended_matches(self, game: str, event_ids: Sequence[int] | None = None) -> list[EndedMatch]:
        """(id, version, when it ended, players, totals, winner; JSON as stored) of every ended match of a game —
        finished, not abandoned; and an event's table the director ended with a deal counted, as it stands (RULES.md
        5.4; stored as abandoned, without a winner) —, of the events ``event_ids`` only when given, in the order they
        ended: the time the deal that ended it was first entered (a table the director ended: when they ended it; a
        match ended by hand: its last change), then as created."""
        within = ""
        params: list[SQLParam] = [game]
        if event_ids is not None:
            if not event_ids:
                return []
            marks = ", ".join("?" for _ in event_ids)
            within = (" AND m.id IN (SELECT match_id FROM event_tables WHERE space = referee_space() "
                      f"AND event_id IN ({marks}))")
            params += list(event_ids)
        return [read_row(EndedMatch, r) for r in self._run(
            "SELECT m.id, m.version, COALESCE(d.created, t.ended_by_director, m.updated) AS ended, m.players, "
            "m.totals, m.winner "
            "FROM matches m LEFT JOIN deals d ON d.match_id = m.id AND d.number = m.ended_at "
            "AND d.space = referee_space() LEFT JOIN event_tables t ON t.match_id = m.id AND t.space = referee_space() "
            "WHERE m.space = referee_space() AND m.game = ? AND ((m.status = 'finished' AND m.abandoned = 0) "
            "OR (t.ended_by_director IS NOT NULL AND EXISTS (SELECT 1 FROM deals c WHERE c.match_id = m.id "
            "AND c.space = referee_space() AND c.void = 0)))" + within +
            " ORDER BY ended, m.id", params).fetchall()]

    def matches_without_summary(self) -> list[int]:
        rows = self._run("SELECT id FROM matches WHERE space = referee_space() AND id NOT IN "
                         "(SELECT match_id FROM match_players WHERE space = referee_space())").fetchall()
        return [r[0] for r in rows]

    def known_names(self, limit: int = 200) -> list[str]:
        """Player names seen so far, most used first (for autocompletion); a person written several ways (case,
        spacing) under the spelling used most, the latest of equals."""
        people: dict[str, tuple[int, tuple[int, str], str]] = {}  # name_key → (matches, (uses, latest), spelling)
        for key, name, uses, latest in self._run(
                "SELECT name_key, name, COUNT(*), MAX(created) FROM match_players WHERE space = referee_space() "
                "GROUP BY name_key, name").fetchall():
            total, best, spelling = people.get(key, (0, (0, ""), name))
            if (uses, latest) > best:
                best, spelling = (uses, latest), name
            people[key] = (total + uses, best, spelling)
        ranked = sorted(people.values(), key=lambda p: (-p[0], p[2]))
        return [spelling for _total, _best, spelling in ranked[:limit]]

