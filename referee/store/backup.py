"""A backup's copy (``backup_to``): a live SQLite database copied by SQLite's online backup API, or a PostgreSQL
database read table by table from one snapshot, into a new SQLite file of the same schema, which Referee can run on
directly or import elsewhere. The copy is checked (``PRAGMA integrity_check``) and its matches and deals counted.

Where the copy is written, when it is moved into place and what is said of it are ``referee.portable.backup``'s:
this module is the database work alone."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .locks import close_write_lock
from .urls import is_postgres

BATCH = 5000  # rows of a PostgreSQL table read, and written to the copy, at a time


@dataclass(frozen=True)
class Copied:
    """What a copy came to: what SQLite's integrity check said of it when that was not "ok" (empty: the copy is
    whole), and, when whole, how many matches and deals it holds."""

    problems: list[tuple[object, ...]]
    matches: int = 0
    deals: int = 0


def database_file(database: str | Path) -> Path | None:
    """The file a database is (SQLite's); None for a database on a server (PostgreSQL's)."""
    return None if is_postgres(database) else Path(database)


def backup_to(source: str | Path, target: Path) -> Copied:
    """Copy the database ``source`` (a SQLite file's path, or a ``postgresql://`` URL) into the SQLite file
    ``target`` (nothing there, or an empty file: ``mkstemp``'s). ``target`` is left as it is, whole or not: the
    caller removes it when the copy is not whole (``Copied.problems``) or this raises."""
    if is_postgres(source):
        return _from_postgres(str(source), target)
    return _from_sqlite(Path(source), target)


def _from_sqlite(source: Path, target: Path) -> Copied:
    """SQLite's online backup API in one step (so one snapshot, while other connections keep writing), into a
    self-contained file (no WAL beside it). An error of the source while copying is the check's answer."""
    src = sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True, timeout=15)
    try:
        dst = sqlite3.connect(target)
        try:
            try:
                src.backup(dst)  # pages=-1: everything in one step
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                rows = dst.execute("PRAGMA integrity_check").fetchall()
            except sqlite3.DatabaseError as exc:
                rows = [(str(exc),)]
            if rows != [("ok",)]:
                return Copied(rows)
            return Copied([], *_counts(dst))
        finally:
            dst.close()
    finally:
        src.close()


def _from_postgres(url: str, target: Path) -> Copied:
    """A new SQLite file of the latest schema, filled table by table from one snapshot of the PostgreSQL database
    (a repeatable-read, read-only transaction)."""
    from . import postgres, sqlite

    target.unlink(missing_ok=True)  # a new database there, its schema migrated as a new database's is
    sqlite.connect(target).close()
    close_write_lock(target)
    src = postgres.connect(url, migrate_schema=False)
    try:
        dst = sqlite3.connect(target)
        try:
            src.conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            tables = [row[0] for row in dst.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            dst.execute("DELETE FROM spaces")  # the new file's own first space: the database's spaces replace it
            for table in tables:
                columns = [row[1] for row in dst.execute(f"PRAGMA table_info({table})")]
                names = ", ".join(columns)
                cursor = src.conn.execute(f"SELECT {names} FROM {table}")
                while rows := cursor.fetchmany(BATCH):
                    dst.executemany(f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})", rows)
            src.conn.execute("ROLLBACK")
            dst.commit()
            dst.execute("PRAGMA journal_mode = DELETE")
            check = dst.execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                return Copied(check)
            return Copied([], *_counts(dst))
        finally:
            dst.close()
    finally:
        src.close()


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    try:
        return (conn.execute("SELECT count(*) FROM matches").fetchone()[0],
                conn.execute("SELECT count(*) FROM deals").fetchone()[0])
    except sqlite3.OperationalError:  # a database without Referee's tables yet
        return 0, 0
