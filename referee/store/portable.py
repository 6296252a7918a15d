"""An archive's export and import: the SQL both stores say alike (``PortableRows``, a mixin of ``SqliteStore`` and
``PostgresStore``). A backup's copy is a file's, each dialect's own: ``backup``.

An export reads every row as it is stored (``referee.portable.export``); an import writes the rows of a file exactly
as the file has them, with plain INSERTs (an archive has hundreds of thousands of rows), inside the one transaction
the caller holds (``referee.portable.importing``)."""

from __future__ import annotations

import secrets

from .base import SqlStore
from .rows import SeasonSettings, text_or_none, whole_or_none
from .tuples import ActionRow, ConfirmationRow, ExportedEvent, ExportedRound, ExportedTable, RevisionRow, read_row


class PortableRows(SqlStore):
    """An archive's export and import."""

    # ---- export ----------------------------------------------------------------------------------------------
    def all_match_ids(self) -> list[int]:
        """Every match's id, oldest first (so an import of the export keeps the order)."""
        return [row[0] for row in self._run("SELECT id FROM matches WHERE space = referee_space() ORDER BY id")
                .fetchall()]

    def all_event_ids(self) -> list[int]:
        """Every event's id, oldest first."""
        return [row[0] for row in self._run("SELECT id FROM events WHERE space = referee_space() ORDER BY id")
                .fetchall()]

    def all_season_settings(self) -> list[SeasonSettings]:
        """Every season's settings (name, game, best_of, league_points), by name and game."""
        return [SeasonSettings.from_row(row) for row in self._rows(
            "SELECT name, game, best_of, league_points FROM seasons WHERE space = referee_space() ORDER BY name, game")]

    def match_uid(self, match_id: int) -> str | None:
        return text_or_none(self._value("SELECT uid FROM matches WHERE id = ? AND space = referee_space()", [match_id]))

    def event_uid(self, event_id: int) -> str | None:
        return text_or_none(self._value("SELECT uid FROM events WHERE id = ? AND space = referee_space()", [event_id]))

    def exported_event_fields(self, event_id: int) -> ExportedEvent | None:
        """An event's own fields as an export writes them: uid, name, date, game, options, rounds, round_length,
        seating, season, tariff, seed, created, kind, avoid (JSON as stored), first_round, show_chances (0 or 1),
        entry_fee, prizes (JSON as stored), booby (0 or 1), round_minutes, ended (when it ended, or None)."""
        row = self._one(
            "SELECT uid, name, date, game, options, rounds, round_length, seating, season, tariff, seed, created, "
            "kind, avoid, first_round, show_chances, entry_fee, prizes, booby, round_minutes, ended FROM events "
            "WHERE id = ? AND space = referee_space()", [event_id])
        return None if row is None else read_row(ExportedEvent, row)

    def exported_event_players(self, event_id: int) -> list[tuple[str, int, int | None, str | None, str | None]]:
        """An event's players in the order they joined: (name, joined_round, left_round, when their fee was paid,
        what they paid: "5.00 EUR")."""
        return [tuple(row) for row in self._run(
            "SELECT name, joined_round, left_round, paid, paid_amount FROM event_players WHERE event_id = ? "
            "AND space = referee_space() ORDER BY position",
            [event_id]).fetchall()]

    def revoked_event_tables(self, event_id: int) -> dict[int, str]:
        """The tables of an event whose every link is revoked, each with when its last one was."""
        return {number: at for number, at in self._run(
            "SELECT number, MAX(revoked) FROM event_links WHERE event_id = ? AND space = referee_space() "
            "GROUP BY number "
            "HAVING COUNT(*) = COUNT(revoked)", [event_id]).fetchall()}

    def latest_event_round(self, event_id: int) -> int:
        """The number of an event's round in play (0: none drawn yet)."""
        rows = self._run("SELECT number FROM event_rounds WHERE event_id = ? AND space = referee_space()",
                         [event_id]).fetchall()
        return max((r[0] for r in rows), default=0)

    def exported_event_tables(self, event_id: int) -> list[ExportedTable]:
        """Every table of an event by round and number: (round, number, match id, the match's uid — None when the
        match is not there —, ended_by_director)."""
        return [read_row(ExportedTable, row) for row in self._run(
            "SELECT t.round, t.number, t.match_id, m.uid, t.ended_by_director FROM event_tables t "
            "LEFT JOIN matches m ON m.id = t.match_id AND m.space = referee_space() WHERE t.event_id = ? "
            "AND t.space = referee_space() ORDER BY t.round, t.number",
            [event_id]).fetchall()]

    def exported_event_rounds(self, event_id: int) -> list[ExportedRound]:
        """Every round of an event in order: (number, seed, byes as stored JSON, when it was drawn)."""
        return [read_row(ExportedRound, row) for row in self._run(
            "SELECT number, seed, byes, drawn FROM event_rounds WHERE event_id = ? AND space = referee_space() "
            "ORDER BY number",
            [event_id]).fetchall()]

    # ---- import: what is here already ------------------------------------------------------------------------
    def has_match_uid(self, uid: str) -> bool:
        return self._one("SELECT 1 FROM matches WHERE uid = ? AND space = referee_space()", [uid]) is not None

    def has_event_uid(self, uid: str) -> bool:
        return self._one("SELECT 1 FROM events WHERE uid = ? AND space = referee_space()", [uid]) is not None

    def match_id_of_uid(self, uid: str) -> int | None:
        return whole_or_none(self._value("SELECT id FROM matches WHERE uid = ? AND space = referee_space()", [uid]))

    def match_seats_of_uid(self, uid: str) -> tuple[int, str, str] | None:
        """The match of that uid here: (id, game, players as stored JSON); None: there is none."""
        row = self._one("SELECT id, game, players FROM matches WHERE uid = ? AND space = referee_space()", [uid])
        return None if row is None else (int(row[0]), str(row[1]), str(row[2]))

    def event_of_table(self, match_id: int) -> int | None:
        """The event whose table the match is (None: no event's)."""
        return whole_or_none(self._value(
            "SELECT event_id FROM event_tables WHERE match_id = ? AND space = referee_space()", [match_id]))

    # ---- import: the rows of a file --------------------------------------------------------------------------
    def set_imported_match(self, match_id: int, updated: str, abandoned: bool, ended_by_hand: bool) -> None:
        """What ``insert_match`` does not take of an imported match."""
        self._run("UPDATE matches SET updated = ?, abandoned = ?, ended_by_hand = ? WHERE id = ? "
                  "AND space = referee_space()",
                  [updated, int(abandoned), int(ended_by_hand), match_id])

    def import_deal(self, match_id: int, number: int, dealer: str, deal_input: str, void: bool, version: int,
                    last_action: str, created: str, updated: str) -> int:
        """A deal as the file has it (its input as JSON text), without a result (the match's rebuild gives it);
        its id."""
        new_id = self._insert_returning(
            "INSERT INTO deals (match_id, number, dealer, input, void, version, last_action, created, updated, "
            "space) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, referee_space())",
            [match_id, number, dealer, deal_input, int(void), version, last_action, created, updated],
        )
        if new_id is None:
            raise RuntimeError("no row was inserted into deals")
        return new_id

    def import_revisions(self, rows: list[RevisionRow]) -> None:
        """Earlier versions of deals: (deal id, version, input JSON, void, action, at, replaced_at) each."""
        self._run_many(
            "INSERT INTO deal_revisions (deal_id, version, input, void, action, at, replaced_at, space) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, referee_space())", rows)

    def import_actions(self, rows: list[ActionRow]) -> None:
        """A match's log of actions: (match id, deal_number, action, at, detail JSON, undone) each."""
        self._run_many(
            "INSERT INTO match_events (match_id, deal_number, action, at, detail, undone, space) "
            "VALUES (?, ?, ?, ?, ?, ?, referee_space())",
            rows)

    def import_confirmations(self, rows: list[ConfirmationRow]) -> None:
        """Confirmations of a match's result: (match id, player, version, at) each."""
        self._run_many("INSERT INTO confirmations (match_id, player, version, at, space) "
                       "VALUES (?, ?, ?, ?, referee_space())", rows)

    def add_missing_seasons(self, rows: list[tuple[str, str, int | None, str]]) -> None:
        """Seasons' settings (name, game, best_of, league_points) not here yet; the settings here are kept."""
        self._run_many(
            "INSERT INTO seasons (name, game, best_of, league_points, space) VALUES (?, ?, ?, ?, referee_space()) "
            "ON CONFLICT (space, name, game) DO NOTHING", rows)

    def import_event(self, name: str, date: str, game: str, options: str, rounds: int, round_length: str,
                     seating: str, season: str | None, tariff: str | None, seed: int, created: str, uid: str,
                     kind: str, avoid: str, first_round: str = "random", show_chances: bool = True,
                     entry_fee: str | None = None, prizes: str = "[]", booby: bool = False,
                     round_minutes: int | None = None) -> int:
        """An event's own row as the file has it (options, avoid and prizes as JSON text); its id."""
        new_id = self._insert_returning(
            "INSERT INTO events (name, date, game, options, rounds, round_length, seating, season, tariff, seed, "
            "created, uid, kind, avoid, first_round, show_chances, entry_fee, prizes, booby, round_minutes, space) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, referee_space())",
            [name, date, game, options, rounds, round_length, seating, season, tariff, seed, created, uid, kind,
             avoid, first_round, int(show_chances), entry_fee, prizes, int(booby), round_minutes])
        return int(new_id or 0)

    def import_event_players(self, event_id: int, players: list[tuple[str, int, int | None]]) -> None:
        """An event's players in the order they joined: (name, joined_round, left_round) each."""
        self._run_many(
            "INSERT INTO event_players (event_id, position, name, joined_round, left_round, space) "
            "VALUES (?, ?, ?, ?, ?, referee_space())",
            [(event_id, position, name, joined, left) for position, (name, joined, left) in enumerate(players)])

    def import_event_round(self, event_id: int, number: int, seed: int, byes: str, drawn: str) -> None:
        """One drawn round of an event (its byes as JSON text)."""
        self._run("INSERT INTO event_rounds (event_id, number, seed, byes, drawn, space) "
                  "VALUES (?, ?, ?, ?, ?, referee_space())",
                  [event_id, number, seed, byes, drawn])

    def import_event_table(self, event_id: int, round_number: int, number: int, match_id: int,
                           ended_by_director: str | None) -> None:
        self._run("INSERT INTO event_tables (event_id, round, number, match_id, ended_by_director, space) "
                  "VALUES (?, ?, ?, ?, ?, referee_space())",
                  [event_id, round_number, number, match_id, ended_by_director])

    def import_revoked_link(self, event_id: int, number: int, revoked: str) -> None:
        """A link of a table revoked in the round in play (a new token, made and revoked then): it stays so."""
        self._run("INSERT INTO event_links (token, event_id, number, created, revoked, space) "
                  "VALUES (?, ?, ?, ?, ?, referee_space())",
                  [secrets.token_urlsafe(18), event_id, number, revoked, revoked])
