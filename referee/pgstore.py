"""PostgreSQL behind the same store (``REFEREE_DATABASE=postgresql://…``): a hosted Referee, several app processes on
one database.

Referee's SQL is written once, in SQLite's dialect, for the embedded default. ``PgDatabase`` takes the part of
sqlite-utils' ``Database`` the store uses — ``execute``, ``query``, ``conn``, ``table(name).insert/update`` — over a
psycopg 3 connection, and says each statement in PostgreSQL's dialect where the two differ (``translate``):
placeholders, ``INSERT OR IGNORE``, ``COLLATE NOCASE`` (an ICU collation of the same name that ignores case),
``last_insert_rowid()`` and the id of a new row (``RETURNING id``). The migrations are the same
list as SQLite's, said the same way (``pg_migrations``), with the schema version in a table of its own.

The write path keeps its guarantees: ``BEGIN IMMEDIATE`` — a read-then-write safe from every other writer — is a
transaction that first takes one advisory lock (``pg_advisory_xact_lock``), so writers queue across every process as
they do on the SQLite file; the guarded update of a match's version, the idempotency keys and their body hash are the
same statements. The lock goes with the transaction, so a process killed mid-write (SIGKILL) leaves nothing held:
PostgreSQL rolls its transaction back when the connection drops.

Every change of a match's version is announced by a trigger (``NOTIFY referee, '<match id> <version>'``, delivered when
its transaction commits); each process listens (``Listener``) and answers the live pages' polls from what it heard
(``Versions``), without asking the database, however many phones and screens it serves.
"""

from __future__ import annotations

import functools
import re
import select
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote

SCHEMES = ("postgresql://", "postgres://")
CHANNEL = "referee"  # NOTIFY's channel: the payload is the id of the match that changed
WRITE_LOCK_KEY = 0x52454645  # "REFE": the advisory lock every writer takes first (BEGIN IMMEDIATE)
MIN_SERVER = 130000  # PostgreSQL 13: nondeterministic ICU collations in keys, DROP DATABASE … WITH (FORCE)

# Tables whose rows have an ``id`` made by the database (the new row's id is read back with RETURNING).
ID_TABLES = frozenset({"matches", "deals", "deal_revisions", "match_events", "events"})
CHECK_AFTER = 30.0  # seconds a pooled connection may have been idle before it is asked a query too (``usable``)


def is_postgres(database: str | Any) -> bool:
    return isinstance(database, str) and database.startswith(SCHEMES)


def shown(url: str) -> str:
    """A database URL fit for a log line or an error: its password left out (``user:***@``, ``password=***``).

    Whatever is between the user's name and the last ``@`` before the query is taken for the password, so that one
    written with a ``/`` or an ``@`` in it (which libpq reads otherwise) is not shown either: showing less of an odd
    URL is safe, showing part of a password is not."""
    remember(url)
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    body, mark, query = rest.partition("?")
    at = body.rfind("@")
    if at >= 0:
        user, colon, _password = body[:at].partition(":")
        if colon:
            body = f"{user}:***{body[at:]}"
    return scheme + sep + body + mark + _QUERY_PASSWORD.sub(r"\1***", query)


_QUERY_PASSWORD = re.compile(r"((?:^|&)password=)[^&]*", re.I)
_secrets: tuple[str, ...] = ()  # the passwords of the database URLs this process was given, longest first (``redact``)
_secrets_guard = threading.Lock()


def passwords(url: str) -> set[str]:
    """The password of a database URL, as written and as libpq reads it (%-escapes decoded), in its user part or its
    query (``?password=``)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return set()
    body, _mark, query = rest.partition("?")
    found = []
    at = body.rfind("@")
    if at >= 0 and ":" in body[:at]:
        found.append(body[:at].partition(":")[2])
    found += [m.group(0).partition("=")[2] for m in _QUERY_PASSWORD.finditer(query)]
    return {text for raw in found for text in (raw, unquote(raw)) if text}


def remember(url: str) -> None:
    """Keep the password of ``url`` to take out of every line this process logs (``redact``)."""
    global _secrets
    found = passwords(url) if is_postgres(url) else set()
    if not found.issubset(_secrets):
        with _secrets_guard:
            _secrets = tuple(sorted(found.union(_secrets), key=len, reverse=True))


def redact(text: str) -> str:
    """``text`` (a log line, an error, a traceback) with every database password this process knows as ``***``."""
    for secret in _secrets:  # one tuple, replaced whole when a password is added: safe to read from any thread
        if secret in text:
            text = text.replace(secret, "***")
    return text


def hide(text: str, url: str) -> str:
    """``text`` said about ``url`` (libpq's own messages quote parts of it) without its password."""
    remember(url)
    text = text.replace(url, shown(url))
    for secret in sorted(passwords(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def _connect(url: str) -> Any:
    """A psycopg connection in autocommit; an error whose text quotes the password (libpq's message about a bad
    %-escape, say) is raised again, of the same kind, without it."""
    import psycopg

    remember(url)
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        said = hide(str(exc), url)
        if said == str(exc):
            raise
        raise type(exc)(said) from None


# What the server says when it is going away, or cannot be connected to now: the connection exceptions (08…), an
# administrator's shutdown or a crash (57P01, 57P02), a server starting or stopping (57P03), no connection slot left
# (53300). Other operational errors (a full disk, a cancelled query) come from a database that answers.
_GONE = frozenset({"57P01", "57P02", "57P03", "53300"})


def unreachable(exc: BaseException) -> bool:
    """Is ``exc`` the database not being there (down, restarting, out of reach), rather than an error of a request?"""
    import psycopg

    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = exc.sqlstate
    return state is None or state.startswith("08") or state in _GONE


# ---- SQLite's dialect said in PostgreSQL's ------------------------------------------------------------------------

_INSERT_INTO = re.compile(r"^\s*INSERT\s+(OR\s+IGNORE\s+)?INTO\s+(\w+)", re.I)


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> tuple[str, bool]:
    """``sql`` (SQLite's dialect, ``?`` placeholders) in PostgreSQL's, and whether it returns the new row's id."""
    text = sql.replace("%", "%%")
    text = text.replace("COLLATE NOCASE", 'COLLATE "nocase"')
    text = text.replace("last_insert_rowid()", "lastval()")
    found = _INSERT_INTO.match(text)
    returns_id = False
    if found:
        if found.group(1):
            text = _INSERT_INTO.sub(f"INSERT INTO {found.group(2)}", text, count=1) + " ON CONFLICT DO NOTHING"
        if found.group(2).lower() in ID_TABLES and "RETURNING" not in text.upper():
            text += " RETURNING id"
            returns_id = True
    return text.replace("?", "%s"), returns_id


# ---- the connection -------------------------------------------------------------------------------------------------

def _readable(fd: int) -> bool:
    """Has the server sent anything on an idle connection's socket (its goodbye, or the end of it)?"""
    poll = getattr(select, "poll", None)
    if poll is None:  # Windows has no poll: select, for this one socket
        return bool(select.select([fd], [], [], 0)[0])
    waiting = poll()
    waiting.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(waiting.poll(0))


class Cursor:
    """What the store reads of a cursor: rows (``fetchone``, ``fetchall``, iteration), ``description``, ``rowcount``,
    and ``lastrowid`` after an INSERT into a table with ids."""

    def __init__(self, cursor: Any, returns_id: bool) -> None:
        self._cursor = cursor
        self.lastrowid: int | None = None
        self.rowcount = cursor.rowcount
        self.description = cursor.description
        self._rows: list[tuple[Any, ...]] | None = None
        if returns_id:
            row = cursor.fetchone()
            self.lastrowid = int(row[0]) if row else None
            self._rows = []

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._rows is not None:
            return self._rows.pop(0) if self._rows else None
        return self._cursor.fetchone() if self._cursor.description else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        if self._rows is not None:
            rows, self._rows = self._rows, []
            return rows
        return self._cursor.fetchall() if self._cursor.description else []

    def fetchmany(self, size: int = 1) -> list[tuple[Any, ...]]:
        if self._rows is not None:
            rows, self._rows = self._rows[:size], self._rows[size:]
            return rows
        return self._cursor.fetchmany(size) if self._cursor.description else []

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.fetchall())


class _Table:
    """``db.table(name)``'s insert, insert_all and update, as the store uses them."""

    def __init__(self, db: PgDatabase, name: str) -> None:
        self.db, self.name = db, name
        self.last_pk: int | None = None

    def insert(self, values: dict[str, Any]) -> _Table:
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cursor = self.db.execute(f"INSERT INTO {self.name} ({columns}) VALUES ({marks})", list(values.values()))
        self.last_pk = cursor.lastrowid
        return self

    def insert_all(self, rows: Sequence[dict[str, Any]]) -> _Table:
        for row in rows:
            self.insert(row)
        return self

    def update(self, pk: Any, values: dict[str, Any]) -> _Table:
        columns = ", ".join(f"{name} = ?" for name in values)
        self.db.execute(f"UPDATE {self.name} SET {columns} WHERE id = ?", [*values.values(), pk])
        return self


class PgDatabase:
    """The store's database on PostgreSQL: one psycopg connection in autocommit, so that a statement outside
    ``BEGIN … COMMIT`` is its own transaction, as sqlite-utils' writes are."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self._psycopg = psycopg
        self._conn = _connect(url)
        self.conn = self  # the store calls ``db.conn.execute``, ``db.conn.rollback`` … on sqlite3's connection
        self.idle_since = time.monotonic()  # when a request gave it back last (``usable``)

    # the store's calls
    def execute(self, sql: str, params: Sequence[Any] | None = None) -> Cursor:
        if sql.strip().upper() == "BEGIN IMMEDIATE":  # every writer of every process, one at a time
            self._conn.execute("BEGIN")
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK_KEY])
            return Cursor(self._conn.cursor(), False)
        text, returns_id = translate(sql)
        cursor = self._conn.cursor()
        cursor.execute(text, list(params) if params is not None else None)  # prepared after 5 uses
        return Cursor(cursor, returns_id)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        text, _returns_id = translate(sql)
        with self._conn.cursor() as cursor:
            cursor.executemany(text, [list(r) for r in rows])

    def query(self, sql: str, params: Sequence[Any] | None = None) -> Iterator[dict[str, Any]]:
        cursor = self.execute(sql, params)
        names = [d[0] for d in cursor.description or ()]
        for row in cursor.fetchall():
            yield dict(zip(names, row, strict=True))

    def table(self, name: str) -> _Table:
        return _Table(self, name)

    # sqlite3.Connection's, as the store uses them
    @property
    def in_transaction(self) -> bool:
        return self._conn.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE

    def commit(self) -> None:
        if self.in_transaction:
            self._conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.in_transaction:
            self._conn.execute("ROLLBACK")

    def close(self) -> None:
        self._conn.close()

    @property
    def closed(self) -> bool:
        return bool(self._conn.closed)

    @property
    def broken(self) -> bool:
        """The connection was lost (the server restarted or went away): it cannot be used again."""
        return bool(self._conn.broken or self._conn.closed)

    def usable(self) -> bool:
        """Before it is lent to a request (``web.db.get_db``), as psycopg_pool's ``check`` does: is this idle
        connection still one? A server that stopped or restarted meanwhile closed it, or said it was closing it
        (``57P01``), and either makes its socket readable: one ``poll``, no round trip. A connection idle longer than
        ``CHECK_AFTER`` seconds is also asked an empty query, for a peer that went away without a word (a dropped
        network path answers that query with an error, not the request)."""
        if self.broken or self.in_transaction:
            return False
        try:
            if _readable(self._conn.pgconn.socket):
                return False
            if time.monotonic() - self.idle_since > CHECK_AFTER:
                self._conn.execute("")
        except (self._psycopg.Error, OSError, ValueError):
            return False
        return not self.broken

    @contextmanager
    def ensure_autocommit_on(self) -> Iterator[None]:
        yield

    def __enter__(self) -> PgDatabase:
        """``with db.conn:`` as sqlite3's: what follows is one transaction, committed at the end (rolled back on an
        error)."""
        if not self.in_transaction:
            self._conn.execute("BEGIN")
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.rollback()



# ---- the schema ---------------------------------------------------------------------------------------------------

PG_PREAMBLE = (
    "CREATE TABLE IF NOT EXISTS referee_schema (version INTEGER NOT NULL)",
    "CREATE COLLATION IF NOT EXISTS \"nocase\" (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
)

# After the migrations: every change of a match's version is announced to the processes listening (``Listener``),
# as "<match id> <version>", when its transaction commits.
PG_NOTIFY = (
    "CREATE OR REPLACE FUNCTION referee_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"PERFORM pg_notify('{CHANNEL}', NEW.id || ' ' || NEW.version); "
    f"PERFORM pg_notify('{CHANNEL}', 'e' || t.event_id) FROM event_tables t WHERE t.match_id = NEW.id; "
    "RETURN NULL; END $$",
    "DROP TRIGGER IF EXISTS referee_match_changed ON matches",
    "CREATE TRIGGER referee_match_changed AFTER INSERT OR UPDATE OF version ON matches FOR EACH ROW "
    "EXECUTE FUNCTION referee_notify()",
    # an event's board: its tables (ended, taken up again), their links (revoked, renewed), players (joining, leaving,
    # coming back), rounds (drawn, seats changed), and the event itself (edited)
    "CREATE OR REPLACE FUNCTION referee_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"PERFORM pg_notify('{CHANNEL}', 'e' || COALESCE(NEW.event_id, OLD.event_id)); RETURN NULL; END $$",
    *(statement for table in ("event_tables", "event_players", "event_rounds", "event_links") for statement in (
        f"DROP TRIGGER IF EXISTS referee_{table}_changed ON {table}",
        f"CREATE TRIGGER referee_{table}_changed AFTER INSERT OR UPDATE OR DELETE ON {table} FOR EACH ROW "
        "EXECUTE FUNCTION referee_notify_event()")),
    "CREATE OR REPLACE FUNCTION referee_notify_event_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"PERFORM pg_notify('{CHANNEL}', 'e' || COALESCE(NEW.id, OLD.id)); RETURN NULL; END $$",
    "DROP TRIGGER IF EXISTS referee_events_changed ON events",
    "CREATE TRIGGER referee_events_changed AFTER UPDATE OR DELETE ON events FOR EACH ROW "
    "EXECUTE FUNCTION referee_notify_event_row()",
    # and the confirmations of its tables
    "CREATE OR REPLACE FUNCTION referee_notify_confirmed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"PERFORM pg_notify('{CHANNEL}', 'e' || t.event_id) FROM event_tables t WHERE t.match_id = NEW.match_id; "
    "RETURN NULL; END $$",
    "DROP TRIGGER IF EXISTS referee_confirmations_changed ON confirmations",
    "CREATE TRIGGER referee_confirmations_changed AFTER INSERT ON confirmations FOR EACH ROW "
    "EXECUTE FUNCTION referee_notify_confirmed()",
)
NOTIFY_TRIGGERS = ("referee_match_changed", "referee_event_tables_changed", "referee_event_players_changed",
                   "referee_event_rounds_changed", "referee_event_links_changed", "referee_events_changed",
                   "referee_confirmations_changed")


def pg_migration(script: str) -> list[str]:
    """One of ``store.MIGRATIONS`` (SQLite's dialect) as PostgreSQL statements: ids made by the database, JSON
    functions on the text the options are kept in, and the rest through ``translate``."""
    statements = []
    for statement in (s.strip() for s in script.split(";")):
        if not statement:
            continue
        statement = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                           statement)
        statement = statement.replace("lower(hex(randomblob(16)))", "md5(random()::text || clock_timestamp()::text)")
        statement = statement.replace(
            "json_set(options, '$.three_aces_partner', 'first-other')",
            "(options::jsonb || '{\"three_aces_partner\": \"first-other\"}'::jsonb)::text").replace(
            "json_extract(options, '$.three_aces_partner')", "(options::jsonb ->> 'three_aces_partner')")
        statements.append(translate(statement)[0].replace("%%", "%"))
    return statements


def schema_version(db: PgDatabase) -> int:
    row = db.execute("SELECT version FROM referee_schema").fetchone()
    return int(row[0]) if row else 0


def migrate(db: PgDatabase, migrations: Sequence[str]) -> int:
    """Apply the migrations not applied yet, in one transaction holding the write lock (two processes starting at
    once apply them once)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in PG_PREAMBLE:
            db._conn.execute(statement)
        version = schema_version(db)
        if version > len(migrations):
            raise TooNew(version, len(migrations))
        for number, script in enumerate(migrations[version:], start=version + 1):
            for statement in pg_migration(script):
                db._conn.execute(statement)
            db._conn.execute("DELETE FROM referee_schema")
            db._conn.execute("INSERT INTO referee_schema (version) VALUES (%s)", [number])
        if version < len(migrations) or not _has_trigger(db):
            for statement in PG_NOTIFY:
                db._conn.execute(statement)
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return schema_version(db)


def _has_trigger(db: PgDatabase) -> bool:
    """Whether every trigger of ``PG_NOTIFY`` is there (a database made by an earlier Referee gets the new ones)."""
    row = db._conn.execute("SELECT COUNT(*) FROM pg_trigger WHERE tgname = ANY(%s)", [list(NOTIFY_TRIGGERS)]).fetchone()
    return row is not None and int(row[0]) == len(NOTIFY_TRIGGERS)


class TooNew(RuntimeError):
    def __init__(self, version: int, known: int) -> None:
        super().__init__(f"This database has schema version {version}, newer than this Referee knows ({known}): "
                         "use a newer Referee, or a backup made by this one.")


def connect(url: str, migrations: Sequence[str], migrate_schema: bool = True) -> PgDatabase:
    db = PgDatabase(url)
    if migrate_schema:
        migrate(db, migrations)
    return db


def start_problem(url: str, exc: BaseException) -> str | None:
    """One line for a PostgreSQL database Referee cannot start on: unreachable, refused, or too old."""
    import psycopg

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
    import psycopg

    with _connect(url) as conn:
        version = conn.info.server_version
    if version < MIN_SERVER:
        raise psycopg.NotSupportedError(
            f"its server is PostgreSQL {version // 10000}, and Referee needs {MIN_SERVER // 10000} or newer")


# ---- live updates across processes ----------------------------------------------------------------------------------

class Versions:
    """The latest version of each match this process has heard of, from every process's writes (``Listener``): a
    live page's poll asks it instead of the database. A match it has not heard of is read once (``seen``); what it
    holds is forgotten whenever the listening connection was lost, since a change may have gone unheard."""

    def __init__(self) -> None:
        self._known: dict[int, int] = {}
        self._events: dict[int, int] = {}  # event id → how many changes of it were heard
        self._epoch = 0  # one more each time what was heard is forgotten
        self._guard = threading.Lock()
        self.listening = False
        self.listener: Listener | None = None

    def event_heard(self, event_id: int) -> None:
        with self._guard:
            self._events[event_id] = self._events.get(event_id, 0) + 1

    def event_generation(self, event_id: int) -> tuple[int, int] | None:
        """What this process has heard of an event's changes so far (None while not listening): an event's board
        read from the database under one generation is current until the generation moves."""
        if not self.listening:
            return None
        with self._guard:
            return (self._epoch, self._events.get(event_id, 0))

    def heard(self, match_id: int, version: int) -> None:
        with self._guard:
            self._known[match_id] = max(version, self._known.get(match_id, 0))

    def get(self, match_id: int) -> int | None:
        if not self.listening:
            return None
        with self._guard:
            return self._known.get(match_id)

    def seen(self, match_id: int, version: int) -> None:
        """A version read from the database: kept unless a newer one was heard meanwhile."""
        if self.listening:
            self.heard(match_id, version)

    def forget(self) -> None:
        with self._guard:
            self._known.clear()
            self._events.clear()
            self._epoch += 1


class Listener:
    """One thread per process on a connection that LISTENs: each NOTIFY goes into ``versions`` — "<match id>
    <version>", or "e<event id>" for a change an event's board shows, sent by the triggers when a change commits, in
    any process. It connects again after the connection is lost (a restarted server), every two seconds, and forgets
    what it knew until then."""

    def __init__(self, url: str, versions: Versions) -> None:
        self.url, self.versions = url, versions
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="referee-listen", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with _connect(self.url) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.versions.forget()
                    self.versions.listening = True
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            match_id, _space, version = note.payload.partition(" ")
                            if match_id.isdigit() and version.isdigit():
                                self.versions.heard(int(match_id), int(version))
                            elif match_id.startswith("e") and match_id[1:].isdigit():
                                self.versions.event_heard(int(match_id[1:]))
            except psycopg.errors.InvalidCatalogName:  # the database was dropped: nothing to listen to any more
                self._stop.set()
            except psycopg.Error:
                pass
            self.versions.listening = False
            self.versions.forget()
            self._stop.wait(2)

    def stop(self) -> None:
        self._stop.set()


_listening: dict[str, Versions] = {}
_listening_guard = threading.Lock()


def versions_for(url: str) -> Versions:
    """This process's ``Versions`` of a database, listened for from the first call on."""
    with _listening_guard:
        versions = _listening.get(url)
        if versions is None:
            versions = _listening[url] = Versions()
            versions.listener = Listener(url, versions)
        return versions


def stop_listening(url: str) -> None:
    """Stop listening to a database this process is done with (a test's, about to be dropped)."""
    with _listening_guard:
        versions = _listening.pop(url, None)
    if versions is not None and versions.listener is not None:
        versions.listener.stop()
