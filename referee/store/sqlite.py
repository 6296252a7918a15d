"""The embedded default: one SQLite file (sqlite-utils over sqlite3), in WAL mode, migrated by ``schema.MIGRATIONS``
(the version in ``PRAGMA user_version``). ``SqliteStore`` runs the statements the mixins say alike as written, and
says in SQLite's own dialect what differs: ``BEGIN IMMEDIATE`` behind the file's ``WriteLock``, a new row's id
(``lastrowid``), the schema's version. Its change feed is the database itself: a live page's poll reads the match's
version (one indexed row), an event's board its state.

Between requests, a process keeps up to ``KEEP`` stores open on the file last used (``lend``, ``give_back``)."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from sqlite_utils import Database

from .base import SPACE, Cursor, scoped
from .club import ClubRows
from .feed import Feed, feed_for
from .links import Links
from .locks import WriteLock, write_lock
from .match_log import MatchLog
from .matches import MatchRows
from .portable import PortableRows
from .protocol import Store
from .schema import MIGRATIONS
from .seasons import SeasonRows
from .sheets import SheetRows
from .spaces import SpaceRows
from .tuples import Health, SQLParam

KIND = "sqlite"


class SqliteStore(MatchRows, MatchLog, Links, ClubRows, SeasonRows, SheetRows, PortableRows, SpaceRows):
    """A store on one SQLite file (or ``:memory:``)."""

    kind = KIND

    def __init__(self, path: str | Path, space: int = 1) -> None:
        self.path = str(path)
        self._space = int(space)
        # autocommit: a statement outside BEGIN … COMMIT is its own transaction, as on PostgreSQL (and as sqlite-utils
        # wrote its inserts and updates); every write transaction is an explicit BEGIN IMMEDIATE (``immediate``)
        self.conn = sqlite3.connect(self.path, timeout=15, check_same_thread=False, isolation_level=None)
        self.db = Database(self.conn)  # sqlite-utils, for the tools and tests that look inside the file
        self.write_lock = write_lock(path) if self.path != ":memory:" else WriteLock(None)
        self.opened_on: Identity = _identity(self.path)
        # the space of every statement (``base.scoped``): the store's, read when a statement runs
        self.conn.create_function("referee_space", 0, self._space_now, deterministic=True)
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA busy_timeout = 15000")
        if self.path != ":memory:":
            with self.db.ensure_autocommit_on():
                self.conn.execute("PRAGMA journal_mode = WAL")

    def _space_now(self) -> int:
        return self._space

    # ---- the primitives --------------------------------------------------------------------------------------
    def _run(self, sql: str, params: Sequence[SQLParam] = ()) -> Cursor:
        return self.conn.execute(scoped(sql), params)

    def _run_many(self, sql: str, rows: Sequence[Sequence[SQLParam]]) -> None:
        self.conn.executemany(scoped(sql), rows)

    def _insert_returning(self, sql: str, params: Sequence[SQLParam]) -> int | None:
        cursor = self.conn.execute(scoped(sql), params)
        return int(cursor.lastrowid) if cursor.rowcount == 1 and cursor.lastrowid is not None else None

    def _begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        self.conn.execute("COMMIT")

    def _rollback(self) -> None:
        self.conn.rollback()

    def _committed(self) -> None:
        feed_for(self.path, self.path).pulse()

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    # ---- raw SQL, for tests and tools (not part of the Protocol) ---------------------------------------------
    def execute(self, sql: str, params: Sequence[SQLParam] = ()) -> Cursor:
        return self.conn.execute(sql, params)

    def query(self, sql: str, params: Sequence[SQLParam] = ()) -> list[dict[str, object]]:
        cursor = self.conn.execute(sql, params)
        names = [c[0] for c in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # ---- the schema ------------------------------------------------------------------------------------------
    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> int:
        """Apply the migrations this file has not had yet, in one transaction. Foreign keys are off while they run
        (SQLite adds a column referencing another table only so: version 17's ``space``) and checked before the
        transaction commits."""
        if self.schema_version() >= len(MIGRATIONS):
            if self.schema_version() > len(MIGRATIONS):
                raise TooNew(self.schema_version(), len(MIGRATIONS))
            return self.schema_version()
        self.conn.execute("PRAGMA foreign_keys = OFF")
        try:
            with self.immediate():
                version = self.schema_version()
                if version > len(MIGRATIONS):
                    raise TooNew(version, len(MIGRATIONS))
                for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                    for statement in statements(script):
                        self.conn.execute(statement)
                    self.conn.execute(f"PRAGMA user_version = {number}")
                broken = self.conn.execute("PRAGMA foreign_key_check").fetchmany(3)
                if broken:
                    raise sqlite3.IntegrityError(f"the migrated database breaks its foreign keys: {broken}")
        finally:
            self.conn.execute("PRAGMA foreign_keys = ON")
        return self.schema_version()

    # ---- the change feed -------------------------------------------------------------------------------------
    def current_version(self, match_id: int) -> int | None:
        """A match's version now (every change in any process adds one); None: no such match."""
        return self.match_version(match_id)

    def event_generation(self, event_id: int) -> tuple[int, int] | None:
        """None: nothing is heard here, an event's board is read each time (one query of counts)."""
        return None

    def feed(self) -> Feed:
        """This process's signal of the file's changes: this process's commits at once, another's within a second
        (``feed``)."""
        return feed_for(self.path, self.path)

    def health(self) -> Health:
        self._run(f"SELECT COUNT(*) FROM matches WHERE id = 0 AND space = {SPACE}").fetchone()
        return {"database": KIND, "schema": self.schema_version()}

    # ---- kept between requests -------------------------------------------------------------------------------
    def close(self) -> None:
        self.conn.close()

    def give_back(self) -> None:
        """This store is done with (a request's end): a transaction left open is rolled back, and it waits for the
        next request (``lend``), or is closed when ``KEEP`` wait already (the longest waiting first). Stores waiting
        on another file are closed: the pool keeps those of one file, the one a request used last (a process serves
        one database; tests make many apps, one after another)."""
        try:
            if self.conn.in_transaction:
                self.conn.rollback()
        except sqlite3.ProgrammingError:  # closed meanwhile (by whoever had it): nothing to keep
            return
        with _idle_guard:
            waiting = [(i, kept) for i, kept in _idle if i[0] == self.opened_on[0]] + [(self.opened_on, self)]
            closing = [kept for i, kept in _idle if i[0] != self.opened_on[0]]
            closing += [kept for _, kept in waiting[:-KEEP]]
            _idle[:] = waiting[-KEEP:]
        for old in closing:
            old.close()


class TooNew(RuntimeError):
    def __init__(self, version: int, known: int) -> None:
        super().__init__(f"This database has schema version {version}, newer than this Referee knows ({known}): "
                         "use a newer Referee, or a backup made by this one.")


def statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def connect(path: str | Path, migrate_schema: bool = True, space: int = 1) -> SqliteStore:
    """Open (creating if needed) the database file, with WAL and foreign keys, migrated to the latest schema; the
    store works in ``space``."""
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = SqliteStore(path, space)
    db.opened_on = _identity(str(path))  # after the file was made
    if migrate_schema:
        db.migrate()
    return db


# ---- kept between requests ---------------------------------------------------------------------------------------
#
# Why stores are kept between requests rather than opened for each, as flaskr does: opening one runs its PRAGMAs (WAL,
# foreign keys, busy timeout) and reads the schema again, and closing the last one open on a file checkpoints its
# WAL. Measured on the deal POST (issue 23): server CPU a POST at 8 clients 2.71–2.82 ms opened per request against
# 2.06–2.25 ms kept. Keeping them costs a ``stat`` of the file per request (2 µs), which is how a database file
# replaced on disk is noticed: a store opened on another file by that name is closed, not lent.

KEEP = 16  # stores kept open between requests, at most (waitress runs 8 threads unless told otherwise)

# What a store was opened on: the path, and the file's device and inode then (None, None: no file yet).
Identity = tuple[str, int | None, int | None]

_idle: list[tuple[Identity, SqliteStore]] = []  # the stores no request holds, the last given back last
_idle_guard = threading.Lock()


def _identity(path: str) -> Identity:
    try:
        st = os.stat(path)
    except OSError:
        return (path, None, None)
    return (path, st.st_dev, st.st_ino)


def lend(path: str, space: int = 1) -> SqliteStore:
    """A store on ``path`` for a request, working in ``space``: the one given back last on the same file, or a new
    one."""
    identity = _identity(path)
    kept: SqliteStore | None = None
    stale: list[SqliteStore] = []
    with _idle_guard:
        for i in range(len(_idle) - 1, -1, -1):
            kept_identity, candidate = _idle[i]
            if kept_identity[0] != path:
                continue
            del _idle[i]
            if kept_identity == identity:
                kept = candidate
                break
            stale.append(candidate)
    for old in stale:
        old.close()
    if kept is None:
        return connect(path, migrate_schema=False, space=space)
    kept.bind_space(space)
    return kept


def close_idle() -> None:
    """Close every store no request holds (a test, or a script about to move the database file away)."""
    with _idle_guard:
        closing = [db for _, db in _idle]
        _idle.clear()
    for db in closing:
        db.close()


def _satisfies_the_protocol(db: SqliteStore) -> Store:
    """(For mypy: a SqliteStore is a ``Store``; never called.)"""
    return db
