"""Before anything is written at start: the SQLite file must be there, readable, writable and whole; what Referee says
(one paragraph, ``CannotStart``) when it is not."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import IO

import click

from .urls import is_postgres


class CannotStart(click.ClickException):
    """Referee cannot start as configured (a damaged or read-only database, a bad setting): one paragraph
    for people, no traceback (``referee`` and ``flask --app referee ...`` print it and exit non-zero)."""

    exit_code = 2

    def show(self, file: IO[str] | None = None) -> None:
        click.echo(self.format_message(), err=True)


def _restore_advice(path: Path) -> str:
    return (f"Nothing was changed in it. To go on, restore your latest backup: stop Referee, copy the backup "
            f"(made with `flask --app referee backup`) over {path}, or start on the backup directly with "
            f"REFEREE_DATABASE=/path/to/backup.sqlite. Keep the damaged file: sqlite3's `.recover` command may "
            f"still get recent matches out of it.")


# Below this much free space in the database's folder, a start is refused as a full disk: SQLite needs room for
# its write-ahead log and shared-memory index (32 KiB) before it can even read a WAL database.
MIN_FREE_BYTES = 256 * 1024
_KEEP = "The database file was not changed and needs no restoring: do not copy a backup over it."


def free_bytes(folder: Path) -> int | None:
    """Free space for this user in ``folder`` (None where it cannot be told)."""
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs on Windows
        return None
    return st.f_bavail * st.f_frsize


def _existing_folder(path: Path) -> Path:
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def _full_disk(path: Path) -> str:
    folder = _existing_folder(path)
    free = free_bytes(folder)
    amount = f" ({free // 1024} KiB free)" if free is not None else ""
    kept = _KEEP if path.exists() else "No database was created yet."
    return (f"Referee did not start: the disk holding {folder} is full{amount}. Free some space there, or set "
            f"REFEREE_DATABASE to a file on a disk with room, and start again. {kept}")


def _os_problem(path: Path, exc: OSError) -> str:
    """What an OSError at start means, said with advice that risks nothing."""
    reason = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return _full_disk(path)
    if exc.errno == errno.EROFS:
        return (f"Referee did not start: the database file {path} is on a read-only file system ({reason}). "
                "Mount it writable, or set REFEREE_DATABASE to a file on a writable disk. " + _KEEP)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"Referee did not start: the database file {path} cannot be written ({reason}). It may be "
                "read-only, owned by another user or marked immutable. Make it writable by the user running "
                "Referee (e.g. chmod u+w), or set REFEREE_DATABASE to a file that is. Nothing was changed.")
    if exc.errno == errno.EIO:
        return (f"Referee did not start: the disk holding {path} reported an input/output error ({reason}). "
                "The disk or its connection may be failing: check it (e.g. dmesg), and copy the database file "
                "somewhere safe before anything else. Do not copy a backup over it: the file itself may be whole.")
    return (f"Referee did not start: the database file {path} cannot be opened ({reason}). " + _KEEP)


_NOT_THE_DISK = ""  # an error of SQL, not of the disk or the file (a migration that cannot run): raised as it is


def _sqlite_problem(path: Path, exc: sqlite3.Error) -> str | None:
    """What SQLite's error at start means; None for a damaged file (the caller says that), ``_NOT_THE_DISK`` for
    an error that is not about the disk or the file."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == sqlite3.SQLITE_FULL:
        return _full_disk(path)
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return None
    free = free_bytes(_existing_folder(path))
    if free is not None and free < MIN_FREE_BYTES:
        return _full_disk(path)  # SQLite says "disk I/O error" when it cannot make its -shm file on a full disk
    if code == sqlite3.SQLITE_READONLY:
        return _os_problem(path, OSError(errno.EROFS, "SQLite says the file is read-only"))
    if code in (sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH):
        return _os_problem(path, OSError(errno.EACCES, str(exc)))
    if code in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN):
        return _os_problem(path, OSError(errno.EIO, str(exc)))
    return _NOT_THE_DISK


def start_problem(path: str | Path, exc: BaseException) -> CannotStart | None:
    """The one paragraph for an error met while opening, creating or migrating the database at start (a full
    disk on a fresh start, a read-only file system ...); None when it is not about the disk or the file."""
    if is_postgres(path):
        from . import postgres

        message = postgres.start_problem(str(path), exc)
        return CannotStart(message) if message else None
    path = Path(path)
    if isinstance(exc, OSError):
        return CannotStart(_os_problem(path, exc))
    if isinstance(exc, sqlite3.Error):
        message = _sqlite_problem(path, exc)
        if message == _NOT_THE_DISK:
            return None
        return CannotStart(message or f"Referee did not start: the database file {path} is damaged (SQLite says: "
                           f"{exc}). {_restore_advice(path)}")
    return None


def check_health(path: str | Path) -> None:
    """Before anything is written at start: the file must be readable, writable and whole (``PRAGMA
    quick_check``), on a disk with room. Raises CannotStart with one paragraph saying what is wrong and what to
    do; only a file SQLite finds damaged gets the advice to restore a backup. A PostgreSQL database must answer
    and be recent enough (``postgres.check_server``)."""
    if is_postgres(path):
        from . import postgres

        try:
            postgres.check_server(str(path))
        except Exception as exc:
            problem = postgres.start_problem(str(path), exc)
            if problem is None:
                raise
            raise CannotStart(problem) from None
        return
    path = Path(path)
    if str(path) == ":memory:":
        return
    if not path.exists():
        free = free_bytes(_existing_folder(path))
        if free is not None and free < MIN_FREE_BYTES:
            raise CannotStart(_full_disk(path))
        return
    if path.is_dir():
        raise CannotStart(f"Referee did not start: the database path {path} is a folder, not a file. Set "
                          "REFEREE_DATABASE to the path of a file.")
    try:
        with open(path, "r+b"):
            pass
    except OSError as exc:
        raise CannotStart(_os_problem(path, exc)) from None
    if not os.access(path.parent, os.W_OK):
        raise CannotStart(
            f"Referee did not start: the folder {path.parent} of the database cannot be written, and SQLite needs "
            "to write its journal beside the file. Make the folder writable by the user running Referee. "
            "Nothing was changed."
        )
    free = free_bytes(path.parent)
    if free is not None and free < MIN_FREE_BYTES:
        raise CannotStart(_full_disk(path))
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=15)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        message = _sqlite_problem(path, exc)
        if message:
            raise CannotStart(message) from None
        rows = [(str(exc),)]  # damaged, or an error SQLite's check should not give: the check failed
    if rows != [("ok",)]:
        detail = "; ".join(str(r[0]) for r in rows[:3]) + (f" (and {len(rows) - 3} more)" if len(rows) > 3 else "")
        raise CannotStart(
            f"Referee did not start: the database file {path} is damaged or is not a Referee database (SQLite's "
            f"check says: {detail}). {_restore_advice(path)}"
        )

