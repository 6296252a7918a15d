"""Storage: sqlite-utils on one SQLite file. Plain functions taking a Database.

What is stored is what players entered (the raw deal input) plus the game key and its options, and beside it
what the rules computed from that: each deal's result and the tally after it, the match's standing, with the
fingerprint of the rules that computed them (other rules: the match is replayed once from the entries). A
correction or a void never overwrites silently: the earlier version goes to ``deal_revisions`` first.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import sqlite3
import threading
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from contextvars import ContextVar
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import click
from sqlite_utils import Database
from sqlite_utils.db import Table

from . import jsontext, pgstore

try:
    import fcntl
except ImportError:  # Windows: writers of one process queue on the thread lock, other processes on SQLite's lock
    fcntl = None  # type: ignore[assignment]

# Each entry is one schema version; PRAGMA user_version records how many have been applied.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        players TEXT NOT NULL,            -- JSON list, seating order
        options TEXT NOT NULL,            -- JSON object, every option resolved
        first_dealer TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'in_progress',   -- in_progress | finished
        winner TEXT,
        totals TEXT NOT NULL DEFAULT '{}',            -- JSON, kept in step with the deals
        deal_count INTEGER NOT NULL DEFAULT 0,
        ended_by_hand INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX matches_status_updated ON matches(status, updated);
    CREATE TABLE deals (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        number INTEGER NOT NULL,
        dealer TEXT NOT NULL,
        input TEXT NOT NULL,              -- JSON, exactly what was entered
        void INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 1,
        last_action TEXT NOT NULL DEFAULT 'entered',  -- entered | corrected | voided | restored
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        UNIQUE (match_id, number)
    );
    CREATE TABLE deal_revisions (
        id INTEGER PRIMARY KEY,
        deal_id INTEGER NOT NULL REFERENCES deals(id),
        version INTEGER NOT NULL,
        input TEXT NOT NULL,
        void INTEGER NOT NULL,
        action TEXT NOT NULL,
        at TEXT NOT NULL,                 -- when this version was made
        replaced_at TEXT NOT NULL,        -- when a later version replaced it
        UNIQUE (deal_id, version)
    );
    """,
    # 2: the archive — a stable identity for export/import, place and note, abandoned matches, a per-player
    # summary of every match (history filters and player pages), and the log of actions (undo).
    """
    ALTER TABLE matches ADD COLUMN uid TEXT;
    UPDATE matches SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX matches_uid ON matches(uid);
    ALTER TABLE matches ADD COLUMN place TEXT NOT NULL DEFAULT '';
    ALTER TABLE matches ADD COLUMN note TEXT NOT NULL DEFAULT '';
    ALTER TABLE matches ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX matches_created ON matches(created, id);
    CREATE INDEX matches_game_created ON matches(game, created, id);
    CREATE INDEX matches_status_created ON matches(status, created, id);
    CREATE INDEX deals_match ON deals(match_id, number);
    CREATE TABLE match_players (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,           -- the same person across matches: case and spacing ignored
        game TEXT NOT NULL,
        created TEXT NOT NULL,
        status TEXT NOT NULL,
        total INTEGER NOT NULL DEFAULT 0,
        result TEXT,                      -- won | lost | draw, once the match is finished
        facts TEXT NOT NULL DEFAULT '{}', -- JSON: this player's figures in this match (game.player_facts)
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_players_name ON match_players(name_key, created);
    CREATE TABLE match_events (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        deal_number INTEGER,
        action TEXT NOT NULL,             -- entered | corrected | voided | restored | ended | abandoned | resumed | undone
        at TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}',
        undone INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX match_events_match ON match_events(match_id, id)
    """,  # noqa: E501 (a migration's SQL stays exactly as it was applied)
    # 3: read-only share links, and the keys that make a retried or double-tapped deal entry harmless.
    """
    CREATE TABLE share_links (
        token TEXT PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        created TEXT NOT NULL,
        revoked TEXT
    );
    CREATE INDEX share_links_match ON share_links(match_id);
    CREATE TABLE idempotency_keys (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        key TEXT NOT NULL,
        deal_number INTEGER NOT NULL,
        created TEXT NOT NULL,
        PRIMARY KEY (match_id, key)
    )
    """,
    # 4: signed-in sessions (logging out or changing the passphrase ends them), and the hash of the body an
    # idempotency key was first sent with (the same key with another body is refused).
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        seen TEXT NOT NULL                -- last request, to the hour: idle sessions expire
    );
    ALTER TABLE idempotency_keys ADD COLUMN body_hash TEXT
    """,
    # 5: Spitzer's option three_aces_partner (RULES.md 2.2) now defaults to "first-trick"; matches stored before
    # it existed were played with the partner being the first other player to win a trick: they keep that.
    """
    UPDATE matches SET options = json_set(options, '$.three_aces_partner', 'first-other')
    WHERE game = 'spitzer' AND json_extract(options, '$.three_aces_partner') IS NULL
    """,
    # 6: writes in constant time. Each deal keeps its computed result (NULL + its problems when it cannot be
    # scored), whether it counted and the rules' tally after it; the match keeps the standing the rules need for
    # the next deal, a version (every change) and the fingerprint of the rules that computed it: a match whose
    # fingerprint is not the running code's is replayed once and stored again (NULL: filled on first load).
    """
    ALTER TABLE deals ADD COLUMN result TEXT;
    ALTER TABLE deals ADD COLUMN problems TEXT;
    ALTER TABLE deals ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE deals ADD COLUMN after_end INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE deals ADD COLUMN tally TEXT;
    ALTER TABLE matches ADD COLUMN tally TEXT;
    ALTER TABLE matches ADD COLUMN next_dealer TEXT;
    ALTER TABLE matches ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN standing_note TEXT;
    ALTER TABLE matches ADD COLUMN ended_at INTEGER;
    ALTER TABLE matches ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE matches ADD COLUMN fingerprint TEXT;
    ALTER TABLE matches ADD COLUMN player_facts TEXT
    """,
    # 7: club play (RULES.md 5): an event, its players (in the order they joined; a leaver keeps their results),
    # its rounds with their seeds and byes, and each round's tables, every one an ordinary match.
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        date TEXT NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,            -- JSON object, every option resolved (deals from the round's length)
        rounds INTEGER NOT NULL,
        round_length TEXT NOT NULL,       -- 'match' | 'deals:N'
        seating TEXT NOT NULL,            -- 'standings' | 'random'
        season TEXT,
        tariff TEXT,
        seed INTEGER NOT NULL,            -- round 1's draw
        created TEXT NOT NULL
    );
    CREATE TABLE event_players (
        event_id INTEGER NOT NULL REFERENCES events(id),
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        joined_round INTEGER NOT NULL,    -- the first round they are drawn for
        left_round INTEGER,               -- the first round they are no longer drawn for
        PRIMARY KEY (event_id, position)
    );
    CREATE TABLE event_rounds (
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        byes TEXT NOT NULL,               -- JSON list
        drawn TEXT NOT NULL,
        PRIMARY KEY (event_id, number)
    );
    CREATE TABLE event_tables (
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ended_by_director TEXT,           -- when the director ended it early
        token TEXT NOT NULL UNIQUE,       -- the table link's secret: this match's deals and confirmations only
        revoked TEXT,                     -- when the director revoked it
        PRIMARY KEY (event_id, round, number)
    );
    CREATE INDEX event_tables_match ON event_tables(match_id);
    CREATE TABLE confirmations (          -- RULES.md 5.6: a player signs the result as the match stood (its version)
        match_id INTEGER NOT NULL REFERENCES matches(id),
        player TEXT NOT NULL,
        version INTEGER NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (match_id, player, version)
    )
    """,
    # 8: a table's link issued again after a revoke (a new token: the old one stays dead); how many times, so the
    # board's validator sees it.
    """
    ALTER TABLE event_tables ADD COLUMN renewed INTEGER NOT NULL DEFAULT 0
    """,
    # 9: a season's settings (RULES.md 5.8), per game; a season without a row counts every event by score. Its
    # events are those naming it (case aside). An event's uid: what an export knows it by (as a match's).
    """
    CREATE TABLE seasons (
        name TEXT NOT NULL COLLATE NOCASE,
        game TEXT NOT NULL,
        best_of INTEGER,                  -- the best this many events count (NULL: all)
        league_points TEXT NOT NULL DEFAULT 'score',  -- 'score' | 'placing'
        PRIMARY KEY (name, game)
    );
    CREATE INDEX events_season ON events(season COLLATE NOCASE);
    ALTER TABLE events ADD COLUMN uid TEXT;
    UPDATE events SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX events_uid ON events(uid)
    """,
    # 10: club play in the room (issue 33). A table's link belongs to the physical table for the whole event: table n
    # of whichever round is in play, so its card is printed once; a revoked link is kept (a phone still holding it is
    # told it was replaced) and the table's next link takes over. The links of each event's latest round carry on;
    # event_tables is made again without its own. An event says what it is (a club evening or a tournament: its
    # words follow) and which players to keep at different tables. A table's match no longer has its place written
    # in English ("… · round 1, table 2"): pages and sheets say it in the reader's language from the event. How many
    # times the director edited the event (its board's validator).
    """
    CREATE TABLE event_links (
        token TEXT PRIMARY KEY,           -- the secret of /t/<token> and of its table card's QR code
        event_id INTEGER NOT NULL REFERENCES events(id),
        number INTEGER NOT NULL,          -- the physical table: it opens table n of the round in play
        created TEXT NOT NULL,
        revoked TEXT                      -- when the director revoked it
    );
    CREATE UNIQUE INDEX event_links_working ON event_links(event_id, number) WHERE revoked IS NULL;
    INSERT INTO event_links (token, event_id, number, created, revoked)
        SELECT t.token, t.event_id, t.number, r.drawn, t.revoked FROM event_tables t
        JOIN event_rounds r ON r.event_id = t.event_id AND r.number = t.round
        WHERE t.round = (SELECT MAX(x.number) FROM event_rounds x WHERE x.event_id = t.event_id);
    CREATE TABLE event_tables_10 (
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        match_id INTEGER NOT NULL REFERENCES matches(id),
        ended_by_director TEXT,           -- when the director ended it early
        PRIMARY KEY (event_id, round, number)
    );
    INSERT INTO event_tables_10 (event_id, round, number, match_id, ended_by_director)
        SELECT event_id, round, number, match_id, ended_by_director FROM event_tables;
    DROP TABLE event_tables;
    ALTER TABLE event_tables_10 RENAME TO event_tables;
    CREATE INDEX event_tables_match ON event_tables(match_id);
    ALTER TABLE events ADD COLUMN kind TEXT NOT NULL DEFAULT 'club_evening';
    ALTER TABLE events ADD COLUMN avoid TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE events ADD COLUMN edited INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET place = (SELECT e.name FROM event_tables t JOIN events e ON e.id = t.event_id
                                WHERE t.match_id = matches.id)
        WHERE id IN (SELECT match_id FROM event_tables) AND place LIKE '% · round %, table %'
    """,
)


class CannotStart(click.ClickException):
    """Referee cannot start as configured (a damaged or read-only database, a bad setting): one paragraph
    for people, no traceback (``referee`` and ``flask --app referee ...`` print it and exit non-zero)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
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
    if pgstore.is_postgres(path):
        message = pgstore.start_problem(str(path), exc)
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
    and be recent enough (``pgstore.check_server``)."""
    if pgstore.is_postgres(path):
        try:
            pgstore.check_server(str(path))
        except Exception as exc:  # noqa: BLE001 - psycopg's errors, said in one line
            problem = pgstore.start_problem(str(path), exc)
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


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# One write lock per database file in this process, taken before BEGIN IMMEDIATE: writers of one process queue
# on it instead of sleeping in SQLite's busy handler (steps of 1-100 ms), which made p99 latency grow under load.
# Writers of other processes on the same file queue on a file lock beside it (see WriteLock).
LOCK_SUFFIX = ".write-lock"


class WriteLock:
    """Who writes to one database file next: the threads of this process queue on a thread lock, then — holding
    it, so one thread per process at a time — the processes queue on ``fcntl.flock`` of the lock file beside the
    database (``<database>.write-lock``). The kernel wakes a process waiting for a flock as soon as the holder lets
    go; SQLite's busy handler, which other processes met before, polls in sleeps of up to 100 ms, and a process
    whose threads kept taking the file in turn left the other's writers sleeping for seconds.

    The file lock only orders writers: SQLite's own lock still guards the file (busy_timeout waits for writers
    that do not take this lock: an older Referee, the sqlite3 shell). So where it cannot be had — no fcntl
    (Windows), a lock file that cannot be opened (a read-only folder), a file system refusing flock, ":memory:"
    — the thread lock alone is taken and nothing else changes. A process that dies holding it, even by SIGKILL,
    lets go with its last file descriptor: the kernel releases the flock. The lock file is never removed (a
    removed lock file would let two processes lock two different files).

    A file of its own rather than the database or its -shm: SQLite holds POSIX locks on those, which any close()
    of another descriptor to the same file in this process would drop; NFS emulates flock with POSIX locks, which
    would then meet SQLite's own; and the -shm is deleted when the last connection closes. Not ``<database>.lock``:
    SQLite's unix-dotfile VFS uses that name.

    ``with lock:`` takes both; ``write_grouped`` takes ``thread`` and then ``other_processes()`` itself."""

    def __init__(self, lock_file: str | None) -> None:
        self.thread = threading.Lock()
        self.lock_file = lock_file
        self._file: _LockFile | None = None  # the lock file, opened once per process
        self._pid = 0
        self._held = ExitStack()  # what ``with lock:`` took of other_processes()

    def __enter__(self) -> WriteLock:
        self.thread.acquire()
        try:
            self._held.enter_context(self.other_processes())
        except BaseException:
            self.thread.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._held.close()
        finally:
            self.thread.release()

    @contextmanager
    def other_processes(self) -> Iterator[None]:
        """The file lock, waited for by a thread that holds ``thread`` (for as long as another process writes)."""
        fd = self._descriptor()
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:  # ENOLCK, a file system without flock: SQLite's lock alone, as before
                fd = None
        try:
            yield
        finally:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Let go of the lock file's descriptor (after a write of this process in progress); the next write opens
        it again. For a process done with a database: a server keeps its one file's open while it runs, but a test
        run makes hundreds of databases, one descriptor each."""
        with self.thread:
            if self._file is not None:
                self._file.close()
            self._file = None

    def _descriptor(self) -> int | None:
        """The lock file's descriptor (opened once per process; tried again at the next write when it could not
        be); None when there is none to take."""
        if self.lock_file is None or fcntl is None:
            return None
        if self._file is None or self._pid != os.getpid():  # a forked child would share its parent's flock
            fd, self._pid = open_lock_file(self.lock_file), os.getpid()
            self._file = _LockFile(fd) if fd is not None else None
            if self._file is not None:  # closed with the lock, once no connection to its file is left (write_lock)
                weakref.finalize(self, self._file.close)
        return self._file.fd if self._file is not None else None


class _LockFile:
    """A lock file's descriptor, closed once: by ``WriteLock.close`` or when its lock goes, whichever comes first —
    never a second time (the number may by then be another file's)."""

    __slots__ = ("fd",)

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    def close(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)


def open_lock_file(lock_file: str) -> int | None:
    """The lock file beside a database, opened for flock (created, with the database's permissions and, for
    root, its owner — as SQLite makes its -wal and -shm files); None when it cannot be opened."""
    database = lock_file.removesuffix(LOCK_SUFFIX)
    try:
        fd = os.open(lock_file, os.O_RDONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    except FileExistsError:
        try:
            return os.open(lock_file, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
    except OSError:  # a read-only folder or file system, no permission: the thread lock alone
        return None
    try:
        st = os.stat(database)
        os.fchmod(fd, st.st_mode & 0o666)
        if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
            os.fchown(fd, st.st_uid, st.st_gid)
    except OSError:  # no database yet, or a file system without owners: the umask's permissions
        pass
    return fd


_write_locks: weakref.WeakValueDictionary[str, WriteLock] = weakref.WeakValueDictionary()
_write_locks_guard = threading.Lock()


def write_lock(path: str | Path) -> WriteLock:
    """The write lock of a database file in this process (one per file, whatever the path to it). Each connection
    holds its file's (``connect``); the lock, and its lock file's descriptor, go with the last of them, so a process
    that opens many files one after another (the tests) does not keep a descriptor for each."""
    key = str(path) if str(path) == ":memory:" else os.path.realpath(path)
    with _write_locks_guard:
        lock = _write_locks.get(key)
        if lock is None:
            lock = _write_locks[key] = WriteLock(None if key == ":memory:" else key + LOCK_SUFFIX)
        return lock


def close_write_lock(path: str | Path) -> None:
    """Close the lock file of ``path``'s write lock in this process, if it has one (``WriteLock.close``)."""
    key = str(path) if str(path) == ":memory:" else os.path.realpath(path)
    with _write_locks_guard:
        lock = _write_locks.get(key)
    if lock is not None:
        lock.close()


def connect(path: str | Path, migrate_schema: bool = True) -> Database:
    """Open (creating if needed) the database file, with WAL and foreign keys, migrated to the latest schema; or,
    for a ``postgresql://`` URL, the PostgreSQL database (``pgstore``), migrated by the same list."""
    if pgstore.is_postgres(path):
        pg = pgstore.connect(str(path), MIGRATIONS, migrate_schema)
        pg.write_lock = _pg_write_lock(str(path))  # type: ignore[attr-defined]
        return cast(Database, pg)  # the part of Database the store uses, over psycopg
    path = Path(path)
    if str(path) != ":memory:":
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=15, check_same_thread=False)
    db = Database(conn)
    db.write_lock = write_lock(path) if str(path) != ":memory:" else WriteLock(None)  # type: ignore[attr-defined]
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 15000")
    if str(path) != ":memory:":
        with db.ensure_autocommit_on():
            db.execute("PRAGMA journal_mode = WAL")
    if migrate_schema:
        migrate(db)
    return db


def schema_version(db: Database) -> int:
    if isinstance(db, pgstore.PgDatabase):
        return pgstore.schema_version(db)
    return db.execute("PRAGMA user_version").fetchone()[0]


_pg_locks: dict[str, WriteLock] = {}


def _pg_write_lock(url: str) -> WriteLock:
    """A PostgreSQL database's write lock in this process: its threads queue on the thread lock; the processes
    queue on the advisory lock each transaction takes (``pgstore``), so there is no lock file."""
    with _write_locks_guard:
        return _pg_locks.setdefault(url, WriteLock(None))


def migrate(db: Database) -> int:
    """Apply the migrations this file has not had yet, each in its own transaction."""
    with immediate(db):
        version = schema_version(db)
        if version > len(MIGRATIONS):
            raise RuntimeError(
                f"This database has schema version {version}, newer than this Referee knows ({len(MIGRATIONS)}): "
                "use a newer Referee, or a backup made by this one."
            )
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            for statement in _statements(script):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
    return schema_version(db)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


@contextmanager
def immediate(db: Database) -> Iterator[Database]:
    """A write transaction taken up front (BEGIN IMMEDIATE): a read-then-write inside it is safe from other writers.
    The file's write lock (``WriteLock``: this process's threads, then the other processes) is taken first."""
    lock = getattr(db, "write_lock", None)
    with lock if lock is not None else nullcontext(), _transaction(db):
        yield db


@contextmanager
def _transaction(db: Database) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error; the caller holds the write lock. What was put off until
    it commits (``after_commit``) runs then, in order; nothing of it when it is rolled back (or its COMMIT fails)."""
    held: list[Callable[[], None]] = []
    token = _after_commit.set(held)
    try:
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            db.conn.rollback()
            raise
        db.conn.execute("COMMIT")
    finally:
        _after_commit.reset(token)
    for action in held:
        action()


_after_commit: ContextVar[list[Callable[[], None]] | None] = ContextVar("after_commit", default=None)


def after_commit(action: Callable[[], None]) -> None:
    """Run ``action`` once the write transaction in progress in this thread has committed (at once outside one):
    what is said of a change (its log line) is said only of what was stored — a change rolled back, by an error
    inside it or at its COMMIT (a full disk), says nothing."""
    held = _after_commit.get()
    if held is None:
        action()
    else:
        held.append(action)


class _Queued:
    """One write waiting for the write lock (see ``write_grouped``): ``wake`` is held until the thread writing a
    group has written this item (``done``) or hands it the lead — each waiting thread is woken once."""

    __slots__ = ("item", "done", "outcome", "wake")

    def __init__(self, item: Any) -> None:
        self.item, self.done, self.outcome = item, False, None
        self.wake = threading.Lock()
        self.wake.acquire()


class _Group:
    """The writes queued for one write lock, and whether a thread is writing a group of them now (the leader)."""

    __slots__ = ("guard", "waiting", "leading")

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.waiting: list[_Queued] = []
        self.leading = False


_groups: weakref.WeakKeyDictionary[WriteLock, _Group] = weakref.WeakKeyDictionary()
_groups_guard = threading.Lock()


def _group_of(lock: WriteLock) -> _Group:
    with _groups_guard:
        group = _groups.get(lock)
        if group is None:
            group = _groups[lock] = _Group()
        return group


def write_grouped(db: Database, item: Any, write_all: Callable[[Database, list[Any]], list[Any]]) -> Any:
    """Group commit: ``item`` is queued, and one thread at a time — the leader — takes the write lock and writes
    every item queued by then in ONE transaction (``write_all(db, items)`` gives each item's outcome): one commit,
    one sync to disk, for all of them. The others wait on their own item, not on the lock: each is woken once, when
    its item is written (it returns at once) or when the leader hands it the lead for the items queued meanwhile.
    So a thread whose deal a group already wrote never queues for the lock behind the next group.

    Returns the item's outcome; None when it was not written (``write_all`` said so, or the transaction failed
    and was rolled back): the caller then writes it alone, in a transaction of its own."""
    lock: WriteLock = db.write_lock  # type: ignore[attr-defined]
    group = _group_of(lock)
    queued = _Queued(item)
    with group.guard:
        group.waiting.append(queued)
        leads = not group.leading
        group.leading = True
    if not leads:
        queued.wake.acquire()  # written by a leader, or the lead handed to this thread
        if queued.done:
            return queued.outcome
    try:
        _write_group(db, lock, group, write_all)
    finally:
        _hand_on(group, queued)
    return queued.outcome


def _write_group(db: Database, lock: WriteLock, group: _Group,
                 write_all: Callable[[Database, list[Any]], list[Any]]) -> None:
    """The leader's part: the lock taken, every item queued by then written in one transaction and its thread woken.
    The group is taken once the file is ours: it grows while other processes (or other writers) hold it."""
    with lock.thread, lock.other_processes():
        with group.guard:
            batch, group.waiting = group.waiting, []
        outcomes: list[Any] = [None] * len(batch)
        try:
            with _transaction(db):
                outcomes = write_all(db, [q.item for q in batch])
        except Exception:  # nothing of the group is stored: each thread writes its own alone (and meets the error)
            if db.conn.in_transaction:  # a COMMIT that failed
                db.conn.rollback()
            outcomes = [None] * len(batch)
        finally:
            for q, outcome in zip(batch, outcomes, strict=True):
                q.outcome, q.done = outcome, True
    for q in batch:  # the leader's own item too: nobody waits on it, its lock simply goes
        q.wake.release()


def _hand_on(group: _Group, mine: _Queued) -> None:
    """The lead goes to the first thread still waiting (its item queued while this group was written), or lapses."""
    with group.guard:
        if mine in group.waiting:  # the leader failed before it took the group: its own item is not waited for
            group.waiting.remove(mine)
        if group.waiting:
            following = group.waiting[0]
        else:
            group.leading, following = False, None
    if following is not None:
        following.wake.release()


# ---- matches ------------------------------------------------------------------------------

def _match_row(row: dict[str, Any]) -> dict[str, Any]:
    row = dict(row)
    row["players"] = jsontext.parse(row["players"])
    row["options"] = jsontext.parse(row["options"])
    row["totals"] = jsontext.parse(row["totals"])
    row["ended_by_hand"] = bool(row["ended_by_hand"])
    row["abandoned"] = bool(row.get("abandoned"))
    return row


def insert_match(
    db: Database, game: str, players: list[str], options: dict[str, Any], first_dealer: str,
    place: str = "", note: str = "", uid: str | None = None, created: str | None = None,
) -> int:
    stamp = created or now()
    table = db.table("matches")
    table.insert(
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
        }
    )
    return _new_id(table)


def _new_id(table: Table) -> int:
    """The id of the row ``table`` has just inserted."""
    if table.last_pk is None:
        raise RuntimeError(f"no row was inserted into {table.name}")
    return int(table.last_pk)


def get_match(db: Database, match_id: int) -> dict[str, Any] | None:
    cursor = db.conn.execute("SELECT * FROM matches WHERE id = ?", [match_id])
    row = cursor.fetchone()
    if row is None:
        return None
    return _match_row(dict(zip([c[0] for c in cursor.description], row, strict=True)))


def match_version(db: Database, match_id: int) -> int | None:
    """A match's version alone (every change adds one): what a live page's poll compares; None: no such match."""
    row = db.conn.execute("SELECT version FROM matches WHERE id = ?", [match_id]).fetchone()
    return None if row is None else int(row[0] or 0)


def list_matches(db: Database, status: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
    if status:
        rows = db.query(
            "SELECT * FROM matches WHERE status = ? ORDER BY updated DESC, id DESC LIMIT ?", [status, limit]
        )
    else:
        rows = db.query("SELECT * FROM matches ORDER BY updated DESC, id DESC LIMIT ?", [limit])
    return [_match_row(r) for r in rows]


def update_match_summary(
    db: Database, match_id: int, status: str, winner: str | None, totals: dict[str, int], deal_count: int,
    ended_by_hand: bool | None = None, touch: bool = True,
) -> None:
    values: dict[str, Any] = {
        "status": status,
        "winner": winner,
        "totals": jsontext.dumps(totals),
        "deal_count": deal_count,
    }
    if touch:
        values["updated"] = now()
    if ended_by_hand is not None:
        values["ended_by_hand"] = int(ended_by_hand)
    db.table("matches").update(match_id, values)


def store_results(db: Database, rows: list[tuple[int, str | None, str | None, int, int, str]]) -> None:
    """Each replayed deal's stored result: (deal id, result, problems, counted, after_end, tally)."""
    db.conn.executemany("UPDATE deals SET result = ?, problems = ?, counted = ?, after_end = ?, tally = ? WHERE id = ?",
                        [(*rest, deal_id) for deal_id, *rest in rows])


def store_standing(db: Database, match_id: int, values: dict[str, Any], touch: bool = True) -> None:
    """The match's standing after its deals (JSON already encoded), its version one more."""
    if touch:
        values = {**values, "updated": now()}
    columns = ", ".join(f"{name} = ?" for name in values)
    db.conn.execute(f"UPDATE matches SET {columns}, version = version + 1 WHERE id = ?", [*values.values(), match_id])


# The deal POST's SQL: plain prepared statements on the connection (sqlite-utils reads the table layout around
# each insert and update, several statements each time).
_INSERT_DEAL = (
    "INSERT INTO deals (match_id, number, dealer, input, void, version, last_action, created, updated, result, "
    "problems, counted, after_end, tally) VALUES (?, ?, ?, ?, 0, 1, 'entered', ?, ?, ?, NULL, ?, 0, ?)"
)


def append_deal(db: Database, match_id: int, number: int, dealer: str, deal_input: Any, result: str, counted: bool,
                tally: str) -> dict[str, Any]:
    """A new deal at the end of a match, with its stored result; returns it as ``deals_for`` reads it."""
    stamp = now()
    text = jsontext.dumps(deal_input)
    cursor = db.conn.execute(_INSERT_DEAL, [match_id, number, dealer, text, stamp, stamp, result, int(counted), tally])
    return {"id": cursor.lastrowid, "match_id": match_id, "number": number, "dealer": dealer, "input": deal_input,
            "void": False, "version": 1, "last_action": "entered", "created": stamp, "updated": stamp, "result": result,
            "problems": None, "counted": int(counted), "after_end": 0, "tally": tally}


def advance_match(db: Database, match_id: int, values: dict[str, Any], players: list[dict[str, Any]],
                  guard: tuple[int, str, int] | None = None) -> bool:
    """The match row and its players' rows after one more deal: two statements. With ``guard`` (version,
    status, abandoned as they were read) only if the row is still so: False, and nothing written, otherwise."""
    values = {**values, "updated": now()}
    columns = ", ".join(f"{name} = ?" for name in values)
    if guard is None:
        db.conn.execute(f"UPDATE matches SET {columns}, version = version + 1 WHERE id = ?",
                        [*values.values(), match_id])
    else:
        cursor = db.conn.execute(
            f"UPDATE matches SET {columns}, version = version + 1 "
            "WHERE id = ? AND version = ? AND status = ? AND abandoned = ?", [*values.values(), match_id, *guard])
        if cursor.rowcount != 1:
            return False
    marks = ", ".join("(?, ?, ?, ?, ?)" for _ in players)
    db.conn.execute(
        "UPDATE match_players SET status = v.column2, total = v.column3, result = v.column4, facts = v.column5 "
        f"FROM (VALUES {marks}) AS v WHERE match_players.match_id = ? AND match_players.seat = v.column1",
        [x for p in players for x in (p["seat"], p["status"], p["total"], p["result"],
                                       jsontext.dumps(p["facts"]))] + [match_id],
    )
    return True


def update_match_fields(db: Database, match_id: int, **values: Any) -> None:
    """Place, note, abandoned, ended_by_hand: what people set on a match itself."""
    values["updated"] = now()
    db.table("matches").update(match_id, values)


def is_event_table(db: Database, match_id: int) -> bool:
    """Whether the match is a table of a club event (RULES.md 5)."""
    return db.execute("SELECT 1 FROM event_tables WHERE match_id = ?", [match_id]).fetchone() is not None


def delete_unplayed_match(db: Database, match_id: int) -> None:
    """A match without a deal, and what hangs on it (its players' rows, its log, share links, keys, confirmations),
    deleted: an event deleted before its play began takes its tables' matches with it. Refused (ValueError) for a
    match with a deal: nothing entered is ever lost."""
    if db.execute("SELECT 1 FROM deals WHERE match_id = ? LIMIT 1", [match_id]).fetchone():
        raise ValueError(f"match {match_id} has deals: it is kept")
    for table in ("match_players", "match_events", "share_links", "idempotency_keys", "confirmations"):
        db.execute(f"DELETE FROM {table} WHERE match_id = ?", [match_id])
    db.execute("DELETE FROM matches WHERE id = ?", [match_id])


def replace_match_players(db: Database, match_id: int, rows: list[dict[str, Any]]) -> None:
    db.execute("DELETE FROM match_players WHERE match_id = ?", [match_id])
    if rows:
        db.table("match_players").insert_all(
            [{**r, "facts": jsontext.dumps(r.get("facts", {}))} for r in rows]
        )


# Which phone is making the change (a hash of its long-lived device cookie), set by the web layer for
# each request: every event records it, so Undo can say "entered by this phone" or "by another phone".
acting_device: ContextVar[str | None] = ContextVar("acting_device", default=None)


# Actions one match keeps at most (REFEREE_MAX_EVENTS; a connection carries its own as ``max_events``, the web layer
# sets the app's): ten for each of the deals a match may hold (REFEREE_MAX_DEALS), far more than real play makes
# (an entry and now and then a correction or a void), so only a runaway loop or a doctored file comes near it.
DEFAULT_MAX_DEALS = 2000
EVENTS_PER_DEAL = 10
DEFAULT_MAX_EVENTS = EVENTS_PER_DEAL * DEFAULT_MAX_DEALS


class TooManyEvents(Exception):
    """The match already holds ``limit`` actions: nothing was added (the caller's transaction is rolled back)."""

    def __init__(self, count: int, limit: int):
        self.count, self.limit = count, limit
        super().__init__(f"the match holds {count} actions, the most it may hold is {limit}")


def add_event(
    db: Database, match_id: int, action: str, deal_number: int | None = None, detail: Any = None, at: str | None = None
) -> int:
    """Add one action to a match's log, unless the match holds ``db.max_events`` of them already (TooManyEvents):
    the count is part of the INSERT, so it costs no statement of its own."""
    detail = dict(detail or {})
    device = acting_device.get()
    if device and at is None:  # an imported event keeps the detail it came with
        detail.setdefault("device", device)
    limit = int(getattr(db, "max_events", DEFAULT_MAX_EVENTS))
    cursor = db.conn.execute(
        "INSERT INTO match_events (match_id, deal_number, action, at, detail, undone) SELECT ?, ?, ?, ?, ?, 0 "
        "WHERE (SELECT count(*) FROM match_events WHERE match_id = ?) < ?",
        [match_id, deal_number, action, at or now(), jsontext.dumps(detail), match_id, limit],
    )
    if cursor.rowcount != 1:
        raise TooManyEvents(event_count(db, match_id), limit)
    return int(cursor.lastrowid or 0)


_EVENT_COLUMNS = "id, match_id, deal_number, action, at, detail, undone"


def _event(values: tuple[Any, ...]) -> dict[str, Any]:
    """One row of match_events; ``detail`` parsed as stored (text that is not JSON, as a damaged or hand-edited
    database may hold, is kept as that text: ``matches.event_detail`` reads only what it understands)."""
    event_id, match_id, deal_number, action, at, detail, undone = values
    try:
        parsed = jsontext.parse(detail)
    except (ValueError, TypeError):
        parsed = detail
    return {"id": event_id, "match_id": match_id, "deal_number": deal_number, "action": action, "at": at,
            "detail": parsed, "undone": bool(undone)}


def events_for(db: Database, match_id: int) -> list[dict[str, Any]]:
    """Every action on a match, oldest first (``iter_events`` reads them a batch at a time)."""
    return list(iter_events(db, match_id))


def iter_events(db: Database, match_id: int, batch: int = 1000) -> Iterator[dict[str, Any]]:
    """Every action on a match, oldest first, read ``batch`` rows at a time: an export of a long log never holds
    all of it."""
    cursor = db.conn.execute(f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? ORDER BY id", [match_id])
    while rows := cursor.fetchmany(batch):
        yield from (_event(row) for row in rows)


def events_after(db: Database, match_id: int, after: int, limit: int) -> list[dict[str, Any]]:
    """At most ``limit`` actions on a match that came after action ``after`` (0: from the first), oldest first."""
    cursor = db.conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? AND id > ? ORDER BY id LIMIT ?",
        [match_id, after, limit],
    )
    return [_event(row) for row in cursor.fetchall()]


def latest_events(db: Database, match_id: int, limit: int, before: int | None = None, where: str = "",
                  params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """The newest ``limit`` actions on a match (those older than action ``before``; those ``where`` also picks —
    an SQL condition with ``params``, written by Referee's code, never by a request), newest first: one query on
    the index, however long the log."""
    condition = " AND id < ?" if before is not None else ""
    condition += f" AND ({where})" if where else ""
    cursor = db.conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ?{condition} ORDER BY id DESC LIMIT ?",
        [match_id, *([before] if before is not None else []), *params, limit],
    )
    return [_event(row) for row in cursor.fetchall()]


def get_event(db: Database, match_id: int, event_id: Any) -> dict[str, Any] | None:
    """One action of a match by its id (None: not one of this match's actions)."""
    if isinstance(event_id, bool) or not isinstance(event_id, int) or not 0 < event_id < 2**63:
        return None
    row = db.conn.execute(f"SELECT {_EVENT_COLUMNS} FROM match_events WHERE match_id = ? AND id = ?",
                          [match_id, event_id]).fetchone()
    return _event(row) if row else None


def event_count(db: Database, match_id: int, from_id: int | None = None) -> int:
    """How many actions a match has (those from action ``from_id`` on)."""
    if from_id is None:
        return int(db.conn.execute("SELECT count(*) FROM match_events WHERE match_id = ?", [match_id]).fetchone()[0])
    return int(db.conn.execute("SELECT count(*) FROM match_events WHERE match_id = ? AND id >= ?",
                               [match_id, from_id]).fetchone()[0])


def mark_event_undone(db: Database, event_id: int, undone: bool = True) -> None:
    db.execute("UPDATE match_events SET undone = ? WHERE id = ?", [int(undone), event_id])


# ---- deals --------------------------------------------------------------------------------

def _deal_row(row: dict[str, Any]) -> dict[str, Any]:
    row = dict(row)
    row["input"] = json.loads(row["input"])
    row["void"] = bool(row["void"])
    return row


def deals_for(db: Database, match_id: int) -> list[dict[str, Any]]:
    cursor = db.conn.execute("SELECT * FROM deals WHERE match_id = ? ORDER BY number", [match_id])
    names = [c[0] for c in cursor.description]
    return [_deal_row(dict(zip(names, r, strict=True))) for r in cursor.fetchall()]


def get_deal(db: Database, match_id: int, number: int) -> dict[str, Any] | None:
    rows = list(db.query("SELECT * FROM deals WHERE match_id = ? AND number = ?", [match_id, number]))
    return _deal_row(rows[0]) if rows else None


def next_deal_number(db: Database, match_id: int) -> int:
    row = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM deals WHERE match_id = ?", [match_id]).fetchone()
    return int(row[0])


def insert_deal(db: Database, match_id: int, number: int, dealer: str, deal_input: Any) -> int:
    stamp = now()
    table = db.table("deals")
    table.insert(
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
        }
    )
    return _new_id(table)


def revise_deal(
    db: Database, deal: dict[str, Any], action: str, deal_input: Any | None = None, void: bool | None = None
) -> None:
    """Keep the current version of ``deal`` in deal_revisions, then store the new one."""
    stamp = now()
    db.table("deal_revisions").insert(
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
    db.table("deals").update(
        deal["id"],
        {
            "input": jsontext.dumps(deal["input"] if deal_input is None else deal_input),
            "void": int(deal["void"] if void is None else void),
            "version": deal["version"] + 1,
            "last_action": action,
            "updated": stamp,
        },
    )


def revisions_for_match(db: Database, match_id: int) -> dict[int, list[dict[str, Any]]]:
    """Every earlier version of every deal of a match, by deal id (one query)."""
    rows = db.query(
        "SELECT r.* FROM deal_revisions r JOIN deals d ON d.id = r.deal_id WHERE d.match_id = ? "
        "ORDER BY r.deal_id, r.version",
        [match_id],
    )
    out: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        revision = _revision_row(r)
        out.setdefault(revision["deal_id"], []).append(revision)
    return out


def _revision_row(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "input": json.loads(row["input"]), "void": bool(row["void"])}


def revisions_for(db: Database, deal_id: int) -> list[dict[str, Any]]:
    rows = db.query("SELECT * FROM deal_revisions WHERE deal_id = ? ORDER BY version", [deal_id])
    return [_revision_row(r) for r in rows]


# ---- the archive --------------------------------------------------------------------------

def search_matches(
    db: Database, game: str | None = None, player: str | None = None, status: str | None = None,
    since: str | None = None, until: str | None = None, limit: int = 25, offset: int = 0, season: str | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Matches newest first with the filters of the history page, and how many match in all.

    ``player`` is a case-insensitive part of a name; ``since``/``until`` are dates (YYYY-MM-DD, inclusive);
    ``season`` a season's name (the tables of its events, RULES.md 5.8).
    """
    where, args = [], []
    if game:
        where.append("game = ?")
        args.append(game)
    if status:
        where.append("status = ?")
        args.append(status)
    if season:
        where.append("id IN (SELECT t.match_id FROM event_tables t JOIN events e ON e.id = t.event_id "
                     "WHERE e.season = ? COLLATE NOCASE)")
        args.append(season)
    if since:
        where.append("created >= ?")
        args.append(since)
    if until:
        where.append("created < ?")  # before the next day: the same SQL on SQLite and PostgreSQL
        args.append((date.fromisoformat(until) + timedelta(days=1)).isoformat())
    if player:
        where.append("id IN (SELECT match_id FROM match_players WHERE name_key LIKE ? ESCAPE '\\')")
        args.append("%" + player.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
    clause = ("WHERE " + " AND ".join(where)) if where else ""
    total = db.execute(f"SELECT COUNT(*) FROM matches {clause}", args).fetchone()[0]
    rows = db.query(
        f"SELECT * FROM matches {clause} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?", [*args, limit, offset]
    )
    return [_match_row(r) for r in rows], int(total)


def player_rows(db: Database, name_key: str) -> list[dict[str, Any]]:
    """Every match a player sat in, newest first, with the match's totals and players."""
    rows = db.query(
        """SELECT mp.match_id, mp.seat, mp.name, mp.game, mp.created, mp.status, mp.total, mp.result, mp.facts,
                  m.players, m.totals, m.winner
           FROM match_players mp JOIN matches m ON m.id = mp.match_id
           WHERE mp.name_key = ? ORDER BY mp.created DESC, mp.match_id DESC""",
        [name_key],
    )
    out = []
    for r in rows:
        r = dict(r)
        r["facts"] = jsontext.parse(r["facts"])
        r["players"] = jsontext.parse(r["players"])
        r["totals"] = jsontext.parse(r["totals"])
        out.append(r)
    return out


def matches_without_summary(db: Database) -> list[int]:
    rows = db.execute("SELECT id FROM matches WHERE id NOT IN (SELECT match_id FROM match_players)").fetchall()
    return [r[0] for r in rows]


def known_names(db: Database, limit: int = 200) -> list[str]:
    """Player names seen so far, most used first (for autocompletion); a person written several ways (case,
    spacing) under the spelling used most, the latest of equals."""
    people: dict[str, tuple[int, tuple[int, str], str]] = {}  # name_key → (matches, (uses, latest), spelling)
    for key, name, uses, latest in db.execute(
            "SELECT name_key, name, COUNT(*), MAX(created) FROM match_players GROUP BY name_key, name").fetchall():
        total, best, spelling = people.get(key, (0, (0, ""), name))
        if (uses, latest) > best:
            best, spelling = (uses, latest), name
        people[key] = (total + uses, best, spelling)
    ranked = sorted(people.values(), key=lambda p: (-p[0], p[2]))
    return [spelling for _total, _best, spelling in ranked[:limit]]


# ---- share links and idempotency keys -----------------------------------------------------

def create_share_link(db: Database, match_id: int) -> str:
    token = secrets.token_urlsafe(18)
    db.table("share_links").insert({"token": token, "match_id": match_id, "created": now(), "revoked": None})
    return token


def share_links_for(db: Database, match_id: int) -> list[dict[str, Any]]:
    return [
        dict(r)
        for r in db.query(
            "SELECT * FROM share_links WHERE match_id = ? AND revoked IS NULL ORDER BY created", [match_id]
        )
    ]


def match_for_share(db: Database, token: str) -> int | None:
    row = db.execute("SELECT match_id FROM share_links WHERE token = ? AND revoked IS NULL", [token]).fetchone()
    return int(row[0]) if row else None


def revoke_share_link(db: Database, match_id: int, token: str) -> bool:
    cursor = db.execute(
        "UPDATE share_links SET revoked = ? WHERE token = ? AND match_id = ? AND revoked IS NULL",
        [now(), token, match_id],
    )
    return cursor.rowcount > 0


def deal_for_key(db: Database, match_id: int, key: str) -> tuple[int, str | None] | None:
    """The deal an idempotency key entered and the hash of the body it came with (None: stored before schema 4)."""
    row = db.conn.execute(
        "SELECT deal_number, body_hash FROM idempotency_keys WHERE match_id = ? AND key = ?", [match_id, key]
    ).fetchone()
    return (int(row[0]), row[1]) if row else None


def remember_key(db: Database, match_id: int, key: str, number: int, body_hash: str | None = None) -> None:
    db.conn.execute(
        "INSERT INTO idempotency_keys (match_id, key, deal_number, created, body_hash) VALUES (?, ?, ?, ?, ?)",
        [match_id, key, number, now(), body_hash],
    )


# ---- sessions -----------------------------------------------------------------------------

def create_session(db: Database) -> str:
    session_id = secrets.token_urlsafe(24)
    stamp = now()
    with immediate(db):
        db.execute("INSERT INTO sessions (id, created, seen) VALUES (?, ?, ?)", [session_id, stamp, stamp])
    return session_id


def session_seen(db: Database, session_id: str) -> str | None:
    """When the session last made a request (to the hour), or None when it was ended."""
    row = db.execute("SELECT seen FROM sessions WHERE id = ?", [session_id]).fetchone()
    return row[0] if row else None


def touch_session(db: Database, session_id: str) -> None:
    with immediate(db):
        db.execute("UPDATE sessions SET seen = ? WHERE id = ?", [now(), session_id])


def end_session(db: Database, session_id: str) -> None:
    with immediate(db):
        db.execute("DELETE FROM sessions WHERE id = ?", [session_id])


def end_idle_sessions(db: Database, before: str) -> None:
    with immediate(db):
        db.execute("DELETE FROM sessions WHERE seen < ?", [before])
