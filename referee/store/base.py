"""What both stores share: the few primitives each dialect gives (``SqlStore``: run a statement, insert a row and
learn its id, begin, commit, roll back), write transactions on them (``immediate``), the group commit
(``write_grouped``) and what waits for a commit (``after_commit``).

The statements both dialects say alike are written once, in the mixins beside this module (``matches``,
``match_log``, ``links``, ``club``, ``seasons``, ``portable``), with ``?`` for their parameters; each store passes them
to its driver in the driver's paramstyle (sqlite3: ``?`` as written; psycopg: ``%s``, ``postgres.paramstyle``). A
statement whose dialects differ — the schema and its version, ids of new rows, upserts, locks, a file's copy, the
change feed — each store writes in its own (``sqlite``, ``postgres``)."""

from __future__ import annotations

import functools
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, Self, TypeVar

from .locks import WriteLock
from .postgres_schema import SPACED
from .tuples import SQLParam, sql_param


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Cursor(Protocol):
    """What the stores read of a DB-API cursor (sqlite3's and psycopg's alike)."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchmany(self, size: int = ...) -> list[Any]: ...


# Actions one match keeps at most (REFEREE_MAX_EVENTS; a store carries its own as ``max_events``, the web layer
# sets the app's): ten for each of the deals a match may hold (REFEREE_MAX_DEALS), far more than real play makes
# (an entry and now and then a correction or a void), so only a runaway loop or a doctored file comes near it.
DEFAULT_MAX_DEALS = 2000
EVENTS_PER_DEAL = 10
DEFAULT_MAX_EVENTS = EVENTS_PER_DEAL * DEFAULT_MAX_DEALS
DEFAULT_MAX_MATCHES = 10_000  # matches one space holds at most (REFEREE_SPACE_MAX_MATCHES; off mode's one space too)


# ---- spaces (issue 48) ---------------------------------------------------------------------------------------------
#
# A store works in one space (``space``: 1, the Referee as it always was, unless told). Every statement of the mixins
# names it through ``referee_space()`` — on SQLite a function of the connection that answers the store's space, on
# PostgreSQL a SQL function reading the setting ``referee.space`` the store binds its connection to, which is also
# what the tables' row-level security compares (``postgres_schema``) — once for each table of a space's data it reads
# or writes (``scoped``: checked once per statement, before it first runs). Nothing reads across spaces but the
# methods whose names say so.

SPACE = "referee_space()"
_TABLE = re.compile(r"\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)", re.I)


class Unscoped(RuntimeError):
    """A statement of the store that does not name the space once for each table of a space's data it uses."""


@functools.lru_cache(maxsize=4096)
def scoped(sql: str) -> str:
    """``sql`` itself, once it names ``referee_space()`` at least as often as it names a table of a space's data;
    raises Unscoped otherwise (a method that would forget the space fails in every test that calls it)."""
    tables = [t for t in _TABLE.findall(sql) if t.lower() in SPACED]
    if len(tables) > sql.count(SPACE):
        raise Unscoped(f"a statement of the store forgets the space ({', '.join(tables)}): {sql[:200]}")
    return sql


class SqlStore:
    """The primitives a store's SQL runs on; ``SqliteStore`` and ``PostgresStore`` give them for their driver."""

    write_lock: WriteLock
    max_events: int = DEFAULT_MAX_EVENTS
    max_matches: int = DEFAULT_MAX_MATCHES  # REFEREE_SPACE_MAX_MATCHES: the matches one space holds at most
    NOCASE = 'COLLATE "nocase"'  # SQLite's built-in NOCASE; PostgreSQL's ICU collation of that name (PREAMBLE)
    _space: int = 1

    @property
    def space(self) -> int:
        """The space this store works in: every read of it is of this space, every write into it."""
        return self._space

    def bind_space(self, space: int) -> None:
        """Work in ``space`` from now on (not inside a transaction)."""
        if self.in_transaction:
            raise RuntimeError("a store changes its space between transactions only")
        self._space = int(space)

    # ---- each dialect's ------------------------------------------------------------------------------------------
    def _run(self, sql: str, params: Sequence[SQLParam] = ()) -> Cursor:
        raise NotImplementedError

    def _run_many(self, sql: str, rows: Sequence[Sequence[SQLParam]]) -> None:
        raise NotImplementedError

    def _insert_returning(self, sql: str, params: Sequence[SQLParam]) -> int | None:
        """Run an INSERT of (at most) one row into a table with ids; the new row's id (None: no row inserted)."""
        raise NotImplementedError

    def _begin(self) -> None:
        """BEGIN a write transaction safe from every other writer (every thread, every process)."""
        raise NotImplementedError

    def _commit(self) -> None:
        raise NotImplementedError

    def _committed(self) -> None:
        """A write transaction of this store has committed (the change feed's signal, ``feed``: SQLite's own)."""

    def _rollback(self) -> None:
        raise NotImplementedError

    @property
    def in_transaction(self) -> bool:
        raise NotImplementedError

    # ---- said alike --------------------------------------------------------------------------------------------
    def _rows(self, sql: str, params: Sequence[SQLParam] = ()) -> list[dict[str, Any]]:
        cursor = self._run(sql, params)
        names = [c[0] for c in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _one(self, sql: str, params: Sequence[SQLParam] = ()) -> Any:
        return self._run(sql, params).fetchone()

    def _value(self, sql: str, params: Sequence[SQLParam] = ()) -> Any:
        row = self._run(sql, params).fetchone()
        return None if row is None else row[0]

    def _insert(self, table: str, values: Mapping[str, object]) -> None:
        """Insert one row (into a table with or without ids), into this store's space."""
        marks = ", ".join("?" for _ in values)
        self._run(f"INSERT INTO {table} ({', '.join(values)}, space) VALUES ({marks}, {SPACE})",
                  [sql_param(value) for value in values.values()])

    def _insert_id(self, table: str, values: Mapping[str, object]) -> int:
        """Insert one row into a table with ids, into this store's space; the new row's id."""
        marks = ", ".join("?" for _ in values)
        new_id = self._insert_returning(f"INSERT INTO {table} ({', '.join(values)}, space) VALUES ({marks}, {SPACE})",
                                        [sql_param(value) for value in values.values()])
        if new_id is None:
            raise RuntimeError(f"no row was inserted into {table}")
        return new_id

    def _update(self, table: str, row_id: int, values: Mapping[str, object]) -> None:
        columns = ", ".join(f"{name} = ?" for name in values)
        self._run(f"UPDATE {table} SET {columns} WHERE id = ? AND space = {SPACE}",
                  [*(sql_param(value) for value in values.values()), row_id])

    # ---- write transactions ----------------------------------------------------------------------------------
    @contextmanager
    def immediate(self) -> Iterator[Self]:
        """A write transaction taken up front (BEGIN IMMEDIATE): a read-then-write inside it is safe from other
        writers. The database's write lock (``WriteLock``: this process's threads, then the other processes) is taken
        first."""
        with self.write_lock, _transaction(self):
            yield self

    def write_grouped(self, item: Item, write_all: Callable[[Self, list[Item]], list[Outcome]]) -> Outcome | None:
        """Group commit (``write_grouped`` below): ``item`` written with the others queued meanwhile, in one
        transaction; its outcome, or None when it was not written."""
        return write_grouped(self, item, write_all)


@contextmanager
def _transaction(db: SqlStore) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error; the caller holds the write lock. What was put off until
    it commits (``after_commit``) runs then, in order; nothing of it when it is rolled back (or its COMMIT fails)."""
    held: list[Callable[[], None]] = []
    token = _after_commit.set(held)
    try:
        db._begin()
        try:
            yield
        except BaseException:
            db._rollback()
            raise
        db._commit()
    finally:
        _after_commit.reset(token)
    db._committed()
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


# ---- group commit ---------------------------------------------------------------------------------------------

Item = TypeVar("Item")  # what one caller writes (its plan)
Outcome = TypeVar("Outcome")  # what writing it gave (its deal)
Writer = TypeVar("Writer", bound=SqlStore)  # the store that writes them


class _Queued(Generic[Item, Outcome]):
    """One write waiting for the write lock (see ``write_grouped``): ``wake`` is held until the thread writing a
    group has written this item (``done``) or hands it the lead — each waiting thread is woken once."""

    __slots__ = ("done", "item", "outcome", "wake")

    def __init__(self, item: Item) -> None:
        self.item, self.done = item, False
        self.outcome: Outcome | None = None
        self.wake = threading.Lock()
        self.wake.acquire()


class _Group(Generic[Item, Outcome]):
    """The writes queued for one write lock, and whether a thread is writing a group of them now (the leader)."""

    __slots__ = ("guard", "leading", "waiting")

    def __init__(self) -> None:
        self.guard = threading.Lock()
        self.waiting: list[_Queued[Item, Outcome]] = []
        self.leading = False


# one group a write lock, whoever writes through it (each thread's item as its own caller typed it)
_groups: weakref.WeakKeyDictionary[WriteLock, _Group[Any, Any]] = weakref.WeakKeyDictionary()
_groups_guard = threading.Lock()


def _group_of(lock: WriteLock) -> _Group[Any, Any]:
    with _groups_guard:
        group = _groups.get(lock)
        if group is None:
            group = _groups[lock] = _Group()
        return group


def write_grouped(db: Writer, item: Item, write_all: Callable[[Writer, list[Item]], list[Outcome]]) -> Outcome | None:
    """Group commit: ``item`` is queued, and one thread at a time — the leader — takes the write lock and writes
    every item queued by then in ONE transaction (``write_all(db, items)`` gives each item's outcome): one commit,
    one sync to disk, for all of them. The others wait on their own item, not on the lock: each is woken once, when
    its item is written (it returns at once) or when the leader hands it the lead for the items queued meanwhile.
    So a thread whose deal a group already wrote never queues for the lock behind the next group.

    Returns the item's outcome; None when it was not written (``write_all`` said so, or the transaction failed
    and was rolled back): the caller then writes it alone, in a transaction of its own."""
    lock = db.write_lock
    group: _Group[Item, Outcome] = _group_of(lock)
    queued: _Queued[Item, Outcome] = _Queued(item)
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


def _write_group(db: Writer, lock: WriteLock, group: _Group[Item, Outcome],
                 write_all: Callable[[Writer, list[Item]], list[Outcome]]) -> None:
    """The leader's part: the lock taken, every item queued by then written in one transaction and its thread woken.
    The group is taken once the file is ours: it grows while other processes (or other writers) hold it."""
    with lock.thread, lock.other_processes():
        with group.guard:
            batch, group.waiting = group.waiting, []
        outcomes: Sequence[Outcome | None] = [None] * len(batch)
        try:
            with _transaction(db):
                outcomes = write_all(db, [q.item for q in batch])
        except Exception:  # nothing of the group is stored: each thread writes its own alone (and meets the error)
            if db.in_transaction:  # a COMMIT that failed
                db._rollback()
            outcomes = [None] * len(batch)
        finally:
            for q, outcome in zip(batch, outcomes, strict=True):
                q.outcome, q.done = outcome, True
    for q in batch:  # the leader's own item too: nobody waits on it, its lock simply goes
        q.wake.release()


def _hand_on(group: _Group[Item, Outcome], mine: _Queued[Item, Outcome]) -> None:
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
