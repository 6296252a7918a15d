"""A consistent backup (``backup``): a live SQLite database copied by SQLite's online backup API, or a PostgreSQL
database copied from one snapshot into the same kind of file (the copy itself: ``referee.store.backup``); checked,
and moved into place only when whole."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..store import DatabaseError, shown
from ..store.backup import backup_to, database_file


class DamagedDatabase(DatabaseError):
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

    A PostgreSQL database is backed up to the same kind of file (``store.backup.backup_to``): one snapshot of it,
    which Referee can run on directly (REFEREE_DATABASE=the file) or import elsewhere."""
    source = database_file(source_path)  # None: a database on a server, named by its URL without its password
    target = Path(target_path)
    _check_paths(source, target, force)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temp = Path(temp_name)
    try:
        copied = backup_to(source_path, temp)
        if copied.problems:
            raise DamagedDatabase(_damaged(source, source_path, target, copied.problems))
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    named: Path | str = source if source is not None else shown(str(source_path))
    return BackupReport(named, target, target.stat().st_size, copied.matches, copied.deals)


def _check_paths(source: Path | None, target: Path, force: bool) -> None:
    """Refuse (FileNotFoundError, IsADirectoryError, FileExistsError) a backup of a database file that is not
    there, or onto a folder, a file there already (unless ``force``), the database itself, or into no folder."""
    if source is not None and not source.is_file():
        raise FileNotFoundError(f"There is no database at {source}.")
    if target.is_dir():
        raise IsADirectoryError(f"{target} is a folder: give the path of the file to write.")
    if target.exists() and not force:
        raise FileExistsError(f"{target} already exists; use --force to overwrite it.")
    if source is not None and target.exists() and target.resolve() == source.resolve():
        raise FileExistsError(f"{target} is the database itself.")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"There is no folder {target.parent}.")


def _damaged(source: Path | None, source_path: str | Path, target: Path, rows: list[tuple[Any, ...]]) -> str:
    """What is said of a copy that failed SQLite's check: a database file's copy fails it when the file itself is
    damaged (its pages are copied as they are); a copy read from a server's tables, when the copying went wrong."""
    if source is None:
        return (f"The backup of {shown(str(source_path))} did not pass SQLite's check ({rows[:3]}): "
                f"nothing was written to {target}.")
    detail = "; ".join(str(r[0]) for r in rows[:3]) + (f" (and {len(rows) - 3} more)" if len(rows) > 3 else "")
    return (f"The database {source} is damaged (SQLite's integrity check says: {detail}), so no backup was "
            f"written to {target}: keep your earlier backups, they are the ones to restore from.")
