"""The store: everything Referee keeps, behind one typed interface (``Store``, ``protocol``), on the embedded SQLite
file (``sqlite.SqliteStore``) or on PostgreSQL (``postgres.PostgresStore``). Every SQL statement and every import of
a database driver lives in this package; the rest of Referee calls a store's methods, in the terms of its domain,
and never asks which database it is on.

    db = store.connect(url)          # a store of its own (the command line, a tool), migrated
    db = store.lend(url)             # a request's, from this process's pool; db.give_back() at its end
    with db.immediate():             # a write transaction taken up front
        db.insert_match(...)
"""

from __future__ import annotations

from pathlib import Path

# The error of a damaged, unreadable or full SQLite file (an error page says which; a session is signed out)
from sqlite3 import DatabaseError
from typing import TYPE_CHECKING

from .base import (
    DEFAULT_MAX_DEALS,
    DEFAULT_MAX_EVENTS,
    DEFAULT_MAX_MATCHES,
    EVENTS_PER_DEAL,
    Unscoped,
    _group_of,
    after_commit,
    now,
)
from .health import CannotStart, check_health, free_bytes, start_problem
from .locks import LOCK_SUFFIX, WriteLock, close_write_lock, open_lock_file, write_lock
from .match_log import TooManyActions, acting_device, acting_table
from .protocol import Store
from .schema import MIGRATIONS
from .space_rows import REF as DIRECTOR_LINK_REF
from .space_rows import DirectorLink, SpaceFull, SpaceRow
from .sqlite import TooNew, close_idle
from .urls import is_postgres, redact, shown

if TYPE_CHECKING:
    from .postgres import PostgresStore
    from .sqlite import SqliteStore

__all__ = [
    "DEFAULT_MAX_DEALS",
    "DEFAULT_MAX_EVENTS",
    "DEFAULT_MAX_MATCHES",
    "DIRECTOR_LINK_REF",
    "EVENTS_PER_DEAL",
    "LOCK_SUFFIX",
    "MIGRATIONS",
    "CannotStart",
    "DatabaseError",
    "DirectorLink",
    "SpaceFull",
    "SpaceRow",
    "Store",
    "TooManyActions",
    "TooNew",
    "Unscoped",
    "WriteLock",
    "_group_of",
    "acting_device",
    "acting_table",
    "after_commit",
    "check_health",
    "close_idle",
    "close_write_lock",
    "connect",
    "forget",
    "free_bytes",
    "kind_of",
    "lend",
    "now",
    "open_lock_file",
    "outage_errors",
    "problem_of",
    "redact",
    "shown",
    "start_problem",
    "unreachable",
    "write_lock",
]


def connect(url: str | Path, migrate_schema: bool = True, space: int = 1) -> SqliteStore | PostgresStore:
    """A store of its own on ``url`` (a SQLite file's path, or a ``postgresql://`` URL), migrated to the latest
    schema unless told not to, working in ``space`` (1: the Referee as it always was); ``close()`` it when done."""
    if is_postgres(url):
        from . import postgres

        return postgres.connect(str(url), migrate_schema, space)
    from . import sqlite

    return sqlite.connect(url, migrate_schema, space)


def lend(url: str | Path, space: int = 1) -> SqliteStore | PostgresStore:
    """A store for one request (``web.db.get_db``), working in ``space``: kept between requests by this process, not
    migrated (the app migrated at start). ``give_back()`` it at the request's end."""
    if is_postgres(url):
        from . import postgres

        return postgres.lend(str(url), space)
    from . import sqlite

    return sqlite.lend(str(url), space)


def kind_of(url: str | Path) -> str:
    """What a health check reports of the database: "sqlite" or "postgresql"."""
    return "postgresql" if is_postgres(url) else "sqlite"


def unreachable(exc: BaseException) -> bool:
    """Is ``exc`` the database not being there (PostgreSQL down, restarting, out of reach), rather than an error of
    a request? (A SQLite file is always there: its errors are the request's, or the disk's.)"""
    import sys

    if "psycopg" not in sys.modules:
        return False
    from . import postgres

    return postgres.unreachable(exc)


def problem_of(url: str | Path, exc: BaseException) -> str | None:
    """One line for an error of the database itself met by a command (a backup): SQLite's as it says it, PostgreSQL's
    without its password; None for any other error."""
    import sqlite3

    if isinstance(exc, sqlite3.Error):
        return str(exc)
    if is_postgres(url) and "psycopg" in __import__("sys").modules:
        from . import postgres

        return postgres.start_problem(str(url), exc)
    return None


def outage_errors(url: str | Path) -> tuple[type[Exception], ...]:
    """The errors the database at ``url`` raises when it is out of reach (``unreachable`` tells which of them it is):
    PostgreSQL's OperationalError; none for SQLite (whose processes then never load PostgreSQL's driver: 50 ms of
    every start)."""
    if not is_postgres(url):
        return ()
    try:
        import psycopg
    except ImportError:  # PostgreSQL is an optional dependency
        return ()
    return (psycopg.OperationalError,)


def forget(url: str | Path) -> None:
    """This process is done with ``url`` (a test's database, about to be dropped or moved): its kept stores closed,
    its pool, its change feed and its lock file let go."""
    if is_postgres(url):
        from . import postgres

        postgres.stop_listening(str(url))
        return
    close_idle()
    close_write_lock(url)
