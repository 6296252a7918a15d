"""A hosted Referee (``REFEREE_DATABASE=postgresql://…``): several app processes on one PostgreSQL database, over
psycopg 3, the connections of a process in a ``psycopg_pool.ConnectionPool``.

``PostgresStore`` runs the statements the mixins say alike — psycopg's placeholders are ``%s`` where sqlite3's are
``?`` (``paramstyle``: the placeholders and a literal ``%`` alone, nothing of the statement's dialect) — and says in
PostgreSQL's dialect what differs: its own schema (``postgres_schema``), a new row's id (``RETURNING id``), and the
write transaction. ``BEGIN IMMEDIATE`` — a read-then-write safe from every other writer — is a transaction that first
takes one advisory lock (``pg_advisory_xact_lock``), so writers queue across every process as they do on the SQLite
file; the lock goes with the transaction, so a process killed mid-write (SIGKILL) leaves nothing held.

The change feed: every change of a match's version, and of what an event's board shows, is announced by a trigger
(``NOTIFY referee``, delivered when its transaction commits); each process listens (``Listener``) and answers the live
pages' polls from what it heard (``Versions``), without asking the database, however many phones and screens it
serves.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence

import psycopg
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool, PoolTimeout

from .base import SPACE, Cursor, scoped
from .club import ClubRows
from .feed import Feed, feed_for
from .links import Links
from .locks import WriteLock
from .match_log import MatchLog
from .matches import MatchRows
from .portable import PortableRows
from .postgres_schema import CHANNEL, MIGRATIONS, NOTIFY, NOTIFY_TRIGGERS, PREAMBLE, PREAMBLE_DONE
from .protocol import Store
from .seasons import SeasonRows
from .sheets import SheetRows
from .spaces import SpaceRows
from .sqlite import TooNew
from .tuples import Health, SQLParam
from .urls import hide, remember, shown

KIND = "postgresql"
WRITE_LOCK_KEY = 0x52454645  # "REFE": the advisory lock every writer takes first (BEGIN IMMEDIATE)
MIN_SERVER = 130000  # PostgreSQL 13: nondeterministic ICU collations in keys, DROP DATABASE … WITH (FORCE)
POOL_SIZE = 16  # connections a process keeps at most (waitress runs 8 threads unless told otherwise)
POOL_TIMEOUT = 5.0  # seconds a request waits for a connection before it is answered 503 (the server is gone)


@functools.lru_cache(maxsize=2048)
def paramstyle(sql: str) -> str:
    """A statement written with sqlite3's placeholders (``?``) with psycopg's (``%s``), a literal ``%`` doubled."""
    return sql.replace("%", "%%").replace("?", "%s")


def _connect(url: str) -> psycopg.Connection[TupleRow]:
    """A psycopg connection in autocommit; an error whose text quotes the password (libpq's message about a bad
    %-escape, say) is raised again, of the same kind, without it."""
    remember(url)
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        said = hide(str(exc), url)
        if said == str(exc):
            raise
        raise type(exc)(said) from None


class PostgresStore(MatchRows, MatchLog, Links, ClubRows, SeasonRows, SheetRows, PortableRows, SpaceRows):
    """A store on one psycopg connection in autocommit (a statement outside ``BEGIN … COMMIT`` is its own
    transaction, as on SQLite), lent by this process's pool of the database (``lend``) or opened alone
    (``connect``)."""

    kind = KIND

    def __init__(self, url: str, conn: psycopg.Connection[TupleRow], pool: ConnectionPool | None = None,
                 space: int = 1) -> None:
        self.url, self.conn, self.pool = url, conn, pool
        self.write_lock = _write_lock(url)
        self.bind_space(space)

    def bind_space(self, space: int) -> None:
        """Work in ``space`` from now on: the connection is bound to it (``referee.space``, what ``referee_space()``
        and the row-level security read), for the statements outside a transaction; each transaction binds it again
        for itself (``_begin``)."""
        super().bind_space(space)
        self.conn.execute("SELECT set_config('referee.space', %s, false)", [str(self._space)])

    # ---- the primitives --------------------------------------------------------------------------------------
    def _run(self, sql: str, params: Sequence[SQLParam] = ()) -> Cursor:
        return self.conn.execute(paramstyle(scoped(sql)), list(params) or None)  # prepared after 5 uses

    def _run_many(self, sql: str, rows: Sequence[Sequence[SQLParam]]) -> None:
        with self.conn.cursor() as cursor:
            cursor.executemany(paramstyle(scoped(sql)), [list(r) for r in rows])

    def _insert_returning(self, sql: str, params: Sequence[SQLParam]) -> int | None:
        row = self.conn.execute(paramstyle(scoped(sql)) + " RETURNING id", list(params)).fetchone()
        return None if row is None else int(row[0])

    def _begin(self) -> None:
        """BEGIN, the write lock taken and the transaction bound to the store's space (``referee.space``, local to
        it), in one round trip after the BEGIN."""
        self.conn.execute("BEGIN")
        self.conn.execute("SELECT pg_advisory_xact_lock(%s), set_config('referee.space', %s, true)",
                          [WRITE_LOCK_KEY, str(self._space)])

    def _commit(self) -> None:
        if self.in_transaction:
            self.conn.execute("COMMIT")

    def _rollback(self) -> None:
        if self.in_transaction:
            self.conn.execute("ROLLBACK")

    @property
    def in_transaction(self) -> bool:
        return self.conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    # ---- raw SQL, for tests and tools (not part of the Protocol) ---------------------------------------------
    def execute(self, sql: str, params: Sequence[SQLParam] = ()) -> Cursor:
        return self.conn.execute(paramstyle(sql), list(params) or None)

    def query(self, sql: str, params: Sequence[SQLParam] = ()) -> list[dict[str, object]]:
        cursor = self.conn.execute(paramstyle(sql), list(params) or None)
        names = [c[0] for c in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # ---- the schema ------------------------------------------------------------------------------------------
    def schema_version(self) -> int:
        row = self.conn.execute("SELECT version FROM referee_schema").fetchone()
        return int(row[0]) if row else 0

    def migrate(self) -> int:
        """Apply the migrations not applied yet, in one transaction holding the write lock (two processes starting
        at once apply them once); the change feed's triggers after them."""
        with self.write_lock, self.conn.transaction():
            self.conn.execute("SELECT pg_advisory_xact_lock(%s), set_config('referee.space', %s, true)",
                              [WRITE_LOCK_KEY, str(self._space)])
            done = self.conn.execute(PREAMBLE_DONE).fetchone()
            if done is None or not done[0]:  # a database made before has both: sent no DDL
                for statement in PREAMBLE:
                    self.conn.execute(statement)
            version = self.schema_version()
            if version > len(MIGRATIONS):
                raise TooNew(version, len(MIGRATIONS))
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in script:
                    self.conn.execute(statement)
                self.conn.execute("DELETE FROM referee_schema")
                self.conn.execute("INSERT INTO referee_schema (version) VALUES (%s)", [number])
            if version < len(MIGRATIONS) or not self._has_triggers():
                for statement in NOTIFY:
                    self.conn.execute(statement)
        return self.schema_version()

    def _has_triggers(self) -> bool:
        """Whether every trigger of ``NOTIFY`` is there (a database made by an earlier Referee gets the new ones)."""
        row = self.conn.execute("SELECT COUNT(*) FROM pg_trigger WHERE tgname = ANY(%s)",
                                [list(NOTIFY_TRIGGERS)]).fetchone()
        return row is not None and int(row[0]) == len(NOTIFY_TRIGGERS)

    # ---- the change feed -------------------------------------------------------------------------------------
    def current_version(self, match_id: int) -> int | None:
        """A match's version as this process heard it from every process's writes (no query while it knows),
        else read (and remembered)."""
        versions = versions_for(self.url)
        known = versions.get(self._space, match_id)
        if known is not None:
            return known
        version = self.match_version(match_id)
        if version is not None:
            versions.seen(self._space, match_id, version)
        return version

    def event_generation(self, event_id: int) -> tuple[int, int] | None:
        """What this process has heard of an event's changes so far (None while not listening): an event's board
        read under one generation is current until the generation moves."""
        return versions_for(self.url).event_generation(self._space, event_id)

    def feed(self) -> Feed:
        """This process's signal of every process's changes, pulsed by the listener (``feed``; ``hears`` while it
        listens)."""
        return versions_for(self.url).feed

    def health(self) -> Health:
        self._run(f"SELECT COUNT(*) FROM matches WHERE id = 0 AND space = {SPACE}").fetchone()
        return {"database": KIND, "schema": self.schema_version(), "listening": versions_for(self.url).listening}

    # ---- lent and given back ---------------------------------------------------------------------------------
    def close(self) -> None:
        if self.pool is not None:
            self.give_back()
        else:
            self.conn.close()

    def give_back(self) -> None:
        """This store is done with (a request's end): its connection goes back to the pool (which rolls back a
        transaction left open, and drops a connection that lost its server)."""
        if self.pool is None:
            self.conn.close()
            return
        pool, self.pool = self.pool, None
        try:
            pool.putconn(self.conn)
        except psycopg.Error:  # the pool closed meanwhile (a test's database dropped): the connection with it
            self.conn.close()


def connect(url: str, migrate_schema: bool = True, space: int = 1) -> PostgresStore:
    """A store on a connection of its own (the command line, a migration at start, a tool), working in ``space``."""
    db = PostgresStore(url, _connect(url), space=space)
    if migrate_schema:
        db.migrate()
    return db


_pools: dict[str, ConnectionPool] = {}
_pools_guard = threading.Lock()


def lend(url: str, space: int = 1) -> PostgresStore:
    """A store for a request working in ``space``, on a connection of this process's pool of ``url``, bound to the
    space when it is lent (one statement); checked before it is lent
    (``check_lent``: after a restart of the server, every kept connection is dropped as it is
    met and the request gets a new one, not an error)."""
    pool = _pool(url)
    if url in _away:  # the server was found away: ask it at once rather than wait for the pool's next attempt
        pool = _renewed(url, pool)
    try:
        conn = pool.getconn()
    except PoolTimeout:
        # No connection in time. While the server was away the pool's attempts to reconnect wait longer and longer
        # (psycopg_pool doubles the wait each time): a server back after a long outage could still be refused for
        # a while. When it answers now, the pool is replaced by a fresh one, which connects at once.
        pool = _renewed(url, pool)
        conn = pool.getconn()
    try:
        return PostgresStore(url, conn, pool, space)
    except BaseException:
        pool.putconn(conn)  # lost between its check and its binding: the pool drops it
        raise


def _pool(url: str) -> ConnectionPool:
    with _pools_guard:
        pool = _pools.get(url)
        if pool is None:
            remember(url)
            pool = _pools[url] = ConnectionPool(
                url, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True, "connect_timeout": 10},
                check=lambda conn: check_lent(conn), timeout=POOL_TIMEOUT, name="referee", open=True)
        return pool


_renewing = threading.Lock()
_away: set[str] = set()  # the URLs whose server did not answer the last time it was asked (``_renewed``)
_asked: dict[str, int] = {}  # URL → how many times its server was asked so far


def _renewed(url: str, stuck: ConnectionPool) -> ConnectionPool:
    """``stuck`` replaced by a new pool when the server answers a connection of its own now; else PoolTimeout at
    once (the server is still away: the request is answered 503, and the next one asks the server again first
    instead of waiting for the pool)."""
    asked = _asked.get(url, 0)
    with _renewing:  # one thread asks the server; the others then find the new pool
        with _pools_guard:
            current = _pools.get(url)
        if current is not None and current is not stuck:
            return current
        if url in _away and _asked.get(url, 0) != asked:  # asked while this request waited: that answer stands
            raise PoolTimeout(f"the server of {shown(url)} is not answering")
        if url not in _away and stuck.get_stats().get("pool_size", 0) >= stuck.max_size:
            raise PoolTimeout("every connection of the pool is in use")  # busy, not stuck: nothing to renew
        _asked[url] = _asked.get(url, 0) + 1
        try:
            psycopg.connect(url, connect_timeout=2).close()
        except psycopg.OperationalError as exc:
            _away.add(url)
            raise PoolTimeout(f"the server of {shown(url)} is not answering") from exc
        _away.discard(url)
        with _pools_guard:
            if _pools.get(url) is stuck:
                del _pools[url]
        threading.Thread(target=stuck.close, kwargs={"timeout": 0}, daemon=True, name="referee-pool-closing").start()
        return _pool(url)


def close_pool(url: str) -> None:
    """Close this process's pool of ``url`` (a test's database about to be dropped)."""
    with _pools_guard:
        pool = _pools.pop(url, None)
    _away.discard(url)
    if pool is not None:
        pool.close()


def check_lent(conn: psycopg.Connection[TupleRow]) -> None:
    """Before a kept connection is lent: psycopg_pool's own check (an empty query); raises when it is dead."""
    ConnectionPool.check_connection(conn)


_write_locks: dict[str, WriteLock] = {}


def _write_lock(url: str) -> WriteLock:
    """A PostgreSQL database's write lock in this process: its threads queue on the thread lock; the processes
    queue on the advisory lock each transaction takes, so there is no lock file."""
    with _pools_guard:
        return _write_locks.setdefault(url, WriteLock(None))


# ---- the server: reachable, recent enough -------------------------------------------------------------------------

# What the server says when it is going away, or cannot be connected to now: the connection exceptions (08…), an
# administrator's shutdown or a crash (57P01, 57P02), a server starting or stopping (57P03), no connection slot left
# (53300). Other operational errors (a full disk, a cancelled query) come from a database that answers. A pool that
# could not lend a connection in time (``PoolTimeout``, an OperationalError without a state) is the server gone too.
_GONE = frozenset({"57P01", "57P02", "57P03", "53300"})


def unreachable(exc: BaseException) -> bool:
    """Is ``exc`` the database not being there (down, restarting, out of reach), rather than an error of a request?"""
    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = exc.sqlstate
    return state is None or state.startswith("08") or state in _GONE


def start_problem(url: str, exc: BaseException) -> str | None:
    """One line for a PostgreSQL database Referee cannot start on: unreachable, refused, or too old."""
    if isinstance(exc, TooNew):
        return str(exc)
    said = hide(str(exc), url).strip()
    first = said.splitlines()[0] if said else type(exc).__name__
    if isinstance(exc, psycopg.OperationalError):
        return f"Referee cannot reach the PostgreSQL database {shown(url)}: {first}"
    if isinstance(exc, psycopg.Error):
        return f"Referee cannot use the PostgreSQL database {shown(url)}: {first}"
    return None


def check_server(url: str) -> None:
    """Before the start: the server answers and is recent enough; raises with one line otherwise."""
    with _connect(url) as conn:
        version = conn.info.server_version
    if version < MIN_SERVER:
        raise psycopg.NotSupportedError(
            f"its server is PostgreSQL {version // 10000}, and Referee needs {MIN_SERVER // 10000} or newer")


# ---- the change feed ----------------------------------------------------------------------------------------------

class Versions:
    """The latest version of each match this process has heard of, from every process's writes (``Listener``): a
    live page's poll asks it instead of the database. A match it has not heard of is read once (``seen``); what it
    holds is forgotten whenever the listening connection was lost, since a change may have gone unheard. What it holds
    is kept by space: a store of one space is never told of another's match (its id answers as unknown)."""

    def __init__(self, feed: Feed | None = None) -> None:
        self.feed = feed or Feed()  # pulsed for each note heard (``feed``: the live pages' held requests wake)
        self._known: dict[tuple[int, int], int] = {}  # (space, match id) → version
        self._events: dict[tuple[int, int], int] = {}  # (space, event id) → how many changes of it were heard
        self._epoch = 0  # one more each time what was heard is forgotten
        self._guard = threading.Lock()
        self.listening = False
        self.listener: Listener | None = None

    def event_heard(self, space: int, event_id: int) -> None:
        with self._guard:
            self._events[space, event_id] = self._events.get((space, event_id), 0) + 1

    def event_generation(self, space: int, event_id: int) -> tuple[int, int] | None:
        if not self.listening:
            return None
        with self._guard:
            return (self._epoch, self._events.get((space, event_id), 0))

    def heard(self, space: int, match_id: int, version: int) -> None:
        with self._guard:
            self._known[space, match_id] = max(version, self._known.get((space, match_id), 0))

    def get(self, space: int, match_id: int) -> int | None:
        if not self.listening:
            return None
        with self._guard:
            return self._known.get((space, match_id))

    def seen(self, space: int, match_id: int, version: int) -> None:
        """A version read from the database: kept unless a newer one was heard meanwhile."""
        if self.listening:
            self.heard(space, match_id, version)

    def forget(self) -> None:
        with self._guard:
            self._known.clear()
            self._events.clear()
            self._epoch += 1
        self.feed.hears = False  # until the listener listens again: nothing is held meanwhile
        self.feed.pulse()  # whoever waits looks again


class Listener:
    """One thread per process on a connection that LISTENs: each NOTIFY goes into ``versions`` — "<match id>
    <version> <space>", or "e<event id> <space>" for a change an event's board shows, sent by the triggers when a
    change commits, in any process. It connects again after the connection is lost (a restarted server), every two
    seconds, and forgets what it knew until then."""

    def __init__(self, url: str, versions: Versions) -> None:
        self.url, self.versions = url, versions
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="referee-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with _connect(self.url) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.versions.forget()
                    self.versions.listening = True
                    self.versions.feed.hears = True
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            if self._stop.is_set():
                                break
                            self._heard(note.payload)
            except psycopg.errors.InvalidCatalogName:  # the database was dropped: nothing to listen to any more
                self._stop.set()
            except psycopg.Error:
                pass
            self.versions.listening = False
            self.versions.forget()
            self._stop.wait(2)

    def _heard(self, payload: str) -> None:
        """"<match id> <version> <space>", or "e<event id> <space>"."""
        said = payload.split(" ")
        if len(said) == 3 and all(part.isdigit() for part in said):
            self.versions.heard(int(said[2]), int(said[0]), int(said[1]))
        elif len(said) == 2 and said[0].startswith("e") and said[0][1:].isdigit() and said[1].isdigit():
            self.versions.event_heard(int(said[1]), int(said[0][1:]))
        else:
            return
        self.versions.feed.pulse()  # the live pages' held requests look again (``feed``)

    def stop(self) -> None:
        """Stop listening, and let the connection go before returning: while connected, the thread is woken by a
        note of its own on the channel (the others' listeners ignore it) rather than at its next second."""
        self._stop.set()
        if self.versions.listening:
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=2) as conn:
                    conn.execute(f"NOTIFY {CHANNEL}, 'stop'")
            except psycopg.Error:
                pass
        if self.thread is not threading.current_thread():
            self.thread.join(timeout=2)


_listening: dict[str, Versions] = {}
_listening_guard = threading.Lock()


def versions_for(url: str) -> Versions:
    """This process's ``Versions`` of a database, listened for from the first call on."""
    with _listening_guard:
        versions = _listening.get(url)
        if versions is None:
            versions = _listening[url] = Versions(feed_for(url))
            versions.listener = Listener(url, versions)
        return versions


def stop_listening(url: str) -> None:
    """Stop listening to a database this process is done with (a test's, about to be dropped); its pool closed."""
    with _listening_guard:
        versions = _listening.pop(url, None)
    if versions is not None and versions.listener is not None:
        versions.listener.stop()
    close_pool(url)




def _satisfies_the_protocol(db: PostgresStore) -> Store:
    """(For mypy: a PostgresStore is a ``Store``; never called.)"""
    return db
