"""A consistent backup (``backup``): a live SQLite database copied by SQLite's online backup API, or a PostgreSQL
database copied from one snapshot into the same kind of file; checked, and moved into place only when whole."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .. import pgstore, store


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
