"""A club's events (RULES.md §5): the event, its players, rounds, tables, the tables' links and the confirmations of
their results — the SQL both stores say alike (``ClubRows``, a mixin of ``SqliteStore`` and ``PostgresStore``).

Each table is an ordinary match (``matches``); what is here is what ties the matches into an event. The rules of it
(the draw, the standings, when a table's link closes) are ``referee.games.club``'s and the service's
(``referee.matches.club``): these methods only read and write rows, inside the caller's write transaction where they
write.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from .. import jsontext
from .base import SqlStore, now
from .rows import EventLink, EventRow, LinkRow, RoundRow, TableRow
from .tuples import EventColumns, EventListing, EventState, NewEvent, TableClosing, TablePlace, read_row, sql_param

# The tables of an event's latest round still playing: their match not finished and the director not having ended
# them (the list of events, a table's link and a table's page all ask it, as ``club.status_of`` needs it).
_PLAYING_IN_ROUND = ("(SELECT COUNT(*) FROM event_tables x JOIN matches y ON y.id = x.match_id "
                     "WHERE x.event_id = t.event_id AND x.round = t.round AND y.finished = 0 "
                     "AND x.ended_by_director IS NULL AND x.space = referee_space() AND y.space = referee_space())")


class ClubRows(SqlStore):
    """A club's events: players, rounds, tables, links, confirmations."""

    # ---- an event ------------------------------------------------------------------------------------------------
    def event_row(self, event_id: int) -> EventRow | None:
        """An event's row (its JSON columns parsed); None: no such event."""
        rows = self._rows("SELECT * FROM events WHERE id = ? AND space = referee_space()", [event_id])
        return EventRow.from_row(rows[0]) if rows else None

    def event_players(self, event_id: int) -> list[tuple[str, int, int | None]]:
        """(name, joined round, left round) of each player, in the order they joined."""
        return [(row[0], row[1], row[2]) for row in self._run(
            "SELECT name, joined_round, left_round FROM event_players WHERE event_id = ? AND space = referee_space() "
            "ORDER BY position",
            [event_id]).fetchall()]

    def event_rounds(self, event_id: int) -> list[RoundRow]:
        """Each round drawn, in order."""
        return [RoundRow.from_row(row) for row in self._run(
            "SELECT number, seed, byes, drawn, clock_minutes, clock_started, clock_added, clock_paused_seconds, "
            "clock_paused_at FROM event_rounds WHERE event_id = ? AND space = referee_space() ORDER BY number",
            [event_id]).fetchall()]

    def round_tables(self, event_id: int, round_number: int) -> list[TableRow]:
        """Each table of a round, in order."""
        return [TableRow.from_row(row) for row in self._run(
            "SELECT number, match_id, ended_by_director FROM event_tables "
            "WHERE event_id = ? AND round = ? AND space = referee_space() ORDER BY number",
            [event_id, round_number]).fetchall()]

    def event_links(self, event_id: int) -> list[EventLink]:
        """Every link the event gave, by table, each table's working one last."""
        return [EventLink.from_row(row) for row in self._run(
            "SELECT number, token, revoked FROM event_links WHERE event_id = ? AND space = referee_space() "
            "ORDER BY number, revoked IS NULL, created, token", [event_id]).fetchall()]

    def event_state(self, event_id: int) -> EventState | None:
        """Counts that move whenever anything an event's board shows changes (its rounds, players, tables, every
        table's match version, links and confirmations), in one query, and last whether the latest round's clock is
        running (1) or not (0); None: no such event."""
        row = self._one(
            "SELECT (SELECT COUNT(*) FROM event_players p WHERE p.event_id = e.id AND p.space = referee_space()), "
            "(SELECT COUNT(*) FROM event_players p WHERE p.event_id = e.id AND p.left_round IS NOT NULL "
            " AND p.space = referee_space()), "
            "(SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = e.id AND r.space = referee_space()), "
            "(SELECT COALESCE(SUM(m.version), 0) + COUNT(t.ended_by_director) FROM event_tables t "
            " JOIN matches m ON m.id = t.match_id WHERE t.event_id = e.id AND t.space = referee_space() "
            " AND m.space = referee_space()), "
            "(SELECT COUNT(*) || '.' || COUNT(l.revoked) FROM event_links l WHERE l.event_id = e.id "
            " AND l.space = referee_space()), "
            "(SELECT COUNT(*) FROM confirmations c JOIN event_tables t ON t.match_id = c.match_id "
            " WHERE t.event_id = e.id AND c.space = referee_space() AND t.space = referee_space()), e.edited, "
            "COALESCE((SELECT CASE WHEN r.clock_minutes IS NOT NULL AND r.clock_paused_at IS NULL THEN 1 ELSE 0 END "
            " FROM event_rounds r WHERE r.event_id = e.id AND r.space = referee_space() ORDER BY r.number DESC "
            " LIMIT 1), 0) "
            "FROM events e WHERE e.id = ? AND e.space = referee_space()", [event_id])
        return None if row is None else read_row(EventState, row)

    def list_events(self, limit: int = 100) -> list[EventListing]:
        """(id, name, date, game, rounds, kind, rounds drawn, tables of the latest round still playing, whether it
        ended) of the latest events, latest first."""
        return [read_row(EventListing, row) for row in self._run(
            "SELECT e.id, e.name, e.date, e.game, e.rounds, e.kind, "
            "(SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = e.id AND r.space = referee_space()), "
            "(SELECT COUNT(*) FROM event_tables t JOIN matches m ON m.id = t.match_id WHERE t.event_id = e.id "
            " AND t.round = (SELECT MAX(r.number) FROM event_rounds r WHERE r.event_id = e.id "
            " AND r.space = referee_space()) AND t.space = referee_space() AND m.space = referee_space() "
            " AND m.finished = 0 AND t.ended_by_director IS NULL), e.ended IS NOT NULL "
            "FROM events e WHERE e.space = referee_space() ORDER BY e.date DESC, e.id DESC LIMIT ?",
            [limit]).fetchall()]

    def everyone_in_events(self) -> list[tuple[int, str]]:
        """(event id, player's name) of every player of every event, latest event first."""
        return [(row[0], row[1]) for row in self._run(
            "SELECT p.event_id, p.name FROM event_players p JOIN events e ON e.id = p.event_id "
            "WHERE p.space = referee_space() AND e.space = referee_space() ORDER BY e.date DESC, e.id DESC"
        ).fetchall()]

    def event_of_match(self, match_id: int) -> tuple[int, int, int] | None:
        """(event, round, table) of a table's match; None for a match of its own."""
        row = self._one("SELECT event_id, round, number FROM event_tables WHERE match_id = ? "
                        "AND space = referee_space()", [match_id])
        return (int(row[0]), int(row[1]), int(row[2])) if row else None

    # ---- a new event, and the director's changes to it ------------------------------------------------------------
    def insert_event(self, values: NewEvent, players: Sequence[str]) -> int:
        """A new event's row (made now, with a new uid) and its players, each joined from round 1; its id."""
        event_id = self._insert_id("events", {**values, "created": now(), "uid": uuid.uuid4().hex})
        for position, player in enumerate(players):
            self.add_event_player(event_id, position, player, 1)
        return event_id

    def add_event_player(self, event_id: int, position: int, name: str, joined_round: int) -> None:
        self._run("INSERT INTO event_players (event_id, position, name, joined_round, space) "
                  "VALUES (?, ?, ?, ?, referee_space())",
                  [event_id, position, name, joined_round])

    def paid_players(self, event_id: int) -> dict[str, tuple[str, str | None]]:
        """What each player who has paid put in the box: (when it was recorded, the amount as "5.00 EUR"); the amount
        is None for a fee ticked as paid before amounts were kept, with no fee set then (it reads as the fee in full).
        The others have paid nothing."""
        return {row[0]: (row[1], row[2]) for row in self._run(
            "SELECT name, paid, paid_amount FROM event_players WHERE event_id = ? AND space = referee_space() "
            "AND paid IS NOT NULL",
            [event_id]).fetchall()}

    def set_player_paid(self, event_id: int, name: str, when: str | None, amount: str | None = None) -> None:
        """What a player put in the box (``when``: now; ``amount``: "5.00 EUR"), or nothing again (None, None)."""
        self._run("UPDATE event_players SET paid = ?, paid_amount = ? WHERE event_id = ? AND name = ? "
                  "AND space = referee_space()",
                  [when, amount if when is not None else None, event_id, name])

    def set_player_left(self, event_id: int, name: str, left_round: int | None) -> None:
        """The round a player left from (None: they came back, or never left)."""
        if left_round is None:
            self._run("UPDATE event_players SET left_round = NULL WHERE event_id = ? AND name = ? "
                      "AND space = referee_space()", [event_id, name])
        else:
            self._run("UPDATE event_players SET left_round = ? WHERE event_id = ? AND name = ? "
                      "AND space = referee_space()",
                      [left_round, event_id, name])

    def rename_event_tables(self, event_id: int, old_name: str, new_name: str) -> None:
        """The place of the event's tables, where it still says the event's old name, says its new one."""
        self._run("UPDATE matches SET place = ? WHERE place = ? AND space = referee_space() AND id IN "
                  "(SELECT match_id FROM event_tables WHERE event_id = ? AND space = referee_space())",
                  [new_name, old_name, event_id])

    def update_event(self, event_id: int, changes: EventColumns) -> None:
        """Columns of an event changed by the director (names the service checked), its edits one more."""
        changed = sorted(changes.items())
        self._run(f"UPDATE events SET {', '.join(f'{c} = ?' for c, _value in changed)}, edited = edited + 1 "
                  "WHERE id = ? AND space = referee_space()",
                  [sql_param(value) for _column, value in changed] + [event_id])

    def set_event_ended(self, event_id: int, when: str) -> None:
        """The event is over (RULES.md 5.4), from ``when``: its edits one more (the board and the tables' phones
        follow)."""
        self._run("UPDATE events SET ended = ?, edited = edited + 1 WHERE id = ? AND space = referee_space()",
                  [when, event_id])

    def set_event_options(self, event_id: int, options: Mapping[str, object]) -> None:
        self._run("UPDATE events SET options = ? WHERE id = ? AND space = referee_space()",
                  [jsontext.dumps(options), event_id])

    def set_match_options(self, match_id: int, options: Mapping[str, object]) -> None:
        """A table's match's options (its tariff follows the event's); the caller brings its summary in step."""
        self._run("UPDATE matches SET options = ? WHERE id = ? AND space = referee_space()",
                  [jsontext.dumps(options), match_id])

    def delete_event_rows(self, event_id: int) -> None:
        """An event's tables, links, rounds and players (not their matches: ``delete_unplayed_match``)."""
        for table in ("event_tables", "event_links", "event_rounds", "event_players"):
            self._run(f"DELETE FROM {table} WHERE event_id = ? AND space = referee_space()", [event_id])

    def delete_event(self, event_id: int) -> None:
        """The event's own row, once everything that hangs on it is gone (``delete_event_rows``)."""
        self._run("DELETE FROM events WHERE id = ? AND space = referee_space()", [event_id])

    def set_byes(self, event_id: int, round_number: int, byes: list[str]) -> None:
        """Who sits out a round, changed by the director: the event's edits one more (a bye is not a match, so no
        match's version says it)."""
        self._run("UPDATE event_rounds SET byes = ? WHERE event_id = ? AND number = ? AND space = referee_space()",
                  [jsontext.dumps(byes), event_id, round_number])
        self._run("UPDATE events SET edited = edited + 1 WHERE id = ? AND space = referee_space()", [event_id])

    def round_clock(self, event_id: int, round_number: int) -> tuple[int, str, int, int, str | None] | None:
        """A round's clock (issue 37): (minutes it started with, when it started, minutes added since, seconds spent
        paused, when it was paused or None while running); None: the round has no clock."""
        row = self._one("SELECT clock_minutes, clock_started, clock_added, clock_paused_seconds, clock_paused_at "
                        "FROM event_rounds WHERE event_id = ? AND number = ? AND clock_minutes IS NOT NULL "
                        "AND space = referee_space()",
                        [event_id, round_number])
        return None if row is None else (int(row[0]), str(row[1]), int(row[2]), int(row[3]), row[4])

    def set_round_clock(self, event_id: int, round_number: int, minutes: int | None, started: str | None, added: int,
                        paused_seconds: int, paused_at: str | None) -> None:
        """A round's clock as the director leaves it (started, paused, run again, minutes added; ``minutes`` None: no
        clock): the event's edits one more (the board and the tables' phones follow the clock)."""
        self._run("UPDATE event_rounds SET clock_minutes = ?, clock_started = ?, clock_added = ?, "
                  "clock_paused_seconds = ?, clock_paused_at = ? WHERE event_id = ? AND number = ? "
                  "AND space = referee_space()",
                  [minutes, started, added, paused_seconds, paused_at, event_id, round_number])
        self._run("UPDATE events SET edited = edited + 1 WHERE id = ? AND space = referee_space()", [event_id])

    def reseat_match(self, match_id: int, players: list[str]) -> None:
        """A match with no deal yet, its players in other seats: seat 1 deals first, every total 0."""
        self._run("UPDATE matches SET players = ?, first_dealer = ?, totals = ? WHERE id = ? "
                  "AND space = referee_space()",
                  [jsontext.dumps(players), players[0], jsontext.dumps({p: 0 for p in players}), match_id])

    # ---- rounds and tables ----------------------------------------------------------------------------------------
    def insert_round(self, event_id: int, number: int, seed: int, byes: list[str]) -> None:
        """A round drawn now (its tables follow: ``insert_table``)."""
        self._run("INSERT INTO event_rounds (event_id, number, seed, byes, drawn, space) "
                  "VALUES (?, ?, ?, ?, ?, referee_space())",
                  [event_id, number, seed, jsontext.dumps(byes), now()])

    def insert_table(self, event_id: int, round_number: int, number: int, match_id: int) -> None:
        self._run("INSERT INTO event_tables (event_id, round, number, match_id, space) "
                  "VALUES (?, ?, ?, ?, referee_space())",
                  [event_id, round_number, number, match_id])

    def set_table_ended(self, event_id: int, round_number: int, number: int, ended: str | None) -> None:
        """When the director ended a table (None: taken up again)."""
        if ended is None:
            self._run("UPDATE event_tables SET ended_by_director = NULL WHERE event_id = ? AND round = ? "
                      "AND number = ? AND space = referee_space()", [event_id, round_number, number])
        else:
            self._run("UPDATE event_tables SET ended_by_director = ? WHERE event_id = ? AND round = ? AND number = ? "
                      "AND space = referee_space()",
                      [ended, event_id, round_number, number])

    # ---- the tables' links ----------------------------------------------------------------------------------------
    def linked_tables(self, event_id: int) -> set[int]:
        """The physical tables that have a link, working or revoked."""
        return {int(row[0]) for row in self._run("SELECT DISTINCT number FROM event_links WHERE event_id = ? "
                                                 "AND space = referee_space()", [event_id]).fetchall()}

    def insert_link(self, event_id: int, number: int, token: str, created: str) -> None:
        self._run("INSERT INTO event_links (token, event_id, number, created, space) "
                  "VALUES (?, ?, ?, ?, referee_space())",
                  [token, event_id, number, created])

    def revoke_links(self, event_id: int, number: int, revoked: str) -> None:
        """The working link of a physical table stops working (revoked at ``revoked``)."""
        self._run("UPDATE event_links SET revoked = ? WHERE event_id = ? AND number = ? AND revoked IS NULL "
                  "AND space = referee_space()",
                  [revoked, event_id, number])

    def link_row(self, token: str) -> LinkRow | None:
        """What a token an event gave opens; None for a token no event gave."""
        row = self._one(
            "SELECT l.event_id, l.number, l.revoked, (SELECT MAX(r.number) FROM event_rounds r WHERE r.event_id = "
            "l.event_id AND r.space = referee_space()) FROM event_links l WHERE l.token = ? "
            "AND l.space = referee_space()", [token])
        return None if row is None else LinkRow.from_row(row)

    def table_matches(self, event_id: int, number: int) -> list[tuple[int, int]]:
        """(round, match id) of a physical table in every round it was played, in round order."""
        return [(row[0], row[1]) for row in self._run(
            "SELECT round, match_id FROM event_tables WHERE event_id = ? AND number = ? AND space = referee_space() "
            "ORDER BY round",
            [event_id, number]).fetchall()]

    # ---- what a table's match page and link ask -------------------------------------------------------------------
    def table_closing(self, match_id: int) -> TableClosing | None:
        """(the table's round, the event's latest round, rounds planned, ended by the director, the match's players as
        JSON, how many confirmed it as it stands, tables of its round still playing, whether the event ended) of a
        table's match, in one query (``club.link_closed``); None for a match that is no event's table."""
        row = self._one(
            "SELECT t.round, (SELECT MAX(r.number) FROM event_rounds r WHERE r.event_id = t.event_id "
            "AND r.space = referee_space()), e.rounds, t.ended_by_director IS NOT NULL, m.players, "
            "(SELECT COUNT(DISTINCT c.player) FROM confirmations c WHERE c.match_id = m.id AND c.version = m.version "
            "AND c.space = referee_space()), "
            f"{_PLAYING_IN_ROUND}, e.ended IS NOT NULL "
            "FROM event_tables t JOIN events e ON e.id = t.event_id JOIN matches m ON m.id = t.match_id "
            "WHERE t.match_id = ? AND t.space = referee_space() AND e.space = referee_space() "
            "AND m.space = referee_space()", [match_id])
        return None if row is None else read_row(TableClosing, row)

    def table_place(self, match_id: int) -> TablePlace | None:
        """(event, its name, its kind, round, table, rounds planned, ended by the director, the latest round, whether
        it shows the chances to win, whether the event ended) of a table's match; None for a match of its own."""
        row = self._one(
            "SELECT t.event_id, e.name, e.kind, t.round, t.number, e.rounds, t.ended_by_director IS NOT NULL, "
            "(SELECT MAX(r.number) FROM event_rounds r WHERE r.event_id = t.event_id AND r.space = referee_space()), "
            "e.show_chances, e.ended IS NOT NULL "
            "FROM event_tables t JOIN events e ON e.id = t.event_id WHERE t.match_id = ? AND t.space = referee_space() "
            "AND e.space = referee_space()", [match_id])
        return None if row is None else read_row(TablePlace, row)

    def tables_playing(self, event_id: int, round_number: int) -> int:
        """How many tables of a round still play (their match not finished, nor ended by the director)."""
        return int(self._value(
            "SELECT COUNT(*) FROM event_tables t JOIN matches m ON m.id = t.match_id WHERE t.event_id = ? "
            "AND t.round = ? AND m.finished = 0 AND t.ended_by_director IS NULL AND t.space = referee_space() "
            "AND m.space = referee_space()", [event_id, round_number]))

    def round_seats(self, event_id: int, round_number: int) -> list[tuple[int, list[str]]]:
        """(table number, its players in seat order) of each table of a round."""
        return [(int(row[0]), jsontext.parse(row[1])) for row in self._run(
            "SELECT t.number, m.players FROM event_tables t JOIN matches m ON m.id = t.match_id "
            "WHERE t.event_id = ? AND t.round = ? AND t.space = referee_space() AND m.space = referee_space() "
            "ORDER BY t.number", [event_id, round_number]).fetchall()]

    def round_byes(self, event_id: int, round_number: int) -> list[str] | None:
        """Who sits out a round; None: no such round."""
        found = self._one("SELECT byes FROM event_rounds WHERE event_id = ? AND number = ? AND space = referee_space()",
                          [event_id, round_number])
        return jsontext.parse(found[0]) if found else None

    def table_state(self, match_id: int) -> tuple[int, ...] | None:
        """Counts that move with what a table's phone follows besides its match (rounds drawn and planned, the
        event's edits, the table ended or taken up again, its links, its confirmations, its round's tables still
        playing), in one query; None: the match is not a table of an event."""
        row = self._one(
            "SELECT (SELECT COUNT(*) FROM event_rounds r WHERE r.event_id = t.event_id AND r.space = referee_space()), "
            "e.rounds, e.edited, t.ended_by_director IS NOT NULL, "
            "(SELECT COUNT(*) FROM event_links l WHERE l.event_id = t.event_id AND l.number = t.number "
            "AND l.space = referee_space()), "
            "(SELECT COUNT(*) FROM confirmations c WHERE c.match_id = t.match_id AND c.space = referee_space()), "
            f"{_PLAYING_IN_ROUND} "
            "FROM event_tables t JOIN events e ON e.id = t.event_id WHERE t.match_id = ? AND t.space = referee_space() "
            "AND e.space = referee_space()", [match_id])
        return None if row is None else tuple(int(x) for x in row)

    # ---- confirmations (RULES.md 5.6) -----------------------------------------------------------------------------
    def confirmations(self, match_id: int, version: int) -> list[tuple[str, str]]:
        """(player, when) of each confirmation given at the match's version ``version``, earliest first."""
        return [(row[0], row[1]) for row in self._run(
            "SELECT player, at FROM confirmations WHERE match_id = ? AND version = ? AND space = referee_space() "
            "ORDER BY at, player",
            [match_id, version]).fetchall()]

    def add_confirmation(self, match_id: int, player: str, version: int) -> None:
        """A player confirms the match as it stands now; a second confirmation of the same version changes nothing."""
        self._run("INSERT INTO confirmations (match_id, player, version, at, space) "
                  "VALUES (?, ?, ?, ?, referee_space()) ON CONFLICT DO NOTHING", [match_id, player, version, now()])
